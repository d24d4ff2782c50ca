package arrowgo

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// randomLevels returns n repetition and definition levels up to maxRep and
// maxDef, in no particular order: the first entry may be a continuation,
// and continuations may follow null or empty slots, as damaged files have
// them.
func randomLevels(r *rand.Rand, n int, maxRep, maxDef int16) (rep, def []int16) {
	rep, def = make([]int16, n), make([]int16, n)
	for i := range n {
		rep[i] = int16(r.IntN(int(maxRep) + 1))
		def[i] = int16(r.IntN(int(maxDef) + 1))
	}
	return rep, def
}

// TestTopListElements checks the one-pass kernels of top-level lists and
// validity against the slot by slot ones they replace.
func TestTopListElements(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := range 2000 {
		n := r.IntN(70)
		maxRep := int16(1 + r.IntN(2))
		maxDef := int16(1 + r.IntN(3))
		rep, def := randomLevels(r, n, maxRep, maxDef)
		l := &leaf{def: def, rep: rep, n: n, maxRep: maxRep, maxDef: maxDef}
		for _, x := range def {
			l.nvals += b2i(x == maxDef)
		}
		var starts []int32
		for i, x := range rep {
			if x == 0 {
				starts = append(starts, int32(i))
			}
		}
		s := slots{l: l, idx: starts, n: len(starts)}
		for d := int16(1); d <= maxDef; d++ {
			want32 := make([]int32, s.n+1)
			wantIdx := listElements(s, d, 1, want32, nil)
			got32 := make([]int32, s.n+1)
			got64 := make([]int64, s.n+1)
			bm := make([]byte, (s.n+7)/8)
			got, nvalid := topListElements(l, d, got32, bm)
			if !slices.Equal(got, wantIdx) || !slices.Equal(got32, want32) {
				t.Fatalf("iter %d def %d: rep %v def %v: elements %v offsets %v, want %v %v", iter, d, rep, def, got, got32, wantIdx, want32)
			}
			wantValid := 0
			for k, e := range starts {
				v := def[e] >= d-1
				wantValid += b2i(v)
				if bm[k>>3]>>(k&7)&1 != byte(b2i(v)) {
					t.Fatalf("iter %d def %d: slot %d of %v: validity %08b", iter, d, k, def, bm)
				}
			}
			if nvalid != wantValid {
				t.Fatalf("iter %d def %d: %d valid slots, want %d", iter, d, nvalid, wantValid)
			}
			if got, _ := topListElements[int64](l, d, nil, nil); !slices.Equal(got, wantIdx) {
				t.Fatalf("iter %d: without offsets: %v, want %v", iter, got, wantIdx)
			}
			topListElements(l, d, got64, nil)
			for i := range got64 {
				if got64[i] != int64(want32[i]) {
					t.Fatalf("iter %d: int64 offsets %v, want %v", iter, got64, want32)
				}
			}

			// Validity of the slots, indexed and not.
			b := builder{mem: memory.NewGoAllocator()}
			for _, sl := range []slots{s, {l: l, n: n}} {
				buf, nulls := b.validity(sl, d)
				wantNulls := 0
				for k := range sl.n {
					if def[sl.entry(k)] < d {
						wantNulls++
					}
				}
				if nulls != wantNulls || (buf == nil) != (wantNulls == 0) {
					t.Fatalf("iter %d: %d nulls (bitmap %v), want %d", iter, nulls, buf != nil, wantNulls)
				}
				if buf == nil {
					continue
				}
				bm := buf.Bytes()
				for k := range sl.n {
					if got := bm[k>>3]>>(k&7)&1 == 1; got != (def[sl.entry(k)] >= d) {
						t.Fatalf("iter %d: slot %d valid %v", iter, k, got)
					}
				}
				buf.Release()
			}
		}
	}
}

// TestBigEndianDecimal checks the word-wise conversion of decimals of up
// to 16 bytes against the byte-wise one.
func TestBigEndianDecimal(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		src := make([]byte, 1+r.IntN(16))
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		if r.IntN(4) == 0 {
			src[0] |= 0x80
		}
		got, want := make([]byte, 16), make([]byte, 16)
		if err := bigEndianDecimal(got, src); err != nil {
			t.Fatal(err)
		}
		if err := bigEndianDecimalBytes(want, src); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%x: %x, want %x", src, got, want)
		}
	}
}
