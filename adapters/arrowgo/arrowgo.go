// Package arrowgo plugs pqcodec's codecs into github.com/apache/arrow-go's
// Parquet reader and writer, through arrow-go's codec registry
// (compress.RegisterCodec), which both resolve codecs with.
//
// After [Register] (or a blank import of
// github.com/pqcodec/pqcodec/adapters/arrowgo/register), arrow-go reads and
// writes ZSTD, BROTLI and GZIP pages with native libzstd, libbrotli and
// libdeflate, and gains the codecs it lacks: LZ4 (Hadoop framing, with the
// frame-format and raw-block fallbacks other writers need) and LZO. With
// cgo off the pure-Go implementations of codecfactory are used instead.
//
//	arrowgo.Register()
//	rdr, err := file.OpenParquetFile("hadoop_lz4_compressed.parquet", false)
//
// Codecs implement compress.ErrorCodec, so a corrupt page is an error from
// the reader, not a panic.
//
// [FileReader] goes further: it reads Parquet files into arrow-go arrays
// with pqcodec's own column reader and record assembly, as a drop-in for
// pqarrow.FileReader's reading methods (Schema, GetRecordReader, ReadTable,
// ReadRowGroups, ReadColumn). The schema is pqarrow's own derivation
// (pqarrow.NewSchemaManifest, the stored ARROW:schema honoured), and the
// arrays equal pqarrow's (array.Equal) on every corpus file both read. Flat
// columns of every physical and logical type, lists, large lists,
// fixed-size lists, maps and structs nullable at every level are built from
// the levels; every buffer comes from the caller's memory.Allocator, except
// that arrow-go's Go allocator (the default) is replaced, for the buffers
// the reader fills entirely, by the same Go memory without its zeroing.
// [FileReader.GetRecordReaderRanges] reads only ranges of rows, such as
// column.File.MatchingFileRows selects through the page index, seeking
// every column past the rows between them.
//
// [FileWriter] is the write half: it writes arrow-go records through
// pqcodec's package writer, with the Parquet schema pqarrow.FileWriter
// writes for the same Arrow schema (pqarrow.ToParquet) and the
// ARROW:schema key-value metadata, so pqarrow and FileReader read the same
// Arrow types back. pqarrow's writer properties map onto package writer's
// options where they mean the same ([WithWriterProperties]). Definition
// levels come from validity bitmaps and repetition levels from list
// offsets, in buffers reused from batch to batch. Decimals are stored as
// INT32/INT64 under pqarrow's StoreDecimalAsInteger, and durations as
// arrow-cpp stores them (INT64, the duration in ARROW:schema).
package arrowgo

import (
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/parquet/compress"

	"github.com/pqcodec/pqcodec/codecfactory"
)

// Codec adapts one pqcodec codec to arrow-go's compress.Codec and
// compress.ErrorCodec. It is safe for concurrent use, as arrow-go requires:
// contexts come from the shared codecfactory.Factory pools.
type Codec struct {
	codec codecfactory.Codec
	opts  []codecfactory.Option
	base  *codecfactory.Factory
	// levels caches one Factory per compression level asked for through
	// EncodeLevel; arrow-go passes the writer's level on every page.
	levels sync.Map // int -> *codecfactory.Factory
}

var (
	_ compress.Codec      = (*Codec)(nil)
	_ compress.ErrorCodec = (*Codec)(nil)
)

// NewCodec returns the adapter for codec c, whose default levels are those
// of a codecfactory.Factory made with opts.
func NewCodec(c codecfactory.Codec, opts ...codecfactory.Option) (*Codec, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("arrowgo: %w: %v", codecfactory.ErrUnknownCodec, c)
	}
	f, err := codecfactory.New(opts...)
	if err != nil {
		return nil, err
	}
	return &Codec{codec: c, opts: opts, base: f}, nil
}

// Registered lists the codecs [Register] installs.
var Registered = []codecfactory.Codec{
	codecfactory.Zstd, codecfactory.Brotli, codecfactory.Gzip,
	codecfactory.Lz4, codecfactory.Lzo, codecfactory.Lz4Raw,
}

// Register installs pqcodec's ZSTD, BROTLI, GZIP, LZ4, LZO and LZ4_RAW in
// arrow-go's codec registry, replacing arrow-go's own. opts set the default
// levels and limits. Register is not safe to call concurrently with arrow-go
// readers or writers (arrow-go's registry is a plain map): call it from
// main or init.
func Register(opts ...codecfactory.Option) error {
	for _, c := range Registered {
		codec, err := NewCodec(c, opts...)
		if err != nil {
			return err
		}
		compress.RegisterCodec(compress.Compression(c), codec)
	}
	return nil
}

// factory returns the Factory for an arrow-go compression level.
// compress.DefaultCompressionLevel (and levels the codec has no use for)
// select the defaults.
func (c *Codec) factory(level int) (*codecfactory.Factory, error) {
	if level == compress.DefaultCompressionLevel {
		return c.base, nil
	}
	switch c.codec {
	case codecfactory.Zstd, codecfactory.Gzip, codecfactory.Brotli, codecfactory.Lzo:
	default:
		return c.base, nil // arrow-go's SNAPPY, LZ4 and LZ4_RAW have no levels
	}
	opt := codecfactory.WithLevel(c.codec, level)
	if f, ok := c.levels.Load(level); ok {
		return f.(*codecfactory.Factory), nil
	}
	f, err := codecfactory.New(append(append([]codecfactory.Option(nil), c.opts...), opt)...)
	if err != nil {
		return nil, fmt.Errorf("arrowgo: %v level %d: %w", c.codec, level, err)
	}
	actual, _ := c.levels.LoadOrStore(level, f)
	return actual.(*codecfactory.Factory), nil
}

// Encode compresses src at the default level; see [Codec.EncodeLevel].
func (c *Codec) Encode(dst, src []byte) []byte {
	return c.EncodeLevel(dst, src, compress.DefaultCompressionLevel)
}

// EncodeLevel compresses src into dst[:0] and returns the result, which is
// a slice of dst when cap(dst) >= CompressBound(len(src)) (arrow-go's writer
// always passes such a dst) and a new slice otherwise. It panics on an
// invalid level or an unavailable codec (LZO without liblzo2): arrow-go's
// Codec interface has no error return for Encode.
func (c *Codec) EncodeLevel(dst, src []byte, level int) []byte {
	f, err := c.factory(level)
	if err != nil {
		panic(err)
	}
	out, err := f.Compress(c.codec, dst[:0], src)
	if err != nil {
		panic(fmt.Errorf("arrowgo: %w", err))
	}
	return out
}

// CompressBound returns the most bytes Encode writes for n input bytes.
func (c *Codec) CompressBound(n int64) int64 {
	return int64(c.base.CompressBound(c.codec, int(n)))
}

// Decode is [Codec.DecodeWithError] for callers without error handling: it
// panics on corrupt input (arrow-go recovers such panics into errors).
func (c *Codec) Decode(dst, src []byte) []byte {
	out, err := c.DecodeWithError(dst, src)
	if err != nil {
		panic(err)
	}
	return out
}

// DecodeWithError decompresses src into dst, whose length must be the
// uncompressed size (arrow-go's reader sizes it from the page header and
// keeps using that buffer), and returns dst[:n]. Output of any other size
// is an error wrapping codecfactory.ErrSizeMismatch; undecodable input one
// wrapping codecfactory.ErrCorrupt.
func (c *Codec) DecodeWithError(dst, src []byte) ([]byte, error) {
	out, err := c.base.Decompress(c.codec, dst[:0], src, len(dst))
	if err != nil {
		return nil, fmt.Errorf("arrowgo: %w", err)
	}
	return out, nil
}
