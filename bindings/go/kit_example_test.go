package aead_test

import "github.com/libaead/libaead/bindings/go/internal/testkit"

// The record nonces the examples build, as crypto/tls builds them (internal/testkit).
var tls12Nonce, xorNonce = testkit.TLS12Nonce, testkit.XorNonce
