// Package recompress rewrites a Parquet file with its pages compressed by
// another codec, without decoding a single value: every page is
// decompressed with the codec it was written with and compressed again with
// the target codec, and everything else (schema, statistics, encodings,
// levels, key-value metadata, page indexes, bloom filters) is carried over.
// It is the Go counterpart of parquet-java's ParquetRewriter
// trans-compression and arrow-rs's parquet-rewrite.
//
// [Rewrite] streams the output to an io.Writer in one pass: a pool of
// workers recompresses pages while a single writer emits them in file order,
// so the output bytes do not depend on the number of workers. The pages in
// flight are bounded by a memory budget. [Verify] re-reads a source and its
// rewritten output and checks that every page decompresses to the same
// bytes.
//
// What changes in the output: the codec and compressed sizes of every column
// chunk, the page headers (compressed_page_size, crc, and for data pages v2
// is_compressed, and uncompressed_page_size where the source's disagreed
// with a values section stored uncompressed, which is read as it is, as
// the column reader reads it: [format.SplitDataPageV2]), every offset that moved (data_page_offset,
// dictionary_page_offset, index_page_offset, the column chunk and row group
// file_offset, the OffsetIndex page locations, bloom_filter_offset,
// column_index_offset, offset_index_offset) and total_uncompressed_size,
// which counts the page headers. Data pages v2 keep their levels
// uncompressed; their values section is stored uncompressed, with
// is_compressed false, when compressing does not make it smaller. Index
// pages and page types from the future are copied unchanged. Output layout:
// the column chunks in footer order, then the bloom filters, column indexes
// and offset indexes, then the footer.
//
// What is dropped: bytes between and after column chunks that no metadata
// points at, and thrift fields unknown to package format in page headers and
// in the footer. A page index whose page locations do not match the pages
// of the chunk is dropped (counted in [Result.DroppedPageIndexes]), as is a
// bloom filter that cannot be located.
//
// The target is one codec and level for every column ([WithCodec]) or per
// leaf column ([WithColumnCodec]); the [Keep] target copies a column's pages
// unchanged.
//
// Encryption (Parquet Modular Encryption): [WithDecryption] gives the keys
// of an encrypted source, [WithEncryption] encrypts the output; together
// they re-key a file. Pages are decrypted and encrypted again as modules
// with the AADs of their new place, never decoded; [VerifyDecrypt] checks
// such a rewrite. Without keys an encrypted file returns an error wrapping
// [ErrEncrypted]. Column chunks stored in other files (file_path set)
// return one wrapping [ErrUnsupported].
package recompress
