package crypto

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"math/big"
)

// ECDSA and ECDH on P-256, P-384 and P-521: keys are *ecdsa.PrivateKey /
// *ecdsa.PublicKey for both (ECDH converts them with .ECDH()).

func curveByName(name string) (elliptic.Curve, bool) {
	switch name {
	case "P-256":
		return elliptic.P256(), true
	case "P-384":
		return elliptic.P384(), true
	case "P-521":
		return elliptic.P521(), true
	}
	return nil, false
}

func curveName(c elliptic.Curve) string {
	switch c {
	case elliptic.P256():
		return "P-256"
	case elliptic.P384():
		return "P-384"
	case elliptic.P521():
		return "P-521"
	}
	return ""
}

func curveBytes(c elliptic.Curve) int { return (c.Params().BitSize + 7) / 8 }

// ecUsages are the usages an ECDSA or ECDH private and public key allow.
func ecUsages(name string) (priv, pub usage) {
	if name == aECDSA || name == aEd25519 {
		return uSign, uVerify
	}
	return uDeriveKey | uDeriveBits, 0
}

func ecGenerate(a *algorithm, extractable bool, usages usage) (any, error) {
	privU, pubU := ecUsages(a.name)
	if !(privU | pubU).has(usages) {
		return nil, errf(syntaxError, "Unsupported key usage for an %s key", a.name)
	}
	curve, ok := curveByName(a.namedCurve)
	if !ok {
		return nil, errf(notSupported, "Unrecognized namedCurve")
	}
	priv, err := ecdsa.GenerateKey(curve, rand.Reader)
	if err != nil {
		return nil, errf(operation, "%s", err.Error())
	}
	alg := keyAlg{name: a.name, namedCurve: a.namedCurve}
	return keyPair{
		public:  &cryptoKey{typ: publicKey, extractable: true, usages: usages & pubU, alg: alg, material: &priv.PublicKey},
		private: &cryptoKey{typ: privateKey, extractable: extractable, usages: usages & privU, alg: alg, material: priv},
	}, nil
}

var ecdsaJWKAlg = map[string]string{"P-256": "ES256", "P-384": "ES384", "P-521": "ES512"}

func ecImport(format keyFormat, kd keyData, a *algorithm, extractable bool, usages usage) (*cryptoKey, error) {
	privU, pubU := ecUsages(a.name)
	wantPriv := format == fmtPkcs8 || format == fmtJwk && kd.jwk != nil && hasField(kd.jwk, "d")
	if wantPriv && !privU.has(usages) || !wantPriv && !pubU.has(usages) {
		return nil, errf(syntaxError, "Unsupported key usage for an %s key", a.name)
	}
	curve, ok := curveByName(a.namedCurve)
	if !ok {
		return nil, errf(notSupported, "Unrecognized namedCurve")
	}
	k := &cryptoKey{typ: publicKey, alg: keyAlg{name: a.name, namedCurve: a.namedCurve}}
	switch format {
	case fmtSpki:
		pk, err := x509.ParsePKIXPublicKey(kd.bytes)
		pub, ok := pk.(*ecdsa.PublicKey)
		if err != nil || !ok {
			return nil, errf(dataError, "Invalid keyData")
		}
		if pub.Curve != curve {
			return nil, errf(dataError, "Named curve mismatch")
		}
		k.material = pub
	case fmtPkcs8:
		pk, err := x509.ParsePKCS8PrivateKey(kd.bytes)
		priv, ok := pk.(*ecdsa.PrivateKey)
		if err != nil || !ok {
			return nil, errf(dataError, "Invalid keyData")
		}
		if priv.Curve != curve {
			return nil, errf(dataError, "Named curve mismatch")
		}
		k.typ, k.material = privateKey, priv
	case fmtRaw:
		pub, err := ecPoint(curve, kd.bytes)
		if err != nil {
			return nil, err
		}
		k.material = pub
	case fmtJwk:
		return ecImportJWK(kd.jwk, k, curve, a, extractable, usages)
	}
	return k, nil
}

func hasField(j *jwk, name string) bool { _, ok := j.get(name); return ok }

// ecPoint parses an uncompressed or compressed point.
func ecPoint(curve elliptic.Curve, b []byte) (*ecdsa.PublicKey, error) {
	if len(b) > 0 && (b[0] == 2 || b[0] == 3) {
		x, y := elliptic.UnmarshalCompressed(curve, b)
		if x == nil {
			return nil, errf(dataError, "Invalid keyData")
		}
		n := curveBytes(curve)
		u := make([]byte, 1+2*n)
		u[0] = 4
		x.FillBytes(u[1 : 1+n])
		y.FillBytes(u[1+n:])
		b = u
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(curve, b)
	if err != nil {
		return nil, errf(dataError, "Invalid keyData")
	}
	return pub, nil
}

func ecImportJWK(j *jwk, k *cryptoKey, curve elliptic.Curve, a *algorithm, extractable bool, usages usage) (*cryptoKey, error) {
	use := "sig"
	if a.name == aECDH {
		use = "enc"
	}
	if err := checkJWKCommon(j, "EC", use, usages, extractable); err != nil {
		return nil, err
	}
	if crv, _ := j.get("crv"); crv != a.namedCurve {
		return nil, errf(dataError, "JWK \"crv\" does not match the requested namedCurve")
	}
	if a.name == aECDSA {
		if err := checkJWKAlg(j, ecdsaJWKAlg[a.namedCurve]); err != nil {
			return nil, err
		}
	}
	x, err := j.need("x")
	if err != nil {
		return nil, err
	}
	y, err := j.need("y")
	if err != nil {
		return nil, err
	}
	n := curveBytes(curve)
	if len(x) != n || len(y) != n {
		return nil, errf(dataError, "Invalid JWK \"x\" or \"y\"")
	}
	pub, err := ecPoint(curve, append(append([]byte{4}, x...), y...))
	if err != nil {
		return nil, err
	}
	k.material = pub
	d, hasD, err := j.bytes("d")
	if err != nil {
		return nil, err
	}
	if hasD {
		if len(d) != n {
			return nil, errf(dataError, "Invalid JWK \"d\"")
		}
		priv, err := ecdsa.ParseRawPrivateKey(curve, d)
		if err != nil || !priv.PublicKey.Equal(pub) {
			return nil, errf(dataError, "Invalid JWK private key")
		}
		k.typ, k.material = privateKey, priv
	}
	return k, nil
}

func ecExport(format keyFormat, k *cryptoKey) (any, error) {
	switch format {
	case fmtSpki, fmtRaw:
		if k.typ != publicKey {
			return nil, errf(invalidAccess, "Unable to export a %s %s key using %s format", format, k.alg.name, format)
		}
		pub := k.material.(*ecdsa.PublicKey)
		if format == fmtRaw {
			return pub.Bytes()
		}
		return x509.MarshalPKIXPublicKey(pub)
	case fmtPkcs8:
		if k.typ != privateKey {
			return nil, errf(invalidAccess, "Unable to export a public %s key using pkcs8 format", k.alg.name)
		}
		return x509.MarshalPKCS8PrivateKey(k.material.(*ecdsa.PrivateKey))
	}
	j := exportJWK(k)
	j.set("kty", "EC")
	var pub *ecdsa.PublicKey
	var priv *ecdsa.PrivateKey
	if k.typ == privateKey {
		priv = k.material.(*ecdsa.PrivateKey)
		pub = &priv.PublicKey
	} else {
		pub = k.material.(*ecdsa.PublicKey)
	}
	b, err := pub.Bytes()
	if err != nil {
		return nil, errf(operation, "%s", err.Error())
	}
	n := curveBytes(pub.Curve)
	j.setBytes("x", b[1:1+n])
	j.setBytes("y", b[1+n:])
	j.set("crv", k.alg.namedCurve)
	if priv != nil {
		d, err := priv.Bytes()
		if err != nil {
			return nil, errf(operation, "%s", err.Error())
		}
		j.setBytes("d", d)
	}
	return j, nil
}

// ecdsaSign returns r||s, each as wide as the curve's order.
func ecdsaSign(a *algorithm, priv *ecdsa.PrivateKey, data []byte) (any, error) {
	r, s, err := ecdsa.Sign(rand.Reader, priv, digest(a.hash, data))
	if err != nil {
		return nil, errf(operation, "%s", err.Error())
	}
	n := curveBytes(priv.Curve)
	out := make([]byte, 2*n)
	r.FillBytes(out[:n])
	s.FillBytes(out[n:])
	return out, nil
}

func ecdsaVerify(a *algorithm, pub *ecdsa.PublicKey, sig, data []byte) bool {
	n := curveBytes(pub.Curve)
	if len(sig) != 2*n {
		return false
	}
	r := new(big.Int).SetBytes(sig[:n])
	s := new(big.Int).SetBytes(sig[n:])
	return ecdsa.Verify(pub, digest(a.hash, data), r, s)
}
