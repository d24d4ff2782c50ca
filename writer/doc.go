// Package writer writes Parquet files: the write half of pqcodec's page
// layer, on the same encoders (through the one (encoding, type) table of
// internal/enctable), codecs (codecfactory), thrift encoders (format) and
// sort orders (stats) that the readers use.
//
// A [Writer] takes batches of one leaf column at a time, in the shape
// column.Page gives them: the non-null values (column.Values: typed slices,
// byte arrays as flat bytes plus offsets), one definition level per value
// or null, and one repetition level per value for repeated columns:
//
//	s, _ := format.ParseSchema(`message m {
//		required int64 id;
//		optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
//	}`)
//	w, _ := writer.New(out, s)
//	w.Write(0, &column.Values{Type: format.Int64, Int64s: ids}, nil, nil)
//	w.Write(1, tagValues, tagDef, tagRep)
//	...
//	err := w.Close()
//
// [Writer.Write] is the column-chunk writer: its (column, values,
// definition levels, repetition levels) is the shape of arrow-go's
// ColumnChunkWriter.WriteBatch (typed values, defLevels, repLevels) with
// the column chosen by index instead of by a writer per column, and the
// values typed by column.Values instead of a type per writer. There is no
// separate column writer type: a chunk is written, as in arrow-go, inside
// a row group of a file, where its offsets and metadata live; to write one
// column chunk, write a schema of one column and Flush, and every batch
// of one column until Flush is one chunk.
//
// Each column's batches are cut into data pages by size and by row count,
// never inside a row (data pages v2 must start rows), encoded, compressed
// and checksummed as they fill, with their statistics in the page header.
// The compressed pages of a row group are held in memory until it is
// flushed: when every column holds the same number of rows and the row
// group reached its size or row count or the memory budget (below), after
// a Write, or on Flush and Close. Row groups are cut between batches:
// write batches of a bounded number of rows, one of each column in turn
// (a round), for row groups near the target.
//
// Dictionary encoding (RLE_DICTIONARY data pages after a PLAIN dictionary
// page) falls back, once the dictionary passes its limit, to the encoding
// of WithEncoding for the rest of the chunk, as parquet-java and arrow do;
// and after any page once the chunk's dictionary-encoded pages and its
// dictionary are no smaller than those pages would be in that encoding,
// compressed (its ratio measured on the first 64 KiB of the chunk's
// values, written both ways): after the first page this is parquet-java's
// rule, after later pages it stops a dictionary of values that keep
// coming new (a random walk, ids) whose indices compress worse than the
// values themselves. A first page whose values are nearly all new (nine
// in ten) is cut after its first 64 KiB of values, where the rule
// decides, rather than grow a dictionary of the whole page only to drop
// it.
// Statistics follow the specification: min and max in the column's sort
// order (signed, unsigned for UINT, bytes unsigned, DECIMAL as two's
// complement, FLOAT16 by value), NaN never a min or max, a zero min written
// as -0 and a zero max as +0, no min or max for orders the specification
// leaves undefined (INT96, INTERVAL); byte-array bounds of the column index
// truncated to 64 bytes (the max rounded up) as parquet-java does. The
// ColumnIndex is left out for a chunk with a page of NaNs only, as
// parquet-java leaves it out. Every min and max carries its exactness
// (is_min_value_exact, is_max_value_exact), as arrow-rs writes it: exact
// unless [WithStatisticsTruncate] cut a byte-array bound of a chunk or a
// page header (off by default, as in parquet-java; arrow-rs cuts at 64
// bytes). With statistics come SizeStatistics as
// arrow-rs writes them: in ColumnMetaData the bytes of a BYTE_ARRAY
// chunk's values without length prefixes and the histograms of the
// repetition and definition levels (each when its maximum level is above
// 0); per page, the level histograms in the ColumnIndex and the
// BYTE_ARRAY bytes in the OffsetIndex.
//
// [WithBloomFilter] adds a split-block bloom filter (package bloom) to
// each column chunk, sized for a number of distinct values at a
// false-positive probability, written after its row group's column chunks
// as arrow-rs writes them by default. Every value is inserted: on a loaded
// 2-core AMD EPYC (Zen 5), filters of 512 KiB on five columns of 240 Ki
// rows took 2.7x the CPU time of the file without them (bench/WRITER.md),
// the random access to the bitset per value.
//
// # Defaults
//
// The defaults are what today's writers converged on:
//
//   - Codec ZSTD at codecfactory's default level (3): Polars' default;
//     parquet-java, arrow-cpp, DuckDB and Spark default to SNAPPY (arrow-rs
//     to none), but ZSTD gives files about a third smaller and our native
//     zstd compresses a page in about the time snappy does on the foreign
//     corpus (bench/LEVELS.md). WithCodec(codecfactory.Snappy) for the
//     fastest writes.
//   - Pages of 1 MiB before compression and at most 20,000 rows: the page
//     size of parquet-java, arrow-cpp and arrow-rs, and the row limit of
//     parquet-java and arrow-rs.
//   - Dictionary on, limit 1 MiB, fallback PLAIN: parquet-java, arrow-cpp
//     and arrow-rs.
//   - Row groups of 128 MiB (parquet-java's block size) or 1 Mi rows
//     (arrow-cpp and arrow-rs), whichever comes first; DuckDB's 122,880
//     rows and Polars' 250,000 are smaller, for parallel scans of small
//     files.
//   - Data pages v1: what parquet-java, arrow-cpp, arrow-rs and DuckDB
//     write by default and what every reader reads; v2 on request.
//   - Statistics, ColumnIndex and OffsetIndex on (all four), page CRC32 on
//     (parquet-java since 1.12; cheap next to compression).
//
// # Memory
//
// [WithMaxMemory](n), 256 MiB by default ([DefaultMaxMemory]), bounds
// the bytes a Writer counts as buffered, across all its columns: the
// compressed pages of the row group (headers included); each column's
// current page, its levels at 2 bytes each and its values at their PLAIN
// size (4-byte length and bytes for BYTE_ARRAY), or 4 bytes per index
// while dictionary-encoded; and each column's dictionary, the PLAIN size
// of its values plus 8 bytes per value. The count is taken where every
// column holds the same rows, at the end of each round of batches (under
// WithWorkers, pages still in compression there are bounded by their
// largest compressed size until they are appended, and waited for when
// the bound cannot decide). There, the row group is flushed early (below
// WithRowGroupSize and WithRowGroupRows) when the count plus the largest
// round of batches so far reaches n, and before a batch that would take
// the count past n; parquet-java's memory manager shrinks row groups the
// same way. Inside a round no row group can be cut: a round of batches
// larger than what the budget leaves is buffered whole (its values are the
// caller's memory already) and the row group is flushed as soon as the
// round ends, the first place it can be cut; a Write never fails for the
// budget. With rounds that fit (none larger than the largest so far), the
// count never passes n; with a larger round, by that round's pages.
//
// Not counted: per column, the scratch of one encoded and one compressed
// page (each about the page size) and of the dictionary page (at most the
// dictionary limit), the bloom filter's bitset, and under WithWorkers(w)
// the copy of each column's batch in flight and the scratch of up to w
// pages in compression per column (an encoded and a compressed page each,
// from a pool the process's Writers share and the collector empties);
// the capacity of the buffers of
// compressed pages beyond their length, which a column keeps across row
// groups up to twice what it needed in the last one (so at most n more);
// the caller's own batches; and, growing with the file until Close, the
// footer's metadata and page indexes of the row groups written (under a
// hundred bytes per page, plus byte-array bounds of up to 64 bytes each). With Go's default GOGC=100 the heap may
// grow to twice the live bytes before a collection, so the process's peak
// RSS is bounded by 2 × (2n + columns × (2 × page size + dictionary
// limit)) (2 × (w + 1) × page size under WithWorkers(w), and the batches
// in flight) plus the runtime's and the native codecs' own memory (64 MiB
// allowed for them in the test). TestWriteRSS (make test-memory) writes 2
// GB of generated rows of six columns (sequential and random INT64,
// random DOUBLE, random 24-byte BYTE_ARRAY, 64 dictionary strings with
// nulls, a list of INT32) in rounds of 8,192 rows with 128 MiB row groups,
// and fails past that bound (1,124 MiB for the default budget, 356 MiB
// for 64 MiB). On a loaded 2-core AMD EPYC (Zen 5), 2,000 MB of rows
// into 1,112 MB of file, 8-13 s of CPU per run (two runs of the test):
//
//	budget            row groups          peak RSS (VmHWM)   bound
//	256 MiB default   9, at most 128 MiB  396-449 MiB        1,124 MiB
//	64 MiB            18, at most 62 MiB  247-265 MiB          356 MiB
//
// the same under ulimit -v 2 GiB. With WithWorkers(2) (bound 2 × (w + 1)
// pages per column), on an Intel Xeon (2 vCPUs, 2026-12-03): 249 MiB under
// the default budget (bound 1,172 MiB; 217 MiB with one worker) and 187
// MiB under 64 MiB (bound 404; 178-180 with one). The default budget
// leaves row groups at their 128 MiB target; a budget below it shrinks
// them, and RSS with them.
// The address space peaks at 1.8-2.0 GiB (VmPeak), most of it reserved,
// not used: about 1 GiB by the Go runtime and 64 MiB per thread that
// called into the native codecs (glibc's malloc arenas, which fall back to
// the main arena when a reservation fails, as under ulimit -v 2 GiB);
// under ulimit -v 1.5 GiB the Go runtime fails with 54 MB of heap in use.
//
// # Ownership and concurrency
//
// Write copies what it keeps: the caller may reuse v, def and rep as soon
// as it returns. A Writer is not safe for concurrent use; many Writers, on
// several goroutines, may share one codecfactory.Factory (WithCodecs). A
// Writer reuses its page buffers, dictionaries and codec contexts, so once
// warm it allocates nothing per page (TestZeroAllocsPerPage).
//
// [WithWorkers](n) cuts, encodes and compresses the columns of a row group
// on up to n goroutines: Write checks and copies a batch, and the column's
// work runs while the caller writes the next column's batch; the pages of
// a column that are not dictionary-encoded are compressed on up to n
// goroutines while its next page fills (a column writing PLAIN values
// without a dictionary fills them inside Write, its work there being about
// the copy of the batch it spares). A column's batches run in order,
// its pages are appended in order, and row groups are cut where they are
// without workers, so the file is the same, byte for byte, for any n
// (TestWorkersSameBytes). Write a batch of each column in turn to keep
// the workers busy; an error of the background work (a codec's, the
// io.Writer's) comes back from a later call. The buffers of the pages in
// compression come from a pool shared by every Writer of the process, and
// a closed Writer hands its copies of batches to the next one with its
// other buffers, so a warm Writer with workers allocates about what one
// without does (TestWorkersRecycled).
//
// # Errors
//
// Input that cannot be written returns an error wrapping one sentinel per
// kind (ErrType, ErrLevel, ErrNull, ErrRepetition, ErrRowCount,
// ErrTooLarge, ErrSchema), each matching pqcodec.ErrInvalidInput; errors of the
// io.Writer and the codecs are wrapped as they are. After any error
// the Writer is failed: later calls return the error and Close writes no
// footer, so a file is never left looking complete when it is not.
//
// [WithSortingColumns] declares the rows' sort order, written as every
// row group's sorting_columns (read back in column.File's MetaData, and by
// arrow-go as RowGroupMetaData.SortingColumns).
//
// # Encryption
//
// [WithEncryption] writes Parquet Modular Encryption: AES_GCM_V1 or
// AES_GCM_CTR_V1, an encrypted footer or a signed plaintext one, every
// column with the footer key or chosen columns with their own keys, an AAD
// prefix stored or not (package encryption's WriteProperties). arrow-go's
// decrypting reader reads every such configuration
// (cgo_test.TestWriterEncryptedReadByArrow).
package writer
