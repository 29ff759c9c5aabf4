// The program of test-module.sh: a user's module that `go get`s the binding and must not load a
// libaead.so (the module compiles its own core); run from the module proxy and again vendored.
package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	aead "github.com/libaead/libaead/bindings/go"
)

func main() {
	gcm, err := aead.NewGCM(bytes.Repeat([]byte{1}, 32))
	if err != nil {
		panic(err)
	}
	nonce := make([]byte, gcm.NonceSize())
	ct := gcm.Seal(nil, nonce, []byte("attack at dawn"), []byte("hdr"))
	pt, err := gcm.Open(nil, nonce, ct, []byte("hdr"))
	if err != nil || string(pt) != "attack at dawn" {
		panic(fmt.Sprint("round trip failed: ", err))
	}
	ct[0] ^= 1
	if _, err := gcm.Open(nil, nonce, ct, []byte("hdr")); err == nil {
		panic("forgery accepted")
	}
	// AEGIS: libaegis compiled from the module's (or vendor/'s) shim/aegis/libaegis.
	aegis, err := aead.NewAEGIS128L(bytes.Repeat([]byte{2}, 16))
	if err != nil {
		panic(err)
	}
	n16 := make([]byte, aegis.NonceSize())
	if pt, err := aegis.Open(nil, n16, aegis.Seal(nil, n16, []byte("at dusk"), nil), nil); err != nil || string(pt) != "at dusk" {
		panic(fmt.Sprint("AEGIS round trip failed: ", err))
	}
	maps, _ := os.ReadFile("/proc/self/maps")
	if strings.Contains(string(maps), "libaead.so") {
		panic("a libaead.so is loaded: the module should have compiled its own")
	}
	fmt.Println("ok:", aead.Version())
}
