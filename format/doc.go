// Package format holds pqcodec's Parquet metadata layer: Go types for the
// structs of parquet.thrift
// (https://github.com/apache/parquet-format/blob/master/src/main/thrift/parquet.thrift),
// their thrift compact-protocol decoders and encoders, footer reading, the
// schema tree and a page walker.
//
// Decoding is hostile-input safe: every length is checked against the bytes
// that remain before allocating, nesting is bounded, unknown fields and union
// members are skipped (an unknown LogicalType is kept, see
// [LogicalTypeKind.Known]), and errors wrap [ErrCorrupt], [ErrEncrypted] or
// [ErrNotParquet]. Deviations from the letter of parquet.thrift, each needed
// by real files:
//   - KeyValue.value is optional (parquet-go requires it and fails on
//     column_chunk_key_value_metadata.parquet);
//   - a missing ColumnChunk.file_offset reads as its default 0;
//   - lists of i16, i32 and i64 are accepted for one another, as the
//     generated Java and C++ readers do;
//   - a field whose wire type does not match its declaration is skipped like
//     an unknown field, again as generated readers do.
//
// [DecodePageHeader] does not allocate; [DecodeFileMetaData] copies what it
// keeps. [ReadFooter] reads a file's footer, [NewSchema] builds the schema
// tree with the levels of each leaf, and [FileMetaData.ColumnChunkRange],
// [ReadColumnChunk] and [PageWalker] walk a column chunk's pages;
// [ReadColumnIndex] and [ReadOffsetIndex] read its page index.
//
// One shape serves every struct decoder: a field loop (a range over the
// decoder's fieldsOf iterator, which the compiler inlines) and one
// required-fields table per struct, checked the same way once the struct
// ends. So the decoders look
// alike by design; what differs is their fields. Each struct has one decoder
// and one encoder, used by every reader and writer above (the footer, the
// page index, the column reader, recompress).
package format
