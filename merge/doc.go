// Package merge concatenates Parquet files of one schema into one file, the
// compaction every data lake runs on its small files (parquet-java's
// ParquetRewriter with several inputs, arrow-rs's parquet-concat, DuckDB's
// COPY (SELECT * FROM read_parquet([...])) TO).
//
// [Merge] copies each source row group page by page, without decompressing
// or decoding anything: the page bytes (headers, checksums, statistics in
// them) are written as they are and only the offsets that point at them move
// (data_page_offset, dictionary_page_offset, index_page_offset, the column
// chunk's and row group's file_offset, the OffsetIndex page locations,
// bloom_filter_offset, column_index_offset, offset_index_offset). Column
// chunk statistics, encodings, encoding stats and size statistics are kept:
// they describe the same pages. Row groups whose compressed size is below
// [WithMinRowGroupSize] are combined, with their small neighbours, into
// larger ones: only those are decoded (package column) and written again
// (package writer), each column with the codec it had. The output keeps the
// inputs' order: the row groups of the first input, then those of the
// second, and so on, so its rows are the inputs' rows in input order.
//
// Every input must have the same schema: the same tree of fields with the
// same names, physical types, lengths, repetitions, annotations and field
// ids (the root's name may differ). A difference returns a *[SchemaError]
// wrapping [ErrSchemaMismatch] that names both inputs and the first field
// that differs.
//
// Work is parallel across row groups, and so across files: a pool of
// workers reads (and for combined row groups, re-encodes) row groups while a
// single writer emits them in order, with the bytes in flight bounded by
// [WithMaxMemory]; when fewer runs of row groups are combined than there
// are workers, each run is also written with that many (writer.WithWorkers).
// Each input's footer is parsed once. The output does not depend on the
// number of workers. The
// output is written in one pass of sequential writes to an io.Writer; on
// error or cancellation what was written is incomplete and must be
// discarded (pqcodec merge writes a temporary file and renames it).
//
// The footer of the output keeps the key-value metadata entries that every
// input has with the same value, and the created_by and column orders when
// every input has the same. [Verify] checks an output against its inputs.
//
// Encrypted inputs return an error wrapping [ErrEncrypted]; column chunks
// stored in other files one wrapping [ErrUnsupported].
package merge
