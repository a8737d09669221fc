package crypto

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
)

// AES-GCM, AES-CBC, AES-CTR and AES-KW.

func aesUsages(name string) usage {
	if name == aAESKW {
		return uWrapKey | uUnwrapKey
	}
	return uEncrypt | uDecrypt | uWrapKey | uUnwrapKey
}

func aesGenerate(a *algorithm, extractable bool, usages usage) (any, error) {
	if !aesUsages(a.name).has(usages) {
		return nil, errf(syntaxError, "Unsupported key usage for an AES key")
	}
	if a.length != 128 && a.length != 192 && a.length != 256 {
		return nil, errf(operation, "AES key length must be 128, 192, or 256 bits")
	}
	return &cryptoKey{typ: secretKey, extractable: extractable, usages: usages, material: randomBits(a.length),
		alg: keyAlg{name: a.name, length: a.length}}, nil
}

func aesImport(format keyFormat, kd keyData, a *algorithm, extractable bool, usages usage) (*cryptoKey, error) {
	if !aesUsages(a.name).has(usages) {
		return nil, errf(syntaxError, "Unsupported key usage for an AES key")
	}
	var data []byte
	switch format {
	case fmtRaw:
		data = kd.bytes
	case fmtJwk:
		j := kd.jwk
		if err := checkJWKCommon(j, "oct", "enc", usages, extractable); err != nil {
			return nil, err
		}
		var err error
		if data, err = j.need("k"); err != nil {
			return nil, err
		}
		if n := len(data); n == 16 || n == 24 || n == 32 {
			if err := checkJWKAlg(j, aesJWKAlg(a.name, n*8)); err != nil {
				return nil, err
			}
		}
	default:
		return nil, errf(notSupported, "Unable to import AES key with format %s", format)
	}
	if n := len(data); n != 16 && n != 24 && n != 32 {
		return nil, errf(dataError, "Invalid key length")
	}
	return &cryptoKey{typ: secretKey, material: data, alg: keyAlg{name: a.name, length: len(data) * 8}}, nil
}

func aesBlock(k *cryptoKey) cipher.Block {
	b, err := aes.NewCipher(k.material.([]byte))
	if err != nil {
		panic(err) // the length was checked at import
	}
	return b
}

// aesGCM encrypts or decrypts. Go's GCM takes any nonce size with the
// full 128-bit tag; shorter tags are the full tag truncated, and a
// truncated tag is checked by decrypting with the key stream (the
// ciphertext of zeros under the same nonce) and sealing again.
func aesGCM(a *algorithm, k *cryptoKey, data []byte, enc bool) (any, error) {
	tagBits := 128
	if a.hasTagLength {
		tagBits = a.tagLength
	}
	switch tagBits {
	case 32, 64, 96, 104, 112, 120, 128:
	default:
		return nil, errf(operation, "%d is not a valid AES-GCM tag length", tagBits)
	}
	if len(a.iv) == 0 {
		return nil, errf(operation, "The AES-GCM iv must not be empty")
	}
	g, err := cipher.NewGCMWithNonceSize(aesBlock(k), len(a.iv))
	if err != nil {
		return nil, errf(operation, "%s", err.Error())
	}
	tagLen := tagBits / 8
	if enc {
		out := g.Seal(make([]byte, 0, len(data)+16), a.iv, data, a.additionalData)
		return out[:len(data)+tagLen], nil
	}
	if len(data) < tagLen {
		return nil, errf(operation, "The provided data is too small.")
	}
	if tagLen == 16 {
		out, err := g.Open(make([]byte, 0, len(data)), a.iv, data, a.additionalData)
		if err != nil {
			return nil, errf(operation, opFailed)
		}
		return out, nil
	}
	ct, tag := data[:len(data)-tagLen], data[len(data)-tagLen:]
	stream := g.Seal(nil, a.iv, make([]byte, len(ct)), nil)
	plain := make([]byte, len(ct))
	subtle.XORBytes(plain, ct, stream[:len(ct)])
	again := g.Seal(stream[:0], a.iv, plain, a.additionalData)
	if subtle.ConstantTimeCompare(again[len(ct):len(ct)+tagLen], tag) != 1 {
		return nil, errf(operation, opFailed)
	}
	return plain, nil
}

func aesCBCEncrypt(a *algorithm, k *cryptoKey, data []byte) (any, error) {
	if len(a.iv) != aes.BlockSize {
		return nil, errf(operation, "algorithm.iv must contain exactly 16 bytes")
	}
	pad := aes.BlockSize - len(data)%aes.BlockSize
	out := make([]byte, len(data)+pad)
	copy(out, data)
	for i := len(data); i < len(out); i++ {
		out[i] = byte(pad)
	}
	cipher.NewCBCEncrypter(aesBlock(k), a.iv).CryptBlocks(out, out)
	return out, nil
}

func aesCBCDecrypt(a *algorithm, k *cryptoKey, data []byte) (any, error) {
	if len(a.iv) != aes.BlockSize {
		return nil, errf(operation, "algorithm.iv must contain exactly 16 bytes")
	}
	if len(data) == 0 || len(data)%aes.BlockSize != 0 {
		return nil, errf(operation, opFailed)
	}
	out := make([]byte, len(data))
	cipher.NewCBCDecrypter(aesBlock(k), a.iv).CryptBlocks(out, data)
	pad := int(out[len(out)-1])
	if pad == 0 || pad > aes.BlockSize {
		return nil, errf(operation, opFailed)
	}
	for _, b := range out[len(out)-pad:] {
		if int(b) != pad {
			return nil, errf(operation, opFailed)
		}
	}
	return out[:len(out)-pad], nil
}

// aesCTR encrypts or decrypts: only the rightmost length bits of the
// counter block count, wrapping to zero without carrying into the rest.
func aesCTR(a *algorithm, k *cryptoKey, data []byte) (any, error) {
	if len(a.counter) != aes.BlockSize {
		return nil, errf(operation, "algorithm.counter must contain exactly 16 bytes")
	}
	if a.length == 0 || a.length > 128 {
		return nil, errf(operation, "algorithm.length must be between 1 and 128")
	}
	blocks := uint64((len(data) + aes.BlockSize - 1) / aes.BlockSize)
	hi, lo := binary.BigEndian.Uint64(a.counter[:8]), binary.BigEndian.Uint64(a.counter[8:])
	// left: blocks before the counter bits wrap, capped at 2^64-1 (data
	// is never longer). Go's CTR counts in all 128 bits, which is the same
	// until then; a length of 128 wraps as Go does.
	left := ^uint64(0)
	var maskLo, maskHi uint64 = ^uint64(0), 0
	switch {
	case a.length < 64:
		maskLo = uint64(1)<<a.length - 1
		left = maskLo - lo&maskLo + 1
		if blocks > uint64(1)<<a.length {
			return nil, errf(operation, "The counter would repeat")
		}
	case a.length < 128:
		maskHi = uint64(1)<<(a.length-64) - 1
		if hi&maskHi == maskHi && lo != 0 {
			left = ^lo + 1
		}
	}
	b := aesBlock(k)
	out := make([]byte, len(data))
	iv := append([]byte(nil), a.counter...)
	n := len(data)
	if blocks > left {
		n = int(left) * aes.BlockSize
	}
	cipher.NewCTR(b, iv).XORKeyStream(out[:n], data[:n])
	if n < len(data) { // the counter bits wrapped to zero; the rest stays
		binary.BigEndian.PutUint64(iv[:8], hi&^maskHi)
		binary.BigEndian.PutUint64(iv[8:], lo&^maskLo)
		cipher.NewCTR(b, iv).XORKeyStream(out[n:], data[n:])
	}
	return out, nil
}

// AES-KW (RFC 3394) with the default initial value.
var kwIV = [8]byte{0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6}

func aesKWWrap(k *cryptoKey, data []byte) (any, error) {
	if len(data) < 16 || len(data)%8 != 0 {
		return nil, errf(operation, "AES-KW input must be a multiple of 8 bytes and at least 16 bytes")
	}
	b := aesBlock(k)
	n := len(data) / 8
	out := make([]byte, len(data)+8)
	copy(out[:8], kwIV[:])
	copy(out[8:], data)
	var buf [16]byte
	for j := 0; j < 6; j++ {
		for i := 1; i <= n; i++ {
			copy(buf[:8], out[:8])
			copy(buf[8:], out[i*8:i*8+8])
			b.Encrypt(buf[:], buf[:])
			t := uint64(n*j + i)
			binary.BigEndian.PutUint64(out[:8], binary.BigEndian.Uint64(buf[:8])^t)
			copy(out[i*8:], buf[8:])
		}
	}
	return out, nil
}

func aesKWUnwrap(k *cryptoKey, data []byte) (any, error) {
	if len(data) < 24 || len(data)%8 != 0 {
		return nil, errf(operation, opFailed)
	}
	b := aesBlock(k)
	n := len(data)/8 - 1
	out := append([]byte(nil), data...)
	var buf [16]byte
	for j := 5; j >= 0; j-- {
		for i := n; i >= 1; i-- {
			t := uint64(n*j + i)
			binary.BigEndian.PutUint64(buf[:8], binary.BigEndian.Uint64(out[:8])^t)
			copy(buf[8:], out[i*8:i*8+8])
			b.Decrypt(buf[:], buf[:])
			copy(out[:8], buf[:8])
			copy(out[i*8:], buf[8:])
		}
	}
	if subtle.ConstantTimeCompare(out[:8], kwIV[:]) != 1 {
		return nil, errf(operation, opFailed)
	}
	return out[8:], nil
}
