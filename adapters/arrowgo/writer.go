package arrowgo

import (
	"encoding/base64"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/writer"
)

// WriterOption configures a [FileWriter].
type WriterOption func(*writerOptions) error

type writerOptions struct {
	props  *parquet.WriterProperties
	aprops pqarrow.ArrowWriterProperties
	extra  []writer.Option
}

// WithWriterProperties maps pqarrow's writer properties onto package
// writer's options where they mean the same: the default codec and its
// level, dictionary on or off and its page size limit, the data page size
// and version, statistics, the page index and the row group length. The
// per-column settings and encodings of the properties are not read. When
// the option is absent, package writer's defaults apply (ZSTD, dictionary,
// 1 MiB pages, v1 pages).
func WithWriterProperties(p *parquet.WriterProperties) WriterOption {
	return func(o *writerOptions) error {
		if p == nil {
			return fmt.Errorf("%w: nil writer properties", ErrArgument)
		}
		o.props = p
		return nil
	}
}

// WithArrowWriterProperties sets pqarrow's Arrow writer properties, which
// shape the Parquet schema as they shape pqarrow's (timestamp coercion).
// ARROW:schema is always stored.
func WithArrowWriterProperties(p pqarrow.ArrowWriterProperties) WriterOption {
	return func(o *writerOptions) error { o.aprops = p; return nil }
}

// WithOptions passes options to package writer, after those mapped from
// the properties.
func WithOptions(opts ...writer.Option) WriterOption {
	return func(o *writerOptions) error { o.extra = append(o.extra, opts...); return nil }
}

// FileWriter writes Arrow records to a Parquet file through package
// writer, with the schema pqarrow.FileWriter writes and the ARROW:schema
// key-value metadata, so pqarrow and [FileReader] read the same Arrow types
// back.
type FileWriter struct {
	w        *writer.Writer
	schema   *arrow.Schema
	leaves   []*leafWriter
	rgRows   int64
	inRG     int64
	closed   bool
	err      error
	batchCap int
}

// writeBatchRows bounds the rows given to package writer per column and
// call, so row groups are cut near their target and buffers stay small.
const writeBatchRows = 64 * 1024

// NewFileWriter returns a writer of records of schema sc to w.
func NewFileWriter(sc *arrow.Schema, w io.Writer, opts ...WriterOption) (*FileWriter, error) {
	o := writerOptions{aprops: pqarrow.DefaultWriterProps()}
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return nil, err
		}
	}
	props := o.props
	if props == nil {
		props = parquet.NewWriterProperties()
	}
	ps, err := writeSchema(sc, props, o.aprops)
	if err != nil {
		return nil, err
	}
	var wopts []writer.Option
	rgRows := int64(writer.DefaultRowGroupRows)
	if o.props != nil {
		m, err := mapProperties(o.props)
		if err != nil {
			return nil, err
		}
		wopts = m
		rgRows = o.props.MaxRowGroupLength()
	}
	fields := make([]arrow.Field, sc.NumFields())
	for i, f := range sc.Fields() {
		fields[i] = normalizeListNames(f)
	}
	meta := sc.Metadata()
	stored := flight.SerializeSchema(arrow.NewSchema(fields, &meta), props.Allocator())
	for i, k := range meta.Keys() {
		if k != "ARROW:schema" {
			wopts = append(wopts, writer.WithKeyValue(k, meta.Values()[i]))
		}
	}
	wopts = append(wopts, writer.WithKeyValue("ARROW:schema", base64.StdEncoding.EncodeToString(stored)))
	wopts = append(wopts, o.extra...)
	ww, err := writer.New(w, ps, wopts...)
	if err != nil {
		return nil, err
	}
	fw := &FileWriter{w: ww, schema: sc, rgRows: rgRows}
	leaves := ps.Leaves()
	for i, f := range sc.Fields() {
		fw.leaves = appendLeaves(fw.leaves, i, nil, f, 0, 0)
	}
	if len(fw.leaves) != len(leaves) {
		return nil, fmt.Errorf("%w: %d leaves for %d columns", ErrUnsupported, len(fw.leaves), len(leaves))
	}
	for i, l := range fw.leaves {
		l.phys = *leaves[i].Element.Type
		if leaves[i].Element.TypeLength != nil {
			l.typeLen = int(*leaves[i].Element.TypeLength)
		}
		if lt := leaves[i].Element.LogicalType; lt != nil && lt.Kind == format.LogicalTimestamp {
			l.unit = map[format.TimeUnit]int64{format.Millis: 1e3, format.Micros: 1e6, format.Nanos: 1e9}[lt.Unit]
		}
		if l.maxDef != int16(leaves[i].MaxDefinitionLevel) || l.maxRep != int16(leaves[i].MaxRepetitionLevel) {
			return nil, fmt.Errorf("%w: levels of column %d: %d/%d, schema %d/%d", ErrUnsupported, i,
				l.maxDef, l.maxRep, int16(leaves[i].MaxDefinitionLevel), int16(leaves[i].MaxRepetitionLevel))
		}
	}
	return fw, nil
}

var codecs = map[compress.Compression]codecfactory.Codec{
	compress.Codecs.Uncompressed: codecfactory.Uncompressed,
	compress.Codecs.Snappy:       codecfactory.Snappy,
	compress.Codecs.Gzip:         codecfactory.Gzip,
	compress.Codecs.Brotli:       codecfactory.Brotli,
	compress.Codecs.Lz4:          codecfactory.Lz4,
	compress.Codecs.Zstd:         codecfactory.Zstd,
	compress.Codecs.Lz4Raw:       codecfactory.Lz4Raw,
}

func mapProperties(p *parquet.WriterProperties) ([]writer.Option, error) {
	c, ok := codecs[p.Compression()]
	if !ok {
		return nil, fmt.Errorf("%w: codec %v", ErrUnsupported, p.Compression())
	}
	opts := []writer.Option{writer.WithCodec(c),
		writer.WithDictionary(p.DictionaryEnabled()),
		writer.WithStatistics(p.StatisticsEnabled()),
		writer.WithPageIndex(p.PageIndexEnabled()),
		writer.WithRowGroupRows(p.MaxRowGroupLength()),
	}
	if n := p.DictionaryPageSizeLimit(); n > 0 {
		opts = append(opts, writer.WithDictionaryLimit(int(n)))
	}
	if n := p.DataPageSize(); n > 0 {
		opts = append(opts, writer.WithPageSize(int(n)))
	}
	if p.DataPageVersion() == parquet.DataPageV2 {
		opts = append(opts, writer.WithPageVersion(2))
	}
	if lvl := p.CompressionLevel(); lvl != compress.DefaultCompressionLevel {
		switch c {
		case codecfactory.Zstd, codecfactory.Gzip, codecfactory.Brotli: // the levels pqarrow sets
			f, err := codecfactory.New(codecfactory.WithLevel(c, lvl))
			if err != nil {
				return nil, fmt.Errorf("%w: compression level %d: %w", ErrArgument, lvl, err)
			}
			opts = append(opts, writer.WithCodecs(f))
		}
	}
	return opts, nil
}

// Schema returns the Arrow schema of the records written.
func (fw *FileWriter) Schema() *arrow.Schema { return fw.schema }

func (fw *FileWriter) fail(err error) error {
	if fw.err == nil {
		fw.err = err
	}
	return err
}

// Write writes a record, in batches of at most 64 Ki rows per column,
// ending a row group whenever it reaches the properties' row group length
// (package writer also ends one at its byte size).
func (fw *FileWriter) Write(rec arrow.RecordBatch) error {
	if fw.err != nil {
		return fw.err
	}
	if fw.closed {
		return fmt.Errorf("%w: write after close", ErrArgument)
	}
	if !rec.Schema().Equal(fw.schema) {
		return fmt.Errorf("%w: record schema %v differs from the writer's %v", ErrArgument, rec.Schema(), fw.schema)
	}
	n := int(rec.NumRows())
	for s := 0; s < n; {
		e := min(n, s+writeBatchRows, s+int(fw.rgRows-fw.inRG))
		for _, l := range fw.leaves {
			if err := l.write(fw.w, rec.Column(l.field), s, e); err != nil {
				return fw.fail(err)
			}
		}
		fw.inRG += int64(e - s)
		if fw.inRG >= fw.rgRows {
			if err := fw.w.Flush(); err != nil {
				return fw.fail(err)
			}
			fw.inRG = 0
		}
		s = e
	}
	return nil
}

// WriteTable writes a table in row groups of at most chunkSize rows (the
// properties' row group length when chunkSize is 0 or larger), as
// pqarrow.FileWriter.WriteTable does.
func (fw *FileWriter) WriteTable(tbl arrow.Table, chunkSize int64) error {
	if fw.err != nil {
		return fw.err
	}
	if !tbl.Schema().Equal(fw.schema) {
		return fmt.Errorf("%w: table schema differs from the writer's", ErrArgument)
	}
	saved := fw.rgRows
	if chunkSize > 0 && chunkSize < saved {
		fw.rgRows = chunkSize
	}
	defer func() { fw.rgRows = saved }()
	tr := arrowTableReader(tbl)
	defer tr.Release()
	for tr.Next() {
		if err := fw.Write(tr.RecordBatch()); err != nil {
			return err
		}
	}
	return nil
}

// Close flushes the last row group and writes the footer; it does not
// close the io.Writer.
func (fw *FileWriter) Close() error {
	if fw.closed {
		return nil
	}
	fw.closed = true
	if fw.err != nil {
		fw.w.Close()
		return fw.err
	}
	if err := fw.w.Close(); err != nil {
		return err
	}
	for _, l := range fw.leaves {
		l.recycle() // wrecycle.go
	}
	return nil
}
