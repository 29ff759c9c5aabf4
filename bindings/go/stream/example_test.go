package stream_test

import (
	"bytes"
	"crypto"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"

	aead "github.com/libaead/libaead/bindings/go"
	"github.com/libaead/libaead/bindings/go/stream"
)

func ExampleNewTinkAESGCMHKDF() {
	mainKey := bytes.Repeat([]byte{0x42}, 32) // a Tink AesGcmHkdfStreaming key's value
	s, err := stream.NewTinkAESGCMHKDF(mainKey, crypto.SHA256, 32, 4096, 0)
	if err != nil {
		panic(err)
	}
	ad := []byte("file name") // bound to the stream, as Tink's associated data
	var file bytes.Buffer
	w, err := s.NewWriter(&file, ad)
	if err != nil {
		panic(err)
	}
	io.Copy(w, strings.NewReader(strings.Repeat("0123456789", 1000))) // 10,000 bytes
	if err := w.Close(); err != nil {                                 // writes the final segment
		panic(err)
	}
	fmt.Println("stream of", file.Len(), "bytes") // header 40 + 3 segments of 16 bytes of tag

	r, err := s.NewReader(bytes.NewReader(file.Bytes()), ad)
	if err != nil {
		panic(err)
	}
	pt, err := io.ReadAll(r)
	fmt.Println(len(pt), err)

	// A stream cut short (here at the end of a segment) is an error, not an early io.EOF.
	r, _ = s.NewReader(bytes.NewReader(file.Bytes()[:40+4096-40]), ad)
	_, err = io.ReadAll(r)
	fmt.Println(errors.Is(err, aead.ErrOpen))
	// Output:
	// stream of 10088 bytes
	// 10000 <nil>
	// true
}

func ExampleAEAD_NewReaderAt() {
	s, _ := stream.NewTinkAESGCMHKDF(bytes.Repeat([]byte{7}, 16), crypto.SHA256, 16, 1024, 0)
	var file bytes.Buffer
	w, _ := s.NewWriter(&file, nil)
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(w, "line %04d\n", i)
	}
	w.Close()

	// Random access: only the segments that hold the bytes asked for are read and opened.
	ra, err := s.NewReaderAt(bytes.NewReader(file.Bytes()), int64(file.Len()), nil)
	if err != nil {
		panic(err)
	}
	line := make([]byte, 10)
	ra.ReadAt(line, 10*567)
	fmt.Printf("%q\n", line)
	// Output: "line 0567\n"
}

func ExampleNewAgePayload() {
	fileKey := bytes.Repeat([]byte{1}, 16) // from the age file's recipient stanzas
	s, err := stream.NewAgePayload(fileKey)
	if err != nil {
		panic(err)
	}
	var payload bytes.Buffer // follows the age header (its "---" line and MAC) in a file
	w, _ := s.NewWriter(&payload, nil)
	w.Write(make([]byte, 100_000))
	w.Close()
	fmt.Println(payload.Len()) // 16-byte nonce, a 64 KiB chunk and a last one, 16 bytes of tag each

	r, _ := s.NewReader(&payload, nil)
	n, err := io.Copy(io.Discard, r)
	fmt.Println(n, err)
	// Output:
	// 100048
	// 100000 <nil>
}

func ExampleNewRFC8188() {
	// RFC 8188 section 3.1: "I am the walrus" with rs 4096 under this key.
	key, _ := base64.RawURLEncoding.DecodeString("yqdlZ-tYemfogSmv7Ws5PQ")
	body, _ := base64.RawURLEncoding.DecodeString("I1BsxtFttlv3u_Oo94xnmwAAEAAA-NAVub2qFgBEuQKRapoZu-IxkIva3MEB1PD-ly8Thjg")
	s, err := stream.NewRFC8188(key, 4096, nil)
	if err != nil {
		panic(err)
	}
	r, err := s.NewReader(bytes.NewReader(body), nil) // e.g. an HTTP body with Content-Encoding: aes128gcm
	if err != nil {
		panic(err)
	}
	pt, err := io.ReadAll(r)
	fmt.Printf("%s %v\n", pt, err)

	var out bytes.Buffer // and back: a body of records of rs bytes
	w, _ := s.NewWriter(&out, nil)
	w.Write(pt)
	w.Close()
	fmt.Println(out.Len()) // header 21 + 15 + delimiter 1 + tag 16
	// Output:
	// I am the walrus <nil>
	// 53
}
