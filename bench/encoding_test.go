package bench

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/parquet"
	pq "github.com/parquet-go/parquet-go"
	pgencoding "github.com/parquet-go/parquet-go/encoding"
	pgbss "github.com/parquet-go/parquet-go/encoding/bytestreamsplit"
	pgdelta "github.com/parquet-go/parquet-go/encoding/delta"
	pgplain "github.com/parquet-go/parquet-go/encoding/plain"
	pgrle "github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/encoding/bytestreamsplit"
	"github.com/pqcodec/pqcodec/encoding/delta"
	"github.com/pqcodec/pqcodec/encoding/dictionary"
	"github.com/pqcodec/pqcodec/encoding/plain"
	"github.com/pqcodec/pqcodec/encoding/rle"
	"github.com/pqcodec/pqcodec/internal/benchdata"
)

// Implementation keys of the encoding rows:
//
//	ours              pqcodec's encoding packages
//	parquetgo         github.com/parquet-go/parquet-go/encoding/..., same output shape
//	parquetgo_u8      parquet-go's level path on []uint8 (ours: our level API on []uint8)
//	parquetgo_bitmap  parquet-go's BOOLEAN path, which keeps the bitmap as is
//	                  (no unpacking: shown, not a peer of the row)
//	parquetgo_values  parquet-go's RLE_DICTIONARY path at its lowest public
//	                  level: index decode, then Dictionary.Lookup into
//	                  []parquet.Value (a 24-byte struct per value; its typed
//	                  gather is unexported)
//	arrowgo           arrow-go's column chunk reader on an in-memory file (decode only)
//	copy              copy of the PLAIN bytes: the physical limit of fixed-width PLAIN

var errMismatch = errors.New("bench: decoded values differ from the input")

// encImpl is one implementation of a row: run performs the whole-page
// operation into buffers reused across calls (by capacity: a buffer an
// implementation grows is kept for the next call, as a page reader keeps
// it); check runs it once and verifies the result.
type encImpl struct {
	name  string
	run   func() error
	check func() error
}

// encRow is one benchmark row: an encoding, a physical type and a dataset,
// and the bytes of PLAIN-encoded (or, for levels and indices, uint32) values
// one operation processes, for b.SetBytes.
type encRow struct {
	name  string
	bytes int
	impls []encImpl
}

// impl builds an encImpl from an operation returning its output and a
// verification of that output.
func impl[O any](name string, op func() (O, error), verify func(O) bool) encImpl {
	run := func() error { _, err := op(); return err }
	return encImpl{name: name, run: run, check: func() error {
		out, err := op()
		if err != nil {
			return err
		}
		if !verify(out) {
			return fmt.Errorf("%s: %w", name, errMismatch)
		}
		return nil
	}}
}

// equal returns a verification that the output equals want.
func equal[T comparable](want []T) func([]T) bool {
	return func(got []T) bool { return slices.Equal(got, want) }
}

// asBytes views a fixed-width slice as its little-endian bytes.
func asBytes[T int32 | int64 | uint32 | float32 | float64](v []T) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*int(unsafe.Sizeof(v[0])))
}

// copyDecode is the copy implementation of a fixed-width PLAIN decode.
func copyDecode[T int32 | int64 | float32 | float64](want []T, src []byte) encImpl {
	dst := make([]T, len(want))
	return impl("copy", func() ([]T, error) {
		copy(asBytes(dst), src)
		return dst, nil
	}, equal(want))
}

// copyEncode is the copy implementation of a fixed-width PLAIN encode.
func copyEncode[T int32 | int64 | float32 | float64](v []T, want []byte) encImpl {
	dst := make([]byte, len(want))
	return impl("copy", func() ([]byte, error) {
		copy(dst, asBytes(v))
		return dst, nil
	}, func(got []byte) bool { return bytes.Equal(got, want) })
}

func uint32Offsets(o []int32) []uint32 {
	out := make([]uint32, len(o))
	for i, v := range o {
		out[i] = uint32(v)
	}
	return out
}

func sameByteArrays(want ByteArrays) func(values []byte, offsets []int32) bool {
	return func(values []byte, offsets []int32) bool {
		return bytes.Equal(values, want.Values) && slices.Equal(offsets, want.Offsets)
	}
}

type byteArraysOut struct {
	values  []byte
	offsets []int32
}

type pgByteArraysOut struct {
	values  []byte
	offsets []uint32
}

// byteArrayDecodeImpls returns ours, parquetgo and arrowgo decoding src,
// the encoding of b; pgDecode and ourDecode are the two libraries'
// functions for it.
func byteArrayDecodeImpls(tb testing.TB, b ByteArrays, src []byte, arrowEnc parquet.Encoding,
	ourDecode func(values []byte, offsets []int32, src []byte) ([]byte, []int32, error),
	pgDecode func(dst, src []byte, offsets []uint32) ([]byte, []uint32, error),
) []encImpl {
	same := sameByteArrays(b)
	values := make([]byte, 0, len(b.Values))
	offsets := make([]int32, 0, len(b.Offsets))
	pgValues := make([]byte, 0, len(b.Values))
	pgOffsets := make([]uint32, 0, len(b.Offsets))
	wantPG := uint32Offsets(b.Offsets)
	arrow := arrowByteArrays(tb, arrowEnc, b)
	arrowDst := make([]parquet.ByteArray, b.Len())
	return []encImpl{
		impl("ours", func() (byteArraysOut, error) {
			v, o, err := ourDecode(values[:0], offsets[:0], src)
			values, offsets = v, o // reuse by capacity, as a page reader does
			return byteArraysOut{v, o}, err
		}, func(o byteArraysOut) bool { return same(o.values, o.offsets) }),
		impl("parquetgo", func() (pgByteArraysOut, error) {
			v, o, err := pgDecode(pgValues, src, pgOffsets)
			pgValues, pgOffsets = v, o
			return pgByteArraysOut{v, o}, err
		}, func(o pgByteArraysOut) bool {
			return bytes.Equal(o.values, b.Values) && slices.Equal(o.offsets, wantPG)
		}),
		impl("arrowgo", func() ([]parquet.ByteArray, error) { return arrowDst, arrow(arrowDst) },
			func(got []parquet.ByteArray) bool {
				for i, v := range got {
					if !bytes.Equal(v, b.Values[b.Offsets[i]:b.Offsets[i+1]]) {
						return false
					}
				}
				return len(got) == b.Len()
			}),
	}
}

// byteArrayEncodeImpls returns ours and parquetgo encoding b; each output
// is checked by decoding it with decode (pqcodec's decoder).
func byteArrayEncodeImpls(b ByteArrays,
	ourEncode func(dst, values []byte, offsets []int32) ([]byte, error),
	pgEncode func(dst, src []byte, offsets []uint32) ([]byte, error),
	decode func(values []byte, offsets []int32, src []byte) ([]byte, []int32, error),
) []encImpl {
	same := sameByteArrays(b)
	verify := func(enc []byte) bool {
		v, o, err := decode(nil, nil, enc)
		return err == nil && same(v, o)
	}
	dst := make([]byte, 0, 2*b.PlainSize()+1024)
	pgOffsets := uint32Offsets(b.Offsets)
	return []encImpl{
		impl("ours", func() ([]byte, error) {
			out, err := ourEncode(dst[:0], b.Values, b.Offsets)
			dst = out
			return out, err
		}, verify),
		impl("parquetgo", func() ([]byte, error) {
			out, err := pgEncode(dst, b.Values, pgOffsets)
			dst = out
			return out, err
		}, verify),
	}
}

// fixedRows returns the decode and encode rows of a fixed-width type with
// one encoding.
type fixedCase[T int32 | int64 | float32 | float64] struct {
	enc, typ, data string
	values         []T
	ourEncode      func(dst []byte, v []T) []byte
	ourDecode      func(dst []T, src []byte) ([]T, error)
	pgEncode       func(dst []byte, v []T) ([]byte, error)
	pgDecode       func(dst []T, src []byte) ([]T, error)
	arrow          func(dst []T) error // nil: no arrowgo implementation
	withCopy       bool
}

func (c fixedCase[T]) rows(size PageSize) (dec, enc encRow) {
	name := fmt.Sprintf("enc=%s/type=%s/data=%s/size=%s", c.enc, c.typ, c.data, size.Name)
	src := c.ourEncode(nil, c.values)
	nbytes := len(c.values) * int(unsafe.Sizeof(c.values[0]))
	dst := make([]T, 0, len(c.values))
	pgDst := make([]T, 0, len(c.values))
	dec = encRow{name: name, bytes: nbytes, impls: []encImpl{
		impl("ours", func() ([]T, error) {
			out, err := c.ourDecode(dst[:0], src)
			dst = out
			return out, err
		}, equal(c.values)),
		impl("parquetgo", func() ([]T, error) {
			out, err := c.pgDecode(pgDst, src)
			pgDst = out
			return out, err
		}, equal(c.values)),
	}}
	if c.arrow != nil {
		arrowDst := make([]T, len(c.values))
		dec.impls = append(dec.impls, impl("arrowgo", func() ([]T, error) { return arrowDst, c.arrow(arrowDst) }, equal(c.values)))
	}
	if c.withCopy {
		dec.impls = append(dec.impls, copyDecode(c.values, src))
	}
	verify := func(b []byte) bool {
		got, err := c.ourDecode(nil, b)
		return err == nil && slices.Equal(got, c.values)
	}
	out := make([]byte, 0, 2*nbytes+1024)
	enc = encRow{name: name, bytes: nbytes, impls: []encImpl{
		impl("ours", func() ([]byte, error) {
			out = c.ourEncode(out[:0], c.values)
			return out, nil
		}, verify),
		impl("parquetgo", func() ([]byte, error) {
			var err error
			out, err = c.pgEncode(out, c.values)
			return out, err
		}, verify),
	}}
	if c.withCopy {
		enc.impls = append(enc.impls, copyEncode(c.values, src))
	}
	return dec, enc
}

// rleRows returns the rows of a hybrid RLE/bit-packed stream of values of
// one bit width. Dictionary indices (levels false) are decoded to and encoded
// from []uint32 by ours and []int32 by parquet-go. Levels (levels true) go
// through each library's level API on []uint8, the type parquet-go's reader
// keeps levels in: ours is [rle.DecodeLevels] into []uint8 and [rle.Encode]
// of []uint8, the peer parquet-go's DecodeLevels and EncodeLevels
// (parquetgo_u8). Every implementation reads the same stream, encoded by
// ours, and every output is checked against the input values.
func rleRows(typ, data string, size PageSize, v []uint32, width uint, levels bool) (dec, enc encRow) {
	name := fmt.Sprintf("enc=rle/type=%s/data=%s/size=%s", typ, data, size.Name)
	src, err := rle.Encode(nil, v, width)
	if err != nil {
		panic(err)
	}
	n := len(v)
	verify := func(b []byte) bool {
		got, err := rle.Decode(nil, b, width, n)
		return err == nil && slices.Equal(got, v)
	}
	pg := &pgrle.Encoding{BitWidth: int(width)}
	out := make([]byte, 0, 8*n+1024)
	if levels {
		// The uint8 twin of the uint32 rows below: levels and indices
		// have their own APIs on both sides.
		v8 := make([]uint8, n)
		for i, x := range v {
			v8[i] = uint8(x)
		}
		dst := make([]uint8, 0, n)
		u8 := make([]uint8, 0, n+8)
		dec = encRow{name: name, bytes: 4 * n, impls: []encImpl{
			impl("ours", func() ([]uint8, error) { return rle.DecodeLevels(dst[:0], src, width, n) }, equal(v8)),
			// parquet-go decodes the padding of the last bit-packed group too.
			impl("parquetgo_u8", func() ([]uint8, error) { return pg.DecodeLevels(u8, src) },
				func(got []uint8) bool { return len(got) >= n && slices.Equal(got[:n], v8) }),
		}}
		enc = encRow{name: name, bytes: 4 * n, impls: []encImpl{
			impl("ours", func() ([]byte, error) { return rle.Encode(out[:0], v8, width) }, verify),
			impl("parquetgo_u8", func() ([]byte, error) { return pg.EncodeLevels(out, v8) }, verify),
		}}
		return dec, enc
	}
	v32 := make([]int32, n)
	for i, x := range v {
		v32[i] = int32(x)
	}
	dst := make([]uint32, 0, n)
	pgDst := make([]int32, 0, n+8)
	dec = encRow{name: name, bytes: 4 * n, impls: []encImpl{
		impl("ours", func() ([]uint32, error) { return rle.Decode(dst[:0], src, width, n) }, equal(v)),
		// parquet-go decodes the padding of the last bit-packed group too.
		impl("parquetgo", func() ([]int32, error) { return pg.DecodeInt32(pgDst, src) },
			func(got []int32) bool { return len(got) >= n && slices.Equal(got[:n], v32) }),
	}}
	enc = encRow{name: name, bytes: 4 * n, impls: []encImpl{
		impl("ours", func() ([]byte, error) { return rle.Encode(out[:0], v, width) }, verify),
		impl("parquetgo", func() ([]byte, error) { return pg.EncodeInt32(out, v32) }, verify),
	}}
	return dec, enc
}

// booleanRows returns the PLAIN and RLE BOOLEAN rows.
func booleanRows(tb testing.TB, size PageSize) (dec, enc []encRow) {
	v := Booleans(size.Bytes)
	n := len(v)
	bitmap := plain.EncodeBoolean(nil, v)
	dst := make([]bool, 0, n)
	arrow := arrowBoolean(tb, parquet.Encodings.Plain, v)
	arrowDst := make([]bool, n)
	pg := &pgplain.Encoding{}
	pgOut := make([]byte, 0, len(bitmap)+64)
	name := "enc=plain/type=boolean/data=bools/size=" + size.Name
	dec = append(dec, encRow{name: name, bytes: n, impls: []encImpl{
		impl("ours", func() ([]bool, error) { return plain.DecodeBoolean(dst[:0], bitmap, n) }, equal(v)),
		impl("arrowgo", func() ([]bool, error) { return arrowDst, arrow(arrowDst) }, equal(v)),
		impl("parquetgo_bitmap", func() ([]byte, error) { return pg.DecodeBoolean(pgOut, bitmap) },
			func(got []byte) bool { return bytes.Equal(got, bitmap) }),
	}})
	out := make([]byte, 0, 2*len(bitmap)+64)
	enc = append(enc, encRow{name: name, bytes: n, impls: []encImpl{
		impl("ours", func() ([]byte, error) { return plain.EncodeBoolean(out[:0], v), nil },
			func(got []byte) bool { return bytes.Equal(got, bitmap) }),
		impl("parquetgo_bitmap", func() ([]byte, error) { return pg.EncodeBoolean(out, bitmap) },
			func(got []byte) bool { return bytes.Equal(got, bitmap) }),
	}})

	rleSrc := rle.EncodeBoolean(nil, v)
	pgr := &pgrle.Encoding{BitWidth: 1}
	name = "enc=rle/type=boolean/data=bools/size=" + size.Name
	dec = append(dec, encRow{name: name, bytes: n, impls: []encImpl{
		impl("ours", func() ([]bool, error) {
			got, _, err := rle.DecodeBoolean(dst[:0], rleSrc, n)
			return got, err
		}, equal(v)),
		// parquet-go's RLE BOOLEAN decoder works on whole bytes: it reads RLE
		// runs as count/8 copies of the value byte, so spec-valid runs whose
		// length is not a multiple of 8, or whose value byte is 0x01, come
		// out wrong. It has no decode implementation in this row.
	}})
	verify := func(b []byte) bool {
		got, _, err := rle.DecodeBoolean(nil, b, n)
		return err == nil && slices.Equal(got, v)
	}
	enc = append(enc, encRow{name: name, bytes: n, impls: []encImpl{
		impl("ours", func() ([]byte, error) { return rle.EncodeBoolean(out[:0], v), nil }, verify),
		impl("parquetgo_bitmap", func() ([]byte, error) { return pgr.EncodeBoolean(out, bitmap) }, verify),
	}})
	return dec, enc
}

// encodingRows returns every decode and encode row at one page size.
func encodingRows(tb testing.TB, size PageSize) (dec, enc []encRow) {
	add := func(d, e encRow) {
		dec = append(dec, d)
		enc = append(enc, e)
	}
	pgp := &pgplain.Encoding{}
	pgd := &pgdelta.BinaryPackedEncoding{}
	pgs := &pgbss.Encoding{}
	ints, ts, rand64 := Ints(size.Bytes), Timestamps(size.Bytes), RandomInt64s(size.Bytes)
	doubles := RandomDoubles(size.Bytes)
	P, D, B := parquet.Encodings.Plain, parquet.Encodings.DeltaBinaryPacked, parquet.Encodings.ByteStreamSplit

	// PLAIN fixed width.
	add(fixedCase[int32]{"plain", "int32", "ints", ints, plain.Encode[int32], plain.Decode[int32],
		pgp.EncodeInt32, pgp.DecodeInt32, arrowInt32(tb, P, ints), true}.rows(size))
	add(fixedCase[int64]{"plain", "int64", "ts", ts, plain.Encode[int64], plain.Decode[int64],
		pgp.EncodeInt64, pgp.DecodeInt64, arrowInt64(tb, P, ts), true}.rows(size))
	add(fixedCase[float64]{"plain", "double", "doubles", doubles, plain.Encode[float64], plain.Decode[float64],
		pgp.EncodeDouble, pgp.DecodeDouble, arrowFloat64(tb, P, doubles), true}.rows(size))

	// PLAIN, DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY byte arrays.
	strs := []struct {
		name string
		b    ByteArrays
	}{
		{"lowcard", LowCardStrings(size.Bytes)},
		{"uuid", UUIDs(size.Bytes)},
		{"kib", KiBStrings(size.Bytes)},
	}
	plainEncode := func(dst, values []byte, offsets []int32) ([]byte, error) {
		return plain.EncodeByteArray(dst, values, offsets), nil
	}
	for _, s := range strs {
		name := fmt.Sprintf("enc=plain/type=byte_array/data=%s/size=%s", s.name, size.Name)
		src := plain.EncodeByteArray(nil, s.b.Values, s.b.Offsets)
		add(encRow{name, s.b.PlainSize(), byteArrayDecodeImpls(tb, s.b, src, P, plain.DecodeByteArray, pgp.DecodeByteArray)},
			encRow{name, s.b.PlainSize(), byteArrayEncodeImpls(s.b, plainEncode, pgp.EncodeByteArray, plain.DecodeByteArray)})
	}
	dlba := &pgdelta.LengthByteArrayEncoding{}
	dba := &pgdelta.ByteArrayEncoding{}
	for _, s := range strs {
		name := fmt.Sprintf("enc=delta_length_byte_array/type=byte_array/data=%s/size=%s", s.name, size.Name)
		src, err := delta.EncodeLengthByteArray(nil, s.b.Values, s.b.Offsets)
		require.NoError(tb, err)
		add(encRow{name, s.b.PlainSize(), byteArrayDecodeImpls(tb, s.b, src, parquet.Encodings.DeltaLengthByteArray,
			delta.DecodeLengthByteArray, dlba.DecodeByteArray)},
			encRow{name, s.b.PlainSize(), byteArrayEncodeImpls(s.b, delta.EncodeLengthByteArray, dlba.EncodeByteArray,
				delta.DecodeLengthByteArray)})
	}
	for _, s := range strs {
		name := fmt.Sprintf("enc=delta_byte_array/type=byte_array/data=%s/size=%s", s.name, size.Name)
		src, err := delta.EncodeByteArray(nil, s.b.Values, s.b.Offsets)
		require.NoError(tb, err)
		add(encRow{name, s.b.PlainSize(), byteArrayDecodeImpls(tb, s.b, src, parquet.Encodings.DeltaByteArray,
			delta.DecodeByteArray, dba.DecodeByteArray)},
			encRow{name, s.b.PlainSize(), byteArrayEncodeImpls(s.b, delta.EncodeByteArray, dba.EncodeByteArray,
				delta.DecodeByteArray)})
	}

	// BOOLEAN.
	bd, be := booleanRows(tb, size)
	dec, enc = append(dec, bd...), append(enc, be...)

	// RLE levels and dictionary indices.
	add(rleRows("levels", "w1", size, DefLevels(size.Bytes), 1, true))
	for _, w := range []uint{3, 8, 12, 20} {
		add(rleRows("indices", fmt.Sprintf("w%d", w), size, Indices(size.Bytes, w), w, false))
	}

	// RLE_DICTIONARY (decode only).
	dec = append(dec, dictRows(tb, size)...)

	// DELTA_BINARY_PACKED.
	add(fixedCase[int32]{"delta_binary_packed", "int32", "ints", ints, delta.EncodeInt32, delta.DecodeInt32,
		pgd.EncodeInt32, pgd.DecodeInt32, arrowInt32(tb, D, ints), false}.rows(size))
	add(fixedCase[int64]{"delta_binary_packed", "int64", "ts", ts, delta.EncodeInt64, delta.DecodeInt64,
		pgd.EncodeInt64, pgd.DecodeInt64, arrowInt64(tb, D, ts), false}.rows(size))
	add(fixedCase[int64]{"delta_binary_packed", "int64", "rand64", rand64, delta.EncodeInt64, delta.DecodeInt64,
		pgd.EncodeInt64, pgd.DecodeInt64, arrowInt64(tb, D, rand64), false}.rows(size))

	// BYTE_STREAM_SPLIT.
	for _, f := range []struct {
		name string
		v    []float32
	}{{"smooth", SmoothFloats(size.Bytes)}, {"random", RandomFloats(size.Bytes)}} {
		add(fixedCase[float32]{"byte_stream_split", "float", f.name, f.v, bytestreamsplit.EncodeFloat32,
			bytestreamsplit.DecodeFloat32, pgs.EncodeFloat, pgs.DecodeFloat, arrowFloat32(tb, B, f.v), false}.rows(size))
	}
	for _, f := range []struct {
		name string
		v    []float64
	}{{"smooth", SmoothDoubles(size.Bytes)}, {"random", doubles}} {
		add(fixedCase[float64]{"byte_stream_split", "double", f.name, f.v, bytestreamsplit.EncodeFloat64,
			bytestreamsplit.DecodeFloat64, pgs.EncodeDouble, pgs.DecodeDouble, arrowFloat64(tb, B, f.v), false}.rows(size))
	}
	return dec, enc
}

// encRowsCache holds the rows of each page size, built once per process
// and shared by BenchmarkDecode and BenchmarkEncode.
var encRowsCache struct {
	sync.Mutex
	dec, enc map[string][]encRow
}

func cachedEncodingRows(tb testing.TB, size PageSize) (dec, enc []encRow) {
	encRowsCache.Lock()
	defer encRowsCache.Unlock()
	if encRowsCache.dec == nil {
		encRowsCache.dec, encRowsCache.enc = map[string][]encRow{}, map[string][]encRow{}
	}
	if _, ok := encRowsCache.dec[size.Name]; !ok {
		encRowsCache.dec[size.Name], encRowsCache.enc[size.Name] = encodingRows(tb, size)
	}
	return encRowsCache.dec[size.Name], encRowsCache.enc[size.Name]
}

// runImpl checks one implementation of a row, then times it.
func runImpl(b *testing.B, row encRow, im encImpl) {
	require.NoError(b, im.check(), row.name)
	b.SetBytes(int64(row.bytes))
	b.ReportAllocs()
	cleanUpper()
	cpu0 := benchdata.CPUTime()
	for b.Loop() {
		if err := im.run(); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu0)
}

// reportCPU reports the process's CPU time since cpu0 per operation as
// "cpu-ns/op", steadier than wall time on a shared machine.
func reportCPU(b *testing.B, cpu0 time.Duration) {
	if spent := benchdata.CPUTime() - cpu0; spent > 0 {
		b.ReportMetric(float64(spent)/float64(b.N), "cpu-ns/op")
	}
}

func runEncRows(b *testing.B, rows []encRow) {
	for _, row := range rows {
		for _, im := range row.impls {
			b.Run(row.name+"/impl="+im.name, func(b *testing.B) { runImpl(b, row, im) })
		}
	}
}

// BenchmarkDecode decodes one page per operation with every
// implementation of each encoding row.
func BenchmarkDecode(b *testing.B) {
	for _, size := range PageSizes {
		dec, _ := cachedEncodingRows(b, size)
		runEncRows(b, dec)
	}
}

// BenchmarkEncode encodes one page per operation with every implementation
// of each encoding row; every output is checked to decode, with pqcodec, to
// the input.
func BenchmarkEncode(b *testing.B) {
	for _, size := range PageSizes {
		_, enc := cachedEncodingRows(b, size)
		runEncRows(b, enc)
	}
}

// TestEncodingImplementations checks every implementation of every row
// once, so that a broken row fails `go test`, not only the benchmark run.
func TestEncodingImplementations(t *testing.T) {
	dec, enc := encodingRows(t, PageSizes[0])
	for _, rows := range [][]encRow{dec, enc} {
		for _, row := range rows {
			for _, im := range row.impls {
				require.NoError(t, im.check(), "%s/impl=%s", row.name, im.name)
			}
		}
	}
}

// dictPages builds a dictionary page (PLAIN) and an index page from
// column, as a writer does, with pqcodec's dictionary encoder.
func dictPages[T int32 | int64](tb testing.TB, column []T) (dictPage, indexPage []byte, numDict int) {
	e := dictionary.NewEncoder[T](0)
	_, err := e.Put(column)
	require.NoError(tb, err)
	return e.AppendDictionaryPage(nil), e.AppendIndexPage(nil), e.Len()
}

// fixedDictRow returns the RLE_DICTIONARY decode row of a fixed-width
// column: index page to values. parquetgo_values is parquet-go's lowest
// public path: its RLE_DICTIONARY index decoder, then Dictionary.Lookup
// into []parquet.Value (its typed gather is unexported).
func fixedDictRow[T int32 | int64](tb testing.TB, typ, data string, size PageSize, column []T,
	pgType pq.Type, pgValues func([]T) pgencoding.Values, get func(pq.Value) T,
) encRow {
	dictPage, indexPage, numDict := dictPages(tb, column)
	var d dictionary.Dict[T]
	require.NoError(tb, d.Reset(dictPage, numDict))
	n := len(column)
	dst := make([]T, 0, n)
	pgDict := pgType.NewDictionary(0, numDict, pgValues(d.Values()))
	pgIdx := make([]int32, 0, n+64)
	pgOut := make([]pq.Value, n)
	pgEnc := &pgrle.DictionaryEncoding{}
	return encRow{name: fmt.Sprintf("enc=rle_dictionary/type=%s/data=%s/size=%s", typ, data, size.Name),
		bytes: n * int(unsafe.Sizeof(column[0])), impls: []encImpl{
			impl("ours", func() ([]T, error) { return d.Decode(dst[:0], indexPage, n) }, equal(column)),
			impl("parquetgo_values", func() ([]pq.Value, error) {
				idx, err := pgEnc.DecodeInt32(pgIdx, indexPage)
				if err != nil {
					return nil, err
				}
				pgIdx = idx
				if len(idx) < n {
					return nil, errMismatch
				}
				pgDict.Lookup(idx[:n], pgOut)
				return pgOut, nil
			}, func(got []pq.Value) bool {
				for i, v := range got {
					if get(v) != column[i] {
						return false
					}
				}
				return len(got) == n
			}),
		}}
}

// bytesDictRow returns the RLE_DICTIONARY decode row of a BYTE_ARRAY
// column: index page to flat values and offsets (ours) or to
// []parquet.Value (parquet-go, as in fixedDictRow).
func bytesDictRow(tb testing.TB, data string, size PageSize, column ByteArrays) encRow {
	e := dictionary.NewBytesEncoder(0)
	_, err := e.Put(column.Values, column.Offsets)
	require.NoError(tb, err)
	dictPage, indexPage := e.AppendDictionaryPage(nil), e.AppendIndexPage(nil)
	var d dictionary.BytesDict
	require.NoError(tb, d.Reset(dictPage, e.Len()))
	n := column.Len()
	values := make([]byte, 0, len(column.Values))
	offsets := make([]int32, 0, n+1)
	same := sameByteArrays(column)
	dv, do, err := plain.DecodeByteArray(nil, nil, dictPage)
	require.NoError(tb, err)
	pgDict := pq.ByteArrayType.NewDictionary(0, e.Len(), pgencoding.ByteArrayValues(dv, uint32Offsets(do)))
	pgIdx := make([]int32, 0, n+64)
	pgOut := make([]pq.Value, n)
	pgEnc := &pgrle.DictionaryEncoding{}
	return encRow{name: fmt.Sprintf("enc=rle_dictionary/type=byte_array/data=%s/size=%s", data, size.Name),
		bytes: column.PlainSize(), impls: []encImpl{
			impl("ours", func() (byteArraysOut, error) {
				v, o, err := d.Decode(values[:0], offsets[:0], indexPage, n)
				values, offsets = v, o
				return byteArraysOut{v, o}, err
			}, func(o byteArraysOut) bool { return same(o.values, o.offsets) }),
			impl("parquetgo_values", func() ([]pq.Value, error) {
				idx, err := pgEnc.DecodeInt32(pgIdx, indexPage)
				if err != nil {
					return nil, err
				}
				pgIdx = idx
				if len(idx) < n {
					return nil, errMismatch
				}
				pgDict.Lookup(idx[:n], pgOut)
				return pgOut, nil
			}, func(got []pq.Value) bool {
				for i, v := range got {
					if !bytes.Equal(v.ByteArray(), column.Values[column.Offsets[i]:column.Offsets[i+1]]) {
						return false
					}
				}
				return len(got) == n
			}),
		}}
}

// dictColumn returns size/width values drawn from a pool of 1<<bits
// random values by the clustered indices of Indices.
func dictColumn[T int32 | int64](size PageSize, bits uint) []T {
	r := rng(fmt.Sprintf("dictpool%d", bits), size.Bytes)
	pool := make([]T, 1<<bits)
	for i := range pool {
		pool[i] = T(r.Int64())
	}
	var z T
	idx := Indices(size.Bytes, bits)[:size.Bytes/int(unsafe.Sizeof(z))]
	out := make([]T, len(idx))
	for i, ix := range idx {
		out[i] = pool[ix]
	}
	return out
}

// uuidColumn returns BYTE_ARRAY values drawn from 1024 distinct UUIDs, with
// PLAIN size about size bytes.
func uuidColumn(size PageSize) ByteArrays {
	pool := UUIDs(1024 * 40)
	idx := Indices(size.Bytes, 10)
	b := ByteArrays{Offsets: []int32{0}}
	for _, ix := range idx {
		if b.PlainSize() >= size.Bytes {
			break
		}
		ix %= uint32(pool.Len())
		b.Values = append(b.Values, pool.Values[pool.Offsets[ix]:pool.Offsets[ix+1]]...)
		b.Offsets = append(b.Offsets, int32(len(b.Values)))
	}
	return b
}

// dictRows returns the RLE_DICTIONARY decode rows (there is no encode
// row: the peers' dictionary builders are not comparable page-level
// operations).
func dictRows(tb testing.TB, size PageSize) []encRow {
	return []encRow{
		fixedDictRow(tb, "int32", "card1k", size, dictColumn[int32](size, 10), pq.Int32Type,
			pgencoding.Int32Values, func(v pq.Value) int32 { return v.Int32() }),
		fixedDictRow(tb, "int64", "card1k", size, dictColumn[int64](size, 10), pq.Int64Type,
			pgencoding.Int64Values, func(v pq.Value) int64 { return v.Int64() }),
		bytesDictRow(tb, "lowcard", size, LowCardStrings(size.Bytes)),
		bytesDictRow(tb, "uuid1k", size, uuidColumn(size)),
	}
}
