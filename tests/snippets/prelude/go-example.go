// Example functions (a block of them as a _test.go file of one package per document, so that the
// helpers one block defines serve the next): `go test` runs each and checks its // Output: comment.
package snippets_test

// IMPORTS
import (
	"bytes"
	"crypto/tls"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
)

import aead "github.com/libaead/libaead/bindings/go"

var (
	_ = bytes.Repeat
	_ = tls.TLS_AES_128_GCM_SHA256
	_ = binary.BigEndian
	_ = hex.DecodeString
	_ = errors.Is
	_ = fmt.Println
	_ = aead.Version
)

// BODY
