package crypto

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/subtle"
	"math/big"
)

// RSA-PSS with a salt length of zero, which Go's rsa package cannot
// express (its SaltLength 0 means "as long as fits" when signing and "any"
// when verifying): EMSA-PSS of RFC 8017 §9.1 with an empty salt, and the
// RSA primitives on math/big. The private operation is blinded but not
// constant-time; it serves this one parameter choice only.

func pssEncode(hash string, mHash []byte, emBits int) []byte {
	hLen := hashSize(hash)
	emLen := (emBits + 7) / 8
	h := newHash(hash)()
	h.Write(make([]byte, 8))
	h.Write(mHash)
	hv := h.Sum(nil)
	em := make([]byte, emLen)
	db := em[:emLen-hLen-1]
	db[len(db)-1] = 1
	mgf1XOR(db, hash, hv)
	db[0] &= 0xff >> (8*emLen - emBits)
	copy(em[emLen-hLen-1:], hv)
	em[emLen-1] = 0xbc
	return em
}

func mgf1XOR(out []byte, hash string, seed []byte) {
	var counter [4]byte
	done := 0
	for done < len(out) {
		h := newHash(hash)()
		h.Write(seed)
		h.Write(counter[:])
		for _, b := range h.Sum(nil) {
			if done == len(out) {
				break
			}
			out[done] ^= b
			done++
		}
		for i := 3; i >= 0; i-- {
			counter[i]++
			if counter[i] != 0 {
				break
			}
		}
	}
}

func pssZeroSaltSign(priv *rsa.PrivateKey, hash string, mHash []byte) ([]byte, error) {
	emBits := priv.N.BitLen() - 1
	if (emBits+7)/8 < hashSize(hash)+2 {
		return nil, rsa.ErrMessageTooLong
	}
	m := new(big.Int).SetBytes(pssEncode(hash, mHash, emBits))
	// Blinding: s = (m·r^e)^d · r^-1 mod n.
	var r *big.Int
	for {
		var err error
		if r, err = rand.Int(rand.Reader, priv.N); err != nil {
			return nil, err
		}
		if r.Sign() > 0 && new(big.Int).GCD(nil, nil, r, priv.N).Cmp(big.NewInt(1)) == 0 {
			break
		}
	}
	e := big.NewInt(int64(priv.E))
	c := new(big.Int).Exp(r, e, priv.N)
	c.Mul(c, m).Mod(c, priv.N)
	c.Exp(c, priv.D, priv.N)
	c.Mul(c, new(big.Int).ModInverse(r, priv.N)).Mod(c, priv.N)
	// Check the result before releasing it (a fault would leak the key).
	if new(big.Int).Exp(c, e, priv.N).Cmp(m) != 0 {
		return nil, rsa.ErrVerification
	}
	return c.FillBytes(make([]byte, priv.Size())), nil
}

func pssZeroSaltVerify(pub *rsa.PublicKey, hash string, mHash, sig []byte) bool {
	if len(sig) != pub.Size() {
		return false
	}
	s := new(big.Int).SetBytes(sig)
	if s.Cmp(pub.N) >= 0 {
		return false
	}
	emBits := pub.N.BitLen() - 1
	emLen := (emBits + 7) / 8
	if emLen < hashSize(hash)+2 {
		return false
	}
	m := new(big.Int).Exp(s, big.NewInt(int64(pub.E)), pub.N)
	if m.BitLen() > 8*emLen {
		return false
	}
	em := m.FillBytes(make([]byte, emLen))
	return subtle.ConstantTimeCompare(em, pssEncode(hash, mHash, emBits)) == 1
}
