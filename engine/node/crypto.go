package node

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/md5"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"crypto/subtle"
	"hash"
	"strings"

	"github.com/dop251/goja"
)

// hashes are the digests node:crypto offers in bext (createHash,
// createHmac, pbkdf2, hkdf), by Node's names.
var hashes = map[string]func() hash.Hash{
	"md5":        md5.New,
	"sha1":       sha1.New,
	"sha224":     sha256.New224,
	"sha256":     sha256.New,
	"sha384":     sha512.New384,
	"sha512":     sha512.New,
	"sha512-224": sha512.New512_224,
	"sha512-256": sha512.New512_256,
	"sha3-224":   func() hash.Hash { return sha3.New224() },
	"sha3-256":   func() hash.Hash { return sha3.New256() },
	"sha3-384":   func() hash.Hash { return sha3.New384() },
	"sha3-512":   func() hash.Hash { return sha3.New512() },
}

func hashByName(name string) func() hash.Hash {
	n := strings.ToLower(name)
	if h, ok := hashes[n]; ok {
		return h
	}
	switch n {
	case "rsa-md5":
		return hashes["md5"]
	case "rsa-sha1", "sha-1":
		return hashes["sha1"]
	case "rsa-sha256", "sha-256":
		return hashes["sha256"]
	case "rsa-sha384", "sha-384":
		return hashes["sha384"]
	case "rsa-sha512", "sha-512":
		return hashes["sha512"]
	}
	return nil
}

type hashHandle struct{ h hash.Hash }

func cryptoNative(s *state, n *goja.Object) {
	rt := s.r.RT
	ab := func(b []byte) goja.Value { return rt.ToValue(rt.NewArrayBuffer(b)) }
	handle := func(v goja.Value) *hashHandle {
		h, _ := v.Export().(*hashHandle)
		if h == nil || h.h == nil {
			panic(s.r.NewError("Error", "Digest already called"))
		}
		return h
	}
	_ = n.Set("randomBytes", func(size int) goja.Value {
		b := make([]byte, size)
		_, _ = rand.Read(b)
		return ab(b)
	})
	_ = n.Set("randomFill", func(c goja.FunctionCall) goja.Value {
		_, _ = rand.Read(viewBytes(rt, c.Argument(0)))
		return goja.Undefined()
	})
	_ = n.Set("randomUUID", func() string { return newUUID() })
	_ = n.Set("hasHash", func(name string) bool { return hashByName(name) != nil })
	_ = n.Set("hashNew", func(name string) goja.Value {
		return rt.ToValue(&hashHandle{h: hashByName(name)()})
	})
	_ = n.Set("hmacNew", func(c goja.FunctionCall) goja.Value {
		mk := hashByName(c.Argument(0).String())
		key := append([]byte(nil), viewBytes(rt, c.Argument(1))...)
		return rt.ToValue(&hashHandle{h: hmac.New(mk, key)})
	})
	_ = n.Set("hashUpdate", func(c goja.FunctionCall) goja.Value {
		handle(c.Argument(0)).h.Write(viewBytes(rt, c.Argument(1)))
		return goja.Undefined()
	})
	_ = n.Set("hashDigest", func(c goja.FunctionCall) goja.Value {
		h := handle(c.Argument(0))
		sum := h.h.Sum(nil)
		h.h = nil
		return ab(sum)
	})
	_ = n.Set("hashCopy", func(c goja.FunctionCall) goja.Value {
		h := handle(c.Argument(0))
		if cl, ok := h.h.(interface {
			MarshalBinary() ([]byte, error)
		}); ok {
			state, err := cl.MarshalBinary()
			if err == nil {
				nh := hashByName(c.Argument(1).String())()
				if um, ok := nh.(interface{ UnmarshalBinary([]byte) error }); ok && um.UnmarshalBinary(state) == nil {
					return rt.ToValue(&hashHandle{h: nh})
				}
			}
		}
		panic(s.r.NewError("Error", "bext: this hash cannot be copied"))
	})
	_ = n.Set("timingSafeEqual", ret(rt, func(c goja.FunctionCall) bool {
		return subtle.ConstantTimeCompare(viewBytes(rt, c.Argument(0)), viewBytes(rt, c.Argument(1))) == 1
	}))
	_ = n.Set("pbkdf2", func(c goja.FunctionCall) goja.Value {
		mk := hashByName(c.Argument(4).String())
		key, err := pbkdf2.Key(mk, string(viewBytes(rt, c.Argument(0))), viewBytes(rt, c.Argument(1)), int(c.Argument(2).ToInteger()), int(c.Argument(3).ToInteger()))
		if err != nil {
			panic(s.r.NewError("Error", err.Error()))
		}
		return ab(key)
	})
	_ = n.Set("hkdf", func(c goja.FunctionCall) goja.Value {
		mk := hashByName(c.Argument(0).String())
		key, err := hkdf.Key(mk, viewBytes(rt, c.Argument(1)), viewBytes(rt, c.Argument(2)), string(viewBytes(rt, c.Argument(3))), int(c.Argument(4).ToInteger()))
		if err != nil {
			panic(s.r.NewError("Error", err.Error()))
		}
		return ab(key)
	})
}

func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	const hexd = "0123456789abcdef"
	out := make([]byte, 0, 36)
	for i, x := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out = append(out, '-')
		}
		out = append(out, hexd[x>>4], hexd[x&15])
	}
	return string(out)
}
