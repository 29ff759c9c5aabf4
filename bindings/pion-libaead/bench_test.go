package pionaead

import (
	"fmt"
	"testing"

	"github.com/pion/dtls/v3/pkg/protocol/recordlayer"
)

// BenchmarkRecord: one DTLS 1.2 record sealed (Encrypt) or opened (Decrypt), 64 and 1200 bytes of
// data, TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256's keys: impl=libaead is this package's suite,
// impl=pion pion's own AES-GCM cipher (pkg/crypto/ciphersuite). Both allocate the record Encrypt
// returns, as pion's interface asks. Decrypt opens a copy of a record (it works in place); libaead's
// window refuses a number twice, so the records are made ahead in batches, outside the timer.
func BenchmarkRecord(b *testing.B) {
	suites, _ := ByName("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256")
	for _, size := range []int{64, 1200} {
		master, cr, sr := random(48), random(32), random(32)
		ours := suites()[0].(*Suite)
		if err := ours.Init(master, cr, sr, true); err != nil {
			b.Fatal(err)
		}
		theirs := pionPeer(b, ours, master, cr, sr)
		seq := uint64(0) // one counter for every run: libaead refuses a number twice, sealing and opening
		data := random(size)
		for _, impl := range []struct {
			name string
			c    recordCipher
		}{{"libaead", ours}, {"pion", theirs}} {
			b.Run(fmt.Sprintf("op=seal/size=%d/impl=%s", size, impl.name), func(b *testing.B) {
				b.SetBytes(int64(size))
				pkt, raw := record(1, 0, data)
				for i := 0; i < b.N; i++ {
					seq++
					pkt.Header.SequenceNumber = seq
					if _, err := impl.c.Encrypt(pkt, raw); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		// Records for the opens: the server side's (pion) toward the client (libaead), and back.
		openBench := func(b *testing.B, opener recordCipher, sealer recordCipher) {
			const batch = 4096
			recs := make([][]byte, batch)
			scratch := make([]byte, size+64)
			refill := func() {
				for j := range recs {
					seq++
					pkt, raw := record(1, seq, data)
					r, err := sealer.Encrypt(pkt, raw)
					if err != nil {
						b.Fatal(err)
					}
					recs[j] = r
				}
			}
			refill()
			b.SetBytes(int64(size))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if i > 0 && i%batch == 0 {
					b.StopTimer()
					refill()
					b.StartTimer()
				}
				in := scratch[:copy(scratch, recs[i%batch])]
				if _, err := opener.Decrypt(recordlayer.Header{}, in); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.Run(fmt.Sprintf("op=open/size=%d/impl=libaead", size), func(b *testing.B) { openBench(b, ours, theirs) })
		// pion's server-side cipher opens what libaead's client side sealed.
		b.Run(fmt.Sprintf("op=open/size=%d/impl=pion", size), func(b *testing.B) { openBench(b, theirs, ours) })
	}
}
