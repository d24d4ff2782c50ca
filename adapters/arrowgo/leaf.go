package arrowgo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/enctable"
	"github.com/pqcodec/pqcodec/internal/levelscan"
)

// buffer is a growing Arrow buffer from the reader's allocator: n bytes of
// it are used.
type buffer struct {
	b *memory.Buffer
	n int
}

// grow makes room for extra more bytes.
func (g *buffer) grow(mem memory.Allocator, extra int) []byte {
	return g.growHint(mem, extra, 0)
}

// growHint makes room for extra more bytes, growing to hint bytes when it
// must grow and hint is enough, else to twice the size.
func (g *buffer) growHint(mem memory.Allocator, extra, hint int) []byte {
	if g.b == nil {
		g.b = memory.NewResizableBuffer(mem)
	}
	if need := g.n + extra; need > len(g.b.Buf()) {
		c := max(2*len(g.b.Buf()), need)
		if hint >= need {
			c = hint
		}
		g.b.Reserve(c)
	}
	return g.b.Buf()[g.n : g.n+extra]
}

func (g *buffer) append(mem memory.Allocator, p []byte) {
	copy(g.grow(mem, len(p)), p)
	g.n += len(p)
}

// take hands the used bytes over as an Arrow buffer (the caller owns it)
// and empties g.
func (g *buffer) take(mem memory.Allocator) *memory.Buffer {
	if g.b == nil {
		g.grow(mem, 0)
	}
	b := g.b
	b.Resize(g.n)
	g.b, g.n = nil, 0
	return b
}

func (g *buffer) release() {
	if g.b != nil {
		g.b.Release()
		g.b, g.n = nil, 0
	}
}

// leaf reads one leaf column over a list of row groups, batch by batch: the
// levels of the batch's rows and their non-null values, dense, in Arrow
// buffers of the physical type's width (byte arrays as data plus offsets).
type leaf struct {
	f         *column.File
	mem       memory.Allocator
	col       int
	field     *pqarrow.SchemaField
	node      *format.Node
	phys      format.Type
	typeLen   int
	large     bool // byte array offsets are int64 (large string/binary)
	maxDef    int16
	maxRep    int16
	rowGroups []int

	// totalLevels and totalRows are the levels and rows of the chunks
	// read, from their metadata: they size a batch's buffers.
	totalLevels, totalRows int64
	expect                 int // levels expected in the batch

	rgi    int // index in rowGroups of the chunk being read; len(rowGroups) when done
	pool   *readerPool
	rd     *column.Reader
	page   *column.Page
	pos    int // next level of page
	vpos   int // next value of page
	inPage bool
	// scratch takes the values of types whose Arrow layout is not a
	// Values' (INT96, large byte arrays) before they are copied.
	scratch column.Values

	// The batch.
	def, rep []int16
	n        int // levels
	nvals    int // non-null values
	fixed    buffer
	bools    []bool
	data     buffer
	offs     buffer // nvals+1 offsets, int32 or int64 by large
	dataLen  int64
}

// maxReserve is the most values a leaf reserves room for before reading
// them.
const maxReserve = 1 << 22

// readerPool keeps column readers and pages between the leaves that use
// them: a leaf takes a reader and a page when it starts and gives them back
// when its last chunk ends, so reading a file column after column, and file
// after file, warms one reader and one page (their decompression and
// dictionary buffers) instead of growing new ones per column. A reader is
// pointed at the leaf's file and chunk by column.File.ResetReader, which
// keeps only its buffers.
type readerPool struct {
	readers sync.Pool // *column.Reader
}

// sharedReaders is the readerPool of every FileReader.
var sharedReaders readerPool

var (
	pagePool  = sync.Pool{New: func() any { return new(column.Page) }}
	levelPool sync.Pool // *[]int16
)

// getLevels returns an empty level buffer of capacity n or more.
func getLevels(n int) []int16 {
	if p, ok := levelPool.Get().(*[]int16); ok && cap(*p) >= n {
		return (*p)[:0]
	}
	return makeInt16s(n)[:0]
}

func putLevels(b []int16) {
	if cap(b) > 0 {
		levelPool.Put(&b)
	}
}

func newLeaf(f *column.File, mem memory.Allocator, pool *readerPool, sf *pqarrow.SchemaField, rowGroups []int) *leaf {
	node := f.Schema().Leaves()[sf.ColIndex]
	l := &leaf{
		f: f, mem: mem, pool: pool, col: sf.ColIndex, field: sf, node: node, phys: *node.Element.Type,
		maxDef: int16(node.MaxDefinitionLevel), maxRep: int16(node.MaxRepetitionLevel), rowGroups: rowGroups,
	}
	if node.Element.TypeLength != nil {
		l.typeLen = int(*node.Element.TypeLength)
	}
	for _, g := range rowGroups {
		rg := &f.MetaData().RowGroups[g]
		l.totalRows += rg.NumRows
		if c := sf.ColIndex; c < len(rg.Columns) && rg.Columns[c].MetaData != nil {
			l.totalLevels += rg.Columns[c].MetaData.NumValues
		}
	}
	switch valueType(sf.Field.Type).ID() {
	case arrow.LARGE_STRING, arrow.LARGE_BINARY:
		l.large = true
	}
	return l
}

// valueType is the type a leaf's values are built in: the value type of a
// dictionary, the storage type of an extension.
func valueType(t arrow.DataType) arrow.DataType {
	for {
		switch tt := t.(type) {
		case *arrow.DictionaryType:
			t = tt.ValueType
		case arrow.ExtensionType:
			t = tt.StorageType()
		default:
			return t
		}
	}
}

// nextPage loads the next data page, moving to the next row group's chunk
// at the end of one. It returns io.EOF after the last chunk.
func (l *leaf) nextPage(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	for l.rgi < len(l.rowGroups) {
		if l.rd == nil {
			if err := l.acquire(); err != nil {
				return err
			}
		}
		// PLAIN values stay encoded until appendValues decodes them
		// straight into the batch's Arrow buffers.
		err := l.rd.ReadPageDeferred(l.page)
		if err == nil {
			l.pos, l.vpos, l.inPage = 0, 0, true
			return nil
		}
		if !errors.Is(err, io.EOF) {
			return err
		}
		l.rgi++
		if l.rgi < len(l.rowGroups) {
			if err := l.f.ResetReader(l.rd, l.rowGroups[l.rgi], l.col); err != nil {
				return err
			}
		}
	}
	l.giveBack()
	return io.EOF
}

// acquire takes a reader, pointed at the leaf's current chunk, and a page.
func (l *leaf) acquire() error {
	if rd, ok := l.pool.readers.Get().(*column.Reader); ok {
		if err := l.f.ResetReader(rd, l.rowGroups[l.rgi], l.col); err != nil {
			return err
		}
		l.rd = rd
	} else {
		rd, err := l.f.Column(l.rowGroups[l.rgi], l.col)
		if err != nil {
			return err
		}
		l.rd = rd
	}
	l.page = pagePool.Get().(*column.Page)
	return nil
}

// giveBack returns the leaf's reader and page to the pools.
func (l *leaf) giveBack() {
	if l.rd != nil {
		l.pool.readers.Put(l.rd)
		l.rd = nil
	}
	if l.page != nil {
		pagePool.Put(l.page)
		l.page = nil
	}
	l.inPage = false
}

// readRows reads the next rows of the leaf, at most want, into the batch,
// and returns how many it read (fewer only at the end of the last chunk).
// batch is the rows of the whole batch, which sizes its buffers when the
// batch is empty.
func (l *leaf) readRows(ctx context.Context, want, batch int) (int, error) {
	got := 0
	if l.n == 0 {
		// The metadata's row and value counts size the buffers up front,
		// capped at maxReserve values (4 Mi: 32 MiB of int64): past it, buffers grow with the
		// values actually read, so a footer claiming more rows than the
		// file holds cannot make the reader allocate for them.
		l.expect = batch
		if l.maxRep > 0 && l.totalRows > 0 {
			l.expect = int(min(l.totalLevels*int64(batch)/l.totalRows+16, 4*int64(batch)+1<<16))
		}
		l.expect = min(l.expect, maxReserve)
		if l.field.Field.Type.ID() != arrow.NULL {
			l.reserve(l.expect)
		}
		if l.maxDef > 0 && cap(l.def) < l.expect {
			l.def = getLevels(l.expect)
		}
		if l.maxRep > 0 && cap(l.rep) < l.expect {
			l.rep = getLevels(l.expect)
		}
	}
	for {
		if !l.inPage {
			if l.maxRep == 0 && got == want {
				return got, nil
			}
			if err := l.nextPage(ctx); err != nil {
				if errors.Is(err, io.EOF) {
					return got, nil
				}
				return got, err
			}
		}
		p := l.page
		avail := p.NumLevels - l.pos
		take := 0
		if l.maxRep == 0 {
			take = min(avail, want-got)
			got += take
		} else {
			rep := p.RepLevels[l.pos:p.NumLevels]
			i := 0
			for ; i < len(rep); i++ {
				if rep[i] == 0 {
					if got == want {
						break
					}
					got++
				}
			}
			take = i
		}
		if err := l.appendLevels(take); err != nil {
			return got, err
		}
		if l.pos == p.NumLevels {
			l.inPage = false
			continue
		}
		return got, nil // the batch ends inside the page
	}
}

// seek moves the leaf to row row of row group l.rowGroups[gi], gi at or
// after the current one, when it is not there already: at the row group's
// chunk, through column.Reader.SeekRow (the offset index's page when the
// chunk has one, else pages skipped by their headers). at is where the leaf
// stands: row group index and row within it, the row group's end standing
// for the start of the next.
func (l *leaf) seek(ctx context.Context, gi int, row int64, atGi int, atRow int64) error {
	if atGi == gi && atRow == row {
		return nil
	}
	if row == 0 && atGi+1 == gi && atRow == l.f.MetaData().RowGroups[l.rowGroups[atGi]].NumRows {
		return nil
	}
	l.inPage = false
	changed := gi != l.rgi
	if changed {
		l.rgi = gi
		if gi >= len(l.rowGroups) {
			l.giveBack()
			return nil
		}
		if l.rd != nil {
			if err := l.f.ResetReader(l.rd, l.rowGroups[gi], l.col); err != nil {
				return err
			}
		}
	}
	if row == 0 && (changed || l.rd == nil) {
		return nil // at the chunk's start
	}
	if l.rd == nil {
		if err := l.acquire(); err != nil {
			return err
		}
	}
	return l.rd.SeekRowContext(ctx, row)
}

// appendLevels moves take levels of the page, and their values, into the
// batch.
func (l *leaf) appendLevels(take int) error {
	p := l.page
	from, to := l.pos, l.pos+take
	nv := take
	if l.maxDef > 0 {
		def := p.DefLevels[from:to]
		nv = levelscan.CountEqual(def, l.maxDef)
		l.def = append(l.def, def...)
	}
	if l.maxRep > 0 {
		l.rep = append(l.rep, p.RepLevels[from:to]...)
	}
	if l.vpos+nv > p.NumValues() {
		return fmt.Errorf("%w: column %d: page holds %d values, its levels need %d", ErrCorrupt, l.col, p.NumValues(), l.vpos+nv)
	}
	if nv > 0 && l.field.Field.Type.ID() != arrow.NULL {
		if err := l.appendValues(nv); err != nil {
			return err
		}
	}
	l.pos, l.vpos = to, l.vpos+nv
	l.n += take
	l.nvals += nv
	return nil
}

// reserve sizes the batch's buffers for n more values, when the leaf is
// not repeated and n is known.
func (l *leaf) reserve(n int) {
	switch l.phys {
	case format.Boolean:
		if cap(l.bools)-len(l.bools) < n {
			l.bools = append(make([]bool, 0, len(l.bools)+n), l.bools...)
		}
	case format.ByteArray:
		w := 4
		if l.large {
			w = 8
		}
		l.offs.grow(l.mem, (n+1)*w)
	default:
		l.fixed.grow(l.mem, n*enctable.ElemSize(l.phys, l.typeLen))
	}
}

// appendValues appends the page's next nv values to the batch, decoded by
// column.Reader.AppendValues straight into the Arrow buffers (seen as the
// slices of a column.Values, with room for the values made first) when the
// page's values are still encoded, copied once from the page's decoded
// values otherwise. Any allocator works: only when a buffer turns out too
// small for the byte arrays do they land in Go memory, and are then copied
// into the grown Arrow buffer.
func (l *leaf) appendValues(nv int) error {
	p := l.page
	dst := column.Values{Type: l.phys, TypeLength: p.Values.TypeLength}
	switch l.phys {
	case format.Boolean:
		dst.Booleans = l.bools
		err := l.rd.AppendValues(p, &dst, nv)
		l.bools = dst.Booleans
		return err
	case format.Int32, format.Int64, format.Float, format.Double, format.FixedLenByteArray:
		w := enctable.ElemSize(l.phys, l.typeLen)
		l.fixed.grow(l.mem, nv*w)
		full := l.fixed.b.Buf()
		switch l.phys {
		case format.Int32:
			dst.Int32s = arrow.Int32Traits.CastFromBytes(full)[:l.fixed.n/4]
		case format.Int64:
			dst.Int64s = arrow.Int64Traits.CastFromBytes(full)[:l.fixed.n/8]
		case format.Float:
			dst.Floats = arrow.Float32Traits.CastFromBytes(full)[:l.fixed.n/4]
		case format.Double:
			dst.Doubles = arrow.Float64Traits.CastFromBytes(full)[:l.fixed.n/8]
		default:
			dst.Bytes = full[:l.fixed.n]
		}
		if err := l.rd.AppendValues(p, &dst, nv); err != nil {
			return err
		}
		// The room was made: the values are in the buffer.
		l.fixed.n += nv * w
		return nil
	case format.Int96:
		l.scratch.Reset(l.phys, 0)
		if err := l.rd.AppendValues(p, &l.scratch, nv); err != nil {
			return err
		}
		for _, x := range l.scratch.Int96s {
			l.fixed.append(l.mem, x[:])
		}
		return nil
	}
	return l.appendByteArrays(nv)
}

// appendByteArrays appends the page's next nv byte arrays to the batch's
// data and offsets.
func (l *leaf) appendByteArrays(nv int) error {
	p := l.page
	// The bytes of the nv values: exactly, for decoded values; from the
	// encoded bytes left (4 per value and the values' bytes), for encoded
	// ones, in proportion when nv is not all of them.
	var size int
	if raw := p.DeferredBytes(); raw > 0 {
		left := p.ValuesLeft()
		size = max(raw-4*left, 0)
		if nv < left {
			size = int(int64(size) * int64(nv) / int64(left) * 17 / 16)
		}
	} else {
		size = int(p.Values.Offsets[l.vpos+nv] - p.Values.Offsets[l.vpos])
	}
	// The data buffer grows to the batch's expected size at the average
	// length so far (exactly to what it holds at the last values of a
	// batch of a leaf that is not repeated), not by doubling.
	hint := 0
	if seen := l.nvals + nv; seen > 0 {
		have := l.dataLen + int64(size)
		switch {
		case l.expect > seen:
			// Past 64 MiB, at most four times the bytes read so far: a
			// claimed row count never sizes a large buffer by itself.
			hint = int(min(have*int64(l.expect)/int64(seen)*21/20, max(4*have, 64<<20)))
		case l.maxRep == 0:
			hint = int(have)
		}
	}
	if l.large {
		return l.appendLargeByteArrays(nv, size, hint)
	}
	l.data.growHint(l.mem, size, hint)
	l.offs.grow(l.mem, 4*(nv+1))
	data, offs := l.data.b.Buf(), arrow.Int32Traits.CastFromBytes(l.offs.b.Buf())
	dst := column.Values{Type: format.ByteArray, Bytes: data[:l.data.n], Offsets: offs[:l.offs.n/4]}
	if err := l.rd.AppendValues(p, &dst, nv); err != nil {
		if errors.Is(err, column.ErrLimit) {
			return fmt.Errorf("%w: column %d: more than 2 GiB of byte arrays in one batch (use a smaller batch or large types): %w", ErrUnsupported, l.col, err)
		}
		return err
	}
	if len(dst.Bytes) > 0 && (len(data) == 0 || &dst.Bytes[0] != &data[0]) {
		// The values outgrew the buffer: copy them into the grown one.
		added := dst.Bytes[l.data.n:]
		copy(l.data.growHint(l.mem, len(added), max(hint, len(dst.Bytes))), added)
	}
	l.data.n = len(dst.Bytes)
	l.offs.n = 4 * len(dst.Offsets)
	l.dataLen = int64(l.data.n)
	return nil
}

// appendLargeByteArrays appends the page's next nv byte arrays to the
// batch's data and int64 offsets, through the scratch Values, whose int32
// offsets cannot be Arrow's.
func (l *leaf) appendLargeByteArrays(nv, size, hint int) error {
	l.scratch.Reset(format.ByteArray, 0)
	if err := l.rd.AppendValues(l.page, &l.scratch, nv); err != nil {
		return err
	}
	v := &l.scratch
	copy(l.data.growHint(l.mem, len(v.Bytes), hint), v.Bytes)
	l.data.n += len(v.Bytes)
	if l.offs.n == 0 {
		arrow.Int64Traits.CastFromBytes(l.offs.grow(l.mem, 8))[0] = 0
		l.offs.n = 8
	}
	dst := arrow.Int64Traits.CastFromBytes(l.offs.grow(l.mem, 8*nv))
	base := l.dataLen
	for i, o := range v.Offsets[1 : nv+1] {
		dst[i] = int64(o) + base
	}
	l.offs.n += 8 * nv
	l.dataLen += int64(len(v.Bytes))
	return nil
}

// resetBatch empties the batch, releasing buffers not handed to arrays.
func (l *leaf) resetBatch() {
	l.def, l.rep, l.bools = l.def[:0], l.rep[:0], l.bools[:0]
	if l.rgi >= len(l.rowGroups) {
		// The leaf is done: its level buffers serve the next leaf.
		putLevels(l.def)
		putLevels(l.rep)
		l.def, l.rep = nil, nil
	}
	l.n, l.nvals, l.dataLen = 0, 0, 0
	l.fixed.release()
	l.data.release()
	l.offs.release()
}

func (l *leaf) close() {
	l.resetBatch()
	l.giveBack()
}
