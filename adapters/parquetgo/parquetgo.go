// Package parquetgo lets github.com/parquet-go/parquet-go write pages with
// pqcodec's codecs: native zstd, brotli and libdeflate gzip, plus the codecs
// parquet-go lacks, LZ4 with Hadoop framing and LZO.
//
// parquet-go accepts a custom codec for writing only (its readers pick
// codecs from their own table), so the codecs here are writer options:
//
//	codec, err := parquetgo.NewCodec(codecfactory.Zstd)
//	w := parquet.NewGenericWriter[Row](out, parquet.Compression(codec))
//
// Decode is implemented too, as parquet-go's Codec interface requires: it
// delegates to parquet-go's own codec where the compressed format does not
// state its uncompressed size (GZIP, BROTLI, LZ4_RAW), and reads the size
// from the page where it does (ZSTD frame header, SNAPPY preamble, and the
// chunk lengths of Hadoop-framed LZ4 and LZO pages written one block per
// chunk, as parquet-java and pqcodec write them).
package parquetgo

import (
	"encoding/binary"
	"errors"
	"fmt"

	pqcompress "github.com/parquet-go/parquet-go/compress"
	pqbrotli "github.com/parquet-go/parquet-go/compress/brotli"
	pqgzip "github.com/parquet-go/parquet-go/compress/gzip"
	pqlz4 "github.com/parquet-go/parquet-go/compress/lz4"
	pqsnappy "github.com/parquet-go/parquet-go/compress/snappy"
	pqzstd "github.com/parquet-go/parquet-go/compress/zstd"
	"github.com/parquet-go/parquet-go/format"

	"github.com/pqcodec/pqcodec/codecfactory"
)

// ErrUnknownSize reports a page whose uncompressed size Decode cannot learn.
var ErrUnknownSize = errors.New("parquetgo: uncompressed size of page unknown")

// Codec adapts one pqcodec codec to parquet-go's compress.Codec. It is safe
// for concurrent use, as parquet-go requires.
type Codec struct {
	codec    codecfactory.Codec
	f        *codecfactory.Factory
	fallback pqcompress.Codec // parquet-go's codec, for Decode without a stated size
}

var _ pqcompress.Codec = (*Codec)(nil)

// NewCodec returns the adapter for codec c, with levels and limits set by
// opts.
func NewCodec(c codecfactory.Codec, opts ...codecfactory.Option) (*Codec, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("parquetgo: %w: %v", codecfactory.ErrUnknownCodec, c)
	}
	f, err := codecfactory.New(opts...)
	if err != nil {
		return nil, err
	}
	codec := &Codec{codec: c, f: f}
	switch c {
	case codecfactory.Gzip:
		codec.fallback = new(pqgzip.Codec)
	case codecfactory.Brotli:
		codec.fallback = new(pqbrotli.Codec)
	case codecfactory.Lz4Raw:
		codec.fallback = new(pqlz4.Codec)
	case codecfactory.Snappy:
		codec.fallback = new(pqsnappy.Codec)
	case codecfactory.Zstd:
		codec.fallback = new(pqzstd.Codec)
	}
	return codec, nil
}

// String returns the codec's Parquet name, such as "ZSTD".
func (c *Codec) String() string { return c.codec.String() }

// CompressionCodec returns the codec's value in the Parquet format.
func (c *Codec) CompressionCodec() format.CompressionCodec {
	return format.CompressionCodec(c.codec)
}

// Encode writes the compressed form of src to dst[:0], reusing dst's
// capacity, and returns it. dst's capacity must not overlap src.
func (c *Codec) Encode(dst, src []byte) ([]byte, error) {
	out, err := c.f.Compress(c.codec, dst[:0], src)
	if err != nil {
		return dst[:0], fmt.Errorf("parquetgo: %w", err)
	}
	return out, nil
}

// Decode writes the uncompressed form of src to dst[:0], reusing dst's
// capacity, and returns it. See the package documentation for how the
// size is found.
func (c *Codec) Decode(dst, src []byte) ([]byte, error) {
	switch c.codec {
	case codecfactory.Uncompressed:
		return append(dst[:0], src...), nil
	case codecfactory.Lz4, codecfactory.Lzo:
		n, err := hadoopSize(src)
		if err != nil {
			return dst[:0], err
		}
		out, err := c.f.Decompress(c.codec, dst[:0], src, n)
		if err != nil {
			return dst[:0], fmt.Errorf("parquetgo: %w", err)
		}
		return out, nil
	}
	return c.fallback.Decode(dst, src)
}

// hadoopSize adds up the chunk lengths of a Hadoop-framed page whose chunks
// hold one block each.
func hadoopSize(src []byte) (int, error) {
	total := 0
	for len(src) > 0 {
		if len(src) < 8 {
			return 0, fmt.Errorf("%w: truncated Hadoop chunk header", ErrUnknownSize)
		}
		n := int(binary.BigEndian.Uint32(src))
		m := int(binary.BigEndian.Uint32(src[4:]))
		if m > len(src)-8 {
			return 0, fmt.Errorf("%w: Hadoop block of %d bytes past the end of the page", ErrUnknownSize, m)
		}
		total += n
		if total > 1<<31-1 {
			return 0, fmt.Errorf("%w: Hadoop chunks add up to more than 2 GiB", ErrUnknownSize)
		}
		src = src[8+m:]
	}
	return total, nil
}
