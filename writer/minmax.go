package writer

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"math"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/enctable"
	"github.com/pqcodec/pqcodec/stats"
)

// minmax accumulates the min and max of a page or chunk in the column's
// sort order (package stats): numbers by value, UINT as unsigned, byte
// arrays by unsigned bytes, DECIMAL byte arrays as two's complement,
// FLOAT16 by value. NaNs never become a min or max; a column of Undefined
// order (INT96, INTERVAL, ...) gets none.
type minmax struct {
	typ      format.Type
	kind     mmKind
	float16  bool          // FLOAT16 values, whose NaNs are left out
	col      *stats.Column // for byte arrays
	has      bool
	minI     int64
	maxI     int64
	minU     uint64
	maxU     uint64
	minF     float64
	maxF     float64
	minB     []byte
	maxB     []byte
	nanCount int64
}

type mmKind uint8

const (
	mmNone mmKind = iota
	mmSigned
	mmUnsigned
	mmFloat
	mmBytes   // unsigned lexicographic
	mmCompare // through stats.Column.Compare (DECIMAL, FLOAT16)
)

func newMinmax(leaf *format.Node) minmax {
	e := leaf.Element
	m := minmax{typ: *e.Type, float16: e.LogicalType != nil && e.LogicalType.Kind == format.LogicalFloat16}
	order := stats.OrderOf(e)
	switch {
	case order == stats.Undefined:
	case m.typ == format.Boolean, (m.typ == format.Int32 || m.typ == format.Int64) && order == stats.Signed:
		m.kind = mmSigned
	case m.typ == format.Int32 || m.typ == format.Int64:
		m.kind = mmUnsigned
	case m.typ == format.Float || m.typ == format.Double:
		m.kind = mmFloat
	case (m.typ == format.ByteArray || m.typ == format.FixedLenByteArray) && order == stats.Unsigned:
		m.kind = mmBytes
	case m.typ == format.ByteArray || m.typ == format.FixedLenByteArray:
		orders := make([]format.ColumnOrder, leaf.ColumnIndex+1)
		for i := range orders {
			orders[i].Kind = format.TypeDefinedOrder
		}
		m.col = stats.NewColumn(&format.FileMetaData{ColumnOrders: orders}, leaf)
		if m.col.Order != stats.Undefined {
			m.kind = mmCompare
		}
	}
	return m
}

func (m *minmax) reset() { m.has, m.nanCount = false, 0 }

func (m *minmax) cmp(a, b []byte) int {
	if m.kind == mmBytes {
		return bytes.Compare(a, b)
	}
	return m.col.Compare(stats.BytesValue(m.typ, a), stats.BytesValue(m.typ, b))
}

func (m *minmax) isNaN16(b []byte) bool {
	return m.float16 && len(b) == 2 && math.IsNaN(float64(stats.Float16(b)))
}

// bytesAt returns value i of v, a BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY.
func (m *minmax) bytesAt(v *enctable.Values, i int) []byte {
	if m.typ == format.ByteArray {
		return v.Bytes[v.Offsets[i]:v.Offsets[i+1]]
	}
	return v.Bytes[i*v.TypeLength : (i+1)*v.TypeLength]
}

// update takes values [from, to) of v.
func (m *minmax) update(v *enctable.Values, from, to int) {
	if from >= to {
		return
	}
	switch m.kind {
	case mmSigned:
		switch m.typ {
		case format.Boolean:
			for _, b := range v.Booleans[from:to] {
				x := int64(0)
				if b {
					x = 1
				}
				m.putI(x)
			}
		case format.Int32:
			lo, hi := v.Int32s[from], v.Int32s[from]
			for _, x := range v.Int32s[from+1 : to] {
				lo, hi = min(lo, x), max(hi, x)
			}
			m.putI(int64(lo))
			m.putI(int64(hi))
		case format.Int64:
			lo, hi := v.Int64s[from], v.Int64s[from]
			for _, x := range v.Int64s[from+1 : to] {
				lo, hi = min(lo, x), max(hi, x)
			}
			m.putI(lo)
			m.putI(hi)
		}
	case mmUnsigned:
		if m.typ == format.Int32 {
			lo, hi := uint32(v.Int32s[from]), uint32(v.Int32s[from])
			for _, x := range v.Int32s[from+1 : to] {
				lo, hi = min(lo, uint32(x)), max(hi, uint32(x))
			}
			m.putU(uint64(lo))
			m.putU(uint64(hi))
		} else {
			lo, hi := uint64(v.Int64s[from]), uint64(v.Int64s[from])
			for _, x := range v.Int64s[from+1 : to] {
				lo, hi = min(lo, uint64(x)), max(hi, uint64(x))
			}
			m.putU(lo)
			m.putU(hi)
		}
	case mmFloat:
		if m.typ == format.Float {
			putFloats(m, v.Floats[from:to])
		} else {
			putFloats(m, v.Doubles[from:to])
		}
	case mmBytes:
		// Bounds alias v during the loop and are copied once at its end.
		// A value whose first 8 bytes lie strictly between those of the
		// bounds lies strictly between the bounds: only the others are
		// compared whole.
		lo, hi, has := m.minB, m.maxB, m.has
		loP, hiP := prefix8(lo), prefix8(hi)
		newLo, newHi := false, false
		for i := from; i < to; i++ {
			b := m.bytesAt(v, i)
			p := prefix8(b)
			switch {
			case !has:
				lo, hi, has, newLo, newHi = b, b, true, true, true
				loP, hiP = p, p
			case p > loP && p < hiP:
			case p <= loP && bytes.Compare(b, lo) < 0:
				lo, newLo, loP = b, true, p
			case p >= hiP && bytes.Compare(b, hi) > 0:
				hi, newHi, hiP = b, true, p
			}
		}
		if newLo {
			m.minB = append(m.minB[:0], lo...)
		}
		if newHi {
			m.maxB = append(m.maxB[:0], hi...)
		}
		m.has = has
	case mmCompare:
		for i := from; i < to; i++ {
			b := m.bytesAt(v, i)
			m.putB(b)
		}
	}
}

// prefix8 returns the first 8 bytes of b as a big-endian number, padded
// with zeros: prefix8(a) < prefix8(b) implies a < b in unsigned byte order,
// and so does >.
func prefix8(b []byte) uint64 {
	n := len(b)
	switch {
	case n >= 8:
		return binary.BigEndian.Uint64(b)
	case n >= 4:
		// The two loads overlap on equal bytes when n < 8.
		return uint64(binary.BigEndian.Uint32(b))<<32 | uint64(binary.BigEndian.Uint32(b[n-4:]))<<(8*(8-n))
	}
	var p uint64
	for i, c := range b {
		p |= uint64(c) << (56 - 8*i)
	}
	return p
}

// putFloats takes xs. Without NaNs, the builtin min and max order the
// values as putF does (-0 below +0), so only their results are put.
func putFloats[F float32 | float64](m *minmax, xs []F) {
	if len(xs) == 0 {
		return
	}
	lo, hi := xs[0], xs[0]
	for _, x := range xs[1:] {
		lo, hi = min(lo, x), max(hi, x)
	}
	if lo == lo && hi == hi {
		m.putF(float64(lo))
		m.putF(float64(hi))
		return
	}
	for _, x := range xs {
		m.putF(float64(x))
	}
}

func (m *minmax) putI(x int64) {
	if !m.has {
		m.minI, m.maxI, m.has = x, x, true
		return
	}
	m.minI, m.maxI = min(m.minI, x), max(m.maxI, x)
}

func (m *minmax) putU(x uint64) {
	if !m.has {
		m.minU, m.maxU, m.has = x, x, true
		return
	}
	m.minU, m.maxU = min(m.minU, x), max(m.maxU, x)
}

func (m *minmax) putF(x float64) {
	if x != x {
		m.nanCount++
		return
	}
	if !m.has {
		m.minF, m.maxF, m.has = x, x, true
		return
	}
	if x < m.minF || x == m.minF && math.Signbit(x) {
		m.minF = x
	}
	if x > m.maxF || x == m.maxF && !math.Signbit(x) {
		m.maxF = x
	}
}

func (m *minmax) putB(b []byte) {
	if m.isNaN16(b) {
		m.nanCount++
		return
	}
	if !m.has {
		m.minB, m.maxB, m.has = append(m.minB[:0], b...), append(m.maxB[:0], b...), true
		return
	}
	if m.cmp(b, m.minB) < 0 {
		m.minB = append(m.minB[:0], b...)
	}
	if m.cmp(b, m.maxB) > 0 {
		m.maxB = append(m.maxB[:0], b...)
	}
}

// merge takes the min and max of o.
func (m *minmax) merge(o *minmax) {
	m.nanCount += o.nanCount
	if !o.has {
		return
	}
	switch m.kind {
	case mmSigned:
		m.putI(o.minI)
		m.putI(o.maxI)
	case mmUnsigned:
		m.putU(o.minU)
		m.putU(o.maxU)
	case mmFloat:
		m.putF(o.minF)
		m.putF(o.maxF)
	case mmBytes, mmCompare:
		m.putB(o.minB)
		m.putB(o.maxB)
	}
}

// appendValue appends the statistics encoding of the min (or max) to dst:
// PLAIN without a length prefix. A zero min is written as -0 and a zero
// max as +0, as the specification asks.
func (m *minmax) appendValue(dst []byte, isMax bool) []byte {
	switch m.kind {
	case mmSigned:
		x := m.minI
		if isMax {
			x = m.maxI
		}
		switch m.typ {
		case format.Boolean:
			return append(dst, byte(x))
		case format.Int32:
			return binary.LittleEndian.AppendUint32(dst, uint32(x))
		}
		return binary.LittleEndian.AppendUint64(dst, uint64(x))
	case mmUnsigned:
		x := m.minU
		if isMax {
			x = m.maxU
		}
		if m.typ == format.Int32 {
			return binary.LittleEndian.AppendUint32(dst, uint32(x))
		}
		return binary.LittleEndian.AppendUint64(dst, x)
	case mmFloat:
		x := m.minF
		if isMax {
			x = m.maxF
		}
		if x == 0 && isMax {
			x = 0
		} else if x == 0 {
			x = math.Copysign(0, -1)
		}
		if m.typ == format.Float {
			return binary.LittleEndian.AppendUint32(dst, math.Float32bits(float32(x)))
		}
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(x))
	case mmBytes, mmCompare:
		if isMax {
			return append(dst, m.maxB...)
		}
		return append(dst, m.minB...)
	}
	return dst
}

// legacy reports whether the deprecated min and max fields (signed order)
// are written too, as parquet-java and arrow-cpp do for numbers.
func (m *minmax) legacy() bool { return m.kind == mmSigned || m.kind == mmFloat }

// truncateMin and truncateMax shorten byte-array bounds of the column index
// to n bytes, keeping them bounds: the min a prefix, the max a prefix
// incremented at its last byte that is not 0xFF. A max of only 0xFF bytes
// stays whole. Only for unsigned byte order.
func truncateMin(b []byte, n int) ([]byte, bool) {
	if len(b) <= n {
		return b, true
	}
	return b[:n], false
}

func truncateMax(b []byte, n int) ([]byte, bool) {
	if len(b) <= n {
		return b, true
	}
	for i := n - 1; i >= 0; i-- {
		if b[i] != 0xFF {
			out := append([]byte(nil), b[:i+1]...)
			out[i]++
			return out, false
		}
	}
	return b, true
}

// cmpEncoded compares two statistics values as appendValue encodes them.
// Bounds are never NaN (see minmax), so [cmp.Compare] orders floats as
// stats.Column.Compare does.
func (m *minmax) cmpEncoded(a, b []byte) int {
	switch m.kind {
	case mmSigned:
		return cmp.Compare(decodeInt(a), decodeInt(b))
	case mmUnsigned:
		return cmp.Compare(decodeUint(a), decodeUint(b))
	case mmFloat:
		return cmp.Compare(decodeFloat(a), decodeFloat(b))
	}
	return m.cmp(a, b)
}

func decodeInt(b []byte) int64 {
	switch len(b) {
	case 1:
		return int64(b[0])
	case 4:
		return int64(int32(binary.LittleEndian.Uint32(b)))
	}
	return int64(binary.LittleEndian.Uint64(b))
}

func decodeUint(b []byte) uint64 {
	if len(b) == 4 {
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

func decodeFloat(b []byte) float64 {
	if len(b) == 4 {
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b))
}
