package clone_test

import (
	"fmt"
	"testing"

	"bext/web/fetch"
	"bext/web/internal/webtest"
)

func bench(b *testing.B, setup, body string) {
	w := webtest.New(b, "", fetch.Options{})
	w.Must(setup + "\nreturn \"\";")
	b.ReportAllocs()
	b.ResetTimer()
	w.Must(fmt.Sprintf("for (let i = 0; i < %d; i++) { %s }\nreturn \"\";", b.N, body))
}

// A tree of 1,000 objects (1 + 9 + 90 + 900), each with a number, a
// string, a small array and its children.
func BenchmarkStructuredClone1000Nodes(b *testing.B) {
	bench(b, `
const mk = (d, id) => ({ id, name: "node" + id, tags: ["a", "b"], children: d === 0 ? [] : Array.from({ length: d === 3 ? 9 : 10 }, (_, i) => mk(d - 1, id * 10 + i)) });
globalThis.tree = mk(3, 1);
let count = 0; (function walk(n) { count++; n.children.forEach(walk); })(tree);
if (count !== 1000) throw new Error("tree has " + count + " nodes");`, `structuredClone(tree);`)
}
