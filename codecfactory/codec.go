package codecfactory

import (
	"fmt"
	"strconv"
	"strings"
)

// Codec is a Parquet compression codec, with the values of the
// CompressionCodec enum of the Parquet thrift definition, so a Codec converts
// to and from the column metadata field directly.
type Codec int32

// The Parquet compression codecs.
const (
	Uncompressed Codec = 0
	Snappy       Codec = 1
	Gzip         Codec = 2
	// Lzo is LZO1X blocks in Hadoop framing, as parquet-java writes them.
	Lzo    Codec = 3
	Brotli Codec = 4
	// Lz4 is the deprecated LZ4 codec: LZ4 blocks in Hadoop framing, as
	// parquet-java writes them. Readers also meet the LZ4 frame format and
	// bare LZ4 blocks under this value (see [Factory.Decompress]).
	Lz4  Codec = 5
	Zstd Codec = 6
	// Lz4Raw is a single LZ4 block without framing.
	Lz4Raw Codec = 7
)

// numCodecs sizes the per-codec arrays of a Factory.
const numCodecs = 8

var codecNames = [numCodecs]string{"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"}

// Valid reports whether c is one of the eight Parquet codecs.
func (c Codec) Valid() bool { return c >= 0 && c < numCodecs }

// String returns the codec's name in the Parquet thrift definition, such as
// "ZSTD" or "LZ4_RAW", or "Codec(n)" for an unknown value.
func (c Codec) String() string {
	if c.Valid() {
		return codecNames[c]
	}
	return "Codec(" + strconv.Itoa(int(c)) + ")"
}

// Parse returns the codec named s. Case, '_' and '-' are ignored, so "zstd",
// "ZSTD", "LZ4_RAW", "lz4raw" and "lz4-raw" all parse; "none" is an alias of
// UNCOMPRESSED, "gz" of GZIP, "zstandard" of ZSTD. "lz4" is the Hadoop-framed
// LZ4 codec (value 5), not LZ4_RAW. Unknown names return an error wrapping
// [ErrUnknownCodec].
func Parse(s string) (Codec, error) {
	key := strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return -1
		}
		return r
	}, strings.ToLower(strings.TrimSpace(s)))
	switch key {
	case "uncompressed", "none":
		return Uncompressed, nil
	case "snappy":
		return Snappy, nil
	case "gzip", "gz":
		return Gzip, nil
	case "lzo":
		return Lzo, nil
	case "brotli":
		return Brotli, nil
	case "lz4":
		return Lz4, nil
	case "zstd", "zstandard":
		return Zstd, nil
	case "lz4raw":
		return Lz4Raw, nil
	}
	return 0, fmt.Errorf("%w: %q", ErrUnknownCodec, s)
}

// MarshalText returns the codec's [Codec.String] name; unknown values are an
// error wrapping [ErrUnknownCodec].
func (c Codec) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("%w: %d", ErrUnknownCodec, int32(c))
	}
	return []byte(c.String()), nil
}

// UnmarshalText sets c to the codec named by text, as [Parse] does.
func (c *Codec) UnmarshalText(text []byte) error {
	v, err := Parse(string(text))
	if err != nil {
		return err
	}
	*c = v
	return nil
}
