package crypto

import (
	"crypto/hmac"
	"crypto/rand"
	"strconv"
)

// HMAC and the parts of AES, PBKDF2 and HKDF keys that are only bytes.

func hmacSign(k *cryptoKey, data []byte) []byte {
	m := hmac.New(newHash(k.alg.hash), k.material.([]byte))
	m.Write(data)
	return m.Sum(make([]byte, 0, 64))
}

func hmacVerify(k *cryptoKey, sig, data []byte) bool {
	return hmac.Equal(sig, hmacSign(k, data))
}

// randomBits is length random bits, the unused low bits of the last
// byte cleared.
func randomBits(length int) []byte {
	b := make([]byte, (length+7)/8)
	_, _ = rand.Read(b)
	if r := length % 8; r != 0 {
		b[len(b)-1] &= 0xff << (8 - r)
	}
	return b
}

func hmacGenerate(a *algorithm, extractable bool, usages usage) (any, error) {
	if !(uSign | uVerify).has(usages) {
		return nil, errf(syntaxError, "Unsupported key usage for an HMAC key")
	}
	length := hashBlockBits(a.hash)
	if a.hasLength {
		if a.length == 0 {
			return nil, errf(operation, "HMAC key length must not be zero")
		}
		length = a.length
	}
	return &cryptoKey{typ: secretKey, extractable: extractable, usages: usages, material: randomBits(length),
		alg: keyAlg{name: aHMAC, hash: a.hash, length: length}}, nil
}

var hmacJWKAlg = map[string]string{aSHA1: "HS1", aSHA256: "HS256", aSHA384: "HS384", aSHA512: "HS512"}

func hmacImport(format keyFormat, kd keyData, a *algorithm, extractable bool, usages usage) (*cryptoKey, error) {
	if !(uSign | uVerify).has(usages) {
		return nil, errf(syntaxError, "Unsupported key usage for an HMAC key")
	}
	var data []byte
	switch format {
	case fmtRaw:
		data = kd.bytes
	case fmtJwk:
		j := kd.jwk
		if err := checkJWKCommon(j, "oct", "sig", usages, extractable); err != nil {
			return nil, err
		}
		var err error
		if data, err = j.need("k"); err != nil {
			return nil, err
		}
		if err := checkJWKAlg(j, hmacJWKAlg[a.hash]); err != nil {
			return nil, err
		}
	default:
		return nil, errf(notSupported, "Unable to import HMAC key with format %s", format)
	}
	length := len(data) * 8
	if length == 0 {
		return nil, errf(dataError, "Zero-length key is not supported")
	}
	if a.hasLength {
		if a.length > length || a.length <= length-8 {
			return nil, errf(dataError, "Invalid key length")
		}
		length = a.length
	}
	return &cryptoKey{typ: secretKey, material: data, alg: keyAlg{name: aHMAC, hash: a.hash, length: length}}, nil
}

// secretExport exports an HMAC or AES key.
func secretExport(format keyFormat, k *cryptoKey) (any, error) {
	b := k.material.([]byte)
	switch format {
	case fmtRaw:
		return append([]byte(nil), b...), nil
	case fmtJwk:
		j := exportJWK(k)
		j.set("kty", "oct")
		j.setBytes("k", b)
		if k.alg.name == aHMAC {
			j.set("alg", hmacJWKAlg[k.alg.hash])
		} else {
			j.set("alg", aesJWKAlg(k.alg.name, k.alg.length))
		}
		return j, nil
	}
	return nil, errf(notSupported, "Unable to export a %s secret key using %s format", k.alg.name, format)
}

func aesJWKAlg(name string, length int) string {
	return "A" + strconv.Itoa(length) + name[len("AES-"):]
}

// kdfImport imports a PBKDF2 or HKDF key: raw only, never extractable.
func kdfImport(format keyFormat, kd keyData, a *algorithm, extractable bool, usages usage) (*cryptoKey, error) {
	if !(uDeriveKey | uDeriveBits).has(usages) {
		return nil, errf(syntaxError, "Unsupported key usage for a %s key", a.name)
	}
	if format != fmtRaw {
		return nil, errf(notSupported, "Unable to import %s key with format %s", a.name, format)
	}
	if extractable {
		return nil, errf(syntaxError, "%s keys are not extractable", a.name)
	}
	return &cryptoKey{typ: secretKey, material: kd.bytes, alg: keyAlg{name: a.name}}, nil
}
