package levelscan

import (
	"math/rand/v2"
	"testing"
)

// naive is the reference: a loop with a branch per level.
func naive(levels []int16, v int16) (n int, hi int16) {
	for _, l := range levels {
		if l == v {
			n++
		}
		hi = max(hi, l)
	}
	return n, hi
}

// TestScan checks CountEqual and Scan, and the generic loops alone, against
// naive on every length around the kernels' 32-level steps and on pages
// longer than a chunk, with levels up to 1 and up to 100, each value
// counted, from every start offset of 16-byte alignment.
func TestScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	lengths := []int{chunk - 1, chunk, chunk + 33, 3*chunk + 5}
	for n := range 130 {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		for _, top := range []int{1, 100} {
			buf := make([]int16, n+7)
			for i := range buf {
				buf[i] = int16(rng.IntN(top + 1))
			}
			for _, off := range []int{0, 3, 7} {
				if n > 200 && off > 0 {
					continue
				}
				levels := buf[off : off+n]
				for _, v := range []int16{0, 1, int16(top), int16(top) + 1} {
					want, hi := naive(levels, v)
					if got := CountEqual(levels, v); got != want {
						t.Fatalf("CountEqual n %d v %d: %d, want %d", n, v, got, want)
					}
					if got, gotHi := Scan(levels, v); got != want || gotHi != hi {
						t.Fatalf("Scan n %d v %d: %d, %d; want %d, %d", n, v, got, gotHi, want, hi)
					}
					if got, gotHi := scanGeneric(levels, v); got != want || gotHi != hi {
						t.Fatalf("scanGeneric n %d v %d: %d, %d; want %d, %d", n, v, got, gotHi, want, hi)
					}
				}
			}
		}
	}
}

// TestScanAllEqual: every lane's counter at its largest, a whole chunk of
// levels equal to the value and to the maximum.
func TestScanAllEqual(t *testing.T) {
	levels := make([]int16, 2*chunk+40)
	for i := range levels {
		levels[i] = 32767
	}
	if got, hi := Scan(levels, 32767); got != len(levels) || hi != 32767 {
		t.Fatalf("Scan: %d, %d; want %d, 32767", got, hi, len(levels))
	}
	if got := CountEqual(levels, 32767); got != len(levels) {
		t.Fatalf("CountEqual: %d, want %d", got, len(levels))
	}
}

func BenchmarkScan(b *testing.B) {
	levels := make([]int16, 1<<14)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range levels {
		levels[i] = int16(rng.IntN(4))
	}
	b.SetBytes(2 << 14)
	b.Run("CountEqual", func(b *testing.B) {
		for b.Loop() {
			CountEqual(levels, 3)
		}
	})
	b.Run("Scan", func(b *testing.B) {
		for b.Loop() {
			Scan(levels, 3)
		}
	})
	b.Run("generic", func(b *testing.B) {
		for b.Loop() {
			scanGeneric(levels, 3)
		}
	})
}
