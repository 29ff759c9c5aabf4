package objectstore_test

import (
	"bytes"
	"fmt"

	aead "github.com/libaead/libaead/bindings/go"
	"github.com/libaead/libaead/bindings/go/examples/objectstore"
)

// The same format sealed with libaead's counter-nonce AES-GCM and with crypto/cipher's NewGCM: the
// same bytes, and either opens the other's. (In FIPS 140-only mode, GODEBUG=fips140=only, Go
// refuses crypto/cipher's NewGCM; libaead's constructor works, under OpenSSL's FIPS provider with
// every seal approved: TestFIPS140Only.)
func Example() {
	key := bytes.Repeat([]byte{0x42}, 32) // objectstore.NewKey() in practice: one fresh key per object
	content := bytes.Repeat([]byte("backup "), 1500)
	obj, err := objectstore.Seal(aead.NewGCMWithCounterNonce, key, content)
	if err != nil {
		panic(err)
	}
	std, _ := objectstore.Seal(objectstore.StdlibGCM, key, content)
	back, err := objectstore.Open(objectstore.StdlibGCM, key, obj)
	fmt.Println(len(content), len(obj), bytes.Equal(obj, std), bytes.Equal(back, content), err)
	// Output: 10500 10548 true true <nil>
}
