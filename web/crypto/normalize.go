package crypto

import (
	"bext/web/webidl"

	"github.com/dop251/goja"
)

// The spec's "normalize an algorithm": an AlgorithmIdentifier (a string or
// an object with a name) becomes the IDL dictionary the registered
// algorithm asks for in that operation. Names match ASCII
// case-insensitively and come back in their registered spelling; an
// unknown name is a NotSupportedError, a missing required member a
// TypeError, a hash member is itself normalized for "digest".

type op uint8

const (
	opEncrypt op = iota
	opDecrypt
	opSign
	opVerify
	opDigest
	opGenerateKey
	opDeriveBits
	opImportKey
	opGetKeyLength
	opWrapKey
	opUnwrapKey
	nOps
)

// dictKind is the IDL dictionary an algorithm's parameters convert to.
type dictKind uint8

const (
	dAlgorithm  dictKind = iota
	dHmacImport          // HmacImportParams, HmacKeyGenParams: hash, length?
	dAesKeyGen           // AesKeyGenParams, AesDerivedKeyParams: length
	dAesCbc              // iv
	dAesCtr              // counter, length
	dAesGcm              // iv, additionalData?, tagLength?
	dPbkdf2              // salt, iterations, hash
	dHkdf                // hash, salt, info
	dEcKey               // EcKeyGenParams, EcKeyImportParams: namedCurve
	dEcdsa               // hash
	dEcdhDerive          // public
	dRsaKeyGen           // modulusLength, publicExponent, hash
	dRsaImport           // hash
	dRsaPss              // saltLength
	dRsaOaep             // label?
)

var dictNames = [...]string{"Algorithm", "HmacImportParams", "AesKeyGenParams", "AesCbcParams", "AesCtrParams",
	"AesGcmParams", "Pbkdf2Params", "HkdfParams", "EcKeyImportParams", "EcdsaParams", "EcdhKeyDeriveParams",
	"RsaHashedKeyGenParams", "RsaHashedImportParams", "RsaPssParams", "RsaOaepParams"}

// The registered algorithm names.
const (
	aSHA1      = "SHA-1"
	aSHA256    = "SHA-256"
	aSHA384    = "SHA-384"
	aSHA512    = "SHA-512"
	aHMAC      = "HMAC"
	aAESCTR    = "AES-CTR"
	aAESCBC    = "AES-CBC"
	aAESGCM    = "AES-GCM"
	aAESKW     = "AES-KW"
	aPBKDF2    = "PBKDF2"
	aHKDF      = "HKDF"
	aECDSA     = "ECDSA"
	aECDH      = "ECDH"
	aEd25519   = "Ed25519"
	aX25519    = "X25519"
	aRSASSA    = "RSASSA-PKCS1-v1_5"
	aRSAPSS    = "RSA-PSS"
	aRSAOAEP   = "RSA-OAEP"
	nameLenMax = len(aRSASSA)
)

// registry maps each operation to the algorithms that support it (by
// upper-cased name) and the dictionary their parameters convert to.
var registry [nOps]map[string]regEntry

type regEntry struct {
	name string
	dict dictKind
}

func register(o op, name string, d dictKind) {
	if registry[o] == nil {
		registry[o] = map[string]regEntry{}
	}
	registry[o][asciiUpper(name)] = regEntry{name, d}
}

func init() {
	for _, h := range []string{aSHA1, aSHA256, aSHA384, aSHA512} {
		register(opDigest, h, dAlgorithm)
	}
	register(opSign, aHMAC, dAlgorithm)
	register(opVerify, aHMAC, dAlgorithm)
	register(opGenerateKey, aHMAC, dHmacImport)
	register(opImportKey, aHMAC, dHmacImport)
	register(opGetKeyLength, aHMAC, dHmacImport)

	aesParams := map[string]dictKind{aAESCTR: dAesCtr, aAESCBC: dAesCbc, aAESGCM: dAesGcm}
	for name, d := range aesParams {
		register(opEncrypt, name, d)
		register(opDecrypt, name, d)
	}
	for _, name := range []string{aAESCTR, aAESCBC, aAESGCM, aAESKW} {
		register(opGenerateKey, name, dAesKeyGen)
		register(opImportKey, name, dAlgorithm)
		register(opGetKeyLength, name, dAesKeyGen)
	}
	register(opWrapKey, aAESKW, dAlgorithm)
	register(opUnwrapKey, aAESKW, dAlgorithm)

	for name, d := range map[string]dictKind{aPBKDF2: dPbkdf2, aHKDF: dHkdf} {
		register(opImportKey, name, dAlgorithm)
		register(opDeriveBits, name, d)
		register(opGetKeyLength, name, dAlgorithm)
	}

	for _, name := range []string{aECDSA, aECDH} {
		register(opGenerateKey, name, dEcKey)
		register(opImportKey, name, dEcKey)
	}
	register(opSign, aECDSA, dEcdsa)
	register(opVerify, aECDSA, dEcdsa)
	register(opDeriveBits, aECDH, dEcdhDerive)

	for _, name := range []string{aEd25519, aX25519} {
		register(opGenerateKey, name, dAlgorithm)
		register(opImportKey, name, dAlgorithm)
	}
	register(opSign, aEd25519, dAlgorithm)
	register(opVerify, aEd25519, dAlgorithm)
	register(opDeriveBits, aX25519, dEcdhDerive)

	for _, name := range []string{aRSASSA, aRSAPSS, aRSAOAEP} {
		register(opGenerateKey, name, dRsaKeyGen)
		register(opImportKey, name, dRsaImport)
	}
	register(opSign, aRSASSA, dAlgorithm)
	register(opVerify, aRSASSA, dAlgorithm)
	register(opSign, aRSAPSS, dRsaPss)
	register(opVerify, aRSAPSS, dRsaPss)
	register(opEncrypt, aRSAOAEP, dRsaOaep)
	register(opDecrypt, aRSAOAEP, dRsaOaep)
}

// algorithm is a normalized algorithm: the name in its registered
// spelling and the members of its dictionary (zero when absent).
type algorithm struct {
	name string
	hash string // a normalized digest name

	length    int // HmacImportParams (optional), AesKeyGenParams, AesCtrParams
	hasLength bool

	iv, counter, additionalData, salt, info, label []byte
	hasAdditionalData, hasLabel                    bool
	tagLength                                      int
	hasTagLength                                   bool

	iterations     int
	saltLength     int
	namedCurve     string
	modulusLength  int
	publicExponent []byte
	public         *cryptoKey
}

// algIdentifier converts an AlgorithmIdentifier argument: an object as
// is, anything else to a string (a Symbol throws).
func (s *state) algIdentifier(v goja.Value) goja.Value {
	if _, ok := v.(*goja.Object); ok {
		return v
	}
	return s.r.RT.ToValue(s.r.String(v))
}

// normalize is the spec's "normalize an algorithm" for operation o. It
// throws (a JS exception) on failure.
func (s *state) normalize(o op, v goja.Value) *algorithm {
	r := s.r
	var obj *goja.Object
	var name string
	switch x := v.(type) {
	case *goja.Object:
		obj = x
		n := x.Get("name")
		if n == nil || goja.IsUndefined(n) {
			r.TypeError("Failed to normalize algorithm: passed algorithm can not be converted to 'Algorithm' because 'name' is required in 'Algorithm'.")
		}
		name = r.String(n)
	default:
		name = r.String(v)
	}
	var ent regEntry
	ok := false
	if len(name) <= nameLenMax {
		ent, ok = registry[o][asciiUpper(name)]
	}
	if !ok {
		r.ThrowDOMException("Unrecognized algorithm name", notSupported)
	}
	a := &algorithm{name: ent.name}
	if ent.dict == dAlgorithm {
		return a
	}
	if obj == nil {
		// A string names the algorithm only: every member of the
		// dictionary is then absent, and the required ones fail.
		obj = r.RT.NewObject()
	}
	d := dictReader{s: s, o: obj, dict: dictNames[ent.dict]}
	switch ent.dict {
	case dHmacImport:
		a.hash = d.hash("hash")
		a.length, a.hasLength = d.uint("length", 32, false)
	case dAesKeyGen:
		a.length, _ = d.uint("length", 16, true)
	case dAesCbc:
		a.iv = d.bytes("iv", true)
	case dAesCtr:
		a.counter = d.bytes("counter", true)
		a.length, _ = d.uint("length", 8, true)
	case dAesGcm:
		a.additionalData = d.bytes("additionalData", false)
		a.hasAdditionalData = a.additionalData != nil
		a.iv = d.bytes("iv", true)
		a.tagLength, a.hasTagLength = d.uint("tagLength", 8, false)
	case dPbkdf2:
		a.hash = d.hash("hash")
		a.iterations, _ = d.uint("iterations", 32, true)
		a.salt = d.bytes("salt", true)
	case dHkdf:
		a.hash = d.hash("hash")
		a.info = d.bytes("info", true)
		a.salt = d.bytes("salt", true)
	case dEcKey:
		a.namedCurve = d.str("namedCurve", true)
	case dEcdsa, dRsaImport:
		a.hash = d.hash("hash")
	case dEcdhDerive:
		v := d.get("public", true)
		k, ok := webidl.Slot[*cryptoKey](v)
		if !ok {
			r.TypeError("Failed to normalize algorithm: 'public' of '%s' is not of type CryptoKey.", d.dict)
		}
		a.public = k
	case dRsaKeyGen: // RsaKeyGenParams' members first, then hash
		a.modulusLength, _ = d.uint("modulusLength", 32, true)
		v := d.get("publicExponent", true)
		b, ok := v.Export().([]byte)
		if !ok || !isUint8Array(v) {
			r.TypeError("Failed to normalize algorithm: 'publicExponent' of '%s' is not of type Uint8Array.", d.dict)
		}
		a.publicExponent = append([]byte(nil), b...)
		a.hash = d.hash("hash")
	case dRsaPss:
		a.saltLength, _ = d.uint("saltLength", 32, true)
	case dRsaOaep:
		a.label = d.bytes("label", false)
		a.hasLabel = a.label != nil
	}
	return a
}

func isUint8Array(v goja.Value) bool {
	o, ok := v.(*goja.Object)
	if !ok {
		return false
	}
	tag, _ := o.GetSymbol(goja.SymToStringTag).(goja.String)
	return tag != nil && tag.String() == "Uint8Array"
}

// dictReader reads members of an algorithm dictionary, throwing the
// TypeErrors of the IDL conversion.
type dictReader struct {
	s    *state
	o    *goja.Object
	dict string
}

func (d dictReader) get(name string, required bool) goja.Value {
	v := d.o.Get(name)
	if v == nil || goja.IsUndefined(v) {
		if required {
			d.s.r.TypeError("Failed to normalize algorithm: passed algorithm can not be converted to '%s' because '%s' is required in '%s'.", d.dict, name, d.dict)
		}
		return nil
	}
	return v
}

func (d dictReader) uint(name string, bits int, required bool) (int, bool) {
	v := d.get(name, required)
	if v == nil {
		return 0, false
	}
	return int(d.s.r.Integer(v, bits, false, webidl.EnforceRange)), true
}

func (d dictReader) str(name string, required bool) string {
	v := d.get(name, required)
	if v == nil {
		return ""
	}
	return d.s.r.String(v)
}

// bytes is a BufferSource member, copied (nil when absent).
func (d dictReader) bytes(name string, required bool) []byte {
	v := d.get(name, required)
	if v == nil {
		return nil
	}
	b, ok := bufferSource(v)
	if !ok {
		d.s.r.TypeError("Failed to normalize algorithm: '%s' of '%s' is not instance of ArrayBuffer, Buffer, TypedArray, or DataView.", name, d.dict)
	}
	return append(make([]byte, 0, len(b)), b...)
}

// hash is a required HashAlgorithmIdentifier member, normalized for digest.
func (d dictReader) hash(name string) string {
	v := d.get(name, true)
	return d.s.normalize(opDigest, d.s.algIdentifier(v)).name
}

func asciiUpper(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'a' && c <= 'z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'a' && b[j] <= 'z' {
					b[j] -= 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// algorithm families, for a key's algorithm object and export.
type fam uint8

const (
	famOther fam = iota
	famHMAC
	famAES
	famEC
	famRSA
)

func family(name string) fam {
	switch name {
	case aHMAC:
		return famHMAC
	case aAESCTR, aAESCBC, aAESGCM, aAESKW:
		return famAES
	case aECDSA, aECDH:
		return famEC
	case aRSASSA, aRSAPSS, aRSAOAEP:
		return famRSA
	}
	return famOther
}
