// Package column reads Parquet column chunks page by page: it walks the page
// headers of a chunk, checks optional CRC32 checksums, decompresses pages
// through [codecfactory], decodes repetition and definition levels and values
// through the encoding packages, resolves dictionary indices, and returns
// each data page's values and levels in a [Page].
//
// A [File] holds a file's footer and schema; [File.Column] opens a [Reader]
// on one column chunk. A Reader reuses every buffer it owns and appends into
// the caller's Page, so reading a chunk page by page into one reused Page
// allocates nothing in steady state beyond the Page's own growth.
//
// Supported: data pages v1 (levels inside the compressed block, RLE with a
// 4-byte length prefix or the deprecated BIT_PACKED) and v2 (levels stored
// uncompressed before the values; is_compressed false; empty pages),
// one dictionary page per chunk, wherever it appears (including chunks whose
// dictionary_page_offset is 0 or unset; a dictionary page after data pages
// serves the pages after it), index pages and unknown page types (skipped by
// their size), every codec, and every encoding the specification allows for
// each physical type. Encrypted files and columns return an error wrapping
// [ErrEncrypted].
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
// factory's maximum, values per page through [MaxPageValues]).
package column
