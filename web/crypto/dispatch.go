package crypto

import (
	"crypto"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"hash"

	"crypto/ecdsa"
	"crypto/ed25519"
)

// The operations' Go steps, by algorithm. They run on any goroutine and
// touch no JS value.

// When an operation leaves the JS goroutine (see doc.go for the figures).
// Variables only so that benchmarks can compare both paths.
var (
	// digestAsyncMin: a digest or HMAC of at least this many bytes runs on
	// a goroutine. Below it the hash costs less than the hand-off.
	digestAsyncMin = 1 << 20
	// cipherAsyncMin: the same for AES.
	cipherAsyncMin = 1 << 20
	// pbkdf2AsyncMin: PBKDF2 with at least this many HMAC iterations in all.
	pbkdf2AsyncMin = 2048
)

func isHeavy(o op, a *algorithm, k *cryptoKey, n int) bool {
	switch o {
	case opGenerateKey:
		return family(a.name) == famRSA
	case opDeriveBits:
		if a.name == aPBKDF2 {
			blocks := 1
			if n > 0 {
				blocks = (n/8 + hashSize(a.hash) - 1) / hashSize(a.hash)
			}
			return a.iterations*blocks >= pbkdf2AsyncMin
		}
		return false
	case opSign, opDecrypt:
		if k != nil && family(k.alg.name) == famRSA && k.typ == privateKey {
			return true // about a millisecond for 2048 bits
		}
	}
	if k != nil && k.alg.name == aHMAC {
		return n >= digestAsyncMin
	}
	return n >= cipherAsyncMin
}

func newHash(name string) func() hash.Hash {
	switch name {
	case aSHA1:
		return sha1.New
	case aSHA256:
		return sha256.New
	case aSHA384:
		return sha512.New384
	}
	return sha512.New
}

func cryptoHash(name string) crypto.Hash {
	switch name {
	case aSHA1:
		return crypto.SHA1
	case aSHA256:
		return crypto.SHA256
	case aSHA384:
		return crypto.SHA384
	}
	return crypto.SHA512
}

func hashSize(name string) int {
	switch name {
	case aSHA1:
		return 20
	case aSHA256:
		return 32
	case aSHA384:
		return 48
	}
	return 64
}

// hashBlockBits is the hash's block size in bits (HMAC's default key length).
func hashBlockBits(name string) int {
	if name == aSHA384 || name == aSHA512 {
		return 1024
	}
	return 512
}

func digest(name string, data []byte) []byte {
	switch name {
	case aSHA1:
		s := sha1.Sum(data)
		return s[:]
	case aSHA256:
		s := sha256.Sum256(data)
		return s[:]
	case aSHA384:
		s := sha512.Sum384(data)
		return s[:]
	}
	s := sha512.Sum512(data)
	return s[:]
}

func encrypt(a *algorithm, k *cryptoKey, data []byte) (any, error) {
	switch a.name {
	case aAESGCM:
		return aesGCM(a, k, data, true)
	case aAESCBC:
		return aesCBCEncrypt(a, k, data)
	case aAESCTR:
		return aesCTR(a, k, data)
	case aRSAOAEP:
		return rsaOAEPEncrypt(a, k, data)
	}
	return nil, errf(notSupported, "Unrecognized algorithm name")
}

func decrypt(a *algorithm, k *cryptoKey, data []byte) (any, error) {
	switch a.name {
	case aAESGCM:
		return aesGCM(a, k, data, false)
	case aAESCBC:
		return aesCBCDecrypt(a, k, data)
	case aAESCTR:
		return aesCTR(a, k, data)
	case aRSAOAEP:
		return rsaOAEPDecrypt(a, k, data)
	}
	return nil, errf(notSupported, "Unrecognized algorithm name")
}

func sign(a *algorithm, k *cryptoKey, data []byte) (any, error) {
	if k.typ == publicKey {
		return nil, errf(invalidAccess, "Unable to use a public key to sign")
	}
	switch a.name {
	case aHMAC:
		return hmacSign(k, data), nil
	case aECDSA:
		return ecdsaSign(a, k.material.(*ecdsa.PrivateKey), data)
	case aEd25519:
		return ed25519.Sign(k.material.(ed25519.PrivateKey), data), nil
	case aRSASSA, aRSAPSS:
		return rsaSign(a, k, data)
	}
	return nil, errf(notSupported, "Unrecognized algorithm name")
}

func verify(a *algorithm, k *cryptoKey, sig, data []byte) (any, error) {
	if k.typ == privateKey {
		return nil, errf(invalidAccess, "Unable to use a private key to verify")
	}
	switch a.name {
	case aHMAC:
		return hmacVerify(k, sig, data), nil
	case aECDSA:
		return ecdsaVerify(a, k.material.(*ecdsa.PublicKey), sig, data), nil
	case aEd25519:
		pub := k.material.(ed25519.PublicKey)
		return len(sig) == ed25519.SignatureSize && ed25519.Verify(pub, data, sig), nil
	case aRSASSA, aRSAPSS:
		return rsaVerify(a, k, sig, data), nil
	}
	return nil, errf(notSupported, "Unrecognized algorithm name")
}

func generateKey(a *algorithm, extractable bool, usages usage) (any, error) {
	switch family(a.name) {
	case famHMAC:
		return hmacGenerate(a, extractable, usages)
	case famAES:
		return aesGenerate(a, extractable, usages)
	case famEC:
		return ecGenerate(a, extractable, usages)
	case famRSA:
		return rsaGenerate(a, extractable, usages)
	}
	switch a.name {
	case aEd25519, aX25519:
		return okpGenerate(a, extractable, usages)
	}
	return nil, errf(notSupported, "Unrecognized algorithm name")
}

func importKey(format keyFormat, kd keyData, a *algorithm, extractable bool, usages usage) (*cryptoKey, error) {
	switch family(a.name) {
	case famHMAC:
		return hmacImport(format, kd, a, extractable, usages)
	case famAES:
		return aesImport(format, kd, a, extractable, usages)
	case famEC:
		return ecImport(format, kd, a, extractable, usages)
	case famRSA:
		return rsaImport(format, kd, a, extractable, usages)
	}
	switch a.name {
	case aPBKDF2, aHKDF:
		return kdfImport(format, kd, a, extractable, usages)
	case aEd25519, aX25519:
		return okpImport(format, kd, a, extractable, usages)
	}
	return nil, errf(notSupported, "Unrecognized algorithm name")
}

func exportKey(format keyFormat, k *cryptoKey) (any, error) {
	switch family(k.alg.name) {
	case famHMAC, famAES:
		return secretExport(format, k)
	case famEC:
		return ecExport(format, k)
	case famRSA:
		return rsaExport(format, k)
	}
	switch k.alg.name {
	case aEd25519, aX25519:
		return okpExport(format, k)
	}
	return nil, errf(notSupported, "Unable to export a %s key", k.alg.name)
}

// deriveBits: length is -1 with hasLength false when null.
func deriveBits(a *algorithm, k *cryptoKey, length int, hasLength bool) (any, error) {
	var b []byte
	var err error
	switch a.name {
	case aPBKDF2:
		b, err = pbkdf2Derive(a, k, length, hasLength)
	case aHKDF:
		b, err = hkdfDerive(a, k, length, hasLength)
	case aECDH, aX25519:
		b, err = ecdhDerive(a, k, length, hasLength)
	default:
		return nil, errf(notSupported, "Unrecognized algorithm name")
	}
	if err != nil {
		return nil, err
	}
	return b, nil
}

// keyLength is the spec's "get key length" of a normalized derived-key
// algorithm; hasLength false means null (the KDF's natural length).
func keyLength(a *algorithm) (int, bool, error) {
	switch family(a.name) {
	case famHMAC:
		if !a.hasLength {
			return hashBlockBits(a.hash), true, nil
		}
		if a.length == 0 {
			return 0, false, errf(typeError, "HMAC key length must not be zero")
		}
		return a.length, true, nil
	case famAES:
		if a.length != 128 && a.length != 192 && a.length != 256 {
			return 0, false, errf(operation, "AES key length must be 128, 192, or 256 bits")
		}
		return a.length, true, nil
	}
	return 0, false, nil // HKDF, PBKDF2
}
