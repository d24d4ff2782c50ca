// Package pqcodec is the root of the pqcodec module, a Parquet reading and
// page layer for Go: codecs backed by native libraries, every encoding, the
// footer and page headers, a column-chunk reader, record assembly into
// rows, typed statistics and logical values, and page recompression. This
// package holds the sentinel errors shared by all of them ([ErrCorrupt]).
//
// The packages, from the bytes up:
//
//   - [github.com/pqcodec/pqcodec/format]: the thrift footer, page headers,
//     page index and schema tree of parquet.thrift, and the schema as
//     parquet-java's message text (format.Schema.String).
//   - [github.com/pqcodec/pqcodec/codecfactory]: every Parquet compression
//     codec (SNAPPY, GZIP, BROTLI, ZSTD, LZ4, LZ4_RAW, LZO), native where a
//     library is built in, pure Go otherwise.
//   - native/brotli, native/deflate, native/lzo, native/zstd: the cgo
//     bindings codecfactory uses (the only packages that import "C").
//   - [github.com/pqcodec/pqcodec/encoding]: the index of the value
//     encodings, one package each: encoding/plain, encoding/rle,
//     encoding/bitpacked, encoding/dictionary, encoding/delta,
//     encoding/bytestreamsplit.
//   - [github.com/pqcodec/pqcodec/column]: opens a file and reads column
//     chunks page by page into levels and values, with row seeks, page
//     pruning by the page index and bounded memory.
//   - [github.com/pqcodec/pqcodec/rows]: assembles rows from the columns'
//     levels, as JSON (what `pqcodec cat` prints) or Go values, with
//     logical types converted.
//   - [github.com/pqcodec/pqcodec/logical]: what physical values stand for
//     (timestamps, dates, times, decimals, UUIDs, intervals, FLOAT16,
//     unsigned integers), as Go values and as text.
//   - [github.com/pqcodec/pqcodec/stats]: typed, comparable statistics of
//     column chunks and pages, with the trust rules of old writers.
//   - [github.com/pqcodec/pqcodec/bloom]: split-block bloom filters, as
//     column reads them to prune row groups for equality predicates.
//   - [github.com/pqcodec/pqcodec/recompress]: rewrites a file's pages with
//     another codec without decoding values (`pqcodec rewrite`).
//   - [github.com/pqcodec/pqcodec/cmd/pqcodec]: the command: schema, inspect,
//     pages, cat, head, rowcount, size, bench, rewrite, demo.
//
// Nested modules, each with its own go.mod: adapters/arrowgo and
// adapters/parquetgo plug pqcodec's codecs into arrow-go and parquet-go;
// interop and cgo_test cross-check pqcodec against those libraries; bench
// holds the benchmarks against them.
package pqcodec
