package crypto

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"

	"bext/web/webidl"

	"github.com/dop251/goja"
)

// jwk is a JsonWebKey: its string members in order (the order exportKey
// emits them in, which is Node 20's), key_ops and ext.
type jwk struct {
	fields    []jwkField
	keyOps    []string
	hasKeyOps bool
	ext       bool
	hasExt    bool
	hasOth    bool
}

type jwkField struct{ name, value string }

// jwkStringMembers are JsonWebKey's DOMString members, in IDL order.
var jwkStringMembers = []string{"alg", "crv", "d", "dp", "dq", "e", "k", "kty", "n", "p", "q", "qi", "use", "x", "y"}

func (j *jwk) get(name string) (string, bool) {
	for _, f := range j.fields {
		if f.name == name {
			return f.value, true
		}
	}
	return "", false
}

func (j *jwk) set(name, value string) { j.fields = append(j.fields, jwkField{name, value}) }

func (j *jwk) setBytes(name string, b []byte) { j.set(name, base64.RawURLEncoding.EncodeToString(b)) }

// bytes decodes member name (base64url); ok is false when it is absent,
// err a DataError when it is not base64url.
func (j *jwk) bytes(name string) (b []byte, ok bool, err error) {
	v, ok := j.get(name)
	if !ok {
		return nil, false, nil
	}
	b, e := base64.RawURLEncoding.DecodeString(strings.TrimRight(v, "="))
	if e != nil {
		return nil, true, errf(dataError, "JWK %q is not base64url", name)
	}
	return b, true, nil
}

// need is bytes for a required member.
func (j *jwk) need(name string) ([]byte, error) {
	b, ok, err := j.bytes(name)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errf(dataError, "JWK %q is required", name)
	}
	return b, nil
}

// jwkArg converts a JsonWebKey dictionary.
func (s *state) jwkArg(v goja.Value) *jwk {
	r := s.r
	j := &jwk{}
	o := r.Dict(v, "JsonWebKey")
	for _, name := range jwkStringMembers {
		switch name {
		case "e": // members sort as alg crv d dp dq e ext k key_ops kty n oth p …
			j.readString(r, o, name)
			if x := webidl.Member(o, "ext"); x != nil {
				j.ext, j.hasExt = webidl.Bool(x), true
			}
			continue
		case "kty":
			if x := webidl.Member(o, "key_ops"); x != nil {
				j.hasKeyOps = true
				j.keyOps = []string{}
				r.Iterate(x, func(e goja.Value) { j.keyOps = append(j.keyOps, r.String(e)) })
			}
		case "p":
			if x := webidl.Member(o, "oth"); x != nil {
				j.hasOth = true
			}
		}
		j.readString(r, o, name)
	}
	return j
}

func (j *jwk) readString(r *webidl.Realm, o *goja.Object, name string) {
	if x := webidl.Member(o, name); x != nil {
		j.set(name, r.String(x))
	}
}

// parseJWKJSON is unwrapKey's "parse a JWK": JSON text to a JsonWebKey.
func parseJWKJSON(b []byte) (*jwk, error) {
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(b))
	if err := d.Decode(&m); err != nil || m == nil {
		return nil, errf(dataError, "The unwrapped key is not a JSON Web Key")
	}
	j := &jwk{}
	for _, name := range jwkStringMembers {
		if v, ok := m[name]; ok {
			s, isStr := v.(string)
			if !isStr {
				return nil, errf(dataError, "JWK %q is not a string", name)
			}
			j.set(name, s)
		}
	}
	if v, ok := m["key_ops"]; ok {
		ops, isArr := v.([]any)
		if !isArr {
			return nil, errf(dataError, "JWK \"key_ops\" is not an array")
		}
		j.hasKeyOps, j.keyOps = true, []string{}
		for _, op := range ops {
			s, isStr := op.(string)
			if !isStr {
				return nil, errf(dataError, "JWK \"key_ops\" holds a non-string")
			}
			j.keyOps = append(j.keyOps, s)
		}
	}
	if v, ok := m["ext"]; ok {
		b, isBool := v.(bool)
		if !isBool {
			return nil, errf(dataError, "JWK \"ext\" is not a boolean")
		}
		j.ext, j.hasExt = b, true
	}
	_, j.hasOth = m["oth"]
	if _, ok := j.get("kty"); !ok {
		return nil, errf(dataError, "JWK \"kty\" is required")
	}
	return j, nil
}

// exportJWK starts a JWK for k: key_ops and ext first, as Node 20 emits.
func exportJWK(k *cryptoKey) *jwk {
	return &jwk{keyOps: k.usages.names(), hasKeyOps: true, ext: k.extractable, hasExt: true}
}

func (s *state) jwkObject(j *jwk) *goja.Object {
	rt := s.r.RT
	o := rt.NewObject()
	if j.hasKeyOps {
		ops := make([]any, len(j.keyOps))
		for i, v := range j.keyOps {
			ops[i] = v
		}
		_ = o.Set("key_ops", rt.NewArray(ops...))
	}
	if j.hasExt {
		_ = o.Set("ext", j.ext)
	}
	for _, f := range j.fields {
		_ = o.Set(f.name, f.value)
	}
	return o
}

// json is the JWK's JSON text, as wrapKey wraps it.
func (j *jwk) json() []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	sep := func() {
		if !first {
			b.WriteByte(',')
		}
		first = false
	}
	str := func(s string) { v, _ := json.Marshal(s); b.Write(v) }
	if j.hasKeyOps {
		sep()
		b.WriteString(`"key_ops":[`)
		for i, op := range j.keyOps {
			if i > 0 {
				b.WriteByte(',')
			}
			str(op)
		}
		b.WriteByte(']')
	}
	if j.hasExt {
		sep()
		if j.ext {
			b.WriteString(`"ext":true`)
		} else {
			b.WriteString(`"ext":false`)
		}
	}
	for _, f := range j.fields {
		sep()
		str(f.name)
		b.WriteByte(':')
		str(f.value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// checkJWKCommon runs the checks every algorithm's JWK import makes: kty,
// use (when usages are asked for), key_ops (valid and holding every
// usage) and ext.
func checkJWKCommon(j *jwk, kty, use string, usages usage, extractable bool) error {
	if v, _ := j.get("kty"); v != kty {
		return errf(dataError, "The JWK \"kty\" member was not %q", kty)
	}
	if v, ok := j.get("use"); ok && usages != 0 && v != use {
		return errf(dataError, "The JWK \"use\" member was not %q", use)
	}
	if j.hasKeyOps {
		var ops usage
		for i, op := range j.keyOps {
			if slices.Contains(j.keyOps[:i], op) {
				return errf(dataError, "The JWK \"key_ops\" member holds %q twice", op)
			}
			ops |= usageFromName(op)
		}
		if !ops.has(usages) {
			return errf(dataError, "The JWK \"key_ops\" member does not hold every usage asked for")
		}
	}
	if j.hasExt && !j.ext && extractable {
		return errf(dataError, "The JWK \"ext\" member is false but the key is to be extractable")
	}
	return nil
}

// checkJWKAlg fails when the JWK has an alg other than want.
func checkJWKAlg(j *jwk, want string) error {
	if v, ok := j.get("alg"); ok && v != want {
		return errf(dataError, "JWK \"alg\" does not match the requested algorithm")
	}
	return nil
}
