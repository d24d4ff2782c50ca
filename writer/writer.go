package writer

import (
	"fmt"
	"io"
	"sync"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/enctable"
)

var (
	defaultCodecsOnce sync.Once
	defaultCodecs     *codecfactory.Factory
	defaultCodecsErr  error
)

func sharedCodecs() (*codecfactory.Factory, error) {
	defaultCodecsOnce.Do(func() { defaultCodecs, defaultCodecsErr = codecfactory.New() })
	return defaultCodecs, defaultCodecsErr
}

// Writer writes a Parquet file to an io.Writer: the leading magic, row
// groups of column chunks, the page indexes and the footer. A Writer is not
// safe for concurrent use; many Writers may share one codecfactory.Factory.
//
// After any error the Writer is failed: every later call returns an error
// wrapping that one, and Close writes no footer, so that an interrupted
// file never looks complete.
type Writer struct {
	out       io.Writer
	off       int64
	err       error
	closed    bool
	started   bool
	cfg       config
	schema    *format.Schema
	elems     []format.SchemaElement
	cols      []*chunkWriter
	rowGroups []format.RowGroup
	indexes   [][]pageIndex // per row group, per column
	numRows   int64
	scratch   []byte
	sorting   []format.SortingColumn // of every row group, nil for none
	budget    budget                 // WithMaxMemory's count (budget.go)
	sem       chan struct{}          // WithWorkers: a token per running goroutine; nil without workers
	crypt     *fileCrypt             // WithEncryption: nil without
}

type pageIndex struct {
	ci *format.ColumnIndex
	oi *format.OffsetIndex
}

// New returns a Writer of files of the given schema to w, configured by
// opts (see the package documentation for the defaults). It writes nothing
// before the first row group is flushed or Close is called. Errors wrap
// ErrOption or ErrSchema.
func New(w io.Writer, schema *format.Schema, opts ...Option) (*Writer, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	if schema == nil {
		return nil, fmt.Errorf("%w: nil schema", ErrSchema)
	}
	if cfg.col.codecs == nil {
		f, err := sharedCodecs()
		if err != nil {
			return nil, err
		}
		cfg.col.codecs = f
	}
	wr := &Writer{out: w, cfg: cfg, schema: schema}
	wr.budget.limit = cfg.maxMemory
	if cfg.workers > 1 {
		wr.sem = make(chan struct{}, cfg.workers)
	}
	wr.elems = flatten(wr.elems, schema.Root())
	leaves := schema.Leaves()
	if len(leaves) == 0 {
		return nil, fmt.Errorf("%w: schema without columns", ErrSchema)
	}
	known := map[string]bool{}
	reused := takeRecycled()
	for _, leaf := range leaves {
		if leaf.Element.Type == nil {
			return nil, fmt.Errorf("%w: leaf %v without a type", ErrSchema, leaf.Path())
		}
		cc, err := cfg.columnConfigFor(leaf.Path())
		if err != nil {
			return nil, err
		}
		c, err := newChunkWriter(leaf, cc, cc.codecs)
		if err != nil {
			return nil, err
		}
		c.reuse(reused.take(len(wr.cols), c.typ, c.typeLen)) // recycle.go
		c.sem = wr.sem
		known[joinPath(c.path)] = true
		wr.cols = append(wr.cols, c)
	}
	for p := range cfg.perColumn {
		if !known[p] {
			return nil, fmt.Errorf("%w: WithColumn(%q) names no leaf column", ErrOption, p)
		}
	}
	paths := make([]string, len(wr.cols))
	for i, c := range wr.cols {
		paths[i] = joinPath(c.path)
	}
	var err error
	if wr.sorting, err = sortingColumns(cfg.sorting, paths); err != nil {
		return nil, err
	}
	if err := wr.setupEncryption(); err != nil { // encrypt.go
		return nil, err
	}
	return wr, nil
}

func joinPath(p []string) string {
	s := ""
	for i, x := range p {
		if i > 0 {
			s += "."
		}
		s += x
	}
	return s
}

// flatten appends the schema elements of the tree under n, depth first.
func flatten(dst []format.SchemaElement, n *format.Node) []format.SchemaElement {
	dst = append(dst, *n.Element)
	for _, c := range n.Children {
		dst = flatten(dst, c)
	}
	return dst
}

// NumColumns returns the number of leaf columns, the valid column indexes
// of [Writer.Write].
func (w *Writer) NumColumns() int { return len(w.cols) }

func (w *Writer) fail(err error) error {
	if w.err == nil {
		w.err = err
	}
	return err
}

func (w *Writer) usable() error {
	if w.closed {
		return ErrClosed
	}
	if w.err != nil {
		return fmt.Errorf("writer: failed earlier: %w", w.err)
	}
	return nil
}

// Write appends a batch to leaf column col (in column order, see
// format.Schema.Leaves) of the current row group: the non-null values in
// v (of the column's physical type, byte arrays as flat bytes and offsets),
// one definition level per value or null when the column has any (def is
// empty when its maximum definition level is 0), and as many repetition
// levels when the column is repeated (rep empty otherwise), the shape of
// column.Page, and of arrow-go's ColumnChunkWriter.WriteBatch: the
// batches of one column between two flushes make its column chunk. A
// batch holds whole rows: its first repetition level is 0.
//
// Write copies what it keeps; v, def and rep may be reused as soon as it
// returns. Pages are encoded and compressed as they fill. After the write,
// when every column holds the same number of rows and the row group has
// reached the row-group size or row count, the row group is flushed: so
// writing a batch of each column in turn cuts row groups between batches.
func (w *Writer) Write(col int, v *column.Values, def, rep []int16) error {
	if err := w.usable(); err != nil {
		return err
	}
	if col < 0 || col >= len(w.cols) {
		return w.fail(fmt.Errorf("%w: column %d of %d", ErrType, col, len(w.cols)))
	}
	if v == nil {
		return w.fail(fmt.Errorf("%w: nil values", ErrType))
	}
	c := w.cols[col]
	ev := (*enctable.Values)(v)
	n, err := c.check(ev, def, rep)
	if err != nil {
		return w.fail(err)
	}
	if err := w.flushBefore(c, ev, def, rep); err != nil {
		return w.fail(err)
	}
	if w.sem == nil {
		err = c.write(ev, def, rep, n)
	} else {
		err = w.startWrite(c, ev, def, rep, n)
	}
	if err != nil {
		return w.fail(err)
	}
	c.queued += c.batchRows(rep, n)
	rows := c.queued
	for _, c := range w.cols {
		if c.queued != rows {
			return nil
		}
	}
	if err := w.waitAll(); err != nil {
		return w.fail(err)
	}
	if rows == 0 {
		return nil
	}
	flush, err := w.endRound(rows) // budget.go
	if err != nil {
		return w.fail(err)
	}
	if flush {
		return w.flush()
	}
	return nil
}

// Flush ends the current row group, writing its column chunks; it does
// nothing when the row group is empty. Every column must hold the same
// number of rows (ErrRowCount otherwise).
func (w *Writer) Flush() error {
	if err := w.usable(); err != nil {
		return err
	}
	return w.flush()
}

func (w *Writer) write(b []byte) error {
	if _, err := w.out.Write(b); err != nil {
		return w.fail(fmt.Errorf("writer: writing at offset %d: %w", w.off, err))
	}
	w.off += int64(len(b))
	return nil
}

func (w *Writer) start() error {
	if w.started {
		return nil
	}
	w.started = true
	return w.write(w.magic())
}

func (w *Writer) flush() error {
	if err := w.settle(); err != nil {
		return w.fail(err)
	}
	rows := w.cols[0].rows()
	empty := true
	for i, c := range w.cols {
		if c.rows() != rows {
			return w.fail(fmt.Errorf("%w: column %v has %d rows, column %v %d",
				ErrRowCount, w.cols[0].pathString(), rows, w.cols[i].pathString(), c.rows()))
		}
		if c.numLevels > 0 || c.pageLevels() > 0 {
			empty = false
		}
	}
	if empty {
		return nil
	}
	if err := w.start(); err != nil {
		return err
	}
	rg := format.RowGroup{NumRows: rows, Columns: make([]format.ColumnChunk, len(w.cols)), SortingColumns: w.sorting}
	idx := make([]pageIndex, len(w.cols))
	if err := w.finishAll(); err != nil {
		return w.fail(err)
	}
	first := w.off
	for i, c := range w.cols {
		start := w.off
		if err := w.write(c.dictPage); err != nil {
			return err
		}
		for _, b := range c.pages.chunks() {
			if err := w.write(b); err != nil {
				return err
			}
		}
		rg.Columns[i], idx[i].ci, idx[i].oi = c.metadata(start)
		rg.TotalByteSize += rg.Columns[i].MetaData.TotalUncompressedSize
		c.trimPages()
		c.resetChunk()
	}
	w.afterFlush()
	total := w.off - first
	// Bloom filters after the row group's chunks, outside its
	// total_compressed_size, where arrow-rs writes them by default.
	for i, c := range w.cols {
		if len(c.bloomBuf) == 0 {
			continue
		}
		b, err := w.bloomModules(c.bloomBuf, i)
		if err != nil {
			return w.fail(err)
		}
		off, n := w.off, int32(len(b))
		md := rg.Columns[i].MetaData
		md.BloomFilterOffset, md.BloomFilterLength = &off, &n
		if err := w.write(b); err != nil {
			return err
		}
	}
	ord := int16(len(w.rowGroups))
	rg.FileOffset, rg.TotalCompressedSize, rg.Ordinal = &first, &total, &ord
	w.rowGroups = append(w.rowGroups, rg)
	w.indexes = append(w.indexes, idx)
	w.numRows += rows
	if err := w.nextRowGroupCrypt(); err != nil {
		return w.fail(err)
	}
	return nil
}

// Close flushes the last row group and writes the page indexes and the
// footer. It does not close the io.Writer. After an error of any call,
// Close returns it and writes nothing more. A second Close returns
// ErrClosed.
func (w *Writer) Close() error {
	if err := w.usable(); err != nil {
		return err
	}
	if err := w.flush(); err != nil {
		return err
	}
	if err := w.start(); err != nil {
		return err
	}
	// Page indexes after the row groups, column indexes first, as
	// parquet-java and arrow-cpp write them.
	for g := range w.indexes {
		for i, ix := range w.indexes[g] {
			if ix.ci == nil {
				continue
			}
			b := format.AppendColumnIndex(w.scratch[:0], ix.ci)
			w.scratch = b
			b, err := w.encryptModule(b, encryption.ColumnIndex, g, i)
			if err != nil {
				return w.fail(err)
			}
			off, n := w.off, int32(len(b))
			w.rowGroups[g].Columns[i].ColumnIndexOffset, w.rowGroups[g].Columns[i].ColumnIndexLength = &off, &n
			if err := w.write(b); err != nil {
				return err
			}
		}
	}
	for g := range w.indexes {
		for i, ix := range w.indexes[g] {
			if ix.oi == nil {
				continue
			}
			b := format.AppendOffsetIndex(w.scratch[:0], ix.oi)
			w.scratch = b
			b, err := w.encryptModule(b, encryption.OffsetIndex, g, i)
			if err != nil {
				return w.fail(err)
			}
			off, n := w.off, int32(len(b))
			w.rowGroups[g].Columns[i].OffsetIndexOffset, w.rowGroups[g].Columns[i].OffsetIndexLength = &off, &n
			if err := w.write(b); err != nil {
				return err
			}
		}
	}
	createdBy := w.cfg.createdBy
	meta := &format.FileMetaData{Version: 1, Schema: w.elems, NumRows: w.numRows, RowGroups: w.rowGroups,
		KeyValueMetadata: w.cfg.kv, CreatedBy: &createdBy}
	if meta.RowGroups == nil {
		meta.RowGroups = []format.RowGroup{}
	}
	meta.ColumnOrders = make([]format.ColumnOrder, len(w.cols))
	for i := range meta.ColumnOrders {
		meta.ColumnOrders[i].Kind = format.TypeDefinedOrder
	}
	b, err := w.appendFooter(w.scratch[:0], meta)
	if err != nil {
		return w.fail(err)
	}
	if err := w.write(b); err != nil {
		return err
	}
	w.closed = true
	w.recycleAll() // recycle.go
	return nil
}
