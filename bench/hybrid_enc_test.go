package bench

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/parquet-go/parquet-go"
	pgenc "github.com/parquet-go/parquet-go/encoding"
	pgrle "github.com/parquet-go/parquet-go/encoding/rle"

	"github.com/pqcodec/pqcodec/encoding/dictionary"
	"github.com/pqcodec/pqcodec/encoding/rle"
)

// The hybrid encode and lookup rows use the pages of the decode rows
// (hybridStream, same seeds), with the API each library offers for the job:
//
//	levels_u8_enc   levels from []uint8: ours rle.Encode, parquet-go its
//	                rle.Encoding.EncodeLevels
//	levels_i16_enc  levels from []int16 (the column writer's type): ours
//	                rle.Encode; the peer is parquet-go's []uint8 path
//	                (parquetgo_u8), it has no other
//	indices_enc     a dictionary index page (bit-width byte, then the
//	                stream) from []uint32: ours the width byte and
//	                rle.Encode (what dictionary.Encoder.AppendIndexPage
//	                writes), parquet-go rle.DictionaryEncoding.EncodeInt32
//	                from []int32 (which finds the width itself)
//	indices_lookup  an index page decoded into the values of a dictionary
//	                of int32, int64, double or byte_array values: ours
//	                dictionary.Dict.Decode and dictionary.BytesDict.Decode
//	                (checked, byte arrays copied into one flat []byte with
//	                offsets), parquet-go DictionaryEncoding.DecodeInt32
//	                then Dictionary.Lookup into []parquet.Value (unchecked
//	                indices; byte arrays as strings into the dictionary)
//
// Every encoder's output is decoded by ours and compared with the input;
// encode rows report the size of the page as the out-B metric, since
// writers may choose different valid run splits. The lookup rows stop at
// width 20: a dictionary of width 32 would hold 3<<30 values.

// hybridEncRows returns the hybrid encode and lookup rows.
func hybridEncRows() []hybridRow {
	var rows []hybridRow
	for _, w := range []uint{1, 2, 3, 4, 8} {
		for _, mix := range hybridMixes {
			for _, kind := range []string{"levels_u8_enc", "levels_i16_enc"} {
				peer := "parquetgo"
				if kind == "levels_i16_enc" {
					peer = "parquetgo_u8"
				}
				sizes := map[string]int{}
				rows = append(rows, hybridRow{fmt.Sprintf("enc=hybrid/kind=%s/width=%d/mix=%s", kind, w, mix),
					[]string{"ours", peer}, func() encRow { return levelEncRow(kind, w, mix, sizes) }, sizes})
			}
		}
	}
	for _, w := range []uint{1, 3, 8, 12, 16, 20, 32} {
		for _, mix := range hybridMixes {
			sizes := map[string]int{}
			rows = append(rows, hybridRow{fmt.Sprintf("enc=hybrid/kind=indices_enc/width=%d/mix=%s", w, mix),
				[]string{"ours", "parquetgo"}, func() encRow { return indexEncRow(w, mix, sizes) }, sizes})
		}
	}
	for _, typ := range []string{"int32", "int64", "double", "byte_array"} {
		for _, w := range []uint{1, 3, 8, 12, 16, 20} {
			for _, mix := range hybridMixes {
				rows = append(rows, hybridRow{fmt.Sprintf("enc=hybrid/kind=indices_lookup/type=%s/width=%d/mix=%s", typ, w, mix),
					[]string{"ours", "parquetgo"}, func() encRow { return lookupRow(typ, w, mix) }, nil})
			}
		}
	}
	return rows
}

// decodesTo returns a verification of an encoded level or index stream:
// ours decodes it to want, and its size goes to sizes[name].
func decodesTo[T rle.Level](name string, sizes map[string]int, want []T, width uint) func([]byte) bool {
	return func(got []byte) bool {
		sizes[name] = len(got)
		out, err := rle.DecodeLevels(make([]T, 0, len(want)), got, width, len(want))
		return err == nil && slices.Equal(out, want)
	}
}

// levelEncRow is the row of levels of width w encoded from []uint8 (kind
// levels_u8_enc) or []int16 (levels_i16_enc).
func levelEncRow(kind string, w uint, mix string, sizes map[string]int) encRow {
	v, _ := hybridStream(mix, w, 1<<w, hybridValues)
	n := len(v)
	v8 := make([]uint8, n)
	v16 := make([]int16, n)
	for i, x := range v {
		v8[i], v16[i] = uint8(x), int16(x)
	}
	pg := &pgrle.Encoding{BitWidth: int(w)}
	pgDst := make([]byte, 0, 2*n)
	pgName := "parquetgo"
	if kind == "levels_i16_enc" {
		pgName = "parquetgo_u8"
	}
	pgImpl := impl(pgName, func() ([]byte, error) {
		out, err := pg.EncodeLevels(pgDst[:0], v8)
		pgDst = out[:0]
		return out, err
	}, decodesTo(pgName, sizes, v8, w))
	dst := make([]byte, 0, 2*n)
	name := fmt.Sprintf("enc=hybrid/kind=%s/width=%d/mix=%s", kind, w, mix)
	if kind == "levels_u8_enc" {
		return encRow{name: name, bytes: n, impls: []encImpl{
			impl("ours", func() ([]byte, error) { return rle.Encode(dst[:0], v8, w) }, decodesTo("ours", sizes, v8, w)),
			pgImpl,
		}}
	}
	return encRow{name: name, bytes: n, impls: []encImpl{
		impl("ours", func() ([]byte, error) { return rle.Encode(dst[:0], v16, w) }, decodesTo("ours", sizes, v16, w)),
		pgImpl,
	}}
}

// indexDictSize returns the size of the dictionary of the index rows of
// width w: one that needs w bits but not all of them, so that the bound
// check of the decoders is real.
func indexDictSize(w uint) uint64 {
	if w > 1 {
		return 3 << (w - 2)
	}
	return 2
}

// indexEncRow is the row of a dictionary index page of width w encoded
// from its indices.
func indexEncRow(w uint, mix string, sizes map[string]int) encRow {
	size := indexDictSize(w)
	v, _ := hybridStream(mix, w, size, hybridValues)
	n := len(v)
	v32 := make([]int32, n)
	for i, x := range v {
		v32[i] = int32(x)
	}
	verify := func(name string) func([]byte) bool {
		return func(page []byte) bool {
			sizes[name] = len(page)
			out, err := dictionary.DecodeIndices(nil, page, n, int(size))
			return err == nil && slices.Equal(out, v)
		}
	}
	dst := make([]byte, 0, 5*n)
	pgDst := make([]byte, 0, 5*n)
	pg := &pgrle.DictionaryEncoding{}
	return encRow{name: fmt.Sprintf("enc=hybrid/kind=indices_enc/width=%d/mix=%s", w, mix), bytes: 4 * n,
		impls: []encImpl{
			impl("ours", func() ([]byte, error) { return rle.Encode(append(dst[:0], byte(w)), v, w) }, verify("ours")),
			impl("parquetgo", func() ([]byte, error) {
				out, err := pg.EncodeInt32(pgDst[:0], v32)
				pgDst = out[:0]
				return out, err
			}, verify("parquetgo")),
		}}
}

// lookupRow is the row of an index page of width w decoded into the values
// of a dictionary of type typ.
func lookupRow(typ string, w uint, mix string) encRow {
	size := int(indexDictSize(w))
	v, stream := hybridStream(mix, w, uint64(size), hybridValues)
	n := len(v)
	page := append([]byte{byte(w)}, stream...)
	r := rand.New(rand.NewPCG(uint64(size), uint64(len(typ))))
	pg := &pgrle.DictionaryEncoding{}
	idx := make([]int32, 0, n+64)
	// parquet-go decodes the zeros that pad the last bit-packed group too.
	pgVals := make([]parquet.Value, n+64)
	// pgLookup is parquet-go's decode and lookup of the page.
	pgLookup := func(dict parquet.Dictionary) func() ([]parquet.Value, error) {
		return func() ([]parquet.Value, error) {
			out, err := pg.DecodeInt32(idx[:0], page)
			if err != nil {
				return nil, err
			}
			idx = out[:0]
			if len(out) > len(pgVals) {
				return nil, fmt.Errorf("%d indices of %d: %w", len(out), n, errMismatch)
			}
			dict.Lookup(out, pgVals[:len(out)])
			return pgVals[:len(out)], nil
		}
	}
	name := fmt.Sprintf("enc=hybrid/kind=indices_lookup/type=%s/width=%d/mix=%s", typ, w, mix)
	switch typ {
	case "int32":
		vals := make([]int32, size)
		for i := range vals {
			vals[i] = int32(r.Uint32())
		}
		return fixedLookupRow(name, n, v, page, vals, parquet.Int32Type.NewDictionary(0, size, pgenc.Int32Values(vals)),
			pgLookup, parquet.Value.Int32)
	case "int64":
		vals := make([]int64, size)
		for i := range vals {
			vals[i] = int64(r.Uint64())
		}
		return fixedLookupRow(name, n, v, page, vals, parquet.Int64Type.NewDictionary(0, size, pgenc.Int64Values(vals)),
			pgLookup, parquet.Value.Int64)
	case "double":
		vals := make([]float64, size)
		for i := range vals {
			vals[i] = r.NormFloat64() * 1e6
		}
		return fixedLookupRow(name, n, v, page, vals, parquet.DoubleType.NewDictionary(0, size, pgenc.DoubleValues(vals)),
			pgLookup, parquet.Value.Double)
	}
	// Strings of 4-24 bytes.
	var flat, plainPage []byte
	offs := []uint32{0}
	for range size {
		s := make([]byte, 4+r.IntN(21))
		for i := range s {
			s[i] = 'a' + byte(r.IntN(26))
		}
		flat = append(flat, s...)
		offs = append(offs, uint32(len(flat)))
		plainPage = binary.LittleEndian.AppendUint32(plainPage, uint32(len(s)))
		plainPage = append(plainPage, s...)
	}
	value := func(k uint32) []byte { return flat[offs[k]:offs[k+1]] }
	var d dictionary.BytesDict
	if err := d.Reset(plainPage, size); err != nil {
		panic(err)
	}
	dstVals := make([]byte, 0, 24*n)
	dstOffs := make([]int32, 0, n+1)
	pgDict := parquet.ByteArrayType.NewDictionary(0, size, pgenc.ByteArrayValues(flat, offs))
	type flatOut struct {
		vals []byte
		offs []int32
	}
	return encRow{name: name, bytes: 4 * n, impls: []encImpl{
		impl("ours", func() (flatOut, error) {
			vs, os, err := d.Decode(dstVals[:0], dstOffs[:0], page, n)
			return flatOut{vs, os}, err
		}, func(got flatOut) bool {
			if len(got.offs) != n+1 || got.offs[0] != 0 {
				return false
			}
			for i, k := range v {
				if !slices.Equal(got.vals[got.offs[i]:got.offs[i+1]], value(k)) {
					return false
				}
			}
			return true
		}),
		impl("parquetgo", pgLookup(pgDict), func(got []parquet.Value) bool {
			if len(got) < n {
				return false
			}
			for i, k := range v {
				if !slices.Equal(got[i].ByteArray(), value(k)) {
					return false
				}
			}
			return true
		}),
	}}
}

// fixedLookupRow is lookupRow of a dictionary of fixed-size values vals.
func fixedLookupRow[T int32 | int64 | float64](name string, n int, v []uint32, page []byte, vals []T,
	pgDict parquet.Dictionary, pgLookup func(parquet.Dictionary) func() ([]parquet.Value, error),
	pgValue func(parquet.Value) T,
) encRow {
	var d dictionary.Dict[T]
	if err := d.Reset(plainBytes(vals), len(vals)); err != nil {
		panic(err)
	}
	want := make([]T, n)
	for i, k := range v {
		want[i] = vals[k]
	}
	dst := make([]T, 0, n)
	return encRow{name: name, bytes: 4 * n, impls: []encImpl{
		impl("ours", func() ([]T, error) { return d.Decode(dst[:0], page, n) }, equal(want)),
		impl("parquetgo", pgLookup(pgDict), func(got []parquet.Value) bool {
			if len(got) < n {
				return false
			}
			for i, x := range want {
				if pgValue(got[i]) != x {
					return false
				}
			}
			return true
		}),
	}}
}

// plainBytes returns the PLAIN encoding of fixed-size values.
func plainBytes[T int32 | int64 | float64](vals []T) []byte {
	var out []byte
	for _, x := range vals {
		switch x := any(x).(type) {
		case int32:
			out = binary.LittleEndian.AppendUint32(out, uint32(x))
		case int64:
			out = binary.LittleEndian.AppendUint64(out, uint64(x))
		case float64:
			out = binary.LittleEndian.AppendUint64(out, math.Float64bits(x))
		}
	}
	return out
}

// TestHybridProfile runs every implementation of the hybrid rows whose name
// contains $PQCODEC_HYBRID_PROFILE 100 times, for instruction counts under
// callgrind (--toggle-collect on each implementation's entry point).
func TestHybridProfile(t *testing.T) {
	sub := os.Getenv("PQCODEC_HYBRID_PROFILE")
	if sub == "" {
		t.Skip("PQCODEC_HYBRID_PROFILE not set")
	}
	for _, hr := range hybridRows() {
		if !strings.Contains(hr.name, sub) {
			continue
		}
		row := hr.build()
		for _, im := range row.impls {
			require.NoError(t, im.check(), "%s/impl=%s", row.name, im.name)
			for range 100 {
				require.NoError(t, im.run())
			}
		}
	}
}
