package bench

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	pgrle "github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/encoding/dictionary"
	"github.com/pqcodec/pqcodec/encoding/rle"
)

// The hybrid rows decode RLE/bit-packed streams of every run mix at the
// widths real files use, with the API each library offers for the job:
//
//	levels_u8   levels into []uint8: ours rle.DecodeLevels, parquet-go its
//	            rle.Encoding.DecodeLevels (widths up to 8)
//	levels_i16  levels into []int16 (the column reader's type): ours
//	            rle.DecodeLevels; the peer is parquet-go's []uint8 path, it
//	            has no other
//	indices     a dictionary index page (bit-width byte, then the stream)
//	            into []uint32 checked against the dictionary size: ours
//	            dictionary.DecodeIndices, parquet-go its
//	            rle.DictionaryEncoding.DecodeInt32 (which checks nothing)
//
// arrow-go keeps its hybrid decoder in an internal package: it has no public
// API for this work, so it has no column here (its column readers are in
// the whole-file rows of cgo_test).
//
// Run mixes, the stream written run by run as writers do (bit-packed runs
// always hold whole groups of 8 real values, the last one of the page
// padded with zeros):
//
//	bitpacked  bit-packed runs of 63 groups (parquet-java's longest with a
//	           one-byte header)
//	rle        RLE runs of 8-64 values
//	short      RLE runs of 1-16 values
//	mixed      RLE runs of 8-200 values between bit-packed stretches of
//	           1-64 values (1-8 groups): what parquet-java, arrow-cpp and
//	           DuckDB write for clustered data
//	long       RLE runs of 500-5000 values with a bit-packed group now and
//	           then
var hybridMixes = []string{"bitpacked", "rle", "short", "mixed", "long"}

// hybridValues is the number of values of one hybrid page.
const hybridValues = 16384

// hybridStream returns n values below limit and their hybrid stream of the
// given width, shaped by mix; the same (mix, width, limit) always gives
// the same page.
func hybridStream(mix string, width uint, limit uint64, n int) ([]uint32, []byte) {
	r := rand.New(rand.NewPCG(uint64(width)<<32|limit&0xffffffff, uint64(len(mix))<<8|uint64(mix[0])))
	val := func() uint32 { return uint32(r.Uint64N(limit)) }
	var vals []uint32
	var out []byte
	rleRun := func(k int) {
		k = min(k, n-len(vals))
		v := val()
		out = appendUvarint(out, uint64(k)<<1)
		for i := uint(0); i < width; i += 8 {
			out = append(out, byte(v>>i))
		}
		for range k {
			vals = append(vals, v)
		}
	}
	packed := func(groups int) {
		groups = min(groups, (n-len(vals)+7)/8)
		out = appendUvarint(out, uint64(groups)<<1|1)
		var acc uint64
		var nacc uint
		for range 8 * groups {
			v := uint32(0)
			if len(vals) < n {
				v = val()
				vals = append(vals, v)
			}
			acc |= uint64(v) << nacc
			nacc += width
			for nacc >= 8 {
				out = append(out, byte(acc))
				acc >>= 8
				nacc -= 8
			}
		}
	}
	for len(vals) < n {
		switch mix {
		case "bitpacked":
			packed(63)
		case "rle":
			rleRun(8 + r.IntN(57))
		case "short":
			rleRun(1 + r.IntN(16))
		case "mixed":
			rleRun(8 + r.IntN(193))
			if len(vals) < n {
				packed((r.IntN(64) + 8) / 8)
			}
		case "long":
			rleRun(500 + r.IntN(4501))
			if len(vals) < n && r.IntN(4) == 0 {
				packed(1)
			}
		default:
			panic("bench: unknown mix " + mix)
		}
	}
	return vals, out
}

func appendUvarint(dst []byte, v uint64) []byte {
	for v >= 0x80 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}

// hybridRow is a hybrid row built on demand: pages of every row take a
// while to generate, and a run of one row (callgrind) should not pay for
// all of them.
type hybridRow struct {
	name  string
	impls []string // the implementations build gives, in order
	build func() encRow
	// outBytes is the output size of each implementation of an encode
	// row, filled in by its check and reported as the out-B metric.
	outBytes map[string]int
}

// hybridRows returns the hybrid decode rows, then the encode and lookup
// rows of hybridEncRows.
func hybridRows() []hybridRow {
	var rows []hybridRow
	for _, w := range []uint{1, 2, 3, 4, 8} {
		for _, mix := range hybridMixes {
			for _, kind := range []string{"levels_u8", "levels_i16"} {
				rows = append(rows, hybridRow{fmt.Sprintf("enc=hybrid/kind=%s/width=%d/mix=%s", kind, w, mix),
					[]string{"ours", "parquetgo_u8"}, func() encRow { return levelRow(kind, w, mix) }, nil})
			}
		}
	}
	for _, w := range []uint{1, 3, 8, 12, 16, 20, 32} {
		for _, mix := range hybridMixes {
			rows = append(rows, hybridRow{fmt.Sprintf("enc=hybrid/kind=indices/width=%d/mix=%s", w, mix),
				[]string{"ours", "parquetgo"}, func() encRow { return indexRow(w, mix) }, nil})
		}
	}
	return append(rows, hybridEncRows()...)
}

// levelRow is the row of levels of width w into []uint8 (kind levels_u8)
// or []int16 (levels_i16).
func levelRow(kind string, w uint, mix string) encRow {
	v, src := hybridStream(mix, w, 1<<w, hybridValues)
	n := len(v)
	v8 := make([]uint8, n)
	v16 := make([]int16, n)
	for i, x := range v {
		v8[i], v16[i] = uint8(x), int16(x)
	}
	pg := &pgrle.Encoding{BitWidth: int(w)}
	u8 := make([]uint8, 0, n+8)
	pgImpl := impl("parquetgo_u8", func() ([]uint8, error) { return pg.DecodeLevels(u8, src) },
		func(got []uint8) bool { return len(got) >= n && slices.Equal(got[:n], v8) })
	d8 := make([]uint8, 0, n)
	d16 := make([]int16, 0, n)
	name := fmt.Sprintf("enc=hybrid/kind=%s/width=%d/mix=%s", kind, w, mix)
	if kind == "levels_u8" {
		return encRow{name: name, bytes: n, impls: []encImpl{
			impl("ours", func() ([]uint8, error) { return rle.DecodeLevels(d8[:0], src, w, n) }, equal(v8)),
			pgImpl,
		}}
	}
	return encRow{name: name, bytes: n, impls: []encImpl{
		impl("ours", func() ([]int16, error) { return rle.DecodeLevels(d16[:0], src, w, n) }, equal(v16)),
		pgImpl,
	}}
}

// indexRow is the row of a dictionary index page of width w.
func indexRow(w uint, mix string) encRow {
	// A dictionary that needs width w bits but not all of them, so that
	// the bound check is real.
	size := uint64(2)
	if w > 1 {
		size = 3 << (w - 2)
	}
	v, stream := hybridStream(mix, w, size, hybridValues)
	n := len(v)
	page := append([]byte{byte(w)}, stream...)
	v32 := make([]int32, n)
	for i, x := range v {
		v32[i] = int32(x)
	}
	dst := make([]uint32, 0, n)
	pgDst := make([]int32, 0, n+64)
	pg := &pgrle.DictionaryEncoding{}
	return encRow{name: fmt.Sprintf("enc=hybrid/kind=indices/width=%d/mix=%s", w, mix), bytes: 4 * n,
		impls: []encImpl{
			impl("ours", func() ([]uint32, error) { return dictionary.DecodeIndices(dst[:0], page, n, int(size)) }, equal(v)),
			impl("parquetgo", func() ([]int32, error) {
				out, err := pg.DecodeInt32(pgDst, page)
				pgDst = out[:0]
				return out, err
			}, func(got []int32) bool { return len(got) >= n && slices.Equal(got[:n], v32) }),
		}}
}

// BenchmarkHybrid decodes (or encodes, or decodes and looks up) one hybrid
// page per operation with every implementation of each row.
func BenchmarkHybrid(b *testing.B) {
	for _, hr := range hybridRows() {
		var row *encRow
		for _, name := range hr.impls {
			b.Run(hr.name+"/impl="+name, func(b *testing.B) {
				if row == nil {
					r := hr.build()
					row = &r
				}
				for _, im := range row.impls {
					if im.name == name {
						runImpl(b, *row, im)
					}
				}
				if n, ok := hr.outBytes[name]; ok {
					b.ReportMetric(float64(n), "out-B")
				}
			})
		}
	}
}

// TestHybridImplementations checks every implementation of every hybrid row
// once.
func TestHybridImplementations(t *testing.T) {
	for _, hr := range hybridRows() {
		row := hr.build()
		var names []string
		for _, im := range row.impls {
			names = append(names, im.name)
		}
		require.Equal(t, hr.impls, names, row.name)
		for _, im := range row.impls {
			require.NoError(t, im.check(), "%s/impl=%s", row.name, im.name)
		}
	}
}
