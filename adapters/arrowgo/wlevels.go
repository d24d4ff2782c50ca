package arrowgo

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/writer"
)

func arrowTableReader(tbl arrow.Table) *array.TableReader {
	return array.NewTableReader(tbl, writeBatchRows)
}

type stepKind uint8

const (
	stepStruct stepKind = iota
	stepList
	stepLeaf
)

// step is one Arrow node on the path from a top-level field to a leaf.
type step struct {
	kind     stepKind
	nullable bool
	child    int   // struct: the child on the path
	rep      int16 // list: the repetition level of its elements
}

// leafWriter turns the slots of one Parquet leaf column of Arrow arrays
// into definition and repetition levels and the non-null values, in
// buffers reused from write to write.
type leafWriter struct {
	col, field     int
	path           []step
	maxDef, maxRep int16
	phys           format.Type
	typeLen        int
	unit           int64 // TIMESTAMP: units per second of the Parquet column

	def, rep []int16
	runs     []int         // leaf slot runs [s, e) of non-null values, in pairs
	v        column.Values // the batch given to package writer
	buf      column.Values // the buffers of v when it holds copies
}

func appendLeaves(dst []*leafWriter, field int, path []step, f arrow.Field, def, rep int16) []*leafWriter {
	nullable := f.Nullable || f.Type.ID() == arrow.NULL
	if nullable {
		def++
	}
	switch t := f.Type.(type) {
	case *arrow.StructType:
		for i := range t.NumFields() {
			p := append(append([]step(nil), path...), step{kind: stepStruct, nullable: nullable, child: i})
			dst = appendLeaves(dst, field, p, t.Field(i), def, rep)
		}
		return dst
	case arrow.ListLikeType:
		p := append(append([]step(nil), path...), step{kind: stepList, nullable: nullable, rep: rep + 1})
		return appendLeaves(dst, field, p, t.ElemField(), def+1, rep+1)
	}
	p := append(append([]step(nil), path...), step{kind: stepLeaf, nullable: nullable})
	l := &leafWriter{col: len(dst), field: field, path: p, maxDef: def, maxRep: rep}
	l.reuse() // wrecycle.go
	return append(dst, l)
}

func (l *leafWriter) write(w *writer.Writer, arr arrow.Array, s, e int) error {
	l.def, l.rep, l.runs = l.def[:0], l.rep[:0], l.runs[:0]
	if l.maxDef > 0 && l.maxRep == 0 { // one level per row
		l.def = slices.Grow(l.def, e-s)
	}
	leaf := l.emit(0, arr, s, e, 0, 0, 0)
	b := &l.buf
	l.v = column.Values{Type: l.phys, TypeLength: l.typeLen, Booleans: b.Booleans[:0], Int32s: b.Int32s[:0],
		Int64s: b.Int64s[:0], Floats: b.Floats[:0], Doubles: b.Doubles[:0], Bytes: b.Bytes[:0], Offsets: b.Offsets[:0]}
	if l.phys == format.ByteArray {
		l.v.Offsets = append(l.v.Offsets, 0)
	}
	if leaf != nil && !l.alias(leaf) {
		if err := l.values(leaf); err != nil {
			return err
		}
		l.buf = l.v
	}
	var def, rep []int16
	if l.maxDef > 0 {
		def = l.def
	}
	if l.maxRep > 0 {
		rep = l.rep
	}
	return w.Write(l.col, &l.v, def, rep)
}

// alias points l.v at the Arrow buffers when the values are one run of a
// type whose layout is Parquet's (package writer copies what it keeps),
// and reports whether it did.
func (l *leafWriter) alias(leaf arrow.Array) bool {
	if len(l.runs) != 2 {
		return false
	}
	s, e := l.runs[0], l.runs[1]
	switch a := leaf.(type) {
	case *array.Int32:
		l.v.Int32s = a.Int32Values()[s:e]
	case *array.Int64:
		l.v.Int64s = a.Int64Values()[s:e]
	case *array.Float32:
		l.v.Floats = a.Float32Values()[s:e]
	case *array.Float64:
		l.v.Doubles = a.Float64Values()[s:e]
	case *array.String:
		l.v.Bytes, l.v.Offsets = dataBuf(a), a.ValueOffsets()[s:e+1]
	case *array.Binary:
		l.v.Bytes, l.v.Offsets = dataBuf(a), a.ValueOffsets()[s:e+1]
	default:
		return false
	}
	return true
}

// emit appends the levels of slots [s, e) of arr at path step k, present
// at definition level def, the first slot at repetition level rep0 and the
// others at repIn; it returns the leaf array whose runs it recorded.
func (l *leafWriter) emit(k int, arr arrow.Array, s, e int, def, rep0, repIn int16) arrow.Array {
	st := &l.path[k]
	if st.nullable {
		def++
	}
	hasNulls := st.nullable && arr.NullN() > 0
	switch st.kind {
	case stepLeaf:
		if l.maxRep > 0 {
			for i := s; i < e; i++ {
				r := repIn
				if i == s {
					r = rep0
				}
				l.rep = append(l.rep, r)
			}
		}
		if !hasNulls {
			if l.maxDef > 0 {
				for i := s; i < e; i++ {
					l.def = append(l.def, def)
				}
			}
			l.addRun(s, e)
			return arr
		}
		if arr.DataType().ID() == arrow.NULL {
			for i := s; i < e; i++ {
				l.def = append(l.def, def-1)
			}
			return arr
		}
		bm, off := arr.NullBitmapBytes(), arr.Data().Offset()
		run := -1
		for i := s; i < e; i++ {
			if bitutil.BitIsSet(bm, off+i) {
				l.def = append(l.def, def)
				if run < 0 {
					run = i
				}
			} else {
				l.def = append(l.def, def-1)
				if run >= 0 {
					l.addRun(run, i)
					run = -1
				}
			}
		}
		if run >= 0 {
			l.addRun(run, e)
		}
		return arr
	case stepStruct:
		child := arr.(*array.Struct).Field(st.child)
		var leaf arrow.Array
		if !hasNulls {
			return l.emit(k+1, child, s, e, def, rep0, repIn)
		}
		for i := s; i < e; {
			r := repIn
			if i == s {
				r = rep0
			}
			if arr.IsNull(i) {
				l.def = append(l.def, def-1)
				if l.maxRep > 0 {
					l.rep = append(l.rep, r)
				}
				i++
				continue
			}
			j := i + 1
			for j < e && arr.IsValid(j) {
				j++
			}
			if lf := l.emit(k+1, child, i, j, def, r, repIn); lf != nil {
				leaf = lf
			}
			i = j
		}
		return leaf
	default: // stepList
		ll := arr.(array.ListLike)
		child := ll.ListValues()
		var leaf arrow.Array
		for i := s; i < e; i++ {
			r := repIn
			if i == s {
				r = rep0
			}
			if hasNulls && arr.IsNull(i) {
				l.def = append(l.def, def-1)
				l.rep = append(l.rep, r)
				continue
			}
			a, b := ll.ValueOffsets(i)
			if a == b {
				l.def = append(l.def, def)
				l.rep = append(l.rep, r)
				continue
			}
			if lf := l.emit(k+1, child, int(a), int(b), def+1, r, st.rep); lf != nil {
				leaf = lf
			}
		}
		return leaf
	}
}

func (l *leafWriter) addRun(s, e int) {
	if s == e {
		return
	}
	if n := len(l.runs); n > 0 && l.runs[n-1] == s {
		l.runs[n-1] = e
		return
	}
	l.runs = append(l.runs, s, e)
}

// values appends the values of the recorded runs of leaf to l.v.
func (l *leafWriter) values(leaf arrow.Array) error {
	if x, ok := leaf.(array.ExtensionArray); ok {
		leaf = x.Storage()
	}
	if d, ok := leaf.(*array.Dictionary); ok {
		dv := d.Dictionary()
		for r := 0; r < len(l.runs); r += 2 {
			for i := l.runs[r]; i < l.runs[r+1]; i++ {
				j := d.GetValueIndex(i)
				if err := l.appendRange(dv, j, j+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	n := 0
	for r := 0; r < len(l.runs); r += 2 {
		n += l.runs[r+1] - l.runs[r]
	}
	switch v := &l.v; l.phys {
	case format.Boolean:
		v.Booleans = slices.Grow(v.Booleans, n)
	case format.Int32:
		v.Int32s = slices.Grow(v.Int32s, n)
	case format.Int64:
		v.Int64s = slices.Grow(v.Int64s, n)
	case format.Float:
		v.Floats = slices.Grow(v.Floats, n)
	case format.Double:
		v.Doubles = slices.Grow(v.Doubles, n)
	case format.ByteArray:
		v.Offsets = slices.Grow(v.Offsets, n)
	case format.FixedLenByteArray:
		v.Bytes = slices.Grow(v.Bytes, n*l.typeLen)
	}
	for r := 0; r < len(l.runs); r += 2 {
		if err := l.appendRange(leaf, l.runs[r], l.runs[r+1]); err != nil {
			return err
		}
	}
	return nil
}

var unitsPerSecond = [...]int64{arrow.Second: 1, arrow.Millisecond: 1e3, arrow.Microsecond: 1e6, arrow.Nanosecond: 1e9}

func appendConv[T, U ~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64](dst []U, src []T) []U {
	for _, x := range src {
		dst = append(dst, U(x))
	}
	return dst
}

// appendRange appends the values of slots [s, e) of a, none null.
func (l *leafWriter) appendRange(a arrow.Array, s, e int) error {
	v := &l.v
	switch a := a.(type) {
	case *array.Boolean:
		for i := s; i < e; i++ {
			v.Booleans = append(v.Booleans, a.Value(i))
		}
	case *array.Int8:
		v.Int32s = appendConv(v.Int32s, a.Int8Values()[s:e])
	case *array.Int16:
		v.Int32s = appendConv(v.Int32s, a.Int16Values()[s:e])
	case *array.Uint8:
		v.Int32s = appendConv(v.Int32s, a.Uint8Values()[s:e])
	case *array.Uint16:
		v.Int32s = appendConv(v.Int32s, a.Uint16Values()[s:e])
	case *array.Int32:
		v.Int32s = append(v.Int32s, a.Int32Values()[s:e]...)
	case *array.Uint32:
		v.Int32s = appendConv(v.Int32s, a.Uint32Values()[s:e])
	case *array.Date32:
		v.Int32s = appendConv(v.Int32s, arrow.Int32Traits.CastFromBytes(a.Data().Buffers()[1].Bytes())[a.Data().Offset()+s:a.Data().Offset()+e])
	case *array.Time32:
		xs := a.Time32Values()[s:e]
		if a.DataType().(*arrow.Time32Type).Unit == arrow.Second { // TIME(MILLIS), as pqarrow writes
			for _, x := range xs {
				v.Int32s = append(v.Int32s, int32(x)*1000)
			}
			break
		}
		v.Int32s = appendConv(v.Int32s, xs)
	case *array.Date64:
		for _, x := range a.Date64Values()[s:e] {
			v.Int32s = append(v.Int32s, int32(int64(x)/86400000))
		}
	case *array.Int64:
		v.Int64s = append(v.Int64s, a.Int64Values()[s:e]...)
	case *array.Uint64:
		v.Int64s = appendConv(v.Int64s, a.Uint64Values()[s:e])
	case *array.Time64, *array.Duration:
		d := a.Data()
		v.Int64s = append(v.Int64s, arrow.Int64Traits.CastFromBytes(d.Buffers()[1].Bytes())[d.Offset()+s:d.Offset()+e]...)
	case *array.Timestamp:
		xs := a.TimestampValues()[s:e]
		from := unitsPerSecond[a.DataType().(*arrow.TimestampType).Unit]
		to := l.unit
		switch {
		case from == to:
			v.Int64s = append(v.Int64s, arrow.Int64Traits.CastFromBytes(arrow.TimestampTraits.CastToBytes(xs))...)
		case from < to:
			for _, x := range xs {
				v.Int64s = append(v.Int64s, int64(x)*(to/from))
			}
		default:
			for _, x := range xs {
				v.Int64s = append(v.Int64s, int64(x)/(from/to))
			}
		}
	case *array.Float32:
		v.Floats = append(v.Floats, a.Float32Values()[s:e]...)
	case *array.Float64:
		v.Doubles = append(v.Doubles, a.Float64Values()[s:e]...)
	case *array.Float16:
		d := a.Data()
		v.Bytes = append(v.Bytes, d.Buffers()[1].Bytes()[2*(d.Offset()+s):2*(d.Offset()+e)]...)
	case *array.FixedSizeBinary:
		w := a.DataType().(*arrow.FixedSizeBinaryType).ByteWidth
		d := a.Data()
		v.Bytes = append(v.Bytes, d.Buffers()[1].Bytes()[w*(d.Offset()+s):w*(d.Offset()+e)]...)
	case *array.Decimal128:
		// Decimals of precision up to 9 (18) are INT32 (INT64) when the
		// properties store decimals as integers, as pqarrow does.
		switch l.phys {
		case format.Int32:
			for _, x := range a.Values()[s:e] {
				v.Int32s = append(v.Int32s, int32(x.LowBits()))
			}
			return nil
		case format.Int64:
			for _, x := range a.Values()[s:e] {
				v.Int64s = append(v.Int64s, int64(x.LowBits()))
			}
			return nil
		}
		for _, x := range a.Values()[s:e] {
			var b [16]byte
			binary.BigEndian.PutUint64(b[:8], uint64(x.HighBits()))
			binary.BigEndian.PutUint64(b[8:], x.LowBits())
			v.Bytes = append(v.Bytes, b[16-l.typeLen:]...)
		}
	case *array.Decimal256:
		switch l.phys {
		case format.Int32:
			for _, x := range a.Values()[s:e] {
				v.Int32s = append(v.Int32s, int32(x.Array()[0]))
			}
			return nil
		case format.Int64:
			for _, x := range a.Values()[s:e] {
				v.Int64s = append(v.Int64s, int64(x.Array()[0]))
			}
			return nil
		}
		for _, x := range a.Values()[s:e] {
			var b [32]byte
			arr := x.Array()
			for k := range 4 {
				binary.BigEndian.PutUint64(b[8*k:], arr[3-k])
			}
			v.Bytes = append(v.Bytes, b[32-l.typeLen:]...)
		}
	case *array.String:
		l.appendBytes(a.ValueOffsets()[s:e+1], dataBuf(a))
	case *array.Binary:
		l.appendBytes(a.ValueOffsets()[s:e+1], dataBuf(a))
	case *array.LargeString:
		l.appendBytes64(a.ValueOffsets()[s:e+1], dataBuf(a))
	case *array.LargeBinary:
		l.appendBytes64(a.ValueOffsets()[s:e+1], dataBuf(a))
	case *array.Null:
	default:
		return fmt.Errorf("%w: writing Arrow type %s", ErrUnsupported, a.DataType())
	}
	return nil
}

func (l *leafWriter) appendBytes(offs []int32, data []byte) {
	v := &l.v
	base := int32(len(v.Bytes)) - offs[0]
	v.Bytes = append(v.Bytes, data[offs[0]:offs[len(offs)-1]]...)
	for _, o := range offs[1:] {
		v.Offsets = append(v.Offsets, o+base)
	}
}

func (l *leafWriter) appendBytes64(offs []int64, data []byte) {
	v := &l.v
	base := int64(len(v.Bytes)) - offs[0]
	v.Bytes = append(v.Bytes, data[offs[0]:offs[len(offs)-1]]...)
	for _, o := range offs[1:] {
		v.Offsets = append(v.Offsets, int32(o+base))
	}
}

// dataBuf is the whole data buffer of a binary array, which its value
// offsets index (ValueBytes starts at the first value of a slice).
func dataBuf(a arrow.Array) []byte {
	if b := a.Data().Buffers()[2]; b != nil {
		return b.Bytes()
	}
	return nil
}
