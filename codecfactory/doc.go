// Package codecfactory compresses and decompresses Parquet pages with every
// codec of the Parquet format (UNCOMPRESSED, SNAPPY, GZIP, LZO, BROTLI, LZ4,
// ZSTD, LZ4_RAW) behind one pooled, allocation-free API.
//
// A [Factory] is created once with [New] and shared: it is safe for
// concurrent use and keeps, per codec, a bounded list of idle compression
// and decompression contexts in a fixed array indexed by [Codec]; the lists
// survive garbage collection, so a page costs no allocation once warm when dst has the capacity ([Factory.CompressBound]
// for compression, the header's uncompressed size for decompression). The two
// calls a reader and a writer make per page are [Factory.Decompress] (dst,
// src, uncompressed size from the page header) and [Factory.Compress]
// (dst, src), both appending to dst.
//
// # Implementations
//
// With cgo, the factory binds the C libraries through pqcodec's native
// packages; without cgo, or with [WithPureGo], it uses pure-Go libraries that
// read and write the same formats:
//
//	codec         native (cgo)                pure Go
//	UNCOMPRESSED  copy                        copy
//	SNAPPY        github.com/golang/snappy    github.com/golang/snappy
//	GZIP          libdeflate                  github.com/klauspost/compress/gzip
//	LZO           liblzo2, Hadoop framing     decode only: internal/lzo, Hadoop framing
//	BROTLI        libbrotli                   github.com/andybalholm/brotli
//	LZ4           github.com/pierrec/lz4/v4 blocks in Hadoop framing (both modes)
//	ZSTD          libzstd                     github.com/klauspost/compress/zstd
//	LZ4_RAW       github.com/pierrec/lz4/v4 block API (both modes)
//
// LZO compression needs cgo and liblzo2 (not under the nolzo build tag):
// elsewhere Compress returns [ErrUnavailable]; LZO pages still decompress
// with pqcodec's pure-Go LZO1X decoder. [Factory.Implementation] names the
// library used for each codec.
//
// GZIP pages are compressed with libdeflate when cgo is available. On
// Parquet-shaped data (the eight 1 MiB datasets of the package benchmarks:
// small-delta integers, timestamps, random and smooth doubles, booleans,
// low- and high-cardinality strings, bit-packed indices; 8 MiB in all),
// compressed sizes against zlib 1.x (measured with Python's zlib module)
// were:
//
//	level  zlib       libdeflate           klauspost/compress/gzip
//	1      4,048,296  3,897,911 (-3.7%)    4,636,923 (+14.5%)
//	6      3,829,591  3,822,430 (-0.2%)    4,039,866 (+5.5%)
//	9      3,808,162  3,811,198 (+0.1%)    3,734,514 (-1.9%)
//
// klauspost's encoder is faster at levels 1 and 6 (about 2.3x at level 6)
// but misses the 2% ratio budget there; at level 9 both are within budget
// and libdeflate was 1.7x faster. libdeflate is therefore used at every
// level.
//
// # Formats
//
// LZ4 (codec 5) and LZO (codec 3) pages are written by parquet-java through
// Hadoop's BlockCompressorStream: a page is a sequence of chunks, each a
// big-endian uint32 uncompressed length followed by one or more pieces
// (big-endian uint32 compressed length and one block) until that length is
// produced. Decompress accepts any number of chunks and of pieces per chunk.
// Compress writes one piece per chunk and keeps every chunk within what
// Hadoop's decompressors accept: at most 261,100 bytes for LZ4 and 245,693
// for LZO (Hadoop's 256 KiB buffer less the codec's compression overhead,
// as Hadoop itself writes). An LZ4 page of more than one chunk ends with a
// full chunk after one of at most half a chunk, which arrow-rs's Hadoop
// frame loop needs (it reads on only while the input left is larger than
// the frame it just read). When a page under codec 5 is not valid Hadoop
// framing, Decompress tries the LZ4 frame format and then a single raw LZ4
// block, which other writers have stored under that codec.
//
// # Untrusted sizes
//
// The uncompressed size passed to Decompress comes from a page header and is
// not trusted. Sizes above the maximum page size ([WithMaxPageSize], default
// [DefaultMaxPageSize] = 1.5 GiB, above the 1 GiB pages of parquet-testing's
// large_string_map.brotli.parquet) fail with [ErrPageTooLarge] before
// anything is allocated. Where the format states or bounds the real size up
// front, a disagreement fails with [ErrSizeMismatch], also before
// allocating: the zstd frame headers (content sizes, or 128 KiB per block),
// the snappy preamble, the first Hadoop chunk length of LZO pages, the gzip
// ISIZE trailer and deflate's 1032:1 bound, and the 256:1 bound of LZ4 and
// LZO blocks (LZ4 pages may be any of three formats, so only the bound
// applies before allocating; every Hadoop chunk length is checked against
// the declared size before its chunk is decoded). Brotli states
// nothing up front and can legitimately expand 1.6 KB into 1 GiB, so for
// BROTLI only the maximum page size bounds the allocation. Output longer or
// shorter than declared fails with [ErrSizeMismatch]: never a truncated page,
// never a buffer grown past the declared size.
//
// # Allocations
//
// Every codec compresses and decompresses without allocating once warm,
// in both modes, with one exception: the pure-Go BROTLI decoder
// (github.com/andybalholm/brotli) allocates the context maps of each
// metablock, three small slices per metablock.
package codecfactory
