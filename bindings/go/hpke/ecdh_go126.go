//go:build go1.26

package hpke

import (
	"crypto/ecdh"
	"errors"
)

// NewDHKEMPrivateKey returns the PrivateKey of priv, as NewDHKEMPublicKey. priv must be an
// *ecdh.PrivateKey: the key is handed to OpenSSL as bytes, so a KeyExchanger that does not reveal
// its key (a hardware key) is refused.
func NewDHKEMPrivateKey(priv ecdh.KeyExchanger) (PrivateKey, error) {
	k, ok := priv.(*ecdh.PrivateKey)
	if !ok {
		return nil, errors.New("hpke: only an *ecdh.PrivateKey can be used (the key goes to OpenSSL as bytes)")
	}
	return DHKEM(k.Curve()).NewPrivateKey(k.Bytes())
}
