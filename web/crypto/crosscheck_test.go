package crypto_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"

	"bext/web/fetch"
	"bext/web/internal/webtest"
)

// TestNodeCrossCheck checks bext against Node 20's Web Crypto on keys and
// outputs Node makes (testdata/crosscheck.js): every export format
// imports and re-exports byte for byte, Node's signatures verify and its
// ciphertexts decrypt in bext, deterministic outputs (HMAC, AES, Ed25519,
// RSASSA-PKCS1-v1_5, PSS without salt, ECDH) are identical, and Node accepts
// bext's signatures, ciphertexts and secrets.
func TestNodeCrossCheck(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the cross-check needs Node 20")
	}
	src, err := os.ReadFile(filepath.Join("testdata", "crosscheck.js"))
	if err != nil {
		t.Fatal(err)
	}
	runNode := func(call string) []byte {
		f := filepath.Join(t.TempDir(), "x.js")
		js := string(src) + "\n" + call + ".then((r) => { console.log(JSON.stringify(r)); process.exit(0); }, (e) => { console.error(e); process.exit(1); });\n"
		if err := os.WriteFile(f, []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(node, f).Output()
		if err != nil {
			t.Fatalf("node: %v", err)
		}
		return out
	}
	made := runNode("nodeMake()")

	w := webtest.New(t, string(src)+"\nglobalThis.bextCheck = bextCheck;", fetch.Options{})
	out := w.Must("return await bextCheck(" + string(made) + ");")
	var bext struct {
		Results map[string]string `json:"results"`
		Outs    map[string]string `json:"outs"`
	}
	if err := json.Unmarshal([]byte(out), &bext); err != nil {
		t.Fatalf("bext result %q: %v", out, err)
	}
	outs, _ := json.Marshal(bext)
	var back map[string]string
	if err := json.Unmarshal(runNode("nodeCheck("+string(made)+", "+string(outs)+")"), &back); err != nil {
		t.Fatal(err)
	}
	for k, v := range back {
		bext.Results[k] = v
	}
	names := make([]string, 0, len(bext.Results))
	for k := range bext.Results {
		names = append(names, k)
	}
	sort.Strings(names)
	pass := 0
	for _, k := range names {
		if v := bext.Results[k]; v != "PASS" {
			t.Errorf("%s: %s", k, v)
		} else {
			pass++
		}
	}
	t.Logf("cross-check with Node: %d/%d pass", pass, len(names))
}
