package crypto_test

import (
	"fmt"
	"testing"

	"bext/web/crypto"
	"bext/web/internal/webtest"
)

// bench runs setup once, then body b.N times inside one render, so the
// figure is the cost of body alone (an await included where body awaits).
func BenchmarkGetRandomValues16(b *testing.B) {
	webtest.Bench(b, `globalThis.a = new Uint8Array(16);`, `crypto.getRandomValues(a);`)
}

func BenchmarkRandomUUID(b *testing.B) {
	webtest.Bench(b, ``, `crypto.randomUUID();`)
}

func BenchmarkDigestSHA256_1K(b *testing.B) {
	webtest.Bench(b, `globalThis.d = new Uint8Array(1024).fill(1);`, `await crypto.subtle.digest("SHA-256", d);`)
}

func BenchmarkHMACSign1K(b *testing.B) {
	webtest.Bench(b, `globalThis.d = new Uint8Array(1024).fill(1);
globalThis.k = await crypto.subtle.importKey("raw", new Uint8Array(32), {name: "HMAC", hash: "SHA-256"}, false, ["sign"]);`,
		`await crypto.subtle.sign("HMAC", k, d);`)
}

func BenchmarkHMACVerify1K(b *testing.B) {
	webtest.Bench(b, `globalThis.d = new Uint8Array(1024).fill(1);
globalThis.k = await crypto.subtle.importKey("raw", new Uint8Array(32), {name: "HMAC", hash: "SHA-256"}, false, ["sign", "verify"]);
globalThis.sig = await crypto.subtle.sign("HMAC", k, d);`,
		`await crypto.subtle.verify("HMAC", k, sig, d);`)
}

func BenchmarkHMACImportKey(b *testing.B) {
	webtest.Bench(b, `globalThis.raw = new Uint8Array(32);`,
		`await crypto.subtle.importKey("raw", raw, {name: "HMAC", hash: "SHA-256"}, false, ["sign"]);`)
}

func BenchmarkAESGCMEncrypt1K(b *testing.B) {
	webtest.Bench(b, `globalThis.d = new Uint8Array(1024).fill(1); globalThis.iv = new Uint8Array(12);
globalThis.k = await crypto.subtle.importKey("raw", new Uint8Array(32), "AES-GCM", false, ["encrypt"]);`,
		`await crypto.subtle.encrypt({name: "AES-GCM", iv}, k, d);`)
}

func BenchmarkECDSAP256Sign(b *testing.B) {
	webtest.Bench(b, `globalThis.d = new Uint8Array(64);
globalThis.k = (await crypto.subtle.generateKey({name: "ECDSA", namedCurve: "P-256"}, false, ["sign"])).privateKey;`,
		`await crypto.subtle.sign({name: "ECDSA", hash: "SHA-256"}, k, d);`)
}

func BenchmarkEd25519Verify(b *testing.B) {
	webtest.Bench(b, `globalThis.d = new Uint8Array(64);
const kp = await crypto.subtle.generateKey("Ed25519", false, ["sign", "verify"]);
globalThis.k = kp.publicKey; globalThis.sig = await crypto.subtle.sign("Ed25519", kp.privateKey, d);`,
		`await crypto.subtle.verify("Ed25519", k, sig, d);`)
}

// The figures behind the threshold from which a digest leaves the JS
// goroutine: each size in line and on a goroutine.
func BenchmarkDigestSHA256Path(b *testing.B) {
	for _, n := range []int{1 << 10, 16 << 10, 64 << 10, 256 << 10} {
		for _, async := range []bool{false, true} {
			b.Run(fmt.Sprintf("%dK/async=%v", n>>10, async), func(b *testing.B) {
				min := 1 << 30
				if async {
					min = 0
				}
				defer crypto.SetAsyncMin(min)()
				b.SetBytes(int64(n))
				webtest.Bench(b, fmt.Sprintf(`globalThis.d = new Uint8Array(%d).fill(1);`, n), `await crypto.subtle.digest("SHA-256", d);`)
			})
		}
	}
}
