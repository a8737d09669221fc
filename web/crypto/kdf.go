package crypto

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/hkdf"
	"crypto/pbkdf2"
)

// PBKDF2, HKDF, and the shared-secret derivations of ECDH and X25519.

func pbkdf2Derive(a *algorithm, k *cryptoKey, length int, hasLength bool) ([]byte, error) {
	if !hasLength || length%8 != 0 {
		return nil, errf(operation, "length must be a multiple of 8 bits, not null")
	}
	if a.iterations == 0 {
		return nil, errf(operation, "iterations must not be zero")
	}
	if length == 0 {
		return []byte{}, nil
	}
	b, err := pbkdf2.Key(newHash(a.hash), string(k.material.([]byte)), a.salt, a.iterations, length/8)
	if err != nil {
		return nil, errf(operation, "%s", err.Error())
	}
	return b, nil
}

func hkdfDerive(a *algorithm, k *cryptoKey, length int, hasLength bool) ([]byte, error) {
	if !hasLength || length%8 != 0 {
		return nil, errf(operation, "length must be a multiple of 8 bits, not null")
	}
	if length == 0 {
		return []byte{}, nil
	}
	b, err := hkdf.Key(newHash(a.hash), k.material.([]byte), a.salt, string(a.info), length/8)
	if err != nil {
		return nil, errf(operation, "The requested length is too large for HKDF with %s", a.hash)
	}
	return b, nil
}

// ecdhDerive is ECDH's and X25519's derive bits.
func ecdhDerive(a *algorithm, k *cryptoKey, length int, hasLength bool) ([]byte, error) {
	pub := a.public
	if pub.typ != publicKey {
		return nil, errf(invalidAccess, "algorithm.public must be a public key")
	}
	if pub.alg.name != k.alg.name {
		return nil, errf(invalidAccess, "The public and private keys must be of the same algorithm")
	}
	if pub.alg.namedCurve != k.alg.namedCurve {
		return nil, errf(invalidAccess, "The public and private keys must be on the same curve")
	}
	var priv *ecdh.PrivateKey
	var peer *ecdh.PublicKey
	var err error
	if k.alg.name == aX25519 {
		priv, peer = k.material.(*ecdh.PrivateKey), pub.material.(*ecdh.PublicKey)
	} else {
		if priv, err = k.material.(*ecdsa.PrivateKey).ECDH(); err == nil {
			peer, err = pub.material.(*ecdsa.PublicKey).ECDH()
		}
		if err != nil {
			return nil, errf(operation, "%s", err.Error())
		}
	}
	secret, err := priv.ECDH(peer)
	if err != nil {
		return nil, errf(operation, opFailed)
	}
	if !hasLength {
		return secret, nil
	}
	if length > len(secret)*8 {
		return nil, errf(operation, "The requested length is longer than the shared secret")
	}
	out := secret[:(length+7)/8]
	if r := length % 8; r != 0 {
		out[len(out)-1] &= 0xff << (8 - r)
	}
	return out, nil
}
