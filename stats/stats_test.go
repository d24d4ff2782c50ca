package stats

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec"
	"github.com/pqcodec/pqcodec/format"
)

func ptr[T any](v T) *T { return &v }

// leaf builds a one-column file around e and returns its Column.
func leaf(t *testing.T, e format.SchemaElement, createdBy string, order format.ColumnOrderKind) *Column {
	t.Helper()
	e.Name = "x"
	e.RepetitionType = ptr(format.Optional)
	meta := &format.FileMetaData{
		Schema:    []format.SchemaElement{{Name: "root", NumChildren: ptr(int32(1))}, e},
		CreatedBy: &createdBy,
	}
	if order != 0 {
		meta.ColumnOrders = []format.ColumnOrder{{Kind: order}}
	}
	s, err := format.NewSchema(meta.Schema)
	require.NoError(t, err)
	return NewColumn(meta, s.Leaves()[0])
}

func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
func le64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

func TestOrderOf(t *testing.T) {
	for _, c := range []struct {
		e    format.SchemaElement
		want Order
	}{
		{format.SchemaElement{Type: ptr(format.Int32)}, Signed},
		{format.SchemaElement{Type: ptr(format.Boolean)}, Signed},
		{format.SchemaElement{Type: ptr(format.Int96)}, Undefined},
		{format.SchemaElement{Type: ptr(format.ByteArray)}, Unsigned},
		{format.SchemaElement{Type: ptr(format.Int32), ConvertedType: ptr(format.ConvertedUint32)}, Unsigned},
		{format.SchemaElement{Type: ptr(format.Int32), LogicalType: &format.LogicalType{Kind: format.LogicalInteger, BitWidth: 8}}, Unsigned},
		{format.SchemaElement{Type: ptr(format.Int32), LogicalType: &format.LogicalType{Kind: format.LogicalInteger, BitWidth: 8, IsSigned: true}}, Signed},
		{format.SchemaElement{Type: ptr(format.ByteArray), ConvertedType: ptr(format.ConvertedDecimal)}, Signed},
		{format.SchemaElement{Type: ptr(format.FixedLenByteArray), ConvertedType: ptr(format.ConvertedInterval)}, Undefined},
		{format.SchemaElement{Type: ptr(format.ByteArray), LogicalType: &format.LogicalType{Kind: format.LogicalString}}, Unsigned},
		{format.SchemaElement{Type: ptr(format.ByteArray), LogicalType: &format.LogicalType{Kind: format.LogicalVariant}}, Undefined},
		{format.SchemaElement{Type: ptr(format.Int64), LogicalType: &format.LogicalType{Kind: format.LogicalTimestamp}}, Signed},
	} {
		assert.Equal(t, c.want, OrderOf(&c.e), "%+v", c.e)
	}
}

func TestCompare(t *testing.T) {
	dec := leaf(t, format.SchemaElement{Type: ptr(format.ByteArray), ConvertedType: ptr(format.ConvertedDecimal)}, "", 0)
	// -129 < -1 < 0 < 1 < 127 < 128, in lengths 0 to 2.
	vals := [][]byte{{0xff, 0x7f}, {0xff}, {}, {0x00, 0x01}, {0x7f}, {0x00, 0x80}}
	for i := range vals {
		for j := range vals {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			assert.Equal(t, want, dec.Compare(BytesValue(format.ByteArray, vals[i]), BytesValue(format.ByteArray, vals[j])), "%x %x", vals[i], vals[j])
		}
	}
	u32 := leaf(t, format.SchemaElement{Type: ptr(format.Int32), ConvertedType: ptr(format.ConvertedUint32)}, "", 0)
	assert.Equal(t, 1, u32.Compare(Int32Value(-1), Int32Value(1)))
	s32 := leaf(t, format.SchemaElement{Type: ptr(format.Int32)}, "", 0)
	assert.Equal(t, -1, s32.Compare(Int32Value(-1), Int32Value(1)))
	str := leaf(t, format.SchemaElement{Type: ptr(format.ByteArray)}, "", 0)
	assert.Equal(t, 1, str.Compare(BytesValue(format.ByteArray, []byte{0xc3}), BytesValue(format.ByteArray, []byte("z"))))
	tot := leaf(t, format.SchemaElement{Type: ptr(format.Double)}, "", format.IEEE754TotalOrder)
	nan := math.NaN()
	seq := []float64{-nan, math.Inf(-1), -1, math.Copysign(0, -1), 0, 1, math.Inf(1), nan}
	seq[0] = math.Float64frombits(math.Float64bits(nan) | 1<<63)
	for i := 1; i < len(seq); i++ {
		assert.Equal(t, -1, tot.Compare(DoubleValue(seq[i-1]), DoubleValue(seq[i])), "%v < %v", seq[i-1], seq[i])
	}
	f16 := leaf(t, format.SchemaElement{Type: ptr(format.FixedLenByteArray), TypeLength: ptr(int32(2)),
		LogicalType: &format.LogicalType{Kind: format.LogicalFloat16}}, "", 0)
	assert.Equal(t, -1, f16.Compare(BytesValue(format.FixedLenByteArray, []byte{0x00, 0xc0}), BytesValue(format.FixedLenByteArray, []byte{0x00, 0x3c})))
	assert.Equal(t, float32(-2), Float16([]byte{0x00, 0xc0}))
	assert.Equal(t, float32(1), Float16([]byte{0x00, 0x3c}))
	assert.Equal(t, float32(65504), Float16([]byte{0xff, 0x7b}))
	assert.Equal(t, float32(math.Ldexp(1, -24)), Float16([]byte{0x01, 0x00}))
	assert.True(t, math.IsInf(float64(Float16([]byte{0x00, 0x7c})), 1))
}

func TestChunkRules(t *testing.T) {
	i32 := format.SchemaElement{Type: ptr(format.Int32)}
	s := &format.Statistics{Min: le32(uint32(0xfffffffe)), Max: le32(5), NullCount: 3, HasNullCount: true}
	// Deprecated fields of a signed column are used.
	st := leaf(t, i32, "parquet-mr version 1.8.0", 0).Chunk(s)
	assert.True(t, st.HasMinMax)
	assert.Equal(t, int32(-2), st.Min.Int32())
	assert.Equal(t, int32(5), st.Max.Int32())
	assert.Equal(t, int64(3), st.NullCount)
	assert.False(t, st.MinExact)
	// Not for an unsigned one.
	u32 := format.SchemaElement{Type: ptr(format.Int32), ConvertedType: ptr(format.ConvertedUint32)}
	st = leaf(t, u32, "", 0).Chunk(s)
	assert.False(t, st.HasMinMax)
	// min_value/max_value are, in unsigned order.
	s2 := &format.Statistics{MinValue: le32(5), MaxValue: le32(uint32(0xfffffffe)), HasIsMinExact: true, IsMinValueExact: true}
	st = leaf(t, u32, "", format.TypeDefinedOrder).Chunk(s2)
	assert.True(t, st.HasMinMax)
	assert.True(t, st.MinExact)
	assert.False(t, st.MaxExact)
	// ... but the same bytes are unusable in signed order (min > max):
	// reported, not used, not an error; the counts stay.
	s2.NullCount, s2.HasNullCount = 4, true
	st = leaf(t, i32, "", 0).Chunk(s2)
	assert.False(t, st.HasMinMax)
	assert.ErrorIs(t, st.BadMinMax, ErrCorrupt)
	assert.ErrorIs(t, st.BadMinMax, pqcodec.ErrCorrupt)
	assert.Contains(t, st.BadMinMax.Error(), "above max")
	assert.Equal(t, int64(4), st.NullCount)
	assert.True(t, leaf(t, i32, "", 0).MayContain(st, Int32Value(100), Int32Value(200)), "unusable statistics must not prune")
	// An unknown column order leaves min/max unset.
	st = leaf(t, i32, "", format.ColumnOrderKind(9)).Chunk(s2)
	assert.False(t, st.HasMinMax)
	// Deprecated fields of byte arrays are never used; min_value from
	// parquet-mr before 1.8.0 neither.
	ba := format.SchemaElement{Type: ptr(format.ByteArray)}
	st = leaf(t, ba, "", 0).Chunk(&format.Statistics{Min: []byte("a"), Max: []byte("b")})
	assert.False(t, st.HasMinMax)
	sv := &format.Statistics{MinValue: []byte("a"), MaxValue: []byte("b")}
	st = leaf(t, ba, "parquet-mr version 1.6.0", 0).Chunk(&format.Statistics{Min: []byte("a"), Max: []byte("b")})
	assert.False(t, st.HasMinMax)
	st = leaf(t, ba, "parquet-mr version 1.10.0", 0).Chunk(sv)
	assert.True(t, st.HasMinMax)
	assert.Equal(t, "b", string(st.Max.Bytes()))
	// DECIMAL FLBA statistics of parquet-cpp-arrow before 4.0.0 are wrong.
	dec := format.SchemaElement{Type: ptr(format.FixedLenByteArray), TypeLength: ptr(int32(1)), ConvertedType: ptr(format.ConvertedDecimal)}
	sd := &format.Statistics{MinValue: []byte{0x80}, MaxValue: []byte{0x7f}}
	st = leaf(t, dec, "parquet-cpp-arrow version 3.0.0", 0).Chunk(sd)
	assert.False(t, st.HasMinMax)
	st = leaf(t, dec, "parquet-cpp-arrow version 4.0.0", 0).Chunk(sd)
	assert.True(t, st.HasMinMax)
	// DECIMAL FLBA compares as signed big-endian two's complement: the
	// unsigned byte order parquet-go v0.32 uses gives a min above the max
	// as soon as the column holds both signs.
	dec16 := format.SchemaElement{Type: ptr(format.FixedLenByteArray), TypeLength: ptr(int32(16)),
		LogicalType: &format.LogicalType{Kind: format.LogicalDecimal, Precision: 38, Scale: 4}}
	neg, pos := bytes.Repeat([]byte{0xff}, 16), append(make([]byte, 15), 1)
	st = leaf(t, dec16, "parquet-go version 0.32.0(build )", format.TypeDefinedOrder).Chunk(&format.Statistics{MinValue: neg, MaxValue: pos})
	require.True(t, st.HasMinMax)
	assert.Nil(t, st.BadMinMax)
	st = leaf(t, dec16, "parquet-go version 0.32.0(build )", format.TypeDefinedOrder).Chunk(&format.Statistics{MinValue: pos, MaxValue: neg})
	assert.False(t, st.HasMinMax)
	assert.ErrorIs(t, st.BadMinMax, ErrCorrupt)
	// Floats: NaN drops min/max, +0 min and -0 max widen.
	dbl := format.SchemaElement{Type: ptr(format.Double)}
	st = leaf(t, dbl, "", 0).Chunk(&format.Statistics{MinValue: le64(math.Float64bits(math.NaN())), MaxValue: le64(math.Float64bits(1))})
	assert.False(t, st.HasMinMax)
	st = leaf(t, dbl, "", 0).Chunk(&format.Statistics{MinValue: le64(0), MaxValue: le64(math.Float64bits(math.Copysign(0, -1)))})
	assert.True(t, math.Signbit(st.Min.Float64()))
	assert.False(t, math.Signbit(st.Max.Float64()))
	// Under total order they stay as written.
	st = leaf(t, dbl, "", format.IEEE754TotalOrder).Chunk(&format.Statistics{MinValue: le64(0), MaxValue: le64(math.Float64bits(1))})
	assert.False(t, math.Signbit(st.Min.Float64()))
	// Wrong sizes are unusable, not an error; INT96 has no order.
	st = leaf(t, i32, "", 0).Chunk(&format.Statistics{MinValue: []byte{1}, MaxValue: le32(1)})
	assert.False(t, st.HasMinMax)
	assert.ErrorIs(t, st.BadMinMax, ErrCorrupt)
	st = leaf(t, dec16, "", 0).Chunk(&format.Statistics{MinValue: make([]byte, 15), MaxValue: make([]byte, 16)})
	assert.False(t, st.HasMinMax)
	assert.ErrorIs(t, st.BadMinMax, ErrCorrupt)
	st = leaf(t, format.SchemaElement{Type: ptr(format.Int96)}, "", 0).Chunk(&format.Statistics{Min: make([]byte, 12), Max: make([]byte, 12)})
	assert.False(t, st.HasMinMax)
	st = leaf(t, i32, "", 0).Chunk(nil)
	assert.False(t, st.HasMinMax || st.HasNullCount)
}

func TestPages(t *testing.T) {
	ci := &format.ColumnIndex{
		NullPages:  []bool{false, true, true},
		MinValues:  [][]byte{le32(1), {}, {}},
		MaxValues:  [][]byte{le32(7), {}, {}},
		NullCounts: []int64{0, 4, -1},
	}
	opt := leaf(t, format.SchemaElement{Type: ptr(format.Int32)}, "", format.TypeDefinedOrder)
	ps := opt.Pages(nil, ci)
	require.Len(t, ps, 3)
	assert.True(t, ps[0].HasMinMax)
	assert.Equal(t, int32(7), ps[0].Max.Int32())
	assert.True(t, ps[1].AllNull)
	assert.True(t, ps[2].AllNull)
	assert.False(t, ps[2].HasNullCount)
	req := *opt
	req.MaxDefinitionLevel = 0
	ps = req.Pages(ps[:0], ci)
	assert.False(t, ps[1].AllNull || ps[1].HasMinMax)
	// A page whose min is above its max, or of the wrong size, has no
	// min/max and says why; the others keep theirs, and nothing fails.
	ci.NullPages = append(ci.NullPages, false, false)
	ci.MinValues = append(ci.MinValues, le32(9), []byte{1, 2})
	ci.MaxValues = append(ci.MaxValues, le32(8), le32(3))
	ci.NullCounts = append(ci.NullCounts, 0, 0)
	ps = opt.Pages(nil, ci)
	require.Len(t, ps, 5)
	assert.True(t, ps[0].HasMinMax)
	assert.Nil(t, ps[0].BadMinMax)
	for _, p := range ps[3:] {
		assert.False(t, p.HasMinMax)
		assert.ErrorIs(t, p.BadMinMax, pqcodec.ErrCorrupt)
		assert.True(t, opt.MayContain(p, Int32Value(100), Int32Value(100)))
	}
	assert.Contains(t, ps[3].BadMinMax.Error(), "page 3")
}

// FuzzChunk feeds arbitrary statistics bytes to every kind of column: no
// panic, and accepted min/max are ordered.
func FuzzChunk(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0}, []byte{2, 0, 0, 0}, uint8(0))
	f.Add([]byte{0x80}, []byte{0x7f, 0xff}, uint8(5))
	elems := []format.SchemaElement{
		{Type: ptr(format.Boolean)}, {Type: ptr(format.Int32)}, {Type: ptr(format.Int64)},
		{Type: ptr(format.Float)}, {Type: ptr(format.Double)},
		{Type: ptr(format.ByteArray), ConvertedType: ptr(format.ConvertedDecimal)},
		{Type: ptr(format.ByteArray)}, {Type: ptr(format.Int96)},
		{Type: ptr(format.FixedLenByteArray), TypeLength: ptr(int32(2)), LogicalType: &format.LogicalType{Kind: format.LogicalFloat16}},
		{Type: ptr(format.Int64), ConvertedType: ptr(format.ConvertedUint64)},
	}
	f.Fuzz(func(t *testing.T, lo, hi []byte, which uint8) {
		e := elems[int(which)%len(elems)]
		for _, order := range []format.ColumnOrderKind{0, format.IEEE754TotalOrder} {
			c := leaf(t, e, "", order)
			st := c.Chunk(&format.Statistics{MinValue: lo, MaxValue: hi, Min: lo, Max: hi})
			if st.HasMinMax && st.BadMinMax != nil {
				t.Fatalf("min/max kept with %v", st.BadMinMax)
			}
			if st.HasMinMax && c.Compare(st.Min, st.Max) > 0 {
				t.Fatalf("min %v above max %v", st.Min, st.Max)
			}
		}
	})
}
