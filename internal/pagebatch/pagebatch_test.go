package pagebatch

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
)

// pages cuts levels of rows (rep and def of a column of maximum definition
// level 1, and its values) into pages at random points, as v1 pages may
// cut a row. With repeated false the column is not repeated.
func pages(rng *rand.Rand, rows int, repeated bool) []*column.Page {
	var def, rep []int16
	for range rows {
		n := 1
		if repeated {
			n = 1 + rng.IntN(4)
		}
		for i := range n {
			def = append(def, int16(rng.IntN(2)))
			if repeated {
				rep = append(rep, int16(min(i, 1)))
			}
		}
	}
	var out []*column.Page
	var next int64
	for from := 0; from < len(def); {
		to := min(len(def), from+rng.IntN(12))
		p := &column.Page{NumLevels: to - from, DefLevels: def[from:to]}
		if repeated {
			p.RepLevels = rep[from:to]
		}
		p.Values.Reset(format.Int64, 0)
		for _, d := range p.DefLevels {
			if d == 1 {
				p.Values.Int64s = append(p.Values.Int64s, next)
				next++
			}
		}
		out = append(out, p)
		from = to
	}
	return out
}

// TestGather checks that MinLevels gathers the same levels and values into
// batches of whole rows of at least MinLevels levels, but for the last.
func TestGather(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, repeated := range []bool{false, true} {
		for _, minLevels := range []int{0, 1, 7, 50, 1000} {
			t.Run(fmt.Sprintf("repeated=%v,min=%d", repeated, minLevels), func(t *testing.T) {
				ps := pages(rng, 300, repeated)
				var wantDef, wantRep []int16
				var wantVals []int64
				for _, p := range ps {
					wantDef = append(wantDef, p.DefLevels...)
					wantRep = append(wantRep, p.RepLevels...)
					wantVals = append(wantVals, p.Values.Int64s...)
				}
				var def, rep []int16
				var vals []int64
				var sizes []int
				write := func(v *column.Values, d, r []int16) error {
					if repeated && len(d) > 0 && (len(r) == 0 || r[0] != 0) {
						t.Fatalf("batch %d does not start a row: %v", len(sizes), r)
					}
					if len(r) > 0 && len(r) != len(d) {
						t.Fatalf("batch %d: %d rep levels, %d def", len(sizes), len(r), len(d))
					}
					nonNull := 0
					for _, x := range d {
						nonNull += int(x)
					}
					if nonNull != len(v.Int64s) {
						t.Fatalf("batch %d: %d values for %d non-null levels", len(sizes), len(v.Int64s), nonNull)
					}
					def, rep, vals = append(def, d...), append(rep, r...), append(vals, v.Int64s...)
					sizes = append(sizes, len(d))
					return nil
				}
				b := Batcher{MaxDef: 1, MinLevels: minLevels}
				for _, p := range ps {
					if err := b.Add(p, write); err != nil {
						t.Fatal(err)
					}
				}
				if err := b.Flush(write); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(def, wantDef) || !slices.Equal(rep, wantRep) || !slices.Equal(vals, wantVals) {
					t.Fatalf("batches differ from the pages")
				}
				for i, n := range sizes[:max(len(sizes)-1, 0)] {
					if n < minLevels {
						t.Fatalf("batch %d of %d levels, want at least %d", i, n, minLevels)
					}
				}
				if minLevels >= 50 && len(sizes) >= len(ps)/2 {
					t.Fatalf("%d batches for %d pages", len(sizes), len(ps))
				}
			})
		}
	}
}
