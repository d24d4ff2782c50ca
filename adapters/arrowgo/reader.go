package arrowgo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	pqcodec "github.com/pqcodec/pqcodec"
	"github.com/pqcodec/pqcodec/column"
)

// Errors of the reader. Damaged files also match pqcodec.ErrCorrupt, and
// errors of the column reader are wrapped as they are.
var (
	// ErrCorrupt reports levels and values that contradict each other.
	ErrCorrupt = fmt.Errorf("arrowgo: corrupt column: %w", pqcodec.ErrCorrupt)
	// ErrUnsupported reports a schema or a type conversion the reader
	// cannot make (one pqarrow cannot make either).
	ErrUnsupported = errors.New("arrowgo: unsupported")
	// ErrArgument reports a column or row group index out of range.
	ErrArgument = errors.New("arrowgo: invalid argument")
)

// ReaderOption configures a [FileReader].
type ReaderOption func(*readerOptions) error

type readerOptions struct {
	mem   memory.Allocator
	props pqarrow.ArrowReadProperties
	col   []column.Option
}

// WithAllocator sets the allocator of every Arrow buffer the reader
// returns. The default is memory.DefaultAllocator.
func WithAllocator(mem memory.Allocator) ReaderOption {
	return func(o *readerOptions) error {
		if mem == nil {
			return fmt.Errorf("%w: nil allocator", ErrArgument)
		}
		o.mem = mem
		return nil
	}
}

// WithReadProperties sets pqarrow's read properties: BatchSize (the rows of
// each record of [FileReader.GetRecordReader]; 0, the default, reads every
// selected row in one record, as pqarrow does), and the columns read as
// dictionaries or as large types (SetReadDict, SetForceLarge), which shape
// the schema as they shape pqarrow's. Parallel is ignored: the reader
// decodes on the calling goroutine.
func WithReadProperties(p pqarrow.ArrowReadProperties) ReaderOption {
	return func(o *readerOptions) error {
		if p.BatchSize < 0 {
			return fmt.Errorf("%w: negative batch size %d", ErrArgument, p.BatchSize)
		}
		o.props = p
		return nil
	}
}

// WithBatchSize sets the rows of each record of
// [FileReader.GetRecordReader]; see [WithReadProperties].
func WithBatchSize(n int64) ReaderOption {
	return func(o *readerOptions) error {
		if n < 0 {
			return fmt.Errorf("%w: negative batch size %d", ErrArgument, n)
		}
		o.props.BatchSize = n
		return nil
	}
}

// WithColumnOptions passes options to the column.File that [Open] opens
// (codecs, limits, checksums). It has no effect on [NewFileReader].
func WithColumnOptions(opts ...column.Option) ReaderOption {
	return func(o *readerOptions) error {
		o.col = append(o.col, opts...)
		return nil
	}
}

// FileReader reads a Parquet file into arrow-go arrays through pqcodec's
// column reader: a drop-in for pqarrow.FileReader's reading methods. The
// Arrow schema is the one pqarrow derives (see [FileReader.Schema]).
//
// A FileReader is safe for concurrent use: every method opens its own
// column readers. The arrays it returns are allocated from the allocator of
// [WithAllocator] and must be released by the caller.
type FileReader struct {
	f        *column.File
	mem      memory.Allocator
	bufMem   memory.Allocator // the reader's own buffers: see bufferAllocator
	props    pqarrow.ArrowReadProperties
	manifest *pqarrow.SchemaManifest
	schema   *arrow.Schema
}

// Open opens the size-byte Parquet file r and returns a FileReader on it.
func Open(r io.ReaderAt, size int64, opts ...ReaderOption) (*FileReader, error) {
	var o readerOptions
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return nil, err
		}
	}
	f, err := column.Open(r, size, o.col...)
	if err != nil {
		return nil, err
	}
	return NewFileReader(f, opts...)
}

// NewFileReader returns a FileReader on the open file f.
func NewFileReader(f *column.File, opts ...ReaderOption) (*FileReader, error) {
	o := readerOptions{mem: memory.DefaultAllocator}
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return nil, err
		}
	}
	m, err := manifest(f.MetaData(), f.Schema(), &o.props)
	if err != nil {
		return nil, err
	}
	fields := make([]arrow.Field, len(m.Fields))
	for i := range m.Fields {
		fields[i] = *m.Fields[i].Field
	}
	var sc *arrow.Schema
	if m.OriginSchema != nil {
		meta := m.OriginSchema.Metadata()
		sc = arrow.NewSchema(fields, &meta)
	} else {
		sc = arrow.NewSchema(fields, m.SchemaMeta)
	}
	return &FileReader{f: f, mem: o.mem, bufMem: bufferAllocator(o.mem), props: o.props, manifest: m, schema: sc}, nil
}

// Schema returns the Arrow schema of the file, as pqarrow.FromParquet
// derives it, the stored ARROW:schema included.
func (r *FileReader) Schema() *arrow.Schema { return r.schema }

// Manifest returns pqarrow's mapping of the file's leaf columns to Arrow
// fields. It must not be modified.
func (r *FileReader) Manifest() *pqarrow.SchemaManifest { return r.manifest }

// File returns the column.File read.
func (r *FileReader) File() *column.File { return r.f }

// NumRows returns the number of rows of the file.
func (r *FileReader) NumRows() int64 { return r.f.MetaData().NumRows }

// fieldsOf returns the top-level fields holding the leaf columns cols (nil
// means every field), in schema order, as pqarrow's GetFieldReaders
// selects them. Every leaf of a selected field is read.
func (r *FileReader) fieldsOf(cols []int) ([]int, error) {
	if cols == nil {
		out := make([]int, len(r.manifest.Fields))
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	n := r.f.NumColumns()
	for _, c := range cols {
		if c < 0 || c >= n {
			return nil, fmt.Errorf("%w: column %d of %d", ErrArgument, c, n)
		}
	}
	out, err := r.manifest.GetFieldIndices(cols)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrArgument, err)
	}
	return out, nil
}

func (r *FileReader) checkRowGroups(rgs []int) ([]int, error) {
	n := r.f.NumRowGroups()
	if rgs == nil {
		rgs = make([]int, n)
		for i := range rgs {
			rgs[i] = i
		}
		return rgs, nil
	}
	for _, g := range rgs {
		if g < 0 || g >= n {
			return nil, fmt.Errorf("%w: row group %d of %d", ErrArgument, g, n)
		}
	}
	return rgs, nil
}

// GetRecordReader returns a reader of the records of the row groups
// rowGroups (nil: all) holding the top-level fields of the leaf columns
// colIndices (nil: all), as pqarrow's GetRecordReader: each record has the
// BatchSize rows of the read properties (the last fewer), or every row when
// BatchSize is 0; records span row groups. ctx is checked before every
// page; its error ends the reader (see Err).
func (r *FileReader) GetRecordReader(ctx context.Context, colIndices, rowGroups []int) (array.RecordReader, error) {
	return r.recordReader(ctx, colIndices, rowGroups, nil)
}

// GetRecordReaderRanges is [FileReader.GetRecordReader] reading only the
// rows of ranges: file rows [First, End), numbered from 0 across row groups
// in footer order, as column.File.MatchingFileRows returns them for a
// predicate on the page index and column.File.FirstRow counts them. The
// ranges must be in order and must not overlap; empty ones, and rows
// outside the row groups read, are ignored. A nil or empty ranges selects
// no row. Records hold BatchSize selected rows each (every selected row
// when it is 0). Rows between ranges are skipped with
// column.Reader.SeekRow: through the chunk's offset index when it has one
// (the pages before a range are not read), else by page headers.
func (r *FileReader) GetRecordReaderRanges(ctx context.Context, colIndices, rowGroups []int, ranges []column.RowRange) (array.RecordReader, error) {
	for i, rg := range ranges {
		if rg.First < 0 || rg.End < rg.First || i > 0 && rg.First < ranges[i-1].End {
			return nil, fmt.Errorf("%w: range %d [%d, %d) negative, reversed or overlapping the one before", ErrArgument, i, rg.First, rg.End)
		}
	}
	if ranges == nil {
		ranges = []column.RowRange{}
	}
	return r.recordReader(ctx, colIndices, rowGroups, ranges)
}

// segment is a range of rows [first, end) of row group rowGroups[gi] of a
// record reader.
type segment struct {
	gi         int
	first, end int64
}

// segments returns the rows of ranges in the row groups rgs, in reading
// order.
func (r *FileReader) segments(rgs []int, ranges []column.RowRange) []segment {
	out := []segment{}
	for gi, g := range rgs {
		base := r.f.FirstRow(g)
		n := max(r.f.MetaData().RowGroups[g].NumRows, 0)
		for _, rg := range ranges {
			lo, hi := max(rg.First-base, 0), min(rg.End-base, n)
			if lo < hi {
				out = append(out, segment{gi: gi, first: lo, end: hi})
			}
		}
	}
	return out
}

// recordReader returns the record reader of GetRecordReader (ranges nil)
// or GetRecordReaderRanges.
func (r *FileReader) recordReader(ctx context.Context, colIndices, rowGroups []int, ranges []column.RowRange) (*recordReader, error) {
	fields, err := r.fieldsOf(colIndices)
	if err != nil {
		return nil, err
	}
	rgs, err := r.checkRowGroups(rowGroups)
	if err != nil {
		return nil, err
	}
	var nrows int64
	var segs []segment
	if ranges != nil {
		segs = r.segments(rgs, ranges)
		for _, sg := range segs {
			nrows += sg.end - sg.first
		}
	} else {
		for _, g := range rgs {
			nrows += r.f.MetaData().RowGroups[g].NumRows
		}
	}
	batch := r.props.BatchSize
	if batch <= 0 || batch > nrows {
		batch = nrows
	}
	outFields := make([]arrow.Field, len(fields))
	rr := &recordReader{ctx: ctx, mem: r.mem, bufMem: r.bufMem, left: nrows, batch: batch, segs: segs}
	rr.refs.Store(1)
	var included map[int]bool
	if colIndices != nil {
		included = make(map[int]bool, len(colIndices))
		for _, c := range colIndices {
			included[c] = true
		}
	}
	for i, fi := range fields {
		sf := &r.manifest.Fields[fi]
		if included != nil {
			sf = prune(sf, included)
		}
		outFields[i] = *sf.Field
		var leaves []*leaf
		collectLeaves(sf, func(l *pqarrow.SchemaField) {
			leaves = append(leaves, newLeaf(r.f, r.bufMem, &sharedReaders, l, rgs))
		})
		rr.fields = append(rr.fields, fieldReader{sf: sf, leaves: leaves})
	}
	meta := r.schema.Metadata()
	rr.schema = arrow.NewSchema(outFields, &meta)
	return rr, nil
}

// prune returns sf without the struct members that hold none of the leaf
// columns included, as pqarrow's GetFieldReaders selects them (maps are
// kept whole), or nil when sf holds none. sf itself is returned when
// nothing is pruned. Unlike pqarrow, a list's type names only the members
// kept in its values (pqarrow's list type keeps the pruned members, which
// makes its arrays invalid).
func prune(sf *pqarrow.SchemaField, included map[int]bool) *pqarrow.SchemaField {
	if sf.IsLeaf() {
		if included[sf.ColIndex] {
			return sf
		}
		return nil
	}
	switch t := sf.Field.Type.(type) {
	case *arrow.StructType:
		var children []pqarrow.SchemaField
		var fields []arrow.Field
		changed := false
		for i := range sf.Children {
			c := prune(&sf.Children[i], included)
			if c != &sf.Children[i] {
				changed = true
			}
			if c != nil {
				children = append(children, *c)
				fields = append(fields, *c.Field)
			}
		}
		if len(children) == 0 {
			return nil
		}
		if !changed {
			return sf
		}
		f := *sf.Field
		f.Type = arrow.StructOf(fields...)
		out := *sf
		out.Field, out.Children = &f, children
		return &out
	case *arrow.MapType:
		// pqarrow reads every map of a selected field whole, selected or
		// not (its leaf filter is off below a map, and a map reader is
		// never empty): a member holding only a map is kept.
		return sf
	case *arrow.ListType, *arrow.LargeListType:
		c := prune(&sf.Children[0], included)
		if c == nil {
			return nil
		}
		if c == &sf.Children[0] {
			return sf
		}
		f := *sf.Field
		if _, large := t.(*arrow.LargeListType); large {
			f.Type = arrow.LargeListOfField(*c.Field)
		} else {
			f.Type = arrow.ListOfField(*c.Field)
		}
		out := *sf
		out.Field, out.Children = &f, []pqarrow.SchemaField{*c}
		return &out
	}
	// Extension and other nested types are read whole.
	return sf
}

func collectLeaves(sf *pqarrow.SchemaField, fn func(*pqarrow.SchemaField)) {
	if sf.IsLeaf() {
		fn(sf)
		return
	}
	for i := range sf.Children {
		collectLeaves(&sf.Children[i], fn)
	}
}

// ReadTable reads the whole file into a table with one chunk per column,
// as pqarrow's ReadTable.
func (r *FileReader) ReadTable(ctx context.Context) (arrow.Table, error) {
	return r.ReadRowGroups(ctx, nil, nil)
}

// ReadRowGroups reads the row groups rowGroups (nil: all) of the top-level
// fields of the leaf columns colIndices (nil: all) into a table.
func (r *FileReader) ReadRowGroups(ctx context.Context, colIndices, rowGroups []int) (arrow.Table, error) {
	rr, err := r.getReader(ctx, colIndices, rowGroups, -1)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	cols := make([]arrow.Column, len(rr.fields))
	var rec arrow.RecordBatch
	if rr.left > 0 {
		if !rr.Next() {
			if rr.err == nil {
				rr.err = io.ErrUnexpectedEOF
			}
			return nil, rr.err
		}
		rec = rr.RecordBatch()
	}
	for i := range cols {
		f := rr.schema.Field(i)
		var chunks []arrow.Array
		if rec != nil {
			chunks = []arrow.Array{rec.Column(i)}
		}
		ch := arrow.NewChunked(f.Type, chunks)
		cols[i] = *arrow.NewColumn(f, ch)
		ch.Release()
	}
	nrows := int64(0)
	if rec != nil {
		nrows = rec.NumRows()
	}
	tbl := array.NewTable(rr.schema, cols, nrows)
	for i := range cols {
		cols[i].Release()
	}
	return tbl, nil
}

// getReader is GetRecordReader with the batch size batch (-1: every row).
func (r *FileReader) getReader(ctx context.Context, colIndices, rowGroups []int, batch int64) (*recordReader, error) {
	out, err := r.recordReader(ctx, colIndices, rowGroups, nil)
	if err != nil {
		return nil, err
	}
	if batch < 0 {
		out.batch = out.left
	}
	return out, nil
}

// ReadColumn reads top-level field i of the row groups rowGroups (nil: all)
// into a chunked array with one chunk.
func (r *FileReader) ReadColumn(ctx context.Context, rowGroups []int, i int) (*arrow.Chunked, error) {
	if i < 0 || i >= len(r.manifest.Fields) {
		return nil, fmt.Errorf("%w: field %d of %d", ErrArgument, i, len(r.manifest.Fields))
	}
	var leafCols []int
	collectLeaves(&r.manifest.Fields[i], func(l *pqarrow.SchemaField) { leafCols = append(leafCols, l.ColIndex) })
	rr, err := r.getReader(ctx, leafCols, rowGroups, -1)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	var chunks []arrow.Array
	if rr.left > 0 {
		if !rr.Next() {
			if rr.err == nil {
				rr.err = io.ErrUnexpectedEOF
			}
			return nil, rr.err
		}
		chunks = []arrow.Array{rr.RecordBatch().Column(0)}
	}
	return arrow.NewChunked(r.manifest.Fields[i].Field.Type, chunks), nil
}

type fieldReader struct {
	sf     *pqarrow.SchemaField
	leaves []*leaf
}

// recordReader is the array.RecordReader of [FileReader.GetRecordReader].
type recordReader struct {
	ctx    context.Context
	mem    memory.Allocator // the user's, for arrow-go's builders
	bufMem memory.Allocator // the reader's buffers
	schema *arrow.Schema
	fields []fieldReader
	left   int64 // rows not read yet
	batch  int64
	cur    arrow.RecordBatch
	err    error
	refs   atomic.Int64
	slots  []slots
	b      builder // its scratch serves every batch

	// With row ranges: the segments of rows to read, the next one, the
	// rows of it read, and where the leaves stand (row group index and
	// row within it).
	segs   []segment
	si     int
	soff   int64
	atGi   int
	atRow  int64
	pieces []segment
}

var _ array.RecordReader = (*recordReader)(nil)

func (rr *recordReader) Retain() { rr.refs.Add(1) }

func (rr *recordReader) Release() {
	if rr.refs.Add(-1) == 0 {
		if rr.cur != nil {
			rr.cur.Release()
			rr.cur = nil
		}
		for _, f := range rr.fields {
			for _, l := range f.leaves {
				l.close()
			}
		}
	}
}

func (rr *recordReader) Schema() *arrow.Schema { return rr.schema }

// Record returns the current record; see RecordBatch.
func (rr *recordReader) Record() arrow.Record { return rr.cur }

// RecordBatch returns the current record, valid until the next call to
// Next or Release.
func (rr *recordReader) RecordBatch() arrow.RecordBatch { return rr.cur }

// Err returns the error that ended the reader, nil at the end of the rows.
func (rr *recordReader) Err() error { return rr.err }

// Next reads the next record.
func (rr *recordReader) Next() bool {
	if rr.cur != nil {
		rr.cur.Release()
		rr.cur = nil
	}
	if rr.err != nil || rr.left <= 0 {
		return false
	}
	rec, err := rr.read()
	if err != nil {
		rr.err = err
		return false
	}
	rr.cur = rec
	return true
}

func (rr *recordReader) read() (arrow.RecordBatch, error) {
	want := int(min(rr.batch, rr.left))
	cols := make([]arrow.Array, 0, len(rr.fields))
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	b := &rr.b
	b.mem, b.user = rr.bufMem, rr.mem
	rows := -1
	if rr.segs != nil {
		rr.cutPieces(want)
	}
	for _, f := range rr.fields {
		sl := rr.slots[:0]
		for _, l := range f.leaves {
			got, err := rr.readLeaf(l, want)
			if err != nil {
				l.resetBatch()
				return nil, err
			}
			if got != want {
				l.resetBatch()
				return nil, fmt.Errorf("%w: column %d holds %d rows where the row groups declare %d", ErrCorrupt, l.col, got, want)
			}
			s := slots{l: l, n: l.n}
			if l.maxRep > 0 {
				// The rows start at the entries of repetition level 0,
				// want of them (readRows counted them): each entry is
				// written, the count moving past the row starts only, so
				// the slice has room for one more.
				idx := makeInt32s(min(want, l.n) + 1)
				w := 0
				for i, r := range l.rep[:l.n] {
					idx[w] = int32(i)
					w += b2i(r == 0)
				}
				s = slots{l: l, idx: idx[:w], n: w}
			}
			sl = append(sl, s)
		}
		rr.slots = sl
		d, err := b.build(f.sf, sl)
		for _, l := range f.leaves {
			l.resetBatch()
		}
		if err != nil {
			return nil, err
		}
		arr := array.MakeFromData(d)
		d.Release()
		if rows < 0 {
			rows = arr.Len()
		}
		cols = append(cols, arr)
	}
	rr.left -= int64(want)
	if n := len(rr.pieces); rr.segs != nil && n > 0 {
		rr.atGi, rr.atRow = rr.pieces[n-1].gi, rr.pieces[n-1].end
	}
	if rows < 0 {
		rows = want
	}
	return array.NewRecordBatch(rr.schema, cols, int64(rows)), nil
}

// cutPieces sets rr.pieces to the next want selected rows, and moves the
// segment cursor past them.
func (rr *recordReader) cutPieces(want int) {
	rr.pieces = rr.pieces[:0]
	for left := int64(want); left > 0 && rr.si < len(rr.segs); {
		sg := rr.segs[rr.si]
		first := sg.first + rr.soff
		n := min(sg.end-first, left)
		rr.pieces = append(rr.pieces, segment{gi: sg.gi, first: first, end: first + n})
		left -= n
		rr.soff += n
		if sg.first+rr.soff == sg.end {
			rr.si, rr.soff = rr.si+1, 0
		}
	}
}

// readLeaf reads the batch's want rows of leaf l: the next want rows, or
// with row ranges the rows of rr.pieces, seeking to each.
func (rr *recordReader) readLeaf(l *leaf, want int) (int, error) {
	if rr.segs == nil {
		return l.readRows(rr.ctx, want, want)
	}
	got := 0
	atGi, atRow := rr.atGi, rr.atRow
	for _, p := range rr.pieces {
		if err := l.seek(rr.ctx, p.gi, p.first, atGi, atRow); err != nil {
			return got, err
		}
		n := int(p.end - p.first)
		g, err := l.readRows(rr.ctx, n, want)
		got += g
		if err != nil || g != n {
			return got, err
		}
		atGi, atRow = p.gi, p.end
	}
	return got, nil
}
