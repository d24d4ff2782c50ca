package thrift

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVarintZigzag(t *testing.T) {
	for _, v := range []int64{0, 1, -1, 63, -64, 64, 1 << 20, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64} {
		var w Writer
		w.WriteI64(v)
		r := NewReader(w.Buf)
		got, err := r.ReadI64()
		require.NoError(t, err)
		assert.Equal(t, v, got)
		assert.Zero(t, r.Remaining())
	}
	// Spec examples: zigzag 0→0, -1→1, 1→2, -2→3.
	for enc, want := range map[byte]int64{0: 0, 1: -1, 2: 1, 3: -2} {
		got, err := NewReader([]byte{enc}).ReadI64()
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
}

func TestVarintErrors(t *testing.T) {
	_, err := NewReader([]byte{0x80, 0x80}).ReadUvarint()
	assert.ErrorIs(t, err, ErrTruncated)
	assert.ErrorIs(t, err, ErrCorrupt)
	_, err = NewReader([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}).ReadUvarint()
	assert.ErrorIs(t, err, ErrCorrupt)
	_, err = NewReader([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}).ReadUvarint()
	assert.ErrorIs(t, err, ErrCorrupt)
	// i32 out of range: zigzag(2^31) = 2^32.
	var w Writer
	w.WriteI64(1 << 31)
	_, err = NewReader(w.Buf).ReadI32()
	assert.ErrorIs(t, err, ErrCorrupt)
	w.Reset(nil)
	w.WriteI64(1 << 15)
	_, err = NewReader(w.Buf).ReadI16()
	assert.ErrorIs(t, err, ErrCorrupt)
}

func TestFieldHeaders(t *testing.T) {
	var w Writer
	w.StructBegin()
	w.WriteI32Field(1, 7)
	w.WriteBoolField(2, true)
	w.WriteBoolField(3, false)
	w.WriteI64Field(40, -5) // delta > 15: long form
	w.WriteStringField(41, "hi")
	w.WriteFieldHeader(Struct, 42)
	w.StructBegin()
	w.WriteI32Field(1, 9) // nested ids restart
	w.StructEnd()
	w.WriteI32Field(20, 3) // decreasing id: long form
	w.WriteFieldHeader(Double, 21)
	w.WriteDouble(2.5)
	w.StructEnd()
	assert.Equal(t, byte(0x15), w.Buf[0], "short form: delta 1, type I32")

	r := NewReader(w.Buf)
	saved := r.StructBegin()
	next := func(wantType Type, wantID int16) {
		t.Helper()
		typ, id, err := r.ReadFieldHeader()
		require.NoError(t, err)
		require.Equal(t, wantType, typ)
		require.Equal(t, wantID, id)
	}
	next(I32, 1)
	v, err := r.ReadI32()
	require.NoError(t, err)
	assert.Equal(t, int32(7), v)
	next(Bool, 2)
	b, err := r.ReadBool()
	require.NoError(t, err)
	assert.True(t, b)
	next(Bool, 3)
	b, err = r.ReadBool()
	require.NoError(t, err)
	assert.False(t, b)
	next(I64, 40)
	v64, err := r.ReadI64()
	require.NoError(t, err)
	assert.Equal(t, int64(-5), v64)
	next(Binary, 41)
	s, err := r.ReadString()
	require.NoError(t, err)
	assert.Equal(t, "hi", s)
	next(Struct, 42)
	inner := r.StructBegin()
	next(I32, 1)
	_, err = r.ReadI32()
	require.NoError(t, err)
	next(Stop, 0)
	r.StructEnd(inner)
	next(I32, 20)
	_, err = r.ReadI32()
	require.NoError(t, err)
	next(Double, 21)
	d, err := r.ReadDouble()
	require.NoError(t, err)
	assert.Equal(t, 2.5, d)
	next(Stop, 0)
	r.StructEnd(saved)
	assert.Zero(t, r.Remaining())

	// The same bytes skip as one struct.
	r.Reset(w.Buf)
	require.NoError(t, r.Skip(Struct))
	assert.Zero(t, r.Remaining())
}

func TestListsAndMaps(t *testing.T) {
	var w Writer
	w.WriteListHeader(I32, 3)
	for _, v := range []int32{1, -2, 3} {
		w.WriteI32(v)
	}
	w.WriteListHeader(Binary, 20) // long form
	for i := 0; i < 20; i++ {
		w.WriteString("x")
	}
	w.WriteListHeader(Bool, 2)
	w.WriteBool(true)
	w.WriteBool(false)
	w.WriteMapHeader(Binary, I64, 2)
	w.WriteString("a")
	w.WriteI64(1)
	w.WriteString("b")
	w.WriteI64(2)
	w.WriteMapHeader(Binary, I64, 0)

	r := NewReader(w.Buf)
	et, n, err := r.ReadListHeader()
	require.NoError(t, err)
	assert.Equal(t, I32, et)
	assert.Equal(t, 3, n)
	for _, want := range []int32{1, -2, 3} {
		v, err := r.ReadI32()
		require.NoError(t, err)
		assert.Equal(t, want, v)
	}
	et, n, err = r.ReadListHeader()
	require.NoError(t, err)
	assert.Equal(t, Binary, et)
	assert.Equal(t, 20, n)
	for i := 0; i < n; i++ {
		require.NoError(t, r.Skip(et))
	}
	et, n, err = r.ReadListHeader()
	require.NoError(t, err)
	require.Equal(t, Bool, et)
	require.Equal(t, 2, n)
	b1, err := r.ReadBool()
	require.NoError(t, err)
	b2, err := r.ReadBool()
	require.NoError(t, err)
	assert.Equal(t, []bool{true, false}, []bool{b1, b2})
	k, v, n, err := r.ReadMapHeader()
	require.NoError(t, err)
	assert.Equal(t, []any{Binary, I64, 2}, []any{k, v, n})
	for i := 0; i < 2*n; i++ {
		require.NoError(t, r.Skip([]Type{k, v}[i%2]))
	}
	k, v, n, err = r.ReadMapHeader()
	require.NoError(t, err)
	assert.Equal(t, []any{Stop, Stop, 0}, []any{k, v, n})
	assert.Zero(t, r.Remaining())
}

func TestHostileLengths(t *testing.T) {
	// A list claiming 2^31 elements in a few bytes must fail before any
	// element is read or allocated.
	var w Writer
	w.WriteListHeader(I32, 1<<31)
	w.Buf = append(w.Buf, 1, 2, 3, 4)
	_, _, err := NewReader(w.Buf).ReadListHeader()
	assert.ErrorIs(t, err, ErrTruncated)
	assert.ErrorIs(t, NewReader(w.Buf).Skip(List), ErrTruncated)

	w.Reset(nil)
	w.WriteMapHeader(I32, I32, 1<<40)
	w.Buf = append(w.Buf, 0, 0, 0)
	_, _, _, err = NewReader(w.Buf).ReadMapHeader()
	assert.ErrorIs(t, err, ErrTruncated)

	w.Reset(nil)
	w.WriteUvarint(1 << 62) // binary length
	_, err = NewReader(w.Buf).ReadBinary()
	assert.ErrorIs(t, err, ErrTruncated)

	// Invalid types.
	_, _, err = NewReader([]byte{0x1e}).ReadFieldHeader()
	assert.ErrorIs(t, err, ErrCorrupt)
	_, _, err = NewReader([]byte{0x1e}).ReadListHeader()
	assert.ErrorIs(t, err, ErrCorrupt)
	_, _, err = NewReader([]byte{0x10}).ReadListHeader() // one STOP element
	assert.ErrorIs(t, err, ErrCorrupt)
	_, _, err = NewReader([]byte{0xf0, 0x01}).ReadListHeader() // long form
	assert.ErrorIs(t, err, ErrCorrupt)
	// An empty list may have any element type: writers leave it 0.
	for _, b := range [][]byte{{0x00}, {0x0e}, {0x0f}, {0xf0, 0x00}} {
		r := NewReader(append(b, 0x15))
		et, n, err := r.ReadListHeader()
		require.NoError(t, err, "% x", b)
		assert.Equal(t, 0, n)
		assert.Equal(t, Stop, et)
		assert.Equal(t, len(b), r.Offset())
		require.NoError(t, NewReader(b).Skip(List))
		require.NoError(t, NewReader(b).Skip(Set))
	}
	_, err = NewReader([]byte{7}).ReadBool()
	assert.ErrorIs(t, err, ErrCorrupt)
	// Field id overflow through repeated deltas.
	b := []byte{0x05}
	b = append(b, 0xfe, 0xff, 0x03) // long-form id 32767 (zigzag 65534)
	b = append(b, 0x00)             // i32 value
	b = append(b, 0x15)             // delta 1 overflows
	r := NewReader(b)
	r.StructBegin()
	_, id, err := r.ReadFieldHeader()
	require.NoError(t, err)
	require.Equal(t, int16(32767), id)
	_, err = r.ReadI32()
	require.NoError(t, err)
	_, _, err = r.ReadFieldHeader()
	assert.ErrorIs(t, err, ErrCorrupt)
}

func TestSkipDepth(t *testing.T) {
	// Nested lists deeper than MaxDepth are rejected, not recursed into.
	b := make([]byte, 0, 200)
	for i := 0; i < 100; i++ {
		b = append(b, 0x19) // list of 1 list
	}
	b = append(b, 0x00)
	err := NewReader(b).Skip(List)
	assert.ErrorIs(t, err, ErrCorrupt)

	// MaxDepth containers in all are fine: MaxDepth-2 lists around a list
	// holding one empty struct.
	b = b[:0]
	for i := 0; i < MaxDepth-2; i++ {
		b = append(b, 0x19)
	}
	b = append(b, 0x1c, 0x00) // list of one empty struct
	r := NewReader(b)
	require.NoError(t, r.Skip(List))
	assert.Zero(t, r.Remaining())

	// Nested structs too.
	b = b[:0]
	for i := 0; i < 100; i++ {
		b = append(b, 0x1c) // field 1: struct
	}
	assert.ErrorIs(t, NewReader(b).Skip(Struct), ErrCorrupt)
}

func TestTruncatedEverywhere(t *testing.T) {
	var w Writer
	w.StructBegin()
	w.WriteI32Field(1, 300)
	w.WriteBinaryField(2, []byte("hello"))
	w.WriteFieldHeader(List, 3)
	w.WriteListHeader(Double, 2)
	w.WriteDouble(1)
	w.WriteDouble(2)
	w.WriteFieldHeader(Map, 4)
	w.WriteMapHeader(I32, Struct, 1)
	w.WriteI32(5)
	w.StructBegin()
	w.WriteBoolField(1, true)
	w.StructEnd()
	w.WriteFieldHeader(UUID, 5)
	w.Buf = append(w.Buf, make([]byte, 16)...)
	w.StructEnd()
	require.NoError(t, NewReader(w.Buf).Skip(Struct))
	for n := 0; n < len(w.Buf); n++ {
		err := NewReader(w.Buf[:n]).Skip(Struct)
		require.ErrorIs(t, err, ErrTruncated, "prefix of %d bytes", n)
	}
}
