package aead

import (
	"bytes"
	"crypto/cipher"
	"errors"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// aegisVector is one of RFC 10032's test vectors (its test-vector appendix, as tests/test_aegis.cpp
// has them), with the constructor of its variant; valid false: it must fail verification.
type aegisVector struct {
	ctor                func([]byte, int) (cipher.AEAD, error)
	name                string
	valid               bool
	key, nonce, ad, msg string
	ct, tag128, tag256  string
}

var aegisVectors = []aegisVector{
	{NewAEGIS128LWithTagSize, "AEGIS-128L test vector 1", true,
		"10010000000000000000000000000000", "10000200000000000000000000000000", "",
		"00000000000000000000000000000000",
		"c1c0e58bd913006feba00f4b3cc3594e",
		"abe0ece80c24868a226a35d16bdae37a", "25835bfbb21632176cf03840687cb968cace4617af1bd0f7d064c639a5c79ee4"},
	{NewAEGIS128LWithTagSize, "AEGIS-128L test vector 2", true,
		"10010000000000000000000000000000", "10000200000000000000000000000000", "",
		"",
		"",
		"c2b879a67def9d74e6c14f708bbcc9b4", "1360dc9db8ae42455f6e5b6a9d488ea4f2184c4e12120249335c4ee84bafe25d"},
	{NewAEGIS128LWithTagSize, "AEGIS-128L test vector 3", true,
		"10010000000000000000000000000000", "10000200000000000000000000000000", "0001020304050607",
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		"79d94593d8c2119d7e8fd9b8fc77845c5c077a05b2528b6ac54b563aed8efe84",
		"cc6f3372f6aa1bb82388d695c3962d9a", "022cb796fe7e0ae1197525ff67e309484cfbab6528ddef89f17d74ef8ecd82b3"},
	{NewAEGIS128LWithTagSize, "AEGIS-128L test vector 4", true,
		"10010000000000000000000000000000", "10000200000000000000000000000000", "0001020304050607",
		"000102030405060708090a0b0c0d",
		"79d94593d8c2119d7e8fd9b8fc77",
		"5c04b3dba849b2701effbe32c7f0fab7", "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac"},
	{NewAEGIS128LWithTagSize, "AEGIS-128L test vector 5", true,
		"10010000000000000000000000000000", "10000200000000000000000000000000", "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20212223242526272829",
		"101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f3031323334353637",
		"b31052ad1cca4e291abcf2df3502e6bdb1bfd6db36798be3607b1f94d34478aa7ede7f7a990fec10",
		"7542a745733014f9474417b337399507", "b91e2947a33da8bee89b6794e647baf0fc835ff574aca3fc27c33be0db2aff98"},
	{NewAEGIS128LWithTagSize, "AEGIS-128L test vector 6", false,
		"10000200000000000000000000000000", "10010000000000000000000000000000", "0001020304050607",
		"",
		"79d94593d8c2119d7e8fd9b8fc77",
		"5c04b3dba849b2701effbe32c7f0fab7", "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac"},
	{NewAEGIS128LWithTagSize, "AEGIS-128L test vector 7", false,
		"10010000000000000000000000000000", "10000200000000000000000000000000", "0001020304050607",
		"",
		"79d94593d8c2119d7e8fd9b8fc78",
		"5c04b3dba849b2701effbe32c7f0fab7", "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac"},
	{NewAEGIS128LWithTagSize, "AEGIS-128L test vector 8", false,
		"10010000000000000000000000000000", "10000200000000000000000000000000", "0001020304050608",
		"",
		"79d94593d8c2119d7e8fd9b8fc77",
		"5c04b3dba849b2701effbe32c7f0fab7", "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ac"},
	{NewAEGIS128LWithTagSize, "AEGIS-128L test vector 9", false,
		"10010000000000000000000000000000", "10000200000000000000000000000000", "0001020304050607",
		"",
		"79d94593d8c2119d7e8fd9b8fc77",
		"6c04b3dba849b2701effbe32c7f0fab8", "86f1b80bfb463aba711d15405d094baf4a55a15dbfec81a76f35ed0b9c8b04ad"},
	{NewAEGIS256WithTagSize, "AEGIS-256 test vector 1", true,
		"1001000000000000000000000000000000000000000000000000000000000000", "1000020000000000000000000000000000000000000000000000000000000000", "",
		"00000000000000000000000000000000",
		"754fc3d8c973246dcc6d741412a4b236",
		"3fe91994768b332ed7f570a19ec5896e", "1181a1d18091082bf0266f66297d167d2e68b845f61a3b0527d31fc7b7b89f13"},
	{NewAEGIS256WithTagSize, "AEGIS-256 test vector 2", true,
		"1001000000000000000000000000000000000000000000000000000000000000", "1000020000000000000000000000000000000000000000000000000000000000", "",
		"",
		"",
		"e3def978a0f054afd1e761d7553afba3", "6a348c930adbd654896e1666aad67de989ea75ebaa2b82fb588977b1ffec864a"},
	{NewAEGIS256WithTagSize, "AEGIS-256 test vector 3", true,
		"1001000000000000000000000000000000000000000000000000000000000000", "1000020000000000000000000000000000000000000000000000000000000000", "0001020304050607",
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		"f373079ed84b2709faee373584585d60accd191db310ef5d8b11833df9dec711",
		"8d86f91ee606e9ff26a01b64ccbdd91d", "b7d28d0c3c0ebd409fd22b44160503073a547412da0854bfb9723020dab8da1a"},
	{NewAEGIS256WithTagSize, "AEGIS-256 test vector 4", true,
		"1001000000000000000000000000000000000000000000000000000000000000", "1000020000000000000000000000000000000000000000000000000000000000", "0001020304050607",
		"000102030405060708090a0b0c0d",
		"f373079ed84b2709faee37358458",
		"c60b9c2d33ceb058f96e6dd03c215652", "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9"},
	{NewAEGIS256WithTagSize, "AEGIS-256 test vector 5", true,
		"1001000000000000000000000000000000000000000000000000000000000000", "1000020000000000000000000000000000000000000000000000000000000000", "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20212223242526272829",
		"101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f3031323334353637",
		"57754a7d09963e7c787583a2e7b859bb24fa1e04d49fd550b2511a358e3bca252a9b1b8b30cc4a67",
		"ab8a7d53fd0e98d727accca94925e128", "a3aca270c006094d71c20e6910b5161c0826df233d08919a566ec2c05990f734"},
	{NewAEGIS256WithTagSize, "AEGIS-256 test vector 6", false,
		"1000020000000000000000000000000000000000000000000000000000000000", "1001000000000000000000000000000000000000000000000000000000000000", "0001020304050607",
		"",
		"f373079ed84b2709faee37358458",
		"c60b9c2d33ceb058f96e6dd03c215652", "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9"},
	{NewAEGIS256WithTagSize, "AEGIS-256 test vector 7", false,
		"1001000000000000000000000000000000000000000000000000000000000000", "1000020000000000000000000000000000000000000000000000000000000000", "0001020304050607",
		"",
		"f373079ed84b2709faee37358459",
		"c60b9c2d33ceb058f96e6dd03c215652", "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9"},
	{NewAEGIS256WithTagSize, "AEGIS-256 test vector 8", false,
		"1001000000000000000000000000000000000000000000000000000000000000", "1000020000000000000000000000000000000000000000000000000000000000", "0001020304050608",
		"",
		"f373079ed84b2709faee37358458",
		"c60b9c2d33ceb058f96e6dd03c215652", "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2d9"},
	{NewAEGIS256WithTagSize, "AEGIS-256 test vector 9", false,
		"1001000000000000000000000000000000000000000000000000000000000000", "1000020000000000000000000000000000000000000000000000000000000000", "0001020304050607",
		"",
		"f373079ed84b2709faee37358458",
		"c60b9c2d33ceb058f96e6dd03c215653", "8c1cc703c81281bee3f6d9966e14948b4a175b2efbdc31e61a98b4465235c2da"},
	{NewAEGIS128X2WithTagSize, "AEGIS-128X2 test vector 1", true,
		"000102030405060708090a0b0c0d0e0f", "101112131415161718191a1b1c1d1e1f", "",
		"",
		"",
		"63117dc57756e402819a82e13eca8379", "b92c71fdbd358b8a4de70b27631ace90cffd9b9cfba82028412bac41b4f53759"},
	{NewAEGIS128X2WithTagSize, "AEGIS-128X2 test vector 2", true,
		"000102030405060708090a0b0c0d0e0f", "101112131415161718191a1b1c1d1e1f", "0102030401020304",
		"04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607" +
			"04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607" +
			"04050607040506070405060704050607",
		"5795544301997f93621b278809d6331b3bfa6f18e90db12c4aa35965b5e98c5fc6fb4e54bcb6111842c20637252eff747cb3a8f8" +
			"5b37de80919a589fe0f24872bc926360696739e05520647e390989e1eb5fd42f99678a0276a498f8c454761c9d6aacb647ad56be" +
			"62b29c22cd4b5761b38f43d5a5ee062f",
		"1aebc200804f405cab637f2adebb6d77", "c471876f9b4978c44f2ae1ce770cdb11a094ee3feca64e7afcd48bfe52c60eca"},
	{NewAEGIS128X4WithTagSize, "AEGIS-128X4 test vector 1", true,
		"000102030405060708090a0b0c0d0e0f", "101112131415161718191a1b1c1d1e1f", "",
		"",
		"",
		"5bef762d0947c00455b97bb3af30dfa3", "a4b25437f4be93cfa856a2f27e4416b42cac79fd4698f2cdbe6af25673e10a68"},
	{NewAEGIS128X4WithTagSize, "AEGIS-128X4 test vector 2", true,
		"000102030405060708090a0b0c0d0e0f", "101112131415161718191a1b1c1d1e1f", "0102030401020304",
		"04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607" +
			"04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607" +
			"04050607040506070405060704050607",
		"e836118562f4479c9d35c17356a833114c21f9aa39e4dda5e5c87f4152a00fce9a7c38f832eafe8b1c12f8a7cf12a81a1ad8a9c2" +
			"4ba9dedfbdaa586ffea67ddc801ea97d9ab4a872f42d0e352e2713dacd609f9442c17517c5a29daf3e2a3fac4ff6b1380c4e46df" +
			"7b086af6ce6bc1ed594b8dd64aed2a7e",
		"0e56ab94e2e85db80f9d54010caabfb4", "69abf0f64a137dd6e122478d777e98bc422823006cf57f5ee822dd78397230b2"},
	{NewAEGIS256X2WithTagSize, "AEGIS-256X2 test vector 1", true,
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f", "",
		"",
		"",
		"62cdbab084c83dacdb945bb446f049c8", "25d7e799b49a80354c3f881ac2f1027f471a5d293052bd9997abd3ae84014bb7"},
	{NewAEGIS256X2WithTagSize, "AEGIS-256X2 test vector 2", true,
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f", "0102030401020304",
		"04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607" +
			"04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607" +
			"04050607040506070405060704050607",
		"72120c2ea8236180d67859001f4729077b7064c414384fe3a7b52f1571f4f8a7d0f01e18db4f3bc0adb150702e5d147a8d365221" +
			"32761b994c1bd395589e2ccf0790dfe2a3d12d61cd666b2859827739db4037dd3124c78424459376f6cac08e1a7223a2a43e398c" +
			"e6385cd654a19f481cba3b8f25910b42",
		"635d391828520bf1512763f0c8f5cdbd", "b5668d3317159e9cc5d46e4803c3a76ad63bb42b3f47956d94f30db8cb366ad7"},
	{NewAEGIS256X4WithTagSize, "AEGIS-256X4 test vector 1", true,
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f", "",
		"",
		"",
		"3b7fee6cee7bf17888ad11ed2397beb4", "6093a1a8aab20ec635dc1ca71745b01b5bec4fc444c9ffbebd710d4a34d20eaf"},
	{NewAEGIS256X4WithTagSize, "AEGIS-256X4 test vector 2", true,
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f", "0102030401020304",
		"04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607" +
			"04050607040506070405060704050607040506070405060704050607040506070405060704050607040506070405060704050607" +
			"04050607040506070405060704050607",
		"bfc2085b7e8017da99b0b6d646ae4d01f4ba8f2e7dfca1d759ae48a135139b9aaac6b4f5db810d426be1fdaff4e1454153a34b11" +
			"da78ed7e418ee2ee9853042e95536aecbb694cea1b16a478eb0d4d1bf6509b1ce652a45af58e0e46ffccfa2d0426e702391d2ff5" +
			"813808b81748a490dd656465fed61f09",
		"b63b611b13975e2f3dc3cb6c2397bfcd", "7847eace74409ee56c8f4cf63a9c2841ce7c8bd567d7c0ca514c879a190b978c"},
}

// TestAEGISVectors: every RFC 10032 vector of every variant with both tag sizes: sealed (also in
// place) to ct || tag and opened; a flipped bit in the first ciphertext byte and in the first and last
// tag bytes, and another AD, fail with ErrOpen and leave no plaintext; the must-fail vectors fail.
func TestAEGISVectors(t *testing.T) {
	sealed, refused := 0, 0
	for _, v := range aegisVectors {
		for _, tagSize := range []int{16, 32} {
			name := v.name + " tag " + strconv.Itoa(tagSize)
			a, err := v.ctor(mustHex(v.key), tagSize)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			tag := mustHex(v.tag128)
			if tagSize == 32 {
				tag = mustHex(v.tag256)
			}
			nonce, ad, ct := mustHex(v.nonce), mustHex(v.ad), mustHex(v.ct)
			want := append(append([]byte{}, ct...), tag...)
			if a.NonceSize() != len(nonce) || a.Overhead() != tagSize || len(tag) != tagSize {
				t.Fatalf("%s: sizes %d/%d", name, a.NonceSize(), a.Overhead())
			}
			if !v.valid {
				if pt, err := a.Open(nil, nonce, want, ad); pt != nil || !errors.Is(err, ErrOpen) {
					t.Errorf("%s: must fail, got %x, %v", name, pt, err)
				}
				refused++
				continue
			}
			msg := mustHex(v.msg)
			if got := a.Seal(nil, nonce, msg, ad); !bytes.Equal(got, want) {
				t.Errorf("%s: Seal = %x, want %x", name, got, want)
			}
			if got, err := a.Open(nil, nonce, want, ad); err != nil || !bytes.Equal(got, msg) {
				t.Errorf("%s: Open = %x, %v", name, got, err)
			}
			buf := make([]byte, len(msg), len(msg)+tagSize)
			copy(buf, msg)
			if got := a.Seal(buf[:0], nonce, buf, ad); !bytes.Equal(got, want) {
				t.Errorf("%s: in-place Seal = %x", name, got)
			}
			flips := []int{len(want) - 1, len(ct)}
			if len(ct) > 0 {
				flips = append(flips, 0)
			}
			for _, at := range flips {
				bad := flip(want, at)
				if pt, err := a.Open(bad[:0], nonce, bad, ad); pt != nil || !errors.Is(err, ErrOpen) {
					t.Errorf("%s: byte %d flipped: %x, %v", name, at, pt, err)
				}
				if !bytes.Equal(bad[:len(ct)], make([]byte, len(ct))) {
					t.Errorf("%s: a failed in-place Open left bytes", name)
				}
			}
			if _, err := a.Open(nil, nonce, want, append(ad, 0)); !errors.Is(err, ErrOpen) {
				t.Errorf("%s: another AD: %v", name, err)
			}
			sealed++
		}
	}
	t.Logf("RFC 10032 AEGIS vectors: %d cases sealed and opened, %d refused (6 variants, tags 16 and 32)", sealed, refused)
	if sealed != 2*18 || refused != 2*8 {
		t.Fatalf("ran %d valid and %d invalid cases, want 36 and 16", sealed, refused)
	}
}

// aegisCtors is every AEGIS constructor, package-level and Options', by variant: the plain form
// (tag 16), WithTagSize and WithRandomNonce, and the key length.
type aegisCtors struct {
	name     string
	key      int
	plain    func([]byte) (cipher.AEAD, error)
	tagged   func([]byte, int) (cipher.AEAD, error)
	random   func([]byte, int) (cipher.AEAD, error)
	oPlain   func(Options, []byte) (cipher.AEAD, error)
	oTagged  func(Options, []byte, int) (cipher.AEAD, error)
	oRandom  func(Options, []byte, int) (cipher.AEAD, error)
	vectorAt int // index in aegisVectors of a valid vector with a message
}

var aegisAll = []aegisCtors{
	{"AEGIS-128L", 16, NewAEGIS128L, NewAEGIS128LWithTagSize, NewAEGIS128LWithRandomNonce,
		Options.NewAEGIS128L, Options.NewAEGIS128LWithTagSize, Options.NewAEGIS128LWithRandomNonce, 4},
	{"AEGIS-128X2", 16, NewAEGIS128X2, NewAEGIS128X2WithTagSize, NewAEGIS128X2WithRandomNonce,
		Options.NewAEGIS128X2, Options.NewAEGIS128X2WithTagSize, Options.NewAEGIS128X2WithRandomNonce, 19},
	{"AEGIS-128X4", 16, NewAEGIS128X4, NewAEGIS128X4WithTagSize, NewAEGIS128X4WithRandomNonce,
		Options.NewAEGIS128X4, Options.NewAEGIS128X4WithTagSize, Options.NewAEGIS128X4WithRandomNonce, 21},
	{"AEGIS-256", 32, NewAEGIS256, NewAEGIS256WithTagSize, NewAEGIS256WithRandomNonce,
		Options.NewAEGIS256, Options.NewAEGIS256WithTagSize, Options.NewAEGIS256WithRandomNonce, 13},
	{"AEGIS-256X2", 32, NewAEGIS256X2, NewAEGIS256X2WithTagSize, NewAEGIS256X2WithRandomNonce,
		Options.NewAEGIS256X2, Options.NewAEGIS256X2WithTagSize, Options.NewAEGIS256X2WithRandomNonce, 23},
	{"AEGIS-256X4", 32, NewAEGIS256X4, NewAEGIS256X4WithTagSize, NewAEGIS256X4WithRandomNonce,
		Options.NewAEGIS256X4, Options.NewAEGIS256X4WithTagSize, Options.NewAEGIS256X4WithRandomNonce, 25},
}

// TestAEGISConstructors: each constructor is its variant (the plain and Options forms seal the
// variant's RFC 10032 vector), has its sizes, and refuses other key and tag sizes with an error
// naming the rule; "fips=yes" is errors.ErrUnsupported; the provider is libaegis, never approved.
func TestAEGISConstructors(t *testing.T) {
	def := Options{Properties: "provider=default"}
	for _, c := range aegisAll {
		v := aegisVectors[c.vectorAt]
		if !strings.HasPrefix(v.name, c.name+" ") || !v.valid {
			t.Fatalf("%s: vector %d is %s", c.name, c.vectorAt, v.name)
		}
		key, nonce, ad, msg := mustHex(v.key), mustHex(v.nonce), mustHex(v.ad), mustHex(v.msg)
		for tagSize, tag := range map[int]string{16: v.tag128, 32: v.tag256} {
			want := append(mustHex(v.ct), mustHex(tag)...)
			forms := map[string]func() (cipher.AEAD, error){
				"WithTagSize":         func() (cipher.AEAD, error) { return c.tagged(key, tagSize) },
				"Options.WithTagSize": func() (cipher.AEAD, error) { return c.oTagged(def, key, tagSize) },
			}
			if tagSize == 16 {
				forms["plain"] = func() (cipher.AEAD, error) { return c.plain(key) }
				forms["Options"] = func() (cipher.AEAD, error) { return c.oPlain(def, key) }
			}
			for form, f := range forms {
				a, err := f()
				if err != nil || a.NonceSize() != c.key || a.Overhead() != tagSize {
					t.Fatalf("%s %s tag %d: %v", c.name, form, tagSize, err)
				}
				if got := a.Seal(nil, nonce, msg, ad); !bytes.Equal(got, want) {
					t.Errorf("%s %s tag %d: not the variant's vector", c.name, form, tagSize)
				}
				ind, ok := IndicatorOf(a)
				if !ok || ind.Provider != "libaegis" || ind.FIPSProvider || ind.SealApproved || ind.OpenApproved {
					t.Errorf("%s %s: indicator %+v", c.name, form, ind)
				}
			}
			for _, f := range []func(Options) (cipher.AEAD, error){
				func(o Options) (cipher.AEAD, error) { return c.oTagged(o, key, tagSize) },
				func(o Options) (cipher.AEAD, error) { return c.oRandom(o, key, tagSize) },
			} {
				if a, err := f(Options{Properties: "fips=yes"}); a != nil || !errors.Is(err, errors.ErrUnsupported) {
					t.Errorf("%s tag %d under fips=yes: %v", c.name, tagSize, err)
				}
				r, err := f(def)
				if err != nil {
					t.Fatalf("%s tag %d: %v", c.name, tagSize, err)
				}
				n := make([]byte, r.NonceSize())
				if got, err := r.Open(nil, n, r.Seal(nil, n, msg, ad), ad); err != nil || !bytes.Equal(got, msg) {
					t.Errorf("%s tag %d: round trip: %v", c.name, tagSize, err)
				}
			}
		}
		keyMsg := "aead: " + c.name + " key must be " + strconv.Itoa(c.key) + " bytes, got "
		for _, n := range []int{0, 15, 16, 17, 24, 31, 32, 33, 64} {
			if n == c.key {
				continue
			}
			for _, f := range []func() (cipher.AEAD, error){
				func() (cipher.AEAD, error) { return c.plain(make([]byte, n)) },
				func() (cipher.AEAD, error) { return c.tagged(make([]byte, n), 32) },
				func() (cipher.AEAD, error) { return c.random(make([]byte, n), 16) },
			} {
				if a, err := f(); a != nil || err == nil || err.Error() != keyMsg+strconv.Itoa(n) {
					t.Errorf("%s key of %d bytes: %v", c.name, n, err)
				}
			}
		}
		for tagSize := -1; tagSize <= 40; tagSize++ {
			if tagSize == 16 || tagSize == 32 {
				continue
			}
			want := "aead: AEGIS tag size must be 16 or 32 bytes, got " + strconv.Itoa(tagSize)
			for _, f := range []func([]byte, int) (cipher.AEAD, error){c.tagged, c.random} {
				if a, err := f(make([]byte, c.key), tagSize); a != nil || err == nil || err.Error() != want {
					t.Errorf("%s tag %d: %v", c.name, tagSize, err)
				}
			}
		}
	}
}

// aegisConstructors are one AEAD of each variant, tags of 16 and 32 bytes in turn, in the shape of
// allConstructors; init adds them there, so that the crypto/cipher semantics, zero-allocation,
// batch and concurrency tests run on them too.
var aegisConstructors = []constructor{
	{"NewAEGIS128L", NewAEGIS128L, 16, 0},
	{"NewAEGIS128X2WithTagSize/32", func(k []byte) (cipher.AEAD, error) { return NewAEGIS128X2WithTagSize(k, 32) }, 16, 0},
	{"NewAEGIS128X4", NewAEGIS128X4, 16, 0},
	{"NewAEGIS256WithTagSize/32", func(k []byte) (cipher.AEAD, error) { return NewAEGIS256WithTagSize(k, 32) }, 32, 0},
	{"NewAEGIS256X2", NewAEGIS256X2, 32, 0},
	{"NewAEGIS256X4WithTagSize/32", func(k []byte) (cipher.AEAD, error) { return NewAEGIS256X4WithTagSize(k, 32) }, 32, 0},
}

// aegisRandomConstructors are the random-nonce AEADs of two variants, one with 32-byte tags.
var aegisRandomConstructors = []constructor{
	{"NewAEGIS128LWithRandomNonce/16", func(k []byte) (cipher.AEAD, error) { return NewAEGIS128LWithRandomNonce(k, 16) }, 16, 0},
	{"NewAEGIS256X2WithRandomNonce/32", func(k []byte) (cipher.AEAD, error) { return NewAEGIS256X2WithRandomNonce(k, 32) }, 32, 0},
}

func init() { allConstructors = append(allConstructors, aegisConstructors...) }

// TestAEGISRandomNonce: every variant and tag size with library-drawn nonces: nonce || ct || tag,
// the body what the nonce-taking AEAD seals under that nonce, fresh nonces, exact in place both
// ways, a flipped bit ErrOpen with no plaintext left, inputs shorter than Overhead() ErrOpen.
func TestAEGISRandomNonce(t *testing.T) {
	r := rand.New(rand.NewSource(10032))
	for _, c := range aegisAll {
		for _, tagSize := range []int{16, 32} {
			name := c.name + " tag " + strconv.Itoa(tagSize)
			key := randBytes(r, c.key)
			g, err := c.random(key, tagSize)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			plain, _ := c.tagged(key, tagSize)
			if g.NonceSize() != 0 || g.Overhead() != c.key+tagSize {
				t.Fatalf("%s: sizes %d/%d", name, g.NonceSize(), g.Overhead())
			}
			seen := map[string]bool{}
			for _, size := range []int{0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 600, 4096, 70000} {
				aad, pt := randBytes(r, r.Intn(40)), randBytes(r, size)
				ct := g.Seal(nil, nil, pt, aad)
				nonce := ct[:c.key]
				if len(ct) != size+g.Overhead() || !bytes.Equal(ct[c.key:], plain.Seal(nil, nonce, pt, aad)) {
					t.Fatalf("%s size %d: not nonce || AEGIS(nonce)", name, size)
				}
				if seen[string(nonce)] {
					t.Fatalf("%s size %d: a nonce drawn twice", name, size)
				}
				seen[string(nonce)] = true
				buf := make([]byte, size, size+g.Overhead())
				copy(buf, pt)
				in := g.Seal(buf[:0], nil, buf, aad)
				got, err := g.Open(in[:0], nil, in, aad)
				if err != nil || !bytes.Equal(got, pt) || (size > 0 && &got[0] != &in[0]) {
					t.Fatalf("%s size %d: in-place round trip: %v", name, size, err)
				}
				bad := flip(ct, r.Intn(len(ct)))
				if pt, err := g.Open(bad[:0], nil, bad, aad); pt != nil || !errors.Is(err, ErrOpen) {
					t.Fatalf("%s size %d: tampered Open: %v", name, size, err)
				}
				if !bytes.Equal(bad[c.key:c.key+size], make([]byte, size)) {
					t.Fatalf("%s size %d: a failed in-place Open left bytes", name, size)
				}
			}
			for _, n := range []int{0, 1, g.Overhead() - 1} {
				if got, err := g.Open(nil, nil, make([]byte, n), nil); got != nil || err != ErrOpen {
					t.Fatalf("%s: %d-byte input: %v, %v", name, n, got, err)
				}
			}
			if u, ok := UsageOf(g); !ok || u.Seals == 0 {
				t.Fatalf("%s: UsageOf = %+v, %v", name, u, ok)
			}
		}
	}
}

// TestAEGISPanicsAndErrors: a nonce of another length panics with the family's text on Seal and
// Open, a nonce given to a random-nonce AEAD panics, overlaps panic as crypto/cipher's; Open of
// less than a tag, or with the wrong key, is ErrOpen.
func TestAEGISPanicsAndErrors(t *testing.T) {
	for _, c := range aegisAll {
		a, _ := c.plain(make([]byte, c.key))
		g, _ := c.random(make([]byte, c.key), 32)
		buf := make([]byte, 200)
		for _, n := range []int{0, 12, c.key - 1, c.key + 1, 64} {
			for what, f := range map[string]func(){
				"Seal": func() { a.Seal(nil, make([]byte, n), nil, nil) },
				"Open": func() { a.Open(nil, make([]byte, n), make([]byte, 16), nil) },
			} {
				if got := catchPanic(f); got != "aead: incorrect nonce length given to AEGIS" {
					t.Errorf("%s %s with a %d-byte nonce: panic %q", c.name, what, n, got)
				}
			}
		}
		for want, f := range map[string]func(){
			"aead: non-empty nonce passed to AEGIS with random nonces":   func() { g.Seal(nil, make([]byte, c.key), nil, nil) },
			"aead: invalid buffer overlap of output and input":           func() { a.Seal(buf[1:1], make([]byte, c.key), buf[:64], nil) },
			"aead: invalid buffer overlap of output and additional data": func() { a.Seal(buf[:0], make([]byte, c.key), nil, buf[5:10]) },
		} {
			if got := catchPanic(f); got != want {
				t.Errorf("%s: panic %q, want %q", c.name, got, want)
			}
		}
		nonce := make([]byte, c.key)
		for _, n := range []int{0, 1, 15} {
			if pt, err := a.Open(nil, nonce, make([]byte, n), nil); pt != nil || err != ErrOpen {
				t.Errorf("%s: Open of %d bytes: %v, %v", c.name, n, pt, err)
			}
		}
		other, _ := c.plain(bytes.Repeat([]byte{1}, c.key))
		if _, err := other.Open(nil, nonce, a.Seal(nil, nonce, []byte("m"), nil), nil); !errors.Is(err, ErrOpen) {
			t.Errorf("%s: another key opened: %v", c.name, err)
		}
	}
}
