// Package reencode rewrites a Parquet file with some of its columns encoded
// again: the columns named (or all) are decoded page by page (package
// column) and written again through package writer with the options given
// (encoding, dictionary, page size and version, statistics, page index,
// bloom filters, codec), and the other columns' pages are copied as they
// are, without decompressing them (package splice moves their offsets,
// page indexes and bloom filters). Row groups keep their rows, unless
// [WithRowGroupSize] asks for others: then every column is written again.
//
// It is the re-encoding half of pqcodec rewrite; package recompress is the
// other half (another codec, page by page, without decoding values).
// Encrypted files return an error wrapping [ErrEncrypted].
package reencode

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/errs"
	"github.com/pqcodec/pqcodec/internal/flow"
	"github.com/pqcodec/pqcodec/internal/pagebatch"
	"github.com/pqcodec/pqcodec/internal/rewriteopt"
	"github.com/pqcodec/pqcodec/internal/splice"
	"github.com/pqcodec/pqcodec/writer"
)

// Errors returned by this package; errors of the io.Writer are returned
// wrapped as they are.
var (
	// ErrCorrupt reports a source that cannot be read. It matches
	// pqcodec.ErrCorrupt.
	ErrCorrupt = errs.Corrupt("reencode: corrupt input")
	// ErrEncrypted reports an encrypted source.
	ErrEncrypted = errors.New("reencode: encrypted parquet files are not supported")
	// ErrUnsupported reports a source whose column chunks live in other files.
	ErrUnsupported = errors.New("reencode: unsupported file")
	// ErrOption reports an invalid option, or a column path that names no
	// leaf.
	ErrOption = errors.New("reencode: invalid option")
)

type config struct {
	all          []writer.Option            // for every re-encoded column, first
	allColumns   bool                       // every column is re-encoded
	columns      map[string][]writer.Option // re-encoded columns by dotted path
	rowGroupSize int64
	keyValue     []format.KeyValue
	bloom        map[string]float64 // false-positive probability by path
	maxMemory    int64              // of the column readers and the writer; 0: DefaultMaxMemory
	noSrcCRC     bool               // WithSourceChecksums(false)
}

// An Option configures [Rewrite]. An invalid value makes Rewrite return an
// error wrapping [ErrOption]; writer options are checked by writer.New.
type Option func(*config) error

// WithAll re-encodes every column, with opts (package writer's column
// options; the codec of each column stays what it was unless opts set
// one).
func WithAll(opts ...writer.Option) Option {
	return func(c *config) error {
		c.allColumns = true
		c.all = append(c.all, opts...)
		return nil
	}
}

// WithColumn re-encodes the leaf column at the dotted path with opts, after
// those of [WithAll]. A path that names no leaf makes Rewrite fail.
func WithColumn(path string, opts ...writer.Option) Option {
	return func(c *config) error {
		if c.columns == nil {
			c.columns = make(map[string][]writer.Option)
		}
		c.columns[path] = append(c.columns[path], opts...)
		return nil
	}
}

// WithBloomFilter re-encodes the leaf column at the dotted path with a
// bloom filter of false-positive probability fpp, sized for the values of
// each of its chunks (at most writer.DefaultBloomNDV), where
// writer.WithBloomFilter sizes every chunk alike.
func WithBloomFilter(path string, fpp float64) Option {
	return func(c *config) error {
		if !(fpp > 0 && fpp < 1) {
			return fmt.Errorf("%w: bloom filter false-positive probability %v", ErrOption, fpp)
		}
		if c.bloom == nil {
			c.bloom = make(map[string]float64)
		}
		c.bloom[path] = fpp
		if c.columns == nil {
			c.columns = make(map[string][]writer.Option)
		}
		c.columns[path] = append(c.columns[path], nil...)
		return nil
	}
}

// WithRowGroupSize re-cuts the row groups at n compressed bytes
// (writer.WithRowGroupSize): every column is written again.
func WithRowGroupSize(n int64) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("%w: row group size %d", ErrOption, n)
		}
		c.rowGroupSize = n
		c.allColumns = true
		return nil
	}
}

// WithKeyValue sets key to value in the output's key-value metadata,
// replacing the source's entry of that key.
func WithKeyValue(key, value string) Option {
	return func(c *config) error { return rewriteopt.AddKeyValue(&c.keyValue, key, value, ErrOption) }
}

// DefaultMaxMemory is the default of [WithMaxMemory], as recompress's.
const DefaultMaxMemory = 256 << 20

// WithMaxMemory bounds what each column reader holds (column.WithMaxMemory)
// while re-encoded columns are decoded, default [DefaultMaxMemory]: a page
// whose values need more fails with an error wrapping column.ErrLimit
// instead of exhausting memory (a few KB of brotli can hold gigabytes).
// It does not bound the writer, which holds a row group's compressed pages
// (writer.WithMaxMemory). n must be positive.
func WithMaxMemory(n int64) Option {
	return func(c *config) error { return rewriteopt.SetMaxMemory(&c.maxMemory, n, ErrOption) }
}

// WithSourceChecksums sets whether the CRC32 of the pages of re-encoded
// columns that carry one is checked (column.WithVerifyChecksums; a mismatch
// fails with an error wrapping column.ErrChecksum), so that a damaged page
// is not written again under a fresh valid checksum, as
// recompress.WithSourceChecksums. On by default. Copied pages keep their
// checksums as they are.
func WithSourceChecksums(on bool) Option {
	return func(c *config) error {
		c.noSrcCRC = !on
		return nil
	}
}

// Result summarises a rewrite.
type Result struct {
	BytesIn, BytesOut int64
	Rows              int64
	RowGroups         int // in the output
	// ChunksCopied and ChunksEncoded count the output's column chunks
	// copied page by page and written again.
	ChunksCopied, ChunksEncoded int
}

// Rewrite writes to dst the size-byte Parquet file src with the columns
// that opts name encoded again, as the package documentation says. dst
// receives the file in one pass of sequential writes; on error what was
// written is incomplete and must be discarded. ctx is checked between
// pages.
func Rewrite(ctx context.Context, dst io.Writer, src io.ReaderAt, size int64, opts ...Option) (*Result, error) {
	var cfg config
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	if cfg.maxMemory == 0 {
		cfg.maxMemory = DefaultMaxMemory
	}
	f, err := column.Open(src, size, column.WithMaxMemory(cfg.maxMemory), column.WithVerifyChecksums(!cfg.noSrcCRC))
	if err != nil {
		if errors.Is(err, format.ErrEncrypted) {
			return nil, fmt.Errorf("%w: %w", ErrEncrypted, err)
		}
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	meta := f.MetaData()
	for i := range meta.RowGroups {
		for j := range meta.RowGroups[i].Columns {
			if meta.RowGroups[i].Columns[j].FilePath != nil {
				return nil, fmt.Errorf("%w: row group %d column %d is stored in another file", ErrUnsupported, i, j)
			}
		}
	}
	leaves := f.Schema().Leaves()
	encoded := make([]bool, len(leaves))
	paths := make([]string, len(leaves))
	for i, l := range leaves {
		paths[i] = strings.Join(l.Path(), ".")
		_, named := cfg.columns[paths[i]]
		encoded[i] = cfg.allColumns || named
	}
	for p := range cfg.columns {
		found := false
		for _, q := range paths {
			found = found || p == q
		}
		if !found {
			return nil, fmt.Errorf("%w: no leaf column %q", ErrOption, p)
		}
	}
	r := &rewriter{ctx: ctx, cfg: &cfg, f: f, meta: meta, src: src, size: size, encoded: encoded, paths: paths}
	cw := &flow.CountWriter{W: dst}
	bw := bufio.NewWriterSize(cw, 1<<20)
	res, err := r.run(bw)
	if err != nil {
		return nil, err
	}
	if err := bw.Flush(); err != nil {
		return nil, err
	}
	res.BytesIn, res.BytesOut = size, cw.N
	return res, nil
}

type rewriter struct {
	ctx     context.Context
	cfg     *config
	f       *column.File
	meta    *format.FileMetaData
	src     io.ReaderAt
	size    int64
	encoded []bool
	paths   []string
	page    column.Page
}

// writerOptions returns the options of a writer of the columns cols (leaf
// indexes of the source) of row group g.
func (r *rewriter) writerOptions(cols []int, g int, subPaths []string) []writer.Option {
	opts := []writer.Option{writer.WithRowGroupRows(math.MaxInt64), writer.WithRowGroupSize(math.MaxInt64)}
	if r.cfg.rowGroupSize > 0 {
		opts = []writer.Option{writer.WithRowGroupSize(r.cfg.rowGroupSize)}
	}
	for i, c := range cols {
		var o []writer.Option
		if g < len(r.meta.RowGroups) {
			o = append(o, writer.WithCodec(codecOf(r.meta.RowGroups[g].Columns[c].MetaData)))
		}
		o = append(o, r.cfg.all...)
		o = append(o, r.cfg.columns[r.paths[c]]...)
		if fpp, ok := r.cfg.bloom[r.paths[c]]; ok {
			var ndv int64
			if r.cfg.rowGroupSize > 0 {
				for i := range r.meta.RowGroups {
					ndv += r.meta.RowGroups[i].Columns[c].MetaData.NumValues
				}
			} else if g < len(r.meta.RowGroups) {
				ndv = r.meta.RowGroups[g].Columns[c].MetaData.NumValues
			}
			o = append(o, writer.WithBloomFilter(min(max(ndv, 1), writer.DefaultBloomNDV), fpp))
		}
		opts = append(opts, writer.WithColumn(subPaths[i], o...))
	}
	return opts
}

func (r *rewriter) run(w io.Writer) (*Result, error) {
	out, err := splice.NewWriter(func(b []byte) error { _, err := w.Write(b); return err })
	if err != nil {
		return nil, err
	}
	res := &Result{}
	var enc, keep []int
	for c, e := range r.encoded {
		if e {
			enc = append(enc, c)
		} else {
			keep = append(keep, c)
		}
	}
	if r.cfg.rowGroupSize > 0 {
		// Every column, and the row groups cut again: one writer for the
		// whole file.
		groups, err := r.encode(enc, 0, len(r.meta.RowGroups))
		if err != nil {
			return nil, err
		}
		for _, g := range groups {
			if err := out.WriteGroup(g); err != nil {
				return nil, err
			}
			res.ChunksEncoded += len(g.Chunks)
		}
	} else {
		for g := range r.meta.RowGroups {
			var kept *splice.Group
			if len(keep) > 0 {
				if kept, err = splice.ReadGroup(r.src, r.size, r.meta, g, keep); err != nil {
					return nil, fmt.Errorf("row group %d: %w: %w", g, ErrCorrupt, err)
				}
			}
			if r.meta.RowGroups[g].NumRows == 0 {
				// Nothing to encode: copied as it is.
				grp, err := splice.ReadGroup(r.src, r.size, r.meta, g, nil)
				if err != nil {
					return nil, fmt.Errorf("row group %d: %w: %w", g, ErrCorrupt, err)
				}
				if err := out.WriteGroup(grp); err != nil {
					return nil, err
				}
				res.ChunksCopied += len(r.encoded)
				continue
			}
			var made *splice.Group
			if len(enc) > 0 {
				groups, err := r.encode(enc, g, g+1)
				if err != nil {
					return nil, err
				}
				if len(groups) != 1 {
					return nil, fmt.Errorf("reencode: row group %d came out as %d", g, len(groups))
				}
				made = groups[0]
			}
			grp := join(&r.meta.RowGroups[g], r.encoded, kept, made)
			if err := out.WriteGroup(grp); err != nil {
				return nil, err
			}
			res.ChunksCopied += len(keep)
			res.ChunksEncoded += len(enc)
		}
	}
	meta := *r.meta
	for _, kv := range r.cfg.keyValue {
		var m []format.KeyValue
		for _, e := range meta.KeyValueMetadata {
			if e.Key != kv.Key {
				m = append(m, e)
			}
		}
		meta.KeyValueMetadata = append(m, kv)
	}
	if err := out.Finish(&meta); err != nil {
		return nil, err
	}
	res.Rows, res.RowGroups = meta.NumRows, len(meta.RowGroups)
	return res, nil
}

// join makes one row group of the columns kept and the columns made, in
// the source's column order.
func join(src *format.RowGroup, encoded []bool, kept, made *splice.Group) *splice.Group {
	g := &splice.Group{RowGroup: *src}
	g.RowGroup.Columns = make([]format.ColumnChunk, 0, len(encoded))
	var k, m int
	g.RowGroup.TotalByteSize = 0
	for _, e := range encoded {
		from, i := kept, &k
		if e {
			from, i = made, &m
		}
		g.RowGroup.Columns = append(g.RowGroup.Columns, from.RowGroup.Columns[*i])
		g.Chunks = append(g.Chunks, from.Chunks[*i])
		g.RowGroup.TotalByteSize += from.RowGroup.Columns[*i].MetaData.TotalUncompressedSize
		*i++
	}
	for _, s := range []*splice.Group{kept, made} {
		if s != nil {
			g.DroppedIndexes += s.DroppedIndexes
			g.DroppedBlooms += s.DroppedBlooms
		}
	}
	return g
}

// encode decodes the columns cols of row groups [from, to) and writes them
// again into a file in memory holding only those columns (and the groups
// above them), and returns its row groups as [splice.ReadGroup] reads them,
// with the source's paths.
func (r *rewriter) encode(cols []int, from, to int) ([]*splice.Group, error) {
	sub, subPaths, err := subSchema(r.f.Schema(), cols)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	w, err := writer.New(&buf, sub, r.writerOptions(cols, from, subPaths)...)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrOption, err)
	}
	leaves := r.f.Schema().Leaves()
	for g := from; g < to; g++ {
		for i, c := range cols {
			cr, err := r.f.Column(g, c)
			if err != nil {
				return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
			}
			b := pagebatch.Batcher{MaxDef: leaves[c].MaxDefinitionLevel}
			write := func(v *column.Values, def, rep []int16) error { return w.Write(i, v, def, rep) }
			rerr, werr := b.Copy(r.ctx, cr, &r.page, write)
			if rerr != nil {
				if e := r.ctx.Err(); e != nil {
					return nil, fmt.Errorf("reencode: %w", e)
				}
				if errors.Is(rerr, column.ErrLimit) {
					return nil, fmt.Errorf("reencode: %w", rerr) // WithMaxMemory's bound, not damage
				}
				return nil, fmt.Errorf("%w: %w", ErrCorrupt, rerr)
			}
			if werr != nil {
				return nil, fmt.Errorf("reencode: row group %d column %s: %w", g, r.paths[c], werr)
			}
		}
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("reencode: %w", err)
	}
	out, err := splice.ReadAll(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("reencode: reading what was written: %w", err)
	}
	return out, nil
}
