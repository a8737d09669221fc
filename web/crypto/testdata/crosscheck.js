// Cross-check with Node 20's Web Crypto (crosscheck_test.go): nodeMake runs
// in Node and makes keys, exports and signatures; bextCheck runs in bext,
// imports every export, re-exports it byte for byte, checks Node's outputs
// and makes its own; nodeCheck runs in Node again and checks bext's.
const hex = (b) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, "0")).join("");
const unhex = (s) => Uint8Array.from(s.match(/../g) || [], (h) => parseInt(h, 16));
const msg = new TextEncoder().encode("bext and Node agree on every byte");
const iv = unhex("000102030405060708090a0b");
const rsaGen = { modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) };

// Each case: how to generate, import, and use the key.
const cases = [
  { id: "HMAC-SHA256", gen: { name: "HMAC", hash: "SHA-256" }, imp: { name: "HMAC", hash: "SHA-256" }, usages: ["sign", "verify"], op: "sign", params: "HMAC", det: true },
  { id: "HMAC-SHA512", gen: { name: "HMAC", hash: "SHA-512" }, imp: { name: "HMAC", hash: "SHA-512" }, usages: ["sign", "verify"], op: "sign", params: "HMAC", det: true },
  { id: "AES-GCM-256", gen: { name: "AES-GCM", length: 256 }, imp: "AES-GCM", usages: ["encrypt", "decrypt"], op: "encrypt", params: { name: "AES-GCM", iv, additionalData: msg }, det: true },
  { id: "AES-CBC-128", gen: { name: "AES-CBC", length: 128 }, imp: "AES-CBC", usages: ["encrypt", "decrypt"], op: "encrypt", params: { name: "AES-CBC", iv: new Uint8Array(16) }, det: true },
  { id: "AES-CTR-192", gen: { name: "AES-CTR", length: 192 }, imp: "AES-CTR", usages: ["encrypt", "decrypt"], op: "encrypt", params: { name: "AES-CTR", counter: new Uint8Array(16).fill(255), length: 8 }, det: true },
  { id: "ECDSA-P256", gen: { name: "ECDSA", namedCurve: "P-256" }, imp: { name: "ECDSA", namedCurve: "P-256" }, usages: ["sign", "verify"], op: "sign", params: { name: "ECDSA", hash: "SHA-256" } },
  { id: "ECDSA-P384", gen: { name: "ECDSA", namedCurve: "P-384" }, imp: { name: "ECDSA", namedCurve: "P-384" }, usages: ["sign", "verify"], op: "sign", params: { name: "ECDSA", hash: "SHA-384" } },
  { id: "ECDSA-P521", gen: { name: "ECDSA", namedCurve: "P-521" }, imp: { name: "ECDSA", namedCurve: "P-521" }, usages: ["sign", "verify"], op: "sign", params: { name: "ECDSA", hash: "SHA-512" } },
  { id: "Ed25519", gen: "Ed25519", imp: "Ed25519", usages: ["sign", "verify"], op: "sign", params: "Ed25519", det: true },
  { id: "RSASSA-2048", gen: { name: "RSASSA-PKCS1-v1_5", ...rsaGen, hash: "SHA-256" }, imp: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, usages: ["sign", "verify"], op: "sign", params: "RSASSA-PKCS1-v1_5", det: true },
  { id: "RSA-PSS-2048", gen: { name: "RSA-PSS", ...rsaGen, hash: "SHA-384" }, imp: { name: "RSA-PSS", hash: "SHA-384" }, usages: ["sign", "verify"], op: "sign", params: { name: "RSA-PSS", saltLength: 48 } },
  { id: "RSA-PSS-salt0", gen: { name: "RSA-PSS", ...rsaGen, hash: "SHA-256" }, imp: { name: "RSA-PSS", hash: "SHA-256" }, usages: ["sign", "verify"], op: "sign", params: { name: "RSA-PSS", saltLength: 0 }, det: true },
  { id: "RSA-OAEP-2048", gen: { name: "RSA-OAEP", ...rsaGen, hash: "SHA-256" }, imp: { name: "RSA-OAEP", hash: "SHA-256" }, usages: ["encrypt", "decrypt"], op: "encrypt", params: { name: "RSA-OAEP", label: msg } },
  { id: "ECDH-P256", gen: { name: "ECDH", namedCurve: "P-256" }, imp: { name: "ECDH", namedCurve: "P-256" }, usages: ["deriveBits"], op: "derive", params: "ECDH" },
  { id: "ECDH-P384", gen: { name: "ECDH", namedCurve: "P-384" }, imp: { name: "ECDH", namedCurve: "P-384" }, usages: ["deriveBits"], op: "derive", params: "ECDH" },
  { id: "X25519", gen: "X25519", imp: "X25519", usages: ["deriveBits"], op: "derive", params: "X25519" },
];
const formatsOf = (k) => k.type === "secret" ? ["raw", "jwk"] : k.type === "public" ? ["spki", "jwk"].concat(k.algorithm.name.startsWith("RSA") ? [] : ["raw"]) : ["pkcs8", "jwk"];
const s = crypto.subtle;

async function exportAll(k) {
  const out = {};
  for (const f of formatsOf(k)) {
    const v = await s.exportKey(f, k);
    out[f] = f === "jwk" ? JSON.stringify(v) : hex(v);
  }
  return out;
}

function usagesFor(c, type) {
  if (type === "secret") return c.usages;
  if (c.op === "derive") return type === "public" ? [] : c.usages;
  const priv = { sign: "sign", encrypt: "decrypt" }[c.op], pub = { sign: "verify", encrypt: "encrypt" }[c.op];
  return [type === "private" ? priv : pub];
}

async function importAll(c, exports, type) {
  const keys = {};
  for (const [f, v] of Object.entries(exports)) {
    keys[f] = await s.importKey(f, f === "jwk" ? JSON.parse(v) : unhex(v), c.imp, true, usagesFor(c, type));
  }
  return keys;
}

// use runs the case's operation with keys (secret, or private and
// public, or mine and peer's public for derive).
async function use(c, keys) {
  if (c.op === "sign") return hex(await s.sign(c.params, keys.secret || keys.private, msg));
  if (c.op === "encrypt") return hex(await s.encrypt(c.params, keys.secret || keys.public, msg));
  return hex(await s.deriveBits({ name: c.params, public: keys.peer }, keys.private, null));
}

async function check(c, keys, out) {
  if (c.op === "sign") return s.verify(c.params, keys.secret || keys.public, unhex(out), msg);
  if (c.op === "encrypt") return hex(await s.decrypt(c.params, keys.secret || keys.private, unhex(out))) === hex(msg);
  return hex(await s.deriveBits({ name: c.params, public: keys.peer }, keys.private, null)) === out;
}

async function nodeMake() {
  const out = { digests: {}, cases: {} };
  for (const h of ["SHA-1", "SHA-256", "SHA-384", "SHA-512"]) {
    out.digests[h] = [hex(await s.digest(h, msg)), hex(await s.digest(h, new Uint8Array(100000).fill(0x61)))];
  }
  for (const c of cases) {
    const g = await s.generateKey(c.gen, true, c.usages);
    const e = { exports: {} };
    if (g.type === "secret") {
      e.exports.secret = await exportAll(g);
      e.out = await use(c, { secret: g });
    } else {
      e.exports.private = await exportAll(g.privateKey);
      e.exports.public = await exportAll(g.publicKey);
      if (c.op === "derive") {
        const peer = await s.generateKey(c.gen, true, c.usages);
        e.exports.peerPrivate = await exportAll(peer.privateKey);
        e.exports.peerPublic = await exportAll(peer.publicKey);
        e.out = await use(c, { private: g.privateKey, peer: peer.publicKey });
      } else {
        e.out = await use(c, { private: g.privateKey, public: g.publicKey });
      }
    }
    out.cases[c.id] = e;
  }
  return out;
}

// bextCheck returns {results: {name: "PASS" | "FAIL: …"}, outs: {id: output}}.
async function bextCheck(node) {
  const results = {}, outs = {};
  const t = async (name, fn) => {
    try { const ok = await fn(); results[name] = ok === true ? "PASS" : "FAIL: " + ok; }
    catch (e) { results[name] = "FAIL: " + (e && e.name) + ": " + (e && e.message); }
  };
  for (const [h, [a, b]] of Object.entries(node.digests)) {
    await t("digest " + h, async () => hex(await s.digest(h, msg)) === a && hex(await s.digest(h, new Uint8Array(100000).fill(0x61))) === b || "differs");
  }
  for (const c of cases) {
    const e = node.cases[c.id];
    const keys = {};
    for (const [type, exp] of Object.entries(e.exports)) {
      const kt = type.startsWith("peer") ? type.slice(4).toLowerCase() : type;
      let imported;
      await t(c.id + " import " + type, async () => { imported = await importAll(c, exp, kt); return true; });
      if (!imported) continue;
      for (const [f, k] of Object.entries(imported)) {
        await t(c.id + " " + type + " from " + f + " exports as Node's", async () => {
          const mine = await exportAll(k);
          for (const [g, v] of Object.entries(exp)) if (mine[g] !== v) return g + ": " + mine[g] + " vs " + v;
          return true;
        });
      }
      keys[type] = imported.jwk;
    }
    const k = { secret: keys.secret, private: keys.private, public: keys.public, peer: keys.peerPublic };
    await t(c.id + " accepts Node's output", () => check(c, k, e.out));
    await t(c.id + " output", async () => {
      outs[c.id] = await use(c, k);
      if (c.det && outs[c.id] !== e.out) return "deterministic output differs: " + outs[c.id] + " vs " + e.out;
      return true;
    });
    if (c.op === "derive") {
      await t(c.id + " derives the peer's secret", async () => {
        const peerPriv = (await importAll(c, e.exports.peerPrivate, "private")).pkcs8;
        return hex(await s.deriveBits({ name: c.params, public: keys.public }, peerPriv, null)) === e.out || "differs";
      });
    }
  }
  return { results, outs };
}

async function nodeCheck(node, bext) {
  const results = {};
  for (const c of cases) {
    const e = node.cases[c.id];
    const name = c.id + " Node accepts bext's output";
    try {
      const keys = {};
      for (const [type, exp] of Object.entries(e.exports)) {
        const kt = type.startsWith("peer") ? type.slice(4).toLowerCase() : type;
        keys[type] = (await importAll(c, exp, kt)).jwk;
      }
      const ok = await check(c, { secret: keys.secret, private: keys.private, public: keys.public, peer: keys.peerPublic }, bext.outs[c.id]);
      results[name] = ok ? "PASS" : "FAIL: rejected";
    } catch (err) { results[name] = "FAIL: " + err; }
  }
  return results;
}
