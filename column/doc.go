// Package column reads Parquet column chunks page by page: it walks the page
// headers of a chunk, checks optional CRC32 checksums, decompresses pages
// through [codecfactory], decodes repetition and definition levels and values
// through the encoding packages, resolves dictionary indices, and returns
// each data page's values and levels in a [Page].
//
// A [File] holds a file's footer and schema ([OpenFile] opens one by path,
// [File.Close] closes it); [File.Column] opens a [Reader] on one column
// chunk, [File.LeafIndex] finds a column by its dotted path and
// [File.PageIndex] reads a chunk's column and offset indexes.
// [Reader.SeekRow] starts a chunk at a row, jumping to its page through the
// offset index, or skipping the pages before it by their headers; [File.MatchingRows] turns a predicate on the typed page
// statistics of package stats into the row ranges worth reading; under
// [WithKeepDictionary] dictionary-encoded pages keep their indices
// ([Page.Indices]) instead of resolving them. A Reader reuses every buffer it owns and appends into
// the caller's Page, so reading a chunk page by page into one reused Page
// allocates nothing in steady state beyond the Page's own growth.
// [File.ReadRowGroup] reads all the chunks of a row group at once, one
// Reader per goroutine.
//
// Over the whole file, rows are numbered from 0 across row groups
// ([File.FirstRow], [File.RowGroupOf]); [File.MatchingFileRows] returns the
// file rows whose values of one column may lie between two bounds, pruning
// row groups by their statistics and, for an equality, by their bloom
// filters ([File.BloomFilter], package bloom), then pages by the column
// index; its bounds, and those of [File.MatchingRange], are checked against
// the column's type by [stats.Column.Bound]. [Reader.ValueRows] maps the
// values of a page back to their rows. [Reader.ReadPageContext] and
// [Reader.SeekRowContext] stop between pages when their context is done.
//
// Supported: data pages v1 (levels inside the compressed block, RLE with a
// 4-byte length prefix or the deprecated BIT_PACKED) and v2 (levels stored
// uncompressed before the values; is_compressed false; empty pages),
// one dictionary page per chunk, wherever it appears (including chunks whose
// dictionary_page_offset is 0 or unset; a dictionary page after data pages
// serves the pages after it), index pages and unknown page types (skipped by
// their size), every codec, and every encoding the specification allows for
// each physical type. Encrypted files read with the keys of
// [WithDecryption]; without them, encrypted files and columns return an
// error wrapping [ErrEncrypted].
//
// The reader accepts what parquet-java, arrow-cpp, arrow-rs and DuckDB all
// accept: runs and streams that declare more values than a page needs, bytes
// after the values a page needs, a v2 num_nulls that disagrees with the
// definition levels, a chunk whose metadata names another physical type than
// its schema leaf. READING.md at the root of the repository lists every
// check, what those readers do, and why each check is kept or relaxed.
//
// Hostile files return errors, never panics: every size is checked against
// the bytes present and against limits (page size through the codec
// factory's maximum, values per page through [WithMaxPageValues], the memory of
// a Reader through [WithMaxMemory]).
//
// A Reader reads its chunk's pages from the file one at a time, through a
// window holding one compressed page, and decompresses a page only into
// memory the page really needs (see codecfactory). PLAIN BYTE_ARRAY pages
// of 1 MiB or more are compacted where they were decompressed instead of
// copied; a dictionary page is decoded once, into the form of
// encoding/dictionary that resolves the chunk's pages, and its decompressed
// buffer then serves the data pages. Reading a file needs about twice its
// largest decompressed page (the dictionary and the looked-up values), plus
// one compressed page.
//
// # Contracts
//
//   - Options are WithX functions ([WithCodecs], [WithVerifyChecksums],
//     [WithMaxPageValues], [WithMaxMemory], [WithKeepDictionary]) returning
//     an error for a bad value.
//   - The read path uses the tuned kernels of the layers below, not copies:
//     [codecfactory.Factory.DecompressShared] (an UNCOMPRESSED page aliases
//     the file window), encoding/dictionary's whole-page lookups for every
//     dictionary-encoded page, whatever the options (WithMaxMemory checks
//     byte array lookups through the dictionary's budget hook, before they
//     grow; WithKeepDictionary stops at dictionary.DecodeIndices), and the
//     encodings' whole-page decoders.
//   - One page checksum check serves ReadPage and SeekRow.
//   - Errors name the row group, column and page ([PageError]) and wrap the
//     sentinel of the layer that failed.
package column
