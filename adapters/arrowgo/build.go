package arrowgo

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/unsafecast"
)

// slots are the level entries of one leaf's batch that are elements of the
// array being built, in order: idx, or when idx is nil every entry 0..n-1.
type slots struct {
	l   *leaf
	idx []int32
	n   int
}

func (s slots) entry(k int) int {
	if s.idx == nil {
		return k
	}
	return int(s.idx[k])
}

// builder assembles the arrays of one batch from its leaves' levels and
// values.
type builder struct {
	mem  memory.Allocator // the buffers the builder fills, every byte
	user memory.Allocator // the user's allocator, for arrow-go's builders
	bits []byte           // scratch of validity, kept across batches
}

// build returns the array of field sf, whose elements are the entries sl
// of each leaf under sf (in leaf order).
func (b *builder) build(sf *pqarrow.SchemaField, sl []slots) (arrow.ArrayData, error) {
	return b.buildType(sf, sf.Field.Type, sl)
}

func (b *builder) buildType(sf *pqarrow.SchemaField, dt arrow.DataType, sl []slots) (arrow.ArrayData, error) {
	switch t := dt.(type) {
	case arrow.ExtensionType:
		storage, err := b.buildType(sf, t.StorageType(), sl)
		if err != nil {
			return nil, err
		}
		defer storage.Release()
		sarr := array.MakeFromData(storage)
		defer sarr.Release()
		ext := array.NewExtensionArrayWithStorage(t, sarr)
		defer ext.Release()
		d := ext.Data()
		d.Retain()
		return d, nil
	case *arrow.DictionaryType:
		vals, err := b.buildType(sf, t.ValueType, sl)
		if err != nil {
			return nil, err
		}
		defer vals.Release()
		varr := array.MakeFromData(vals)
		defer varr.Release()
		db := array.NewDictionaryBuilder(b.user, t)
		defer db.Release()
		if err := db.AppendArray(varr); err != nil {
			return nil, fmt.Errorf("arrowgo: dictionary of column %d: %w", sf.ColIndex, err)
		}
		arr := db.NewArray()
		defer arr.Release()
		d := arr.Data()
		d.Retain()
		return d, nil
	}
	if sf.IsLeaf() {
		return b.buildLeaf(sf, dt, sl[0])
	}
	switch dt.ID() {
	case arrow.STRUCT:
		return b.buildStruct(sf, dt.(*arrow.StructType), sl)
	case arrow.LIST, arrow.LARGE_LIST, arrow.MAP:
		return b.buildList(sf, dt, sl)
	case arrow.FIXED_SIZE_LIST:
		return b.buildFixedSizeList(sf, dt.(*arrow.FixedSizeListType), sl)
	}
	return nil, fmt.Errorf("%w: arrow type %s", ErrUnsupported, dt)
}

// validity returns the validity bitmap of the entries s, valid where the
// definition level reaches min, and the null count; a nil bitmap when no
// entry is null. The bitmap and the count come from one pass over the
// levels, into the builder's scratch, copied into a buffer only when some
// entry is null.
func (b *builder) validity(s slots, min int16) (*memory.Buffer, int) {
	if min <= 0 || s.n == 0 {
		return nil, 0
	}
	def := s.l.def
	nb := int(bitutil.BytesForBits(int64(s.n)))
	if s.idx == nil && min == s.l.maxDef {
		// Every level at the maximum holds a value.
		nulls := s.n - s.l.nvals
		if nulls == 0 {
			return nil, 0
		}
		buf := memory.NewResizableBuffer(b.mem)
		buf.Resize(nb)
		bitsFromLevels(buf.Bytes(), def[:s.n], min)
		return buf, nulls
	}
	if cap(b.bits) < nb {
		b.bits = makeNoZero(nb)
	}
	bm := b.bits[:nb]
	if s.idx == nil {
		bitsFromLevels(bm, def[:s.n], min)
	} else {
		bitsFromIndexedLevels(bm, def, s.idx, min)
	}
	nulls := s.n - countBits(bm)
	if nulls == 0 {
		return nil, 0
	}
	buf := memory.NewResizableBuffer(b.mem)
	buf.Resize(nb)
	copy(buf.Bytes(), bm)
	return buf, nulls
}

// countBits returns the number of bits set in bm.
func countBits(bm []byte) int {
	n := 0
	for len(bm) >= 8 {
		n += bits.OnesCount64(binary.LittleEndian.Uint64(bm))
		bm = bm[8:]
	}
	for _, x := range bm {
		n += bits.OnesCount8(x)
	}
	return n
}

// bitsFromIndexedLevels sets bit k of bm when def[idx[k]] >= min, eight
// levels per byte; the bits of the last byte past len(idx) are zero.
func bitsFromIndexedLevels(bm []byte, def []int16, idx []int32, min int16) {
	n := len(idx)
	k := 0
	for ; k+8 <= n; k += 8 {
		e := idx[k : k+8 : k+8]
		bm[k>>3] = byte(b2i(def[e[0]] >= min)) | byte(b2i(def[e[1]] >= min))<<1 | byte(b2i(def[e[2]] >= min))<<2 |
			byte(b2i(def[e[3]] >= min))<<3 | byte(b2i(def[e[4]] >= min))<<4 | byte(b2i(def[e[5]] >= min))<<5 |
			byte(b2i(def[e[6]] >= min))<<6 | byte(b2i(def[e[7]] >= min))<<7
	}
	if k < n {
		var x byte
		for j := k; j < n; j++ {
			x |= byte(b2i(def[idx[j]] >= min)) << (j - k)
		}
		bm[k>>3] = x
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// bitsFromLevels sets bit k of bm when def[k] >= min, eight levels per
// byte.
func bitsFromLevels(bm []byte, def []int16, min int16) {
	n := len(def)
	k := 0
	for ; k+8 <= n; k += 8 {
		d := def[k : k+8 : k+8]
		bm[k>>3] = byte(b2i(d[0] >= min)) | byte(b2i(d[1] >= min))<<1 | byte(b2i(d[2] >= min))<<2 |
			byte(b2i(d[3] >= min))<<3 | byte(b2i(d[4] >= min))<<4 | byte(b2i(d[5] >= min))<<5 |
			byte(b2i(d[6] >= min))<<6 | byte(b2i(d[7] >= min))<<7
	}
	if k < n {
		var x byte
		for j := k; j < n; j++ {
			x |= byte(b2i(def[j] >= min)) << (j - k)
		}
		bm[k>>3] = x
	}
}

func (b *builder) buildStruct(sf *pqarrow.SchemaField, st *arrow.StructType, sl []slots) (arrow.ArrayData, error) {
	n := sl[0].n
	// As in pqarrow, a required struct has no validity unless a repeated
	// field is below it: under a null parent its slots are valid.
	var valid *memory.Buffer
	var nulls int
	if sf.Field.Nullable || hasRepeatedChild(sf) {
		valid, nulls = b.validity(sl[0], sf.LevelInfo.DefLevel)
	}
	children := make([]arrow.ArrayData, 0, len(sf.Children))
	release := func() {
		for _, c := range children {
			c.Release()
		}
		if valid != nil {
			valid.Release()
		}
	}
	off := 0
	for i := range sf.Children {
		c := &sf.Children[i]
		nl := leafCount(c)
		d, err := b.buildType(c, st.Field(i).Type, sl[off:off+nl])
		if err != nil {
			release()
			return nil, err
		}
		children = append(children, d)
		off += nl
	}
	out := array.NewData(st, n, []*memory.Buffer{valid}, children, nulls, 0)
	release()
	return out, nil
}

// hasRepeatedChild reports whether a list or map is below sf.
func hasRepeatedChild(sf *pqarrow.SchemaField) bool {
	for i := range sf.Children {
		c := &sf.Children[i]
		switch c.Field.Type.ID() {
		case arrow.LIST, arrow.LARGE_LIST, arrow.MAP, arrow.FIXED_SIZE_LIST:
			return true
		}
		if hasRepeatedChild(c) {
			return true
		}
	}
	return false
}

// leafCount is the number of leaf columns under sf.
func leafCount(sf *pqarrow.SchemaField) int {
	if sf.IsLeaf() {
		return 1
	}
	n := 0
	for i := range sf.Children {
		n += leafCount(&sf.Children[i])
	}
	return n
}

// buildList builds a list, large list or map: a slot is null below the
// list's definition level minus one, empty below its definition level, and
// its elements are the entries that follow it with repetition levels at
// least the list's, those equal to it starting an element.
func (b *builder) buildList(sf *pqarrow.SchemaField, dt arrow.DataType, sl []slots) (arrow.ArrayData, error) {
	def, rep := sf.LevelInfo.DefLevel, sf.LevelInfo.RepLevel
	n := sl[0].n
	// As in pqarrow, a required list has no validity: under a null parent
	// its slots are empty lists.
	var valid *memory.Buffer
	var nulls int
	// A list of repetition level 1 has every entry of level 0 as a slot:
	// its validity comes from the pass that finds its elements.
	top := rep == 1 && sl[0].idx != nil
	var bm []byte
	switch {
	case sf.Field.Nullable && top && def-1 > 0 && n > 0:
		nb := int(bitutil.BytesForBits(int64(n)))
		if cap(b.bits) < nb {
			b.bits = makeNoZero(nb)
		}
		bm = b.bits[:nb]
	case sf.Field.Nullable:
		valid, nulls = b.validity(sl[0], def-1)
	}
	large := dt.ID() == arrow.LARGE_LIST
	w := 4
	if large {
		w = 8
	}
	offBuf := memory.NewResizableBuffer(b.mem)
	offBuf.Resize((n + 1) * w)
	child := make([]slots, len(sl))
	for i, s := range sl {
		var offs32 []int32
		var offs64 []int64
		if i == 0 {
			if large {
				offs64 = arrow.Int64Traits.CastFromBytes(offBuf.Bytes())
			} else {
				offs32 = arrow.Int32Traits.CastFromBytes(offBuf.Bytes())
			}
		}
		var idx []int32
		var bmi []byte
		if i == 0 {
			bmi = bm
		}
		nvalid := 0
		switch {
		case !top || s.idx == nil:
			idx = listElements(s, def, rep, offs32, offs64)
		case large:
			idx, nvalid = topListElements(s.l, def, offs64, bmi)
		default:
			idx, nvalid = topListElements(s.l, def, offs32, bmi)
		}
		child[i] = slots{l: s.l, idx: idx, n: len(idx)}
		if bmi != nil && nvalid < n {
			nulls = n - nvalid
			valid = memory.NewResizableBuffer(b.mem)
			valid.Resize(len(bm))
			copy(valid.Bytes(), bm)
		}
	}
	var elemType arrow.DataType
	switch t := dt.(type) {
	case *arrow.ListType:
		elemType = t.Elem()
	case *arrow.LargeListType:
		elemType = t.Elem()
	case *arrow.MapType:
		elemType = t.Elem()
	}
	cd, err := b.buildType(&sf.Children[0], elemType, child)
	if err == nil && dt.ID() == arrow.MAP && (cd.NullN() != 0 || len(cd.Children()) != 2 || cd.Children()[0].NullN() != 0) {
		// arrow-go's map array panics on null entries or keys, which a
		// damaged file's levels can claim.
		cd.Release()
		err = fmt.Errorf("%w: column %d: map with a null entry or key", ErrCorrupt, child[0].l.col)
	}
	if err != nil {
		offBuf.Release()
		if valid != nil {
			valid.Release()
		}
		return nil, err
	}
	out := array.NewData(dt, n, []*memory.Buffer{valid, offBuf}, []arrow.ArrayData{cd}, nulls, 0)
	cd.Release()
	offBuf.Release()
	if valid != nil {
		valid.Release()
	}
	return out, nil
}

// buildFixedSizeList builds a fixed-size list (a LIST in the file, read as
// one when the stored ARROW:schema says so), as pqarrow does: the list is
// built, every valid slot must hold exactly the list size of elements and
// every null slot none, and a null slot's elements are null.
func (b *builder) buildFixedSizeList(sf *pqarrow.SchemaField, t *arrow.FixedSizeListType, sl []slots) (arrow.ArrayData, error) {
	ld, err := b.buildList(sf, arrow.ListOfField(t.ElemField()), sl)
	if err != nil {
		return nil, err
	}
	defer ld.Release()
	la := array.NewListData(ld)
	defer la.Release()
	size, n := int(t.Len()), la.Len()
	offs := la.Offsets()
	for i := 0; i < n; i++ {
		got := int(offs[i+1] - offs[i])
		if la.IsValid(i) && got != size || la.IsNull(i) && got != 0 {
			return nil, fmt.Errorf("%w: column %d: list %d of a fixed-size list of %d holds %d elements", ErrCorrupt, sf.ColIndex, i, size, got)
		}
	}
	values := la.ListValues()
	if la.NullN() == 0 {
		return array.NewData(t, n, []*memory.Buffer{nil}, []arrow.ArrayData{values.Data()}, 0, 0), nil
	}
	// Runs of valid slots are slices of the values; runs of null slots
	// null elements.
	var pieces []arrow.Array
	defer func() {
		for _, p := range pieces {
			p.Release()
		}
	}()
	for i := 0; i < n; {
		valid := la.IsValid(i)
		end := i + 1
		for end < n && la.IsValid(end) == valid {
			end++
		}
		if valid {
			pieces = append(pieces, array.NewSlice(values, int64(offs[i]), int64(offs[end])))
		} else {
			pieces = append(pieces, array.MakeArrayOfNull(b.user, t.Elem(), (end-i)*size))
		}
		i = end
	}
	child, err := array.Concatenate(pieces, b.user)
	if err != nil {
		return nil, fmt.Errorf("arrowgo: fixed-size list of column %d: %w", sf.ColIndex, err)
	}
	defer child.Release()
	return array.NewData(t, n, []*memory.Buffer{ld.Buffers()[0]}, []arrow.ArrayData{child.Data()}, la.NullN(), 0), nil
}

// listElements returns the entries of s's leaf that are elements of the
// lists at the slots s, and writes the lists' offsets into offs32 or offs64
// when one is not nil.
func listElements(s slots, def, rep int16, offs32 []int32, offs64 []int64) []int32 {
	l := s.l
	ld, lr := l.def[:l.n], l.rep[:l.n]
	idx := makeInt32s(l.n) // at most one element per entry
	w := 0
	if offs32 != nil {
		offs32[0] = 0
	}
	if offs64 != nil {
		offs64[0] = 0
	}
	for k := 0; k < s.n; k++ {
		e := k
		if s.idx != nil {
			e = int(s.idx[k])
		}
		if ld[e] >= def {
			idx[w] = int32(e)
			w++
			j := e + 1
			for ; j < len(lr) && lr[j] >= rep; j++ {
				idx[w] = int32(j)
				w += b2i(lr[j] == rep)
			}
		}
		if offs32 != nil {
			offs32[k+1] = int32(w)
		} else if offs64 != nil {
			offs64[k+1] = int64(w)
		}
	}
	return idx[:w]
}

// topListElements is listElements for a list of repetition level 1, whose
// slots are every entry of repetition level 0 of l (those read found: a
// struct above the list passes them on as they are), in one pass over the
// levels without going through the slots. offs, when not nil, takes the
// lists' offsets; bm, when not nil, the slots' validity (a definition
// level of def-1 or more), whose set bits are returned.
func topListElements[T int32 | int64](l *leaf, def int16, offs []T, bm []byte) ([]int32, int) {
	ld, lr := l.def[:l.n], l.rep[:l.n]
	// At most one element per entry, and an entry is written only at or
	// below its own index.
	idx := makeInt32s(l.n)
	w, k, nvalid := 0, 0, 0
	var acc byte  // the validity bits of the byte being filled
	open := false // the current slot's list holds elements
	for e, r := range lr {
		if r == 0 {
			if offs != nil {
				offs[k] = T(w)
			}
			if bm != nil {
				bit := b2i(ld[e] >= def-1)
				nvalid += bit
				acc |= byte(bit) << (k & 7)
				if k&7 == 7 {
					bm[k>>3] = acc
					acc = 0
				}
			}
			k++
			open = ld[e] >= def
			idx[w] = int32(e)
			w += b2i(open)
		} else if open {
			idx[w] = int32(e)
			w += b2i(r == 1)
		}
	}
	if offs != nil {
		offs[k] = T(w)
	}
	if bm != nil && k&7 != 0 {
		bm[k>>3] = acc
	}
	return idx[:w], nvalid
}

// buildLeaf builds the array of a leaf from its slots s: validity from the
// definition levels, the dense values converted to dt and spread over the
// slots when some are null.
func (b *builder) buildLeaf(sf *pqarrow.SchemaField, dt arrow.DataType, s slots) (arrow.ArrayData, error) {
	l := s.l
	n := s.n
	if dt.ID() == arrow.NULL {
		return array.NewData(dt, n, []*memory.Buffer{nil}, nil, n, 0), nil
	}
	valid, nulls := b.validity(s, sf.LevelInfo.DefLevel)
	fail := func(err error) (arrow.ArrayData, error) {
		if valid != nil {
			valid.Release()
		}
		return nil, err
	}
	if n-nulls != l.nvals {
		return fail(fmt.Errorf("%w: column %d: %d values for %d non-null slots", ErrCorrupt, l.col, l.nvals, n-nulls))
	}
	var bufs []*memory.Buffer
	switch dt.ID() {
	case arrow.BOOL:
		bufs = []*memory.Buffer{valid, b.bools(l.bools[:l.nvals], valid, n)}
	case arrow.STRING, arrow.BINARY, arrow.LARGE_STRING, arrow.LARGE_BINARY:
		if l.phys != format.ByteArray {
			return fail(fmt.Errorf("%w: %s from %s", ErrUnsupported, dt, l.phys))
		}
		bufs = []*memory.Buffer{valid, b.offsets(l, valid, n), l.data.take(b.mem)}
	default:
		vals, err := b.fixedValues(l, dt)
		if err != nil {
			return fail(err)
		}
		if valid != nil {
			// The dense values move to their slots in place, from the
			// last: the buffer was sized for the batch's levels.
			w := dt.(arrow.FixedWidthDataType).BitWidth() / 8
			vals.Reserve(n * w)
			vals.Resize(n * w)
			spreadBack(vals.Bytes(), w, valid.Bytes(), l.nvals, n)
		}
		bufs = []*memory.Buffer{valid, vals}
	}
	out := array.NewData(dt, n, bufs, nil, nulls, 0)
	for _, x := range bufs {
		if x != nil {
			x.Release()
		}
	}
	return out, nil
}

// bools packs the dense booleans into a bitmap of n slots, skipping the
// null ones.
func (b *builder) bools(dense []bool, valid *memory.Buffer, n int) *memory.Buffer {
	buf := memory.NewResizableBuffer(b.mem)
	buf.Resize(int(bitutil.BytesForBits(int64(n))))
	bm := buf.Bytes()
	clear(bm)
	if valid == nil {
		unsafecast.PackBits(bm, dense)
		return buf
	}
	vb := valid.Bytes()
	v := 0
	for k := 0; k < n; k++ {
		if bitutil.BitIsSet(vb, k) {
			if dense[v] {
				bitutil.SetBit(bm, k)
			}
			v++
		}
	}
	return buf
}

// offsets returns the offsets of n slots: the dense offsets as they are,
// or spread with a null slot repeating the offset before it.
func (b *builder) offsets(l *leaf, valid *memory.Buffer, n int) *memory.Buffer {
	if l.offs.n == 0 {
		w := 4
		if l.large {
			w = 8
		}
		l.offs.grow(b.mem, w)
		clear(l.offs.b.Buf()[:w])
		l.offs.n = w
	}
	dense := l.offs.take(b.mem)
	if valid == nil {
		return dense
	}
	defer dense.Release()
	vb := valid.Bytes()
	out := memory.NewResizableBuffer(b.mem)
	if l.large {
		out.Resize((n + 1) * 8)
		src, dst := arrow.Int64Traits.CastFromBytes(dense.Bytes()), arrow.Int64Traits.CastFromBytes(out.Bytes())
		v := 0
		dst[0] = src[0]
		for k := 0; k < n; k++ {
			if bitutil.BitIsSet(vb, k) {
				v++
			}
			dst[k+1] = src[v]
		}
		return out
	}
	out.Resize((n + 1) * 4)
	src, dst := arrow.Int32Traits.CastFromBytes(dense.Bytes()), arrow.Int32Traits.CastFromBytes(out.Bytes())
	v := 0
	dst[0] = src[0]
	for k := 0; k < n; k++ {
		if bitutil.BitIsSet(vb, k) {
			v++
		}
		dst[k+1] = src[v]
	}
	return out
}

// spreadBack moves the nv dense values at the start of buf (n values of w
// bytes) to the valid slots of vb, from the last, in place. Null slots hold
// a copy of a value or zeros: none keeps the bytes past the nv values,
// which the buffer's allocator may not have initialized.
func spreadBack(buf []byte, w int, vb []byte, nv, n int) {
	switch w {
	case 1:
		spreadBackT(buf[:n], vb, nv)
	case 2:
		spreadBackT(arrow.Uint16Traits.CastFromBytes(buf[:2*n]), vb, nv)
	case 4:
		spreadBackT(arrow.Uint32Traits.CastFromBytes(buf[:4*n]), vb, nv)
	case 8:
		spreadBackT(arrow.Uint64Traits.CastFromBytes(buf[:8*n]), vb, nv)
	default:
		v := nv - 1
		k := n - 1
		for ; v >= 0 && v < k; k-- {
			if bitutil.BitIsSet(vb, k) {
				copy(buf[k*w:(k+1)*w], buf[v*w:(v+1)*w])
				v--
			} else {
				clear(buf[k*w : (k+1)*w])
			}
		}
		if v < 0 && k >= nv {
			clear(buf[nv*w : (k+1)*w])
		}
	}
}

func spreadBackT[T uint8 | uint16 | uint32 | uint64](buf []T, vb []byte, nv int) {
	v := nv - 1
	k := len(buf) - 1
	for ; v >= 0 && v < k; k-- {
		// Write unconditionally, without a branch: a null slot gets a
		// copy of the value below it, which Arrow ignores.
		buf[k] = buf[v]
		v -= b2i(vb[k>>3]>>(k&7)&1 != 0)
	}
	if v < 0 && k >= nv {
		// The leading null slots past the dense values were never
		// written.
		clear(buf[nv : k+1])
	}
}

// fixedValues returns the batch's dense values converted to the
// fixed-width type dt: the batch's own buffer where the layouts agree.
func (b *builder) fixedValues(l *leaf, dt arrow.DataType) (*memory.Buffer, error) {
	nv := l.nvals
	unsupported := func() (*memory.Buffer, error) {
		return nil, fmt.Errorf("%w: %s from %s", ErrUnsupported, dt, l.phys)
	}
	newBuf := func(w int) (*memory.Buffer, []byte) {
		out := memory.NewResizableBuffer(b.mem)
		out.Resize(nv * w)
		return out, out.Bytes()
	}
	src := l.fixed
	raw := []byte(nil)
	if src.b != nil {
		raw = src.b.Buf()[:src.n]
	}
	switch dt.ID() {
	case arrow.INT32, arrow.UINT32, arrow.DATE32, arrow.TIME32:
		if l.phys != format.Int32 {
			return unsupported()
		}
		return l.fixed.take(b.mem), nil
	case arrow.INT64, arrow.UINT64, arrow.TIME64, arrow.DURATION:
		if l.phys != format.Int64 {
			return unsupported()
		}
		return l.fixed.take(b.mem), nil
	case arrow.FLOAT32:
		if l.phys != format.Float {
			return unsupported()
		}
		return l.fixed.take(b.mem), nil
	case arrow.FLOAT64:
		if l.phys != format.Double {
			return unsupported()
		}
		return l.fixed.take(b.mem), nil
	case arrow.FLOAT16, arrow.FIXED_SIZE_BINARY:
		if l.phys != format.FixedLenByteArray || l.typeLen != dt.(arrow.FixedWidthDataType).BitWidth()/8 {
			return unsupported()
		}
		return l.fixed.take(b.mem), nil
	case arrow.INT8, arrow.UINT8, arrow.INT16, arrow.UINT16:
		if l.phys != format.Int32 {
			return unsupported()
		}
		in := arrow.Int32Traits.CastFromBytes(raw)
		if dt.ID() == arrow.INT8 || dt.ID() == arrow.UINT8 {
			out, dst := newBuf(1)
			for i, x := range in {
				dst[i] = byte(x)
			}
			return out, nil
		}
		out, dst := newBuf(2)
		d16 := arrow.Uint16Traits.CastFromBytes(dst)
		for i, x := range in {
			d16[i] = uint16(x)
		}
		return out, nil
	case arrow.DATE64:
		if l.phys != format.Int32 {
			return unsupported()
		}
		in := arrow.Int32Traits.CastFromBytes(raw)
		out, dst := newBuf(8)
		d := arrow.Int64Traits.CastFromBytes(dst)
		for i, x := range in {
			d[i] = int64(x) * 86_400_000
		}
		return out, nil
	case arrow.TIMESTAMP:
		switch l.phys {
		case format.Int64:
			return l.fixed.take(b.mem), nil
		case format.Int96:
			out, dst := newBuf(8)
			d := arrow.Int64Traits.CastFromBytes(dst)
			unit := dt.(*arrow.TimestampType).Unit
			for i := range d {
				x := raw[12*i : 12*i+12]
				nanos := int64(binary.LittleEndian.Uint64(x[:8]))
				days := int64(binary.LittleEndian.Uint32(x[8:]))
				ns := (days-2_440_588)*86_400_000_000_000 + nanos
				switch unit {
				case arrow.Second:
					ns /= 1e9
				case arrow.Millisecond:
					ns /= 1e6
				case arrow.Microsecond:
					ns /= 1e3
				}
				d[i] = ns
			}
			return out, nil
		}
		return unsupported()
	case arrow.DECIMAL128, arrow.DECIMAL256:
		w := 16
		if dt.ID() == arrow.DECIMAL256 {
			w = 32
		}
		out, dst := newBuf(w)
		switch l.phys {
		case format.Int32:
			for i, x := range arrow.Int32Traits.CastFromBytes(raw) {
				signExtend(dst[i*w:(i+1)*w], int64(x))
			}
		case format.Int64:
			for i, x := range arrow.Int64Traits.CastFromBytes(raw) {
				signExtend(dst[i*w:(i+1)*w], x)
			}
		case format.FixedLenByteArray:
			tl := l.typeLen
			for i := 0; i < nv; i++ {
				if err := bigEndianDecimal(dst[i*w:(i+1)*w], raw[i*tl:(i+1)*tl]); err != nil {
					out.Release()
					return nil, fmt.Errorf("column %d: %w", l.col, err)
				}
			}
		case format.ByteArray:
			data := []byte(nil)
			if l.data.b != nil {
				data = l.data.b.Buf()[:l.data.n]
			}
			offs := l.offs
			var o32 []int32
			var o64 []int64
			if offs.b != nil {
				if l.large {
					o64 = arrow.Int64Traits.CastFromBytes(offs.b.Buf()[:offs.n])
				} else {
					o32 = arrow.Int32Traits.CastFromBytes(offs.b.Buf()[:offs.n])
				}
			}
			for i := 0; i < nv; i++ {
				var lo, hi int64
				if l.large {
					lo, hi = o64[i], o64[i+1]
				} else {
					lo, hi = int64(o32[i]), int64(o32[i+1])
				}
				if err := bigEndianDecimal(dst[i*w:(i+1)*w], data[lo:hi]); err != nil {
					out.Release()
					return nil, fmt.Errorf("column %d: %w", l.col, err)
				}
			}
		default:
			out.Release()
			return unsupported()
		}
		return out, nil
	}
	return unsupported()
}

// signExtend writes x as a little-endian two's complement integer filling
// dst.
func signExtend(dst []byte, x int64) {
	binary.LittleEndian.PutUint64(dst, uint64(x))
	fill := byte(0)
	if x < 0 {
		fill = 0xff
	}
	for i := 8; i < len(dst); i++ {
		dst[i] = fill
	}
}

// bigEndianDecimal writes the big-endian two's complement integer src as a
// little-endian one filling dst. An empty src is zero, as in pqarrow.
func bigEndianDecimal(dst, src []byte) error {
	if n := len(src); len(dst) == 16 && n > 0 && n <= 16 {
		// Decimal128 of at most 16 bytes: two big-endian words, the
		// high one sign-extended from the bytes it has.
		var b [16]byte
		copy(b[16-n:], src)
		lo := binary.BigEndian.Uint64(b[8:])
		var hi int64
		if n <= 8 {
			shift := 64 - 8*n
			l := int64(lo) << shift >> shift
			lo, hi = uint64(l), l>>63
		} else {
			shift := 128 - 8*n
			hi = int64(binary.BigEndian.Uint64(b[:8])) << shift >> shift
		}
		binary.LittleEndian.PutUint64(dst, lo)
		binary.LittleEndian.PutUint64(dst[8:], uint64(hi))
		return nil
	}
	return bigEndianDecimalBytes(dst, src)
}

// bigEndianDecimalBytes is bigEndianDecimal byte by byte, for any widths.
func bigEndianDecimalBytes(dst, src []byte) error {
	fill := byte(0)
	if len(src) > 0 && src[0]&0x80 != 0 {
		fill = 0xff
	}
	// Leading sign bytes beyond dst's width are dropped; other bytes there
	// do not fit.
	for len(src) > len(dst) {
		if src[0] != fill {
			return fmt.Errorf("%w: decimal of %d bytes does not fit %d", ErrCorrupt, len(src), len(dst))
		}
		src = src[1:]
	}
	n := len(src)
	for i := 0; i < n; i++ {
		dst[i] = src[n-1-i]
	}
	for i := n; i < len(dst); i++ {
		dst[i] = fill
	}
	return nil
}
