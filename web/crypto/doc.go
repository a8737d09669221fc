// Package crypto is the W3C Web Cryptography API, natively in Go on the
// standard library's crypto packages (no cgo, no JS).
//
// What it owns: the globals crypto (the Crypto instance), Crypto,
// CryptoKey and SubtleCrypto. Crypto has getRandomValues (integer typed
// arrays only: TypeMismatchError for others, QuotaExceededError above
// 65,536 bytes), randomUUID (version 4, drawn from a per-realm buffer of
// random bytes refilled 256 bytes at a time) and subtle. SubtleCrypto
// has every method of the spec: digest (SHA-1, SHA-256, SHA-384,
// SHA-512), encrypt/decrypt (AES-GCM, AES-CBC, AES-CTR, RSA-OAEP),
// sign/verify (HMAC, ECDSA, Ed25519, RSASSA-PKCS1-v1_5, RSA-PSS),
// generateKey, importKey and exportKey (raw, spki, pkcs8, jwk as each
// algorithm allows), deriveBits/deriveKey (PBKDF2, HKDF, ECDH, X25519),
// wrapKey/unwrapKey (AES-KW, or any encrypting algorithm). ECDSA and ECDH
// take P-256, P-384 and P-521.
//
// Shape: every method converts its arguments and normalizes its
// algorithm on the JS goroutine (normalize.go: names match ASCII
// case-insensitively, a hash may be a string or a dictionary, an unknown
// name is a NotSupportedError, a missing member a TypeError); any failure
// there rejects the returned promise, nothing throws synchronously. The
// operation itself is plain Go on Go values (dispatch.go and one file per
// family) returning a result or an *opError that names the DOMException
// (NotSupportedError, InvalidAccessError, DataError, OperationError,
// SyntaxError) or TypeError. A key's Go material lives in the CryptoKey's
// internal slot (webidl.SetSlot), which no JS code can name.
//
// When an operation leaves the JS goroutine: cheap operations run in line
// and the promise is already resolved when the method returns. Measured
// from JS in an isolate (bench_test.go), handing a SHA-256 digest to a
// goroutine (Realm.Go, with the copy of the data the spec asks for) was no
// faster at 64 KB and slower at 256 KB than hashing in line, because a
// render awaits the result anyway; so digests, HMAC and AES go to a
// goroutine only from 1 MB, to bound how long the isolate stalls. RSA key
// generation and RSA private-key operations (sign, decrypt, about a
// millisecond at 2048 bits) always go to a goroutine, as does PBKDF2 from
// 2,048 HMAC iterations in all. Everything else (ECDSA, Ed25519, ECDH,
// HKDF, imports and exports) runs in line.
//
// Node 20 is the oracle for what the spec leaves open: algorithm and JWK
// objects list their members in Node's order (exports are byte-for-byte
// Node's, see crosscheck_test.go), error messages follow Node's wording.
//
// Known deviations:
//   - RSA keys are generated with the public exponent 65537 only (Go's
//     crypto/rsa); another exponent is an OperationError. Keys with other
//     exponents import and work. Go refuses RSA keys under 1,024 bits.
//   - RSA-PSS with saltLength 0 (which Go's rsa package cannot express)
//     is computed on math/big: correct, blinded, but not constant-time.
//   - Where Node 20 departs from the spec, bext follows the spec (the
//     conformance cases named "spec: …"): usages are deduplicated and
//     listed in KeyUsage order, as browsers do; getRandomValues of a
//     non-view is a TypeError; an HMAC import length may drop up to 7 bits
//     of the last byte; AES-GCM takes ivs shorter than 96 bits; exporting a
//     non-extractable key is an InvalidAccessError (Node: ...Exception).
//   - Not provided: the newer "raw-public"/"raw-secret" formats,
//     ChaCha20-Poly1305, X448/Ed448, RSA with more than two primes
//     (NotSupportedError), SHA-3, compressed-point export.
package crypto
