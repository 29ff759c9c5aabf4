package bench

import (
	"crypto/cipher"
	"fmt"
	"testing"
	"time"

	aead "github.com/libaead/libaead/bindings/go"
)

// batchRecords is how many records one Batch call carries in BenchmarkBatchPerRecord (the size of the
// batch measurements in the README).
const batchRecords = 256

// BenchmarkBatchPerRecord: where a record's time goes, per record (ns/op is per record: b.N records
// in batches of 256), in one run and on the same AES-128-GCM AEAD (13-byte AAD, 12-byte nonce):
//   - what=batch: aead.Batch.Seal / Batch.Open, one reused Batch and 256 output buffers;
//   - what=loop: Seal / Open called once per record on the same 256 records and buffers;
//   - what=c: aead_seal_open in a C loop on C buffers (the C call, no cgo crossing per record);
//
// op=SealRandom / OpenRandom are the same for NewGCMWithRandomNonce. The crossing itself is
// BenchmarkBatchPerRecord/what=args10cgo (an empty C function with aead_seal_open's 10 arguments,
// noescape/nocallback, Go slices passed as the binding passes them) and what=emptycgo.
func BenchmarkBatchPerRecord(b *testing.B) {
	for _, op := range []string{"Seal", "Open", "SealRandom", "OpenRandom"} {
		for _, size := range []int{64, 1024, 16384} {
			whats := []string{"batch", "loop", "c"}
			if op == "SealRandom" || op == "OpenRandom" {
				whats = whats[:2]
			}
			for _, what := range whats {
				b.Run(fmt.Sprintf("op=%s/size=%d/what=%s", op, size, what), func(b *testing.B) {
					if what == "c" {
						runFloor(b, op == "Open", size)
						return
					}
					runBatch(b, op, size, what == "batch")
				})
			}
		}
	}
	b.Run("what=args10cgo", func(b *testing.B) {
		nonce, aad, in, out := make([]byte, 12), make([]byte, 13), make([]byte, 64), make([]byte, 80)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			Args10Call(nonce, aad, in, out)
		}
	})
	b.Run("what=emptycgo", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			EmptyCall()
		}
	})
}

func runBatch(b *testing.B, op string, size int, batched bool) {
	run := batchSide(b, op, size, batched)
	run(batchRecords) // warm-up: the Batch's scratch space is made here, outside the timed region
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for done := 0; done < b.N; done += batchRecords {
		run(min(batchRecords, b.N-done))
	}
}

// batchSide returns a function doing n (<= 256) records of op at size: in one Batch call
// (batched) or in a loop of Seal/Open calls, on the same AEAD, records and output buffers.
func batchSide(b *testing.B, op string, size int, batched bool) func(n int) {
	var a cipher.AEAD
	var err error
	if op == "SealRandom" || op == "OpenRandom" {
		a, err = aead.NewGCMWithRandomNonce(make([]byte, 16))
	} else {
		a, err = aead.NewGCM(make([]byte, 16))
	}
	if err != nil {
		b.Fatal(err)
	}
	seal := op == "Seal" || op == "SealRandom"
	nonce, aad := make([]byte, a.NonceSize()), make([]byte, 13)
	in := make([]byte, size)
	outLen := size + a.Overhead()
	if !seal {
		in = a.Seal(nil, nonce, in, aad)
		outLen = size
	}
	recs := make([]aead.Record, batchRecords)
	for i := range recs {
		recs[i] = aead.Record{Dst: make([]byte, 0, outLen), Nonce: nonce, Input: in, AdditionalData: aad}
	}
	var batch aead.Batch
	return func(n int) {
		recs := recs[:n]
		if batched {
			var ok int
			if seal {
				ok = batch.Seal(a, recs)
			} else {
				ok = batch.Open(a, recs)
			}
			if ok != len(recs) {
				panic(fmt.Sprintf("%d of %d records failed: %v", len(recs)-ok, len(recs), recs[0].Err))
			}
			return
		}
		for i := range recs {
			r := &recs[i]
			if seal {
				a.Seal(r.Dst, r.Nonce, r.Input, r.AdditionalData)
			} else if _, err := a.Open(r.Dst, r.Nonce, r.Input, r.AdditionalData); err != nil {
				panic(err)
			}
		}
	}
}

// BenchmarkBatchPaired: the same decomposition with the sides alternating in chunks of 256 records
// inside one benchmark (robust on a busy machine): per chunk the time per record of Batch, of the
// Seal/Open loop, of the C loop (aead_seal_open from C), of an empty 10-argument cgo call and of
// aead_seal_open_many from C on 256 records laid out as the Batch's scratch; reported are the
// medians over chunks of each (batch-ns/rec, loop-ns/rec, c-ns/rec, args10cgo-ns/call,
// cmany-ns/rec) and of the ratios batch/loop and batch/c. Random-nonce rows have no C sides
// but the crossing (the C loops are plain GCM).
func BenchmarkBatchPaired(b *testing.B) {
	for _, op := range []string{"Seal", "Open", "SealRandom", "OpenRandom"} {
		for _, size := range []int{64, 1024, 16384} {
			b.Run(fmt.Sprintf("op=%s/size=%d", op, size), func(b *testing.B) {
				sides := []func(int){batchSide(b, op, size, true), batchSide(b, op, size, false)}
				cOp := "Seal"
				if op == "Open" || op == "OpenRandom" {
					cOp = "Open"
				}
				f := newFloor(b, size, cOp == "Open")
				defer f.Free()
				nonce, aad, in, out := make([]byte, 12), make([]byte, 13), make([]byte, 64), make([]byte, 80)
				sides = append(sides, func(n int) {
					if f.Loop(n) < 0 {
						panic("C loop failed")
					}
				}, func(n int) {
					for i := 0; i < n; i++ {
						Args10Call(nonce, aad, in, out)
					}
				}, func(n int) {
					if f.Many(n, batchRecords) < 0 {
						panic("C batch failed")
					}
				})
				units := []string{"batch-ns/rec", "loop-ns/rec", "c-ns/rec", "args10cgo-ns/call", "cmany-ns/rec"}
				ratios := map[string][2]int{"batch/loop": {0, 1}, "batch/c": {0, 2}}
				if op != cOp { // random nonce: the C sides are plain GCM, no reference for these
					sides, units, ratios = []func(int){sides[0], sides[1], sides[3]}, []string{units[0], units[1], units[3]}, map[string][2]int{"batch/loop": {0, 1}}
				}
				pairedMedians(b, batchRecords, sides, units, ratios)
			})
		}
	}
}

// pairedMedians runs the sides in alternating chunks of chunk operations until b.N of each are
// done, and reports the median over full chunks of each side's time per operation (units[i]) and
// of each named ratio of two sides' chunk times.
func pairedMedians(b *testing.B, chunk int, sides []func(int), units []string, ratios map[string][2]int) {
	per := make([][]float64, len(sides))
	rs := map[string][]float64{}
	alternate(b, chunk, sides, func(t []time.Duration) {
		for i := range sides {
			per[i] = append(per[i], float64(t[i])/float64(chunk))
		}
		for name, ij := range ratios {
			rs[name] = append(rs[name], float64(t[ij[0]])/float64(t[ij[1]]))
		}
	})
	if len(per[0]) == 0 {
		return // calibration run shorter than one chunk
	}
	for i, u := range units {
		b.ReportMetric(median(per[i]), u)
	}
	for name, v := range rs {
		b.ReportMetric(median(v), name)
	}
}
