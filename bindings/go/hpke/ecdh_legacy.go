//go:build !go1.26

package hpke

import "crypto/ecdh"

// NewDHKEMPrivateKey returns the PrivateKey of priv, as NewDHKEMPublicKey. (From Go 1.26 on it takes
// an ecdh.KeyExchanger, as crypto/hpke's does.)
func NewDHKEMPrivateKey(priv *ecdh.PrivateKey) (PrivateKey, error) {
	return DHKEM(priv.Curve()).NewPrivateKey(priv.Bytes())
}
