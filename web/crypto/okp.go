package crypto

import (
	"bytes"
	"crypto/ecdh"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
)

// Ed25519 (ed25519.PrivateKey / PublicKey) and X25519 (*ecdh.PrivateKey /
// *ecdh.PublicKey).

func okpGenerate(a *algorithm, extractable bool, usages usage) (any, error) {
	privU, pubU := ecUsages(a.name)
	if !(privU | pubU).has(usages) {
		return nil, errf(syntaxError, "Unsupported key usage for an %s key", a.name)
	}
	var pub, priv any
	if a.name == aEd25519 {
		pk, sk, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return nil, errf(operation, "%s", err.Error())
		}
		pub, priv = pk, sk
	} else {
		sk, err := ecdh.X25519().GenerateKey(rand.Reader)
		if err != nil {
			return nil, errf(operation, "%s", err.Error())
		}
		pub, priv = sk.PublicKey(), sk
	}
	alg := keyAlg{name: a.name}
	return keyPair{
		public:  &cryptoKey{typ: publicKey, extractable: true, usages: usages & pubU, alg: alg, material: pub},
		private: &cryptoKey{typ: privateKey, extractable: extractable, usages: usages & privU, alg: alg, material: priv},
	}, nil
}

func okpImport(format keyFormat, kd keyData, a *algorithm, extractable bool, usages usage) (*cryptoKey, error) {
	privU, pubU := ecUsages(a.name)
	wantPriv := format == fmtPkcs8 || format == fmtJwk && hasField(kd.jwk, "d")
	if wantPriv && !privU.has(usages) || !wantPriv && !pubU.has(usages) {
		return nil, errf(syntaxError, "Unsupported key usage for an %s key", a.name)
	}
	k := &cryptoKey{typ: publicKey, alg: keyAlg{name: a.name}}
	ed := a.name == aEd25519
	switch format {
	case fmtSpki:
		pk, err := x509.ParsePKIXPublicKey(kd.bytes)
		if err != nil {
			return nil, errf(dataError, "Invalid keyData")
		}
		switch pub := pk.(type) {
		case ed25519.PublicKey:
			if ed {
				k.material = pub
			}
		case *ecdh.PublicKey:
			if !ed && pub.Curve() == ecdh.X25519() {
				k.material = pub
			}
		}
	case fmtPkcs8:
		pk, err := x509.ParsePKCS8PrivateKey(kd.bytes)
		if err != nil {
			return nil, errf(dataError, "Invalid keyData")
		}
		k.typ = privateKey
		switch priv := pk.(type) {
		case ed25519.PrivateKey:
			if ed {
				k.material = priv
			}
		case *ecdh.PrivateKey:
			if !ed && priv.Curve() == ecdh.X25519() {
				k.material = priv
			}
		}
	case fmtRaw:
		pub, err := okpPublic(ed, kd.bytes)
		if err != nil {
			return nil, err
		}
		k.material = pub
	case fmtJwk:
		return okpImportJWK(kd.jwk, k, ed, extractable, usages)
	}
	if k.material == nil {
		return nil, errf(dataError, "Invalid keyData")
	}
	return k, nil
}

func okpPublic(ed bool, b []byte) (any, error) {
	if len(b) != 32 {
		return nil, errf(dataError, "Invalid keyData")
	}
	if ed {
		return ed25519.PublicKey(bytes.Clone(b)), nil
	}
	pub, err := ecdh.X25519().NewPublicKey(b)
	if err != nil {
		return nil, errf(dataError, "Invalid keyData")
	}
	return pub, nil
}

func okpImportJWK(j *jwk, k *cryptoKey, ed bool, extractable bool, usages usage) (*cryptoKey, error) {
	use := "enc"
	if ed {
		use = "sig"
	}
	if err := checkJWKCommon(j, "OKP", use, usages, extractable); err != nil {
		return nil, err
	}
	if crv, _ := j.get("crv"); crv != k.alg.name {
		return nil, errf(dataError, "JWK \"crv\" does not match the requested algorithm")
	}
	if alg, ok := j.get("alg"); ed && ok && alg != "Ed25519" && alg != "EdDSA" {
		return nil, errf(dataError, "JWK \"alg\" does not match the requested algorithm")
	}
	x, err := j.need("x")
	if err != nil {
		return nil, err
	}
	pub, err := okpPublic(ed, x)
	if err != nil {
		return nil, err
	}
	k.material = pub
	d, hasD, err := j.bytes("d")
	if err != nil {
		return nil, err
	}
	if !hasD {
		return k, nil
	}
	if len(d) != 32 {
		return nil, errf(dataError, "Invalid JWK \"d\"")
	}
	k.typ = privateKey
	if ed {
		priv := ed25519.NewKeyFromSeed(d)
		if !bytes.Equal(priv.Public().(ed25519.PublicKey), x) {
			return nil, errf(dataError, "Invalid JWK private key")
		}
		k.material = priv
		return k, nil
	}
	priv, err := ecdh.X25519().NewPrivateKey(d)
	if err != nil || !bytes.Equal(priv.PublicKey().Bytes(), x) {
		return nil, errf(dataError, "Invalid JWK private key")
	}
	k.material = priv
	return k, nil
}

func okpExport(format keyFormat, k *cryptoKey) (any, error) {
	ed := k.alg.name == aEd25519
	switch format {
	case fmtSpki, fmtRaw:
		if k.typ != publicKey {
			return nil, errf(invalidAccess, "Unable to export a %s %s private key", format, k.alg.name)
		}
		if format == fmtSpki {
			return x509.MarshalPKIXPublicKey(k.material)
		}
		if ed {
			return bytes.Clone(k.material.(ed25519.PublicKey)), nil
		}
		return k.material.(*ecdh.PublicKey).Bytes(), nil
	case fmtPkcs8:
		if k.typ != privateKey {
			return nil, errf(invalidAccess, "Unable to export a public %s key using pkcs8 format", k.alg.name)
		}
		return x509.MarshalPKCS8PrivateKey(k.material)
	}
	j := exportJWK(k)
	j.set("crv", k.alg.name)
	var x, d []byte
	switch m := k.material.(type) {
	case ed25519.PrivateKey:
		x, d = m.Public().(ed25519.PublicKey), m.Seed()
	case ed25519.PublicKey:
		x = m
	case *ecdh.PrivateKey:
		x, d = m.PublicKey().Bytes(), m.Bytes()
	case *ecdh.PublicKey:
		x = m.Bytes()
	}
	if d != nil {
		j.setBytes("d", d)
	}
	j.setBytes("x", x)
	j.set("kty", "OKP")
	if ed {
		j.set("alg", "Ed25519")
	}
	return j, nil
}
