package bench

import "github.com/libaead/libaead/bindings/go/internal/testkit"

// The helpers these tests share with the binding's own tests (internal/testkit).
var randBytes, diffSizes, panicText = testkit.RandBytes, testkit.DiffSizes, testkit.PanicText
var tls12Nonce, tls13Nonce = testkit.TLS12Nonce, testkit.XorNonce
