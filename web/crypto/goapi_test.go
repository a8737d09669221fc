package crypto_test

import (
	"strings"
	"testing"

	"bext/web/fetch"
	"bext/web/internal/webtest"
)

func fetchOptions() fetch.Options { return fetch.Options{} }

// Keys keep their Go material out of reach of JS: no own property, no
// symbol, nothing a structured walk of the object finds.
func TestKeyMaterialUnreachable(t *testing.T) {
	out := webtest.Run(t, `
const k = await crypto.subtle.importKey("raw", new TextEncoder().encode("top secret key!!"), {name: "HMAC", hash: "SHA-256"}, false, ["sign"]);
const seen = [];
const walk = (o, depth) => {
  if (o === null || (typeof o !== "object" && typeof o !== "function") || depth > 3) return;
  for (const key of Reflect.ownKeys(o)) {
    seen.push(String(key));
    const d = Object.getOwnPropertyDescriptor(o, key);
    if (d && "value" in d) { seen.push(String(d.value)); walk(d.value, depth + 1); }
  }
};
walk(k, 0);
return JSON.stringify({ own: Reflect.ownKeys(k).length, json: JSON.stringify(k), seen: seen.join("|") });
`)
	if strings.Contains(out, "top secret") || strings.Contains(out, "746f7020") {
		t.Fatalf("key material reachable: %s", out)
	}
	if !strings.Contains(out, `"json":"{}"`) {
		t.Fatalf("JSON of a key should be {}: %s", out)
	}
}

// Operations that leave the JS goroutine (RSA keygen, big digests, PBKDF2)
// finish inside the render that started them, many at once.
func TestAsyncOperationsInOneRender(t *testing.T) {
	out := webtest.Run(t, `
const big = new Uint8Array(3 << 20).fill(3);
const k = await crypto.subtle.importKey("raw", new Uint8Array(8), "PBKDF2", false, ["deriveBits"]);
const jobs = [];
for (let i = 0; i < 8; i++) {
  jobs.push(crypto.subtle.digest("SHA-512", big));
  jobs.push(crypto.subtle.deriveBits({name: "PBKDF2", hash: "SHA-256", salt: new Uint8Array(4), iterations: 5000 + i}, k, 256));
}
jobs.push(crypto.subtle.generateKey({name: "RSA-OAEP", modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256"}, false, ["encrypt", "decrypt"]));
const res = await Promise.all(jobs);
const hex = (b) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, "0")).join("");
const digests = new Set(res.filter((_, i) => i < 16 && i % 2 === 0).map(hex));
const derived = new Set(res.filter((_, i) => i < 16 && i % 2 === 1).map(hex));
return [digests.size, derived.size, res[16].privateKey.type].join();
`)
	if out != "1,8,private" {
		t.Fatalf("got %s, want 1,8,private", out)
	}
}

// A key made in one render is a global's value in the next (keys live in
// the realm, like any JS object).
func TestKeyOutlivesRender(t *testing.T) {
	w := webtest.New(t, "", fetchOptions())
	w.Must(`globalThis.k = await crypto.subtle.generateKey({name: "HMAC", hash: "SHA-256"}, false, ["sign", "verify"]); return "";`)
	out := w.Must(`const d = new Uint8Array(5); return String(await crypto.subtle.verify("HMAC", k, await crypto.subtle.sign("HMAC", k, d), d));`)
	if out != "true" {
		t.Fatalf("got %s", out)
	}
}
