package crypto

import (
	"bext/web/clone"
	"bext/web/webidl"

	"github.com/dop251/goja"
)

// usage is a set of KeyUsage values, one bit each, in the order of the
// KeyUsage enum (which is the order key.usages lists them in, as browsers
// do: deduplicated, canonical order).
type usage uint8

const (
	uEncrypt usage = 1 << iota
	uDecrypt
	uSign
	uVerify
	uDeriveKey
	uDeriveBits
	uWrapKey
	uUnwrapKey
)

var usageNames = [...]string{"encrypt", "decrypt", "sign", "verify", "deriveKey", "deriveBits", "wrapKey", "unwrapKey"}

func (u usage) has(v usage) bool { return u&v == v }

// names lists u in canonical order.
func (u usage) names() []string {
	out := make([]string, 0, 8)
	for i, n := range usageNames {
		if u&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// usageFromName is the usage named s (0 for none).
func usageFromName(s string) usage {
	for i, n := range usageNames {
		if n == s {
			return 1 << i
		}
	}
	return 0
}

// keyType is a CryptoKey's [[type]].
type keyType uint8

const (
	secretKey keyType = iota
	privateKey
	publicKey
)

func (t keyType) String() string { return [...]string{"secret", "private", "public"}[t] }

// keyAlg is a key's [[algorithm]]: the KeyAlgorithm dictionary of its
// family (Hmac, Aes, Ec, RsaHashed, or the bare KeyAlgorithm).
type keyAlg struct {
	name           string
	hash           string // HMAC, RSA
	length         int    // HMAC, AES
	namedCurve     string // ECDSA, ECDH
	modulusLength  int    // RSA
	publicExponent []byte // RSA
}

// cryptoKey is a CryptoKey's internal state. material is the Go key —
// []byte for secret keys, *ecdsa.PrivateKey/*ecdsa.PublicKey,
// ed25519.PrivateKey/PublicKey, *ecdh.PrivateKey/PublicKey (X25519),
// *rsa.PrivateKey/PublicKey — immutable once made, so operations may
// use it on any goroutine. It lives in the internal slot only.
type cryptoKey struct {
	typ         keyType
	extractable bool
	alg         keyAlg
	usages      usage
	material    any

	algObj, usagesObj *goja.Object // [[algorithm_cached]], [[usages_cached]]
}

// keyPair is generateKey's result for asymmetric algorithms.
type keyPair struct{ public, private *cryptoKey }

func (s *state) installKey() {
	r := s.r
	rt := r.RT
	c := r.NewClass("CryptoKey", 0, nil, nil)
	c.Getter("type", func(this goja.Value) goja.Value {
		return rt.ToValue(webidl.This[*cryptoKey](r, this).typ.String())
	})
	c.Getter("extractable", func(this goja.Value) goja.Value {
		return rt.ToValue(webidl.This[*cryptoKey](r, this).extractable)
	})
	c.Getter("algorithm", func(this goja.Value) goja.Value {
		k := webidl.This[*cryptoKey](r, this)
		if k.algObj == nil {
			k.algObj = s.algObject(&k.alg)
		}
		return k.algObj
	})
	c.Getter("usages", func(this goja.Value) goja.Value {
		k := webidl.This[*cryptoKey](r, this)
		if k.usagesObj == nil {
			names := k.usages.names()
			vals := make([]any, len(names))
			for i, n := range names {
				vals[i] = n
			}
			k.usagesObj = rt.NewArray(vals...)
		}
		return k.usagesObj
	})
	s.keyClass = c
	r.Global("CryptoKey", c.Ctor)
}

// algObject is the JS form of a key's algorithm, with members in the order
// Node 20 shows them.
func (s *state) algObject(a *keyAlg) *goja.Object {
	rt := s.r.RT
	o := rt.NewObject()
	_ = o.Set("name", a.name)
	switch family(a.name) {
	case famHMAC:
		_ = o.Set("length", a.length)
		_ = o.Set("hash", s.hashObject(a.hash))
	case famAES:
		_ = o.Set("length", a.length)
	case famEC:
		_ = o.Set("namedCurve", a.namedCurve)
	case famRSA:
		_ = o.Set("modulusLength", a.modulusLength)
		_ = o.Set("publicExponent", s.r.Uint8Array(append([]byte(nil), a.publicExponent...)))
		_ = o.Set("hash", s.hashObject(a.hash))
	}
	return o
}

func (s *state) hashObject(name string) *goja.Object {
	o := s.r.RT.NewObject()
	_ = o.Set("name", name)
	return o
}

// keyObject makes the CryptoKey for k.
func (s *state) keyObject(k *cryptoKey) *goja.Object { return s.keyClass.New(k) }

// keyArg converts argument v (the n-th of method) to a CryptoKey.
func (s *state) keyArg(v goja.Value, method string, n int) *cryptoKey {
	k, ok := webidl.Slot[*cryptoKey](v)
	if !ok {
		s.r.TypeError("Failed to execute '%s' on 'SubtleCrypto': %s argument is not of type CryptoKey.", method, ordinal(n))
	}
	return k
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return string(rune('0'+n)) + "th"
}

// CryptoKey is [Serializable]: structuredClone makes a new key with the
// same slots over the same (immutable) Go material.
func init() {
	clone.RegisterSerializable(func(r *webidl.Realm, v *goja.Object, _ func(goja.Value) goja.Value) (*goja.Object, bool) {
		k, ok := webidl.Slot[*cryptoKey](v)
		if !ok {
			return nil, false
		}
		s, _ := webidl.Lookup[*state](r, key{})
		c := *k
		c.algObj, c.usagesObj = nil, nil
		return s.keyObject(&c), true
	})
}
