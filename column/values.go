package column

import (
	"fmt"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/enctable"
)

// Values holds the non-null values of a column in the Go form of its
// physical type. Only the slice for Type is used:
//
//	BOOLEAN               Booleans
//	INT32                 Int32s
//	INT64                 Int64s
//	INT96                 Int96s (12 bytes each, as stored)
//	FLOAT                 Floats
//	DOUBLE                Doubles
//	BYTE_ARRAY            Bytes and Offsets: value i is Bytes[Offsets[i]:Offsets[i+1]]
//	FIXED_LEN_BYTE_ARRAY  Bytes: value i is Bytes[i*TypeLength:(i+1)*TypeLength]
//
// Byte arrays are one flat slice plus offsets, never a slice per value.
// Readers append to a Values; [Values.Reset] empties it and keeps its
// capacity, so a Values reused across pages stops allocating once it has
// grown to the largest page.
type Values struct {
	Type       format.Type
	TypeLength int

	Booleans []bool
	Int32s   []int32
	Int64s   []int64
	Int96s   [][12]byte
	Floats   []float32
	Doubles  []float64
	Bytes    []byte
	Offsets  []int32
}

// Len returns the number of values held.
func (v *Values) Len() int { return (*enctable.Values)(v).Len() }

// truncate keeps the first n values of v; n must not exceed v.Len().
func (v *Values) truncate(n int) { (*enctable.Values)(v).Truncate(n) }

// Reset empties v, keeping the capacity of every slice, and sets its type.
func (v *Values) Reset(t format.Type, typeLength int) {
	*v = Values{
		Type:       t,
		TypeLength: typeLength,
		Booleans:   v.Booleans[:0],
		Int32s:     v.Int32s[:0],
		Int64s:     v.Int64s[:0],
		Int96s:     v.Int96s[:0],
		Floats:     v.Floats[:0],
		Doubles:    v.Doubles[:0],
		Bytes:      v.Bytes[:0],
		Offsets:    v.Offsets[:0],
	}
}

// ByteArray returns byte array value i of a BYTE_ARRAY or
// FIXED_LEN_BYTE_ARRAY column. The result aliases v.Bytes.
func (v *Values) ByteArray(i int) []byte {
	if v.Type == format.FixedLenByteArray {
		return v.Bytes[i*v.TypeLength : (i+1)*v.TypeLength : (i+1)*v.TypeLength]
	}
	return v.Bytes[v.Offsets[i]:v.Offsets[i+1]:v.Offsets[i+1]]
}

// Value returns value i boxed in an interface, for tests and tools that
// print values (it allocates; hot paths use the typed slices): bool, int32,
// int64, [12]byte, float32, float64 or []byte (aliasing v.Bytes).
func (v *Values) Value(i int) any {
	switch v.Type {
	case format.Boolean:
		return v.Booleans[i]
	case format.Int32:
		return v.Int32s[i]
	case format.Int64:
		return v.Int64s[i]
	case format.Int96:
		return v.Int96s[i]
	case format.Float:
		return v.Floats[i]
	case format.Double:
		return v.Doubles[i]
	case format.ByteArray, format.FixedLenByteArray:
		return v.ByteArray(i)
	}
	panic(fmt.Sprintf("column: Value on unknown type %v", v.Type))
}

// growLen extends s by n elements, reallocating only when its capacity is
// too small. The new elements are not cleared.
func growLen[T any](s []T, n int) []T {
	s = growCap(s, n)
	return s[:len(s)+n]
}

// growCap makes room for n more elements in s without changing its length.
// Large slices get 1/16 of headroom, so that the next page of about the
// same size (a data page holds its levels before its values) decompresses
// into them instead of into a second buffer as large.
func growCap[T any](s []T, n int) []T {
	if cap(s)-len(s) >= n {
		return s
	}
	c := len(s) + max(n, len(s))
	if c >= compactThreshold {
		c += c / 16
	}
	grown := make([]T, len(s), c)
	copy(grown, s)
	return grown
}
