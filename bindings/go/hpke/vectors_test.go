package hpke

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	libaead "github.com/libaead/libaead/bindings/go"
	"github.com/libaead/libaead/bindings/go/internal/testkit"
)

type hexBytes []byte

func (h *hexBytes) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := hex.DecodeString(s)
	*h = v
	return err
}

// rfcCase is one case of RFC 9180's test vectors (the published JSON).
type rfcCase struct {
	Mode      int      `json:"mode"`
	KEMID     uint16   `json:"kem_id"`
	KDFID     uint16   `json:"kdf_id"`
	AEADID    uint16   `json:"aead_id"`
	Info      hexBytes `json:"info"`
	IkmR      hexBytes `json:"ikmR"`
	IkmS      hexBytes `json:"ikmS"`
	IkmE      hexBytes `json:"ikmE"`
	SkRm      hexBytes `json:"skRm"`
	PkRm      hexBytes `json:"pkRm"`
	PkSm      hexBytes `json:"pkSm"`
	PkEm      hexBytes `json:"pkEm"`
	Enc       hexBytes `json:"enc"`
	PSK       hexBytes `json:"psk"`
	PSKID     hexBytes `json:"psk_id"`
	BaseNonce hexBytes `json:"base_nonce"`

	Encryptions []struct {
		AAD   hexBytes `json:"aad"`
		CT    hexBytes `json:"ct"`
		Nonce hexBytes `json:"nonce"`
		PT    hexBytes `json:"pt"`
	} `json:"encryptions"`
	Exports []struct {
		Context hexBytes `json:"exporter_context"`
		L       int      `json:"L"`
		Value   hexBytes `json:"exported_value"`
	} `json:"exports"`
}

// TestRFC9180Vectors runs every case of RFC 9180's published test vectors (hpke/rfc9180.json of the
// vectors directory; all of its suites are this package's) through the package, in every mode: the
// key pairs from DeriveKeyPair, the sender with the case's ephemeral key (enc), every encryption in
// order as sender and as recipient, every export on both sides; and each encryption again through
// AppendOpenAt, given its sequence number, in reverse order.
func TestRFC9180Vectors(t *testing.T) {
	cases := readCases(t, "rfc9180.json")
	type suite struct{ kem, kdf, aead uint16 }
	count := map[suite][3]int{}
	modes := map[int]int{}
	for i, c := range cases {
		kem, err := NewKEM(c.KEMID)
		if err != nil {
			t.Fatalf("case %d: KEM %04x: %v", i, c.KEMID, err)
		}
		kdf, err := NewKDF(c.KDFID)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		a, err := NewAEAD(c.AEADID)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		checkCase(t, i, c, kem, kdf, a)
		k := suite{c.KEMID, c.KDFID, c.AEADID}
		n := count[k]
		count[k] = [3]int{n[0] + 1, n[1] + len(c.Encryptions), n[2] + len(c.Exports)}
		modes[c.Mode]++
	}
	total := 0
	for k, n := range count {
		t.Logf("rfc9180.json: kem 0x%04x kdf %d aead 0x%04x: %d cases, %d encryptions, %d exports", k.kem, k.kdf, k.aead, n[0], n[1], n[2])
		total += n[0]
	}
	t.Logf("rfc9180.json: %d cases (modes base %d, psk %d, auth %d, auth_psk %d), %d suites", total, modes[0], modes[1], modes[2], modes[3], len(count))
	if total != 128 || len(count) != 32 {
		t.Fatalf("rfc9180.json: %d cases in %d suites, want 128 in 32", total, len(count))
	}
}

// readCases reads hpke/name of the vectors directory (missing: the test fails).
func readCases(t *testing.T, name string) []rfcCase {
	t.Helper()
	dir, err := testkit.FindVectors()
	if err != nil {
		t.Fatalf("conformance vectors: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "hpke", name))
	if err != nil {
		t.Fatal(err)
	}
	var cases []rfcCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// checkCase runs case i of a vectors file (keys, sender with the case's ephemeral key, every
// encryption and export on both sides, AppendOpenAt in reverse order) with the case's KEM, KDF and
// AEAD.
func checkCase(t *testing.T, i int, c rfcCase, kem KEM, kdf KDF, a AEAD) {
	t.Helper()
	skR, err := kem.DeriveKeyPair(c.IkmR)
	if err != nil {
		t.Fatalf("case %d: DeriveKeyPair: %v", i, err)
	}
	if !bytes.Equal(skR.raw(), c.SkRm) || !bytes.Equal(skR.PublicKey().Bytes(), c.PkRm) {
		t.Fatalf("case %d: DeriveKeyPair(ikmR) is not (skRm, pkRm)", i)
	}
	if k, err := kem.NewPrivateKey(c.SkRm); err != nil || !bytes.Equal(k.PublicKey().Bytes(), c.PkRm) {
		t.Fatalf("case %d: NewPrivateKey(skRm) does not give pkRm: %v", i, err)
	}
	pkR, err := kem.NewPublicKey(c.PkRm)
	if err != nil {
		t.Fatalf("case %d: NewPublicKey: %v", i, err)
	}
	var so, ro Options
	so.ikmE = c.IkmE
	so.PSK, so.PSKID, ro.PSK, ro.PSKID = c.PSK, c.PSKID, c.PSK, c.PSKID
	if c.Mode == 2 || c.Mode == 3 {
		if so.SenderKey, err = kem.DeriveKeyPair(c.IkmS); err != nil {
			t.Fatalf("case %d: DeriveKeyPair(ikmS): %v", i, err)
		}
		if ro.SenderPublicKey, err = kem.NewPublicKey(c.PkSm); err != nil {
			t.Fatalf("case %d: NewPublicKey(pkSm): %v", i, err)
		}
		if !bytes.Equal(so.SenderKey.PublicKey().Bytes(), c.PkSm) {
			t.Fatalf("case %d: DeriveKeyPair(ikmS) does not give pkSm", i)
		}
	}
	enc, s, err := so.NewSender(pkR, kdf, a, c.Info)
	if err != nil {
		t.Fatalf("case %d (mode %d): NewSender: %v", i, c.Mode, err)
	}
	if !bytes.Equal(enc, c.Enc) {
		t.Fatalf("case %d: enc %x, want %x", i, enc, c.Enc)
	}
	r, err := ro.NewRecipient(enc, skR, kdf, a, c.Info)
	if err != nil {
		t.Fatalf("case %d: NewRecipient: %v", i, err)
	}
	r2, err := ro.NewRecipient(enc, skR, kdf, a, c.Info)
	if err != nil {
		t.Fatalf("case %d: NewRecipient: %v", i, err)
	}
	for j, e := range c.Encryptions {
		ct, seq, err := s.AppendSeal(nil, e.AAD, e.PT)
		if err != nil || seq != uint64(j) || !bytes.Equal(ct, e.CT) {
			t.Fatalf("case %d encryption %d: seq %d, err %v, ct %x, want %x", i, j, seq, err, ct, e.CT)
		}
		pt, err := r.Open(e.AAD, e.CT)
		if err != nil || !bytes.Equal(pt, e.PT) {
			t.Fatalf("case %d encryption %d: Open: %v", i, j, err)
		}
	}
	for b := 0; b < len(c.Encryptions); b += 64 { // each window's worth newest first
		for j := min(b+63, len(c.Encryptions)-1); j >= b; j-- {
			e := c.Encryptions[j]
			if pt, err := r2.OpenAt(uint64(j), e.AAD, e.CT); err != nil || !bytes.Equal(pt, e.PT) {
				t.Fatalf("case %d encryption %d: OpenAt: %v", i, j, err)
			}
		}
	}
	if n := len(c.Encryptions); n > 0 {
		e := c.Encryptions[n-1]
		if _, err := r2.OpenAt(uint64(n-1), e.AAD, e.CT); !errors.Is(err, libaead.ErrReplay) {
			t.Fatalf("case %d: a second OpenAt of encryption %d: %v, want ErrReplay", i, n-1, err)
		}
	}
	for j, x := range c.Exports {
		for side, ctx := range []interface {
			Export(string, int) ([]byte, error)
		}{s, r} {
			v, err := ctx.Export(string(x.Context), x.L)
			if err != nil || !bytes.Equal(v, x.Value) {
				t.Fatalf("case %d export %d (side %d): %x, %v; want %x", i, j, side, v, err, x.Value)
			}
		}
	}
	if a.ID() == 0xFFFF {
		if _, err := s.Seal(nil, []byte("x")); err == nil {
			t.Fatalf("case %d: export-only Seal succeeded", i)
		}
	}
}
