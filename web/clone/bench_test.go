package clone_test

import (
	"testing"

	"bext/web/internal/webtest"
)

// A tree of 1,000 objects (1 + 9 + 90 + 900), each with a number, a
// string, a small array and its children.
func BenchmarkStructuredClone1000Nodes(b *testing.B) {
	webtest.Bench(b, `
const mk = (d, id) => ({ id, name: "node" + id, tags: ["a", "b"], children: d === 0 ? [] : Array.from({ length: d === 3 ? 9 : 10 }, (_, i) => mk(d - 1, id * 10 + i)) });
globalThis.tree = mk(3, 1);
let count = 0; (function walk(n) { count++; n.children.forEach(walk); })(tree);
if (count !== 1000) throw new Error("tree has " + count + " nodes");`, `structuredClone(tree);`)
}
