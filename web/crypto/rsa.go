package crypto

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"math/big"
)

// RSASSA-PKCS1-v1_5, RSA-PSS and RSA-OAEP: keys are *rsa.PrivateKey /
// *rsa.PublicKey; the hash is the key's.

func rsaUsages(name string) (priv, pub usage) {
	if name == aRSAOAEP {
		return uDecrypt | uUnwrapKey, uEncrypt | uWrapKey
	}
	return uSign, uVerify
}

// exponent is the big-endian publicExponent as an int (0 when too large).
func exponent(b []byte) int {
	e := new(big.Int).SetBytes(b)
	if !e.IsInt64() || e.Int64() > 1<<31-1 {
		return 0
	}
	return int(e.Int64())
}

func exponentBytes(e int) []byte { return big.NewInt(int64(e)).Bytes() }

func rsaAlg(name, hash string, pub *rsa.PublicKey) keyAlg {
	return keyAlg{name: name, hash: hash, modulusLength: pub.N.BitLen(), publicExponent: exponentBytes(pub.E)}
}

func rsaGenerate(a *algorithm, extractable bool, usages usage) (any, error) {
	privU, pubU := rsaUsages(a.name)
	if !(privU | pubU).has(usages) {
		return nil, errf(syntaxError, "Unsupported key usage for an %s key", a.name)
	}
	if exponent(a.publicExponent) != 65537 {
		return nil, errf(operation, "bext generates RSA keys with the public exponent 65537 only")
	}
	if a.modulusLength < 1024 || a.modulusLength > 16384 {
		return nil, errf(operation, "modulusLength must be between 1024 and 16384 bits")
	}
	priv, err := rsa.GenerateKey(rand.Reader, a.modulusLength)
	if err != nil {
		return nil, errf(operation, "%s", err.Error())
	}
	alg := rsaAlg(a.name, a.hash, &priv.PublicKey)
	return keyPair{
		public:  &cryptoKey{typ: publicKey, extractable: true, usages: usages & pubU, alg: alg, material: &priv.PublicKey},
		private: &cryptoKey{typ: privateKey, extractable: extractable, usages: usages & privU, alg: alg, material: priv},
	}, nil
}

// rsaJWKAlg is the JWK alg of an RSA algorithm with a hash.
func rsaJWKAlg(name, hash string) string {
	bits := map[string]string{aSHA1: "1", aSHA256: "256", aSHA384: "384", aSHA512: "512"}[hash]
	switch name {
	case aRSASSA:
		return "RS" + bits
	case aRSAPSS:
		return "PS" + bits
	}
	if hash == aSHA1 {
		return "RSA-OAEP"
	}
	return "RSA-OAEP-" + bits
}

func rsaImport(format keyFormat, kd keyData, a *algorithm, extractable bool, usages usage) (*cryptoKey, error) {
	privU, pubU := rsaUsages(a.name)
	wantPriv := format == fmtPkcs8 || format == fmtJwk && hasField(kd.jwk, "d")
	if wantPriv && !privU.has(usages) || !wantPriv && !pubU.has(usages) {
		return nil, errf(syntaxError, "Unsupported key usage for an %s key", a.name)
	}
	k := &cryptoKey{typ: publicKey}
	var pub *rsa.PublicKey
	switch format {
	case fmtSpki:
		pk, err := x509.ParsePKIXPublicKey(kd.bytes)
		p, ok := pk.(*rsa.PublicKey)
		if err != nil || !ok {
			return nil, errf(dataError, "Invalid keyData")
		}
		k.material, pub = p, p
	case fmtPkcs8:
		pk, err := x509.ParsePKCS8PrivateKey(kd.bytes)
		p, ok := pk.(*rsa.PrivateKey)
		if err != nil || !ok {
			return nil, errf(dataError, "Invalid keyData")
		}
		k.typ, k.material, pub = privateKey, p, &p.PublicKey
	case fmtJwk:
		var err error
		if pub, err = rsaImportJWK(kd.jwk, k, a, extractable, usages); err != nil {
			return nil, err
		}
	default:
		return nil, errf(notSupported, "Unable to import RSA key with format %s", format)
	}
	k.alg = rsaAlg(a.name, a.hash, pub)
	return k, nil
}

func rsaImportJWK(j *jwk, k *cryptoKey, a *algorithm, extractable bool, usages usage) (*rsa.PublicKey, error) {
	use := "sig"
	if a.name == aRSAOAEP {
		use = "enc"
	}
	if err := checkJWKCommon(j, "RSA", use, usages, extractable); err != nil {
		return nil, err
	}
	if err := checkJWKAlg(j, rsaJWKAlg(a.name, a.hash)); err != nil {
		return nil, err
	}
	n, err := j.need("n")
	if err != nil {
		return nil, err
	}
	e, err := j.need("e")
	if err != nil {
		return nil, err
	}
	pub := &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: exponent(e)}
	if pub.E < 3 || pub.N.Sign() == 0 {
		return nil, errf(dataError, "Invalid JWK RSA public key")
	}
	if !hasField(j, "d") {
		k.material = pub
		return pub, nil
	}
	if j.hasOth {
		return nil, errf(notSupported, "RSA keys with more than two primes are not supported")
	}
	var ints [6]*big.Int
	for i, name := range []string{"d", "p", "q", "dp", "dq", "qi"} {
		b, err := j.need(name)
		if err != nil {
			return nil, err
		}
		ints[i] = new(big.Int).SetBytes(b)
	}
	priv := &rsa.PrivateKey{PublicKey: *pub, D: ints[0], Primes: []*big.Int{ints[1], ints[2]}}
	if err := priv.Validate(); err != nil {
		return nil, errf(dataError, "Invalid JWK RSA private key")
	}
	priv.Precompute()
	pc := priv.Precomputed
	if pc.Dp.Cmp(ints[3]) != 0 || pc.Dq.Cmp(ints[4]) != 0 || pc.Qinv.Cmp(ints[5]) != 0 {
		return nil, errf(dataError, "Invalid JWK RSA private key")
	}
	k.typ, k.material = privateKey, priv
	return &priv.PublicKey, nil
}

func rsaExport(format keyFormat, k *cryptoKey) (any, error) {
	switch format {
	case fmtSpki:
		if k.typ != publicKey {
			return nil, errf(invalidAccess, "Unable to export a private %s key using spki format", k.alg.name)
		}
		return x509.MarshalPKIXPublicKey(k.material)
	case fmtPkcs8:
		if k.typ != privateKey {
			return nil, errf(invalidAccess, "Unable to export a public %s key using pkcs8 format", k.alg.name)
		}
		return x509.MarshalPKCS8PrivateKey(k.material)
	case fmtRaw:
		return nil, errf(notSupported, "Unable to export an %s key using raw format", k.alg.name)
	}
	j := exportJWK(k)
	j.set("kty", "RSA")
	var priv *rsa.PrivateKey
	pub, ok := k.material.(*rsa.PublicKey)
	if !ok {
		priv = k.material.(*rsa.PrivateKey)
		pub = &priv.PublicKey
	}
	j.setBytes("n", pub.N.Bytes())
	j.setBytes("e", exponentBytes(pub.E))
	if priv != nil {
		if priv.Precomputed.Dp == nil {
			priv.Precompute()
		}
		j.setBytes("d", priv.D.Bytes())
		j.setBytes("p", priv.Primes[0].Bytes())
		j.setBytes("q", priv.Primes[1].Bytes())
		j.setBytes("dp", priv.Precomputed.Dp.Bytes())
		j.setBytes("dq", priv.Precomputed.Dq.Bytes())
		j.setBytes("qi", priv.Precomputed.Qinv.Bytes())
	}
	j.set("alg", rsaJWKAlg(k.alg.name, k.alg.hash))
	return j, nil
}

func rsaSign(a *algorithm, k *cryptoKey, data []byte) (any, error) {
	priv := k.material.(*rsa.PrivateKey)
	h := k.alg.hash
	d := digest(h, data)
	var sig []byte
	var err error
	switch {
	case a.name == aRSASSA:
		sig, err = rsa.SignPKCS1v15(nil, priv, cryptoHash(h), d)
	case a.saltLength == 0: // Go reads 0 as "any length": see pssZeroSalt
		sig, err = pssZeroSaltSign(priv, h, d)
	default:
		sig, err = rsa.SignPSS(rand.Reader, priv, cryptoHash(h), d, &rsa.PSSOptions{SaltLength: a.saltLength})
	}
	if err != nil {
		return nil, errf(operation, "%s", err.Error())
	}
	return sig, nil
}

func rsaVerify(a *algorithm, k *cryptoKey, sig, data []byte) bool {
	pub := k.material.(*rsa.PublicKey)
	h := k.alg.hash
	d := digest(h, data)
	switch {
	case a.name == aRSASSA:
		return rsa.VerifyPKCS1v15(pub, cryptoHash(h), d, sig) == nil
	case a.saltLength == 0:
		return pssZeroSaltVerify(pub, h, d, sig)
	}
	return rsa.VerifyPSS(pub, cryptoHash(h), d, sig, &rsa.PSSOptions{SaltLength: a.saltLength}) == nil
}

func rsaOAEPEncrypt(a *algorithm, k *cryptoKey, data []byte) (any, error) {
	if k.typ != publicKey {
		return nil, errf(invalidAccess, "Unable to use a private key to encrypt")
	}
	out, err := rsa.EncryptOAEP(newHash(k.alg.hash)(), rand.Reader, k.material.(*rsa.PublicKey), data, a.label)
	if err != nil {
		return nil, errf(operation, "%s", err.Error())
	}
	return out, nil
}

func rsaOAEPDecrypt(a *algorithm, k *cryptoKey, data []byte) (any, error) {
	if k.typ != privateKey {
		return nil, errf(invalidAccess, "Unable to use a public key to decrypt")
	}
	out, err := rsa.DecryptOAEP(newHash(k.alg.hash)(), nil, k.material.(*rsa.PrivateKey), data, a.label)
	if err != nil {
		return nil, errf(operation, opFailed)
	}
	return out, nil
}
