package crypto_test

import (
	"testing"

	"bext/web/internal/webtest"
)

func TestSmoke(t *testing.T) {
	out := webtest.Run(t, `
const s = crypto.subtle;
const hex = (b) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, "0")).join("");
const res = [];
res.push(hex(await s.digest("SHA-256", new TextEncoder().encode("abc"))));
const k = await s.importKey("raw", new TextEncoder().encode("key"), {name: "HMAC", hash: "SHA-256"}, true, ["sign", "verify"]);
const sig = await s.sign("HMAC", k, new TextEncoder().encode("The quick brown fox jumps over the lazy dog"));
res.push(hex(sig), await s.verify("HMAC", k, sig, new TextEncoder().encode("The quick brown fox jumps over the lazy dog")));
res.push(JSON.stringify(await s.exportKey("jwk", k)), JSON.stringify(k.algorithm), k.usages.join());
res.push(crypto.randomUUID().length, crypto.getRandomValues(new Uint32Array(4)).length);
const ek = await s.generateKey({name: "ECDSA", namedCurve: "P-256"}, true, ["sign", "verify"]);
const es = await s.sign({name: "ECDSA", hash: "SHA-256"}, ek.privateKey, new Uint8Array(10));
res.push(await s.verify({name: "ECDSA", hash: "SHA-256"}, ek.publicKey, es, new Uint8Array(10)));
const rk = await s.generateKey({name: "RSA-PSS", modulusLength: 1024, publicExponent: new Uint8Array([1,0,1]), hash: "SHA-256"}, true, ["sign", "verify"]);
for (const sl of [0, 32]) {
  const rs = await s.sign({name: "RSA-PSS", saltLength: sl}, rk.privateKey, new Uint8Array(10));
  res.push(await s.verify({name: "RSA-PSS", saltLength: sl}, rk.publicKey, rs, new Uint8Array(10)));
  res.push(await s.verify({name: "RSA-PSS", saltLength: 32 - sl}, rk.publicKey, rs, new Uint8Array(10)));
}
try { await s.digest("nope", new Uint8Array(1)); } catch (e) { res.push(e.name); }
try { crypto.getRandomValues(new Float64Array(1)); } catch (e) { res.push(e.name); }
return res;
`)
	t.Log(out)
}
