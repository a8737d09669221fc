package crypto

import (
	"bytes"
	"context"
	"fmt"

	"bext/web/webidl"

	"github.com/dop251/goja"
)

// SubtleCrypto: every method converts its arguments and normalizes its
// algorithm on the JS goroutine (a failure rejects the returned promise,
// as WebIDL says for promise-returning operations), then runs the
// operation's Go steps — now for cheap operations, on a goroutine (Realm.Go)
// for heavy ones — and settles the promise with the result.

func (s *state) installSubtle() {
	r := s.r
	c := r.NewClass("SubtleCrypto", 0, nil, nil)
	m := func(name string, n int, f func(c goja.FunctionCall) goja.Value) {
		c.Method(name, n, func(call goja.FunctionCall) (ret goja.Value) {
			defer func() {
				if x := recover(); x != nil {
					v, ok := thrown(x)
					if !ok {
						panic(x)
					}
					ret = r.Rejected(v)
				}
			}()
			webidl.This[*state](r, call.This)
			if len(call.Arguments) < n {
				r.TypeError("Failed to execute '%s' on 'SubtleCrypto': %d arguments required, but only %d present.", name, n, len(call.Arguments))
			}
			return f(call)
		})
	}
	m("encrypt", 3, func(c goja.FunctionCall) goja.Value { return s.crypt(c, opEncrypt, "encrypt") })
	m("decrypt", 3, func(c goja.FunctionCall) goja.Value { return s.crypt(c, opDecrypt, "decrypt") })
	m("sign", 3, s.sign)
	m("verify", 4, s.verify)
	m("digest", 2, s.digest)
	m("generateKey", 3, s.generateKey)
	m("deriveKey", 5, s.deriveKey)
	m("deriveBits", 2, s.deriveBits)
	m("importKey", 5, s.importKey)
	m("exportKey", 2, s.exportKey)
	m("wrapKey", 4, s.wrapKey)
	m("unwrapKey", 7, s.unwrapKey)
	r.Global("SubtleCrypto", c.Ctor)
	s.subtle = c.New(s)
}

// thrown is the JS value a panic carries, if it is a JS exception.
func thrown(x any) (goja.Value, bool) {
	switch e := x.(type) {
	case *goja.Exception:
		return e.Value(), true
	case goja.Value:
		return e, true
	}
	return nil, false
}

// settle runs work now (heavy false) or on a goroutine and returns a
// promise of its result. work must not touch JS values: it gets Go
// values only, and buffers it reads must be copies when heavy.
func (s *state) settle(heavy bool, work func() (any, error)) goja.Value {
	r := s.r
	if !heavy {
		res, err := work()
		if err != nil {
			return r.Rejected(s.errorValue(err))
		}
		return r.Resolved(s.toJS(res))
	}
	p, resolve, reject := r.NewPromise()
	r.Go(func(context.Context) func() error {
		res, err := safely(work)
		return func() error {
			if err != nil {
				reject(s.errorValue(err))
			} else {
				resolve(s.toJS(res))
			}
			return nil
		}
	})
	return r.RT.ToValue(p)
}

// safely runs work, turning a Go panic (a bug in a library) into an
// OperationError rather than a crash of the process.
func safely(work func() (any, error)) (res any, err error) {
	defer func() {
		if x := recover(); x != nil {
			err = errf(operation, "%s: %v", opFailed, x)
		}
	}()
	return work()
}

func (s *state) errorValue(err error) goja.Value {
	e, ok := err.(*opError)
	if !ok {
		e = errf(operation, "%s", err.Error())
	}
	if e.name == typeError {
		return s.r.RT.NewTypeError(e.msg)
	}
	return s.r.DOMException(e.msg, e.name)
}

// toJS converts an operation's result.
func (s *state) toJS(res any) goja.Value {
	rt := s.r.RT
	switch v := res.(type) {
	case []byte:
		return s.r.ArrayBuffer(v)
	case bool:
		return rt.ToValue(v)
	case *cryptoKey:
		return s.keyObject(v)
	case keyPair:
		o := rt.NewObject()
		_ = o.Set("publicKey", s.keyObject(v.public))
		_ = o.Set("privateKey", s.keyObject(v.private))
		return o
	case *jwk:
		return s.jwkObject(v)
	}
	panic(fmt.Sprintf("crypto: no JS form for %T", res))
}

// bytesArg converts argument v (the n-th of method) to a BufferSource.
func (s *state) bytesArg(v goja.Value, method string, n int) []byte {
	b, ok := bufferSource(v)
	if !ok {
		s.r.TypeError("Failed to execute '%s' on 'SubtleCrypto': %s argument is not instance of ArrayBuffer, Buffer, TypedArray, or DataView.", method, ordinal(n))
	}
	return b
}

// usagesArg converts a sequence<KeyUsage>.
func (s *state) usagesArg(v goja.Value, method string, n int) usage {
	var u usage
	i := 0
	s.r.Iterate(v, func(e goja.Value) {
		name := s.r.String(e)
		b := usageFromName(name)
		if b == 0 {
			s.r.TypeError("Failed to execute '%s' on 'SubtleCrypto': %s argument, index %d value '%s' is not a valid enum value of type KeyUsage.", method, ordinal(n), i, name)
		}
		u |= b
		i++
	})
	return u
}

// keyFormat is a KeyFormat enum value.
type keyFormat uint8

const (
	fmtRaw keyFormat = iota
	fmtSpki
	fmtPkcs8
	fmtJwk
)

func (s *state) formatArg(v goja.Value, method string) keyFormat {
	switch f := s.r.String(v); f {
	case "raw":
		return fmtRaw
	case "spki":
		return fmtSpki
	case "pkcs8":
		return fmtPkcs8
	case "jwk":
		return fmtJwk
	default:
		s.r.TypeError("Failed to execute '%s' on 'SubtleCrypto': 1st argument value '%s' is not a valid enum value of type KeyFormat.", method, f)
	}
	return 0
}

func (f keyFormat) String() string { return [...]string{"raw", "spki", "pkcs8", "jwk"}[f] }

// checkKey is the common start of an operation's Go steps: the key must
// be of the normalized algorithm and allow the usage.
func checkKey(a *algorithm, k *cryptoKey, u usage, what string) error {
	if a.name != k.alg.name {
		return errf(invalidAccess, "The requested operation is not valid for the provided key")
	}
	if !k.usages.has(u) {
		return errf(invalidAccess, "Unable to use this key to %s", what)
	}
	return nil
}

func (s *state) crypt(c goja.FunctionCall, o op, method string) goja.Value {
	alg := s.algIdentifier(c.Argument(0))
	k := s.keyArg(c.Argument(1), method, 2)
	data := s.bytesArg(c.Argument(2), method, 3)
	a := s.normalize(o, alg)
	heavy := isHeavy(o, a, k, len(data))
	if heavy {
		data = bytes.Clone(data)
	}
	return s.settle(heavy, func() (any, error) {
		u := uEncrypt
		if o == opDecrypt {
			u = uDecrypt
		}
		if err := checkKey(a, k, u, method); err != nil {
			return nil, err
		}
		if o == opEncrypt {
			return encrypt(a, k, data)
		}
		return decrypt(a, k, data)
	})
}

func (s *state) sign(c goja.FunctionCall) goja.Value {
	alg := s.algIdentifier(c.Argument(0))
	k := s.keyArg(c.Argument(1), "sign", 2)
	data := s.bytesArg(c.Argument(2), "sign", 3)
	a := s.normalize(opSign, alg)
	heavy := isHeavy(opSign, a, k, len(data))
	if heavy {
		data = bytes.Clone(data)
	}
	return s.settle(heavy, func() (any, error) {
		if err := checkKey(a, k, uSign, "sign"); err != nil {
			return nil, err
		}
		return sign(a, k, data)
	})
}

func (s *state) verify(c goja.FunctionCall) goja.Value {
	alg := s.algIdentifier(c.Argument(0))
	k := s.keyArg(c.Argument(1), "verify", 2)
	sig := s.bytesArg(c.Argument(2), "verify", 3)
	data := s.bytesArg(c.Argument(3), "verify", 4)
	a := s.normalize(opVerify, alg)
	heavy := isHeavy(opVerify, a, k, len(data))
	if heavy {
		data, sig = bytes.Clone(data), bytes.Clone(sig)
	}
	return s.settle(heavy, func() (any, error) {
		if err := checkKey(a, k, uVerify, "verify"); err != nil {
			return nil, err
		}
		return verify(a, k, sig, data)
	})
}

func (s *state) digest(c goja.FunctionCall) goja.Value {
	alg := s.algIdentifier(c.Argument(0))
	data := s.bytesArg(c.Argument(1), "digest", 2)
	a := s.normalize(opDigest, alg)
	heavy := len(data) >= digestAsyncMin
	if heavy {
		data = bytes.Clone(data)
	}
	return s.settle(heavy, func() (any, error) { return digest(a.name, data), nil })
}

func (s *state) generateKey(c goja.FunctionCall) goja.Value {
	alg := s.algIdentifier(c.Argument(0))
	extractable := webidl.Bool(c.Argument(1))
	usages := s.usagesArg(c.Argument(2), "generateKey", 3)
	a := s.normalize(opGenerateKey, alg)
	return s.settle(isHeavy(opGenerateKey, a, nil, 0), func() (any, error) {
		res, err := generateKey(a, extractable, usages)
		if err != nil {
			return nil, err
		}
		switch k := res.(type) {
		case *cryptoKey:
			if k.usages == 0 {
				return nil, errf(syntaxError, "Usages cannot be empty when creating a key.")
			}
		case keyPair:
			if k.private.usages == 0 {
				return nil, errf(syntaxError, "Usages cannot be empty when creating a key.")
			}
		}
		return res, nil
	})
}

// keyData is importKey's (BufferSource or JsonWebKey) argument.
type keyData struct {
	bytes []byte
	jwk   *jwk
}

func (s *state) importKey(c goja.FunctionCall) goja.Value {
	format := s.formatArg(c.Argument(0), "importKey")
	var kd keyData
	v := c.Argument(1)
	if b, ok := bufferSource(v); ok {
		kd.bytes = b
	} else if _, isObj := v.(*goja.Object); isObj || webidl.IsNullish(v) {
		kd.jwk = s.jwkArg(v)
	} else {
		s.r.TypeError("Failed to execute 'importKey' on 'SubtleCrypto': 2nd argument is not instance of ArrayBuffer, Buffer, TypedArray, DataView or JsonWebKey.")
	}
	alg := s.algIdentifier(c.Argument(2))
	extractable := webidl.Bool(c.Argument(3))
	usages := s.usagesArg(c.Argument(4), "importKey", 5)
	if format == fmtJwk && kd.jwk == nil {
		s.r.TypeError("Failed to execute 'importKey' on 'SubtleCrypto': key data must be a JsonWebKey for the jwk format.")
	}
	if format != fmtJwk && kd.jwk != nil {
		s.r.TypeError("Failed to execute 'importKey' on 'SubtleCrypto': key data must be a BufferSource for the %s format.", format)
	}
	a := s.normalize(opImportKey, alg)
	kd.bytes = bytes.Clone(kd.bytes) // the key keeps them
	return s.settle(false, func() (any, error) { return importKeyChecked(format, kd, a, extractable, usages) })
}

// importKeyChecked is importKey's Go steps: the algorithm's import, then
// the common checks and slots.
func importKeyChecked(format keyFormat, kd keyData, a *algorithm, extractable bool, usages usage) (*cryptoKey, error) {
	k, err := importKey(format, kd, a, extractable, usages)
	if err != nil {
		return nil, err
	}
	if (k.typ == secretKey || k.typ == privateKey) && usages == 0 {
		return nil, errf(syntaxError, "Usages cannot be empty when importing a %s key.", k.typ)
	}
	k.extractable = extractable
	k.usages = usages
	return k, nil
}

func (s *state) exportKey(c goja.FunctionCall) goja.Value {
	format := s.formatArg(c.Argument(0), "exportKey")
	k := s.keyArg(c.Argument(1), "exportKey", 2)
	return s.settle(false, func() (any, error) { return exportKeyChecked(format, k) })
}

func exportKeyChecked(format keyFormat, k *cryptoKey) (any, error) {
	if k.alg.name == aPBKDF2 || k.alg.name == aHKDF {
		return nil, errf(notSupported, "Unable to export a %s key", k.alg.name)
	}
	if !k.extractable {
		return nil, errf(invalidAccess, "key is not extractable")
	}
	return exportKey(format, k)
}

func (s *state) deriveBits(c goja.FunctionCall) goja.Value {
	alg := s.algIdentifier(c.Argument(0))
	k := s.keyArg(c.Argument(1), "deriveBits", 2)
	length, hasLength := -1, false
	if v := c.Argument(2); !webidl.IsNullish(v) {
		length, hasLength = int(s.r.Integer(v, 32, false, webidl.Wrap)), true
	}
	a := s.normalize(opDeriveBits, alg)
	return s.settle(isHeavy(opDeriveBits, a, k, length), func() (any, error) {
		if err := checkKey(a, k, uDeriveBits, "deriveBits"); err != nil {
			return nil, err
		}
		return deriveBits(a, k, length, hasLength)
	})
}

func (s *state) deriveKey(c goja.FunctionCall) goja.Value {
	alg := s.algIdentifier(c.Argument(0))
	k := s.keyArg(c.Argument(1), "deriveKey", 2)
	derived := s.algIdentifier(c.Argument(2))
	extractable := webidl.Bool(c.Argument(3))
	usages := s.usagesArg(c.Argument(4), "deriveKey", 5)
	a := s.normalize(opDeriveBits, alg)
	imp := s.normalize(opImportKey, derived)
	kl := s.normalize(opGetKeyLength, derived)
	return s.settle(isHeavy(opDeriveBits, a, k, 256), func() (any, error) {
		if err := checkKey(a, k, uDeriveKey, "deriveKey"); err != nil {
			return nil, err
		}
		length, hasLength, err := keyLength(kl)
		if err != nil {
			return nil, err
		}
		secret, err := deriveBits(a, k, length, hasLength)
		if err != nil {
			return nil, err
		}
		return importKeyChecked(fmtRaw, keyData{bytes: secret.([]byte)}, imp, extractable, usages)
	})
}

// normalizeWrap normalizes a wrapping algorithm for wrapKey/unwrapKey,
// falling back to encrypt/decrypt as the spec says.
func (s *state) normalizeWrap(o, fallback op, v goja.Value) (a *algorithm, viaCrypt bool) {
	name := ""
	if obj, ok := v.(*goja.Object); ok {
		if n := obj.Get("name"); n != nil && !goja.IsUndefined(n) {
			name = s.r.String(n)
		}
	} else {
		name = s.r.String(v)
	}
	if _, ok := registry[o][asciiUpper(name)]; ok {
		return s.normalize(o, v), false
	}
	return s.normalize(fallback, v), true
}

func (s *state) wrapKey(c goja.FunctionCall) goja.Value {
	format := s.formatArg(c.Argument(0), "wrapKey")
	k := s.keyArg(c.Argument(1), "wrapKey", 2)
	wk := s.keyArg(c.Argument(2), "wrapKey", 3)
	alg := s.algIdentifier(c.Argument(3))
	a, viaCrypt := s.normalizeWrap(opWrapKey, opEncrypt, alg)
	return s.settle(isHeavy(opEncrypt, a, wk, 0), func() (any, error) {
		if err := checkKey(a, wk, uWrapKey, "wrapKey"); err != nil {
			return nil, err
		}
		exported, err := exportKeyChecked(format, k)
		if err != nil {
			return nil, err
		}
		b, ok := exported.([]byte)
		if !ok {
			b = exported.(*jwk).json()
		}
		if viaCrypt {
			return encrypt(a, wk, b)
		}
		return aesKWWrap(wk, b)
	})
}

func (s *state) unwrapKey(c goja.FunctionCall) goja.Value {
	format := s.formatArg(c.Argument(0), "unwrapKey")
	wrapped := bytes.Clone(s.bytesArg(c.Argument(1), "unwrapKey", 2))
	uk := s.keyArg(c.Argument(2), "unwrapKey", 3)
	alg := s.algIdentifier(c.Argument(3))
	keyAlgV := s.algIdentifier(c.Argument(4))
	extractable := webidl.Bool(c.Argument(5))
	usages := s.usagesArg(c.Argument(6), "unwrapKey", 7)
	a, viaCrypt := s.normalizeWrap(opUnwrapKey, opDecrypt, alg)
	imp := s.normalize(opImportKey, keyAlgV)
	return s.settle(isHeavy(opDecrypt, a, uk, 0), func() (any, error) {
		if err := checkKey(a, uk, uUnwrapKey, "unwrapKey"); err != nil {
			return nil, err
		}
		var res any
		var err error
		if viaCrypt {
			res, err = decrypt(a, uk, wrapped)
		} else {
			res, err = aesKWUnwrap(uk, wrapped)
		}
		if err != nil {
			return nil, err
		}
		b := res.([]byte)
		kd := keyData{bytes: b}
		if format == fmtJwk {
			j, err := parseJWKJSON(b)
			if err != nil {
				return nil, err
			}
			kd = keyData{jwk: j}
		}
		return importKeyChecked(format, kd, imp, extractable, usages)
	})
}
