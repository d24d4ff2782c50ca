package column

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/format"
)

// DefaultMaxPageValues is the default of [WithMaxPageValues]: 64 Mi values per
// page, far above what writers produce (parquet-java and parquet-cpp cap
// pages at about 20 000 rows by default) and low enough that a hostile
// header cannot make a reader allocate more than a few hundred MiB of
// levels.
const DefaultMaxPageValues = 64 << 20

// Option configures a [File].
type Option func(*options) error

type options struct {
	codecs          *codecfactory.Factory
	verifyChecksums bool
	maxPageValues   int
	keepDictionary  bool // see dictionary.go
	maxMemory       int64
	decryption      *encryption.Properties // encryption: see WithDecryption (decrypt.go)
}

var defaultCodecs = sync.OnceValues(func() (*codecfactory.Factory, error) { return codecfactory.New() })

// File is an open Parquet file: its footer, its schema and the page
// indexes read so far (see [File.PageIndex]). It is safe for concurrent
// use; each [Reader] it opens is not.
type File struct {
	r      io.ReaderAt
	size   int64
	meta   *format.FileMetaData
	schema *format.Schema
	codecs *codecfactory.Factory
	opts   options
	crypt  *fileCrypt // encryption: nil for a plaintext file (decrypt.go)

	indexMu sync.Mutex
	indexes map[int]*pageIndexes // by rowGroup*NumColumns()+column; see PageIndex

	workers workerList // idle readers of ReadRowGroup (concurrent.go)
}

// Open reads the footer of the size-byte Parquet file r and builds its
// schema. Encrypted files need the keys of [WithDecryption]; without them
// they return an error wrapping [ErrEncrypted].
func Open(r io.ReaderAt, size int64, opts ...Option) (*File, error) {
	o := options{maxPageValues: DefaultMaxPageValues}
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return nil, err
		}
	}
	if o.codecs == nil {
		f, err := defaultCodecs()
		if err != nil {
			return nil, err
		}
		o.codecs = f
	}
	meta, crypt, err := readFooter(r, size, &o) // encryption: decrypt.go
	if err != nil {
		return nil, err
	}
	schema, err := format.NewSchema(meta.Schema)
	if err != nil {
		return nil, err
	}
	for i := range meta.RowGroups {
		if err := schema.CheckRowGroup(&meta.RowGroups[i]); err != nil {
			return nil, fmt.Errorf("row group %d: %w", i, err)
		}
	}
	return &File{r: r, size: size, meta: meta, schema: schema, codecs: o.codecs, opts: o, crypt: crypt}, nil
}

// MaxMemory returns the File's [WithMaxMemory] bound, 0 for none: packages
// above column (rows) derive their own bounds from it.
func (f *File) MaxMemory() int64 { return f.opts.maxMemory }

// MetaData returns the file's footer. It must not be modified.
func (f *File) MetaData() *format.FileMetaData { return f.meta }

// Schema returns the file's schema tree.
func (f *File) Schema() *format.Schema { return f.schema }

// NumRowGroups returns the number of row groups.
func (f *File) NumRowGroups() int { return len(f.meta.RowGroups) }

// NumColumns returns the number of leaf columns.
func (f *File) NumColumns() int { return len(f.schema.Leaves()) }

func (f *File) columnName(column int) string {
	leaves := f.schema.Leaves()
	if column < 0 || column >= len(leaves) {
		return fmt.Sprint(column)
	}
	return strings.Join(leaves[column].Path(), ".")
}

// Column opens a Reader on the chunk of leaf column column in row group
// rowGroup. The Reader reads the chunk's pages from the file one at a time,
// as it needs them, into a buffer that holds one compressed page (at least
// 64 KiB), never the whole chunk.
func (f *File) Column(rowGroup, column int) (*Reader, error) {
	r := new(Reader)
	if err := f.ResetReader(r, rowGroup, column); err != nil {
		return nil, err
	}
	return r, nil
}

// ResetReader points r at another column chunk, keeping the buffers r has
// grown, so that reading many chunks with one Reader allocates nothing once
// warm.
func (f *File) ResetReader(r *Reader, rowGroup, column int) error {
	if rowGroup < 0 || rowGroup >= len(f.meta.RowGroups) {
		return fmt.Errorf("column: row group %d out of range [0, %d)", rowGroup, len(f.meta.RowGroups))
	}
	leaves := f.schema.Leaves()
	if column < 0 || column >= len(leaves) {
		return fmt.Errorf("column: column %d out of range [0, %d)", column, len(leaves))
	}
	cc := &f.meta.RowGroups[rowGroup].Columns[column]
	chunk := r.pages.Buffer()
	if cap(chunk) < cap(r.chunk) {
		chunk = r.chunk
	}
	*r = Reader{
		file: f, opts: f.opts, leaf: leaves[column], rowGroup: rowGroup, column: column,
		chunk: chunk, buf: r.buf, scratch: r.scratch, dicts: r.dicts, ctx: r.ctx, crypt: r.crypt,
	}
	fail := func(err error) error {
		return &PageError{Column: f.columnName(column), RowGroup: rowGroup, Page: -1, Err: err}
	}
	if cc.FilePath != nil && *cc.FilePath != "" {
		return fail(fmt.Errorf("%w: column chunk stored in another file (%q)", ErrUnsupported, *cc.FilePath))
	}
	rng, err := f.chunkRange(cc, rowGroup, column) // encryption: decrypt.go
	if err != nil {
		return fail(err)
	}
	meta := cc.MetaData
	if t := leaves[column].Element.Type; t != nil && *t != meta.Type {
		// The schema's type wins, as in parquet-java, arrow-cpp, arrow-rs
		// and DuckDB.
		m := *meta
		m.Type = *t
		meta = &m
	}
	if meta.Type == format.FixedLenByteArray && r.typeLengthOf() <= 0 {
		return fail(fmt.Errorf("%w: FIXED_LEN_BYTE_ARRAY column without a positive type_length", ErrCorrupt))
	}
	codec := codecfactory.Codec(meta.Codec)
	if !codec.Valid() {
		return fail(fmt.Errorf("%w: compression codec %v", ErrUnsupported, meta.Codec))
	}
	r.meta = meta
	r.pages.Codecs, r.pages.Codec, r.pages.VerifyCRC = f.codecs, codec, r.opts.verifyChecksums
	r.pages.ResetReaderAt(f.r, rng, r.chunk)
	if err := f.setDecryptor(r); err != nil { // encryption: decrypt.go
		return fail(err)
	}
	return nil
}

func (r *Reader) typeLengthOf() int {
	if l := r.leaf.Element.TypeLength; l != nil {
		return int(*l)
	}
	return 0
}
