package aead

import "github.com/libaead/libaead/bindings/go/internal/testkit"

// The helpers these tests share with the bench module's differential tests (internal/testkit).
var randBytes, diffSizes, catchPanic = testkit.RandBytes, testkit.DiffSizes, testkit.PanicText
var xorNonceT = testkit.XorNonce
