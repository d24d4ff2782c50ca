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
//	SNAPPY        github.com/golang/snappy    github.com/golang/snappy (levels 2-3: s2, both modes)
//	GZIP          libdeflate                  github.com/klauspost/compress/gzip
//	LZO           liblzo2, Hadoop framing     decode only: internal/lzo, Hadoop framing
//	BROTLI        libbrotli                   github.com/andybalholm/brotli
//	LZ4           github.com/pierrec/lz4/v4 blocks in Hadoop framing (both modes)
//	ZSTD          libzstd                     github.com/klauspost/compress/zstd
//	LZ4_RAW       github.com/pierrec/lz4/v4 block API (both modes)
//
// LZO compression needs cgo and liblzo2 (not under the nolzo build tag):
// elsewhere Compress returns [ErrUnavailable]; LZO pages still decompress
// with pqcodec's pure-Go LZO1X decoder. [Factory.CanCompress] is the one
// check of whether this build compresses a codec; [Factory.Implementation]
// names the library used for each codec.
//
// # Contracts
//
//   - Options are WithX functions returning an error wrapping [ErrOption]
//     for a bad value; ranges and defaults are the native packages' own
//     constants (zstd's MinLevel/MaxLevel, brotli's DefaultQuality, ...),
//     never retyped literals.
//   - [Factory.Decompress] writes into dst's spare capacity, reused by
//     capacity; [Factory.DecompressShared] is its zero-copy form for
//     UNCOMPRESSED pages, and the one column's reader calls.
//   - Every native binding is adapted by one generic adapter (native.go),
//     every pure-Go stream encoder by one stream compressor; the bindings'
//     own contract is written in native/internal/cbuf.
//   - Each header has one parser: zstd frame headers are read by
//     native/zstd.ParseFrameHeader (pure Go, both builds), Hadoop framing by
//     internal/hadoop. A legacy zstd frame (v0.4 to v0.7), whose size the
//     parser leaves unknown, is refused with [ErrCorrupt] in both builds:
//     Parquet's ZSTD is RFC 8878, and the pure-Go decoder cannot read it.
//
// # Levels
//
// Each codec that has levels takes them from an option: [WithZstdLevel]
// (libzstd's, default 3), [WithGzipLevel] (1-9, default 6), [WithBrotli]
// (quality 0-11, default 8, and window), [WithLzoLevel] (LZO1X-1 or -999),
// [WithLz4Level] (0, pierrec's fast compressor, or 1-9 its high-compression
// one) and [WithSnappyLevel] (1 golang/snappy; 2 and 3 klauspost s2's
// Snappy-compatible better and best encoders). Every level of a codec is
// read by the same decompressor. `make bench-levels` measures each level
// against every peer's (bench/LEVELS.md).
//
// GZIP pages are compressed with libdeflate when cgo is available, at every
// level: on Parquet-shaped data it stays within 2% of zlib's sizes at every
// level and is faster than the pure-Go encoder where that one stays within
// budget too. The measured sizes and speeds are in BENCHMARKS.md at the
// root of the repository (Compression codecs; GZIP against zlib).
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
// the declared size before its chunk is decoded). Where the bytes cannot
// produce the size their own header states (a snappy preamble beyond
// snappy's 64:3 expansion, a zstd block above 128 KiB), the page is corrupt
// and fails with [ErrCorrupt].
//
// Brotli states nothing up front and can legitimately expand 1.6 KB into 1
// GiB, and deflate's bound still lets 1.4 MB of garbage claim 1.4 GiB, so
// for BROTLI and GZIP a declared size above 16 times the compressed size
// (and above 1 MiB) is not trusted when dst lacks the room: BROTLI and the
// pure-Go GZIP decoder first decode the stream without keeping the output,
// to measure it, and then allocate exactly that once (twice the decoding
// work for such pages, never more memory than the stream produces);
// libdeflate, which cannot stream, gets 16 times the compressed size and
// decodes again into twice the room each time the stream really produces
// more, up to the declared size. Either way the memory a page costs is
// proportional to what it decodes to, not to what its header claims. A dst
// with the declared size of spare capacity is always used as is.
// Output longer or shorter than declared fails with [ErrSizeMismatch]:
// never a truncated page, never a buffer grown past the declared size.
//
// # Allocations
//
// Every codec compresses and decompresses without allocating once warm,
// in both modes, with one exception: the pure-Go BROTLI decoder
// (github.com/andybalholm/brotli) allocates the context maps of each
// metablock, three small slices per metablock.
package codecfactory
