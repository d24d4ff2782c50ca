package format

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/pqcodec/pqcodec/internal/thrift"
)

// ChunkRange is the file range to read for a column chunk: Length bytes
// from Start as declared by its metadata, plus Slack bytes that a walk may
// need because the writer under-declared the length (see
// [FileMetaData.ColumnChunkRange]). NumValues is the chunk's num_values; when
// positive, a [PageWalker] stops after the data page that completes it.
type ChunkRange struct {
	Start, Length, Slack int64
	NumValues            int64
}

// PageRange returns the file range [start, start+length) declared for the
// pages of column chunk c in a file of fileSize bytes.
//
// The range starts at dictionary_page_offset when it is set and valid (at or
// past the leading magic) and either below data_page_offset or
// data_page_offset is invalid (an empty chunk holding only a dictionary page
// may have data_page_offset 0); it starts at data_page_offset otherwise. Some
// writers store 0 in dictionary_page_offset, and some write a dictionary
// page at data_page_offset without setting it; both cases start at
// data_page_offset and the walk finds the dictionary page there. The length
// is total_compressed_size. A chunk of no values and no bytes is empty
// wherever its offsets point. It returns [ErrEncrypted] for encrypted chunks
// and an error wrapping [ErrCorrupt] for chunks without metadata or whose
// range falls outside the file.
func (c *ColumnChunk) PageRange(fileSize int64) (start, length int64, err error) {
	if c.Encrypted() {
		return 0, 0, fmt.Errorf("%w: column chunk is encrypted", ErrEncrypted)
	}
	m := c.MetaData
	if m == nil {
		return 0, 0, fmt.Errorf("%w: column chunk without meta_data", ErrCorrupt)
	}
	const first = int64(len(magic)) // no page can start inside the leading magic
	start = m.DataPageOffset
	if p := m.DictionaryPageOffset; p != nil && *p >= first && (*p < start || start < first) {
		start = *p
	}
	length = m.TotalCompressedSize
	if length == 0 && m.NumValues == 0 {
		// An empty chunk (arrow-go writes one for each column of a table
		// without rows, with data_page_offset 0) has no pages to read,
		// wherever it claims to start.
		return min(first, fileSize), 0, nil
	}
	if start < first || length < 0 || start > fileSize || length > fileSize-start {
		return 0, 0, fmt.Errorf("%w: column chunk range [%d, +%d) outside file of %d bytes",
			ErrCorrupt, start, length, fileSize)
	}
	return start, length, nil
}

// maxDictHeaderSlack is the slack allowed for files hit by PARQUET-816.
const maxDictHeaderSlack = 100

// ColumnChunkRange returns the range to read for column chunk c of m in a
// file of fileSize bytes: [ColumnChunk.PageRange] and the chunk's
// num_values, plus up to 100 bytes of Slack (bounded by the file size) when
// m was written by parquet-mr before 1.2.9, which left the dictionary page header out of total_compressed_size
// (PARQUET-816, IMPALA-694). [PageWalker] stops at the first page boundary
// at or past Length, so the slack is read only by the page that needs it.
func (m *FileMetaData) ColumnChunkRange(c *ColumnChunk, fileSize int64) (ChunkRange, error) {
	start, length, err := c.PageRange(fileSize)
	if err != nil {
		return ChunkRange{}, err
	}
	r := ChunkRange{Start: start, Length: length, NumValues: c.MetaData.NumValues}
	if m.CreatedBy != nil && parquet816(*m.CreatedBy) {
		r.Slack = min(maxDictHeaderSlack, fileSize-(start+length))
	}
	return r, nil
}

// parquet816 reports whether createdBy names parquet-mr older than 1.2.9
// ("parquet-mr version 1.2.8 (build ...)"; a missing version counts as old).
func parquet816(createdBy string) bool {
	app, v := WriterVersion(createdBy)
	return app == "parquet-mr" && (v[0] < 1 || v[0] == 1 && (v[1] < 2 || v[1] == 2 && v[2] < 9))
}

// WriterVersion parses the application and its version x.y.z from a
// created_by string of the form "app version x.y.z ..." (as parquet-mr,
// parquet-cpp and others write it). A missing or partial version reads as
// zeros, which readers treat as the oldest release.
func WriterVersion(createdBy string) (app string, version [3]int) {
	app, rest, _ := strings.Cut(createdBy, " ")
	rest, ok := strings.CutPrefix(rest, "version ")
	if !ok {
		return app, version
	}
	for i := range version {
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' && version[i] < 1e6 {
			version[i] = version[i]*10 + int(rest[j]-'0')
			j++
		}
		rest = rest[j:]
		if !strings.HasPrefix(rest, ".") {
			break
		}
		rest = rest[1:]
	}
	return app, version
}

// ReadColumnChunk reads the Length+Slack bytes of rng from r into dst,
// reusing dst's capacity, and returns them. dst may be nil. rng should come
// from [FileMetaData.ColumnChunkRange], which bounds it by the file size.
func ReadColumnChunk(dst []byte, r io.ReaderAt, rng ChunkRange) ([]byte, error) {
	n := rng.Length + rng.Slack
	if rng.Start < 0 || rng.Length < 0 || rng.Slack < 0 || n < 0 {
		return dst[:0], fmt.Errorf("%w: invalid column chunk range %+v", ErrCorrupt, rng)
	}
	if int64(cap(dst)) < n {
		dst = make([]byte, n)
	}
	dst = dst[:n]
	if err := ReadAt(r, dst, rng.Start); err != nil {
		return dst[:0], fmt.Errorf("format: reading column chunk at %d: %w", rng.Start, err)
	}
	return dst, nil
}

// PageWalker iterates over the pages of a column chunk held in memory: each
// step decodes a page header and slices the compressed_page_size bytes of its
// body that follow.
//
//	rng, err := md.ColumnChunkRange(cc, fileSize)
//	chunk, err := format.ReadColumnChunk(buf, f, rng)
//	w := format.NewPageWalker(chunk, rng)
//	for w.Next() {
//		h, body := w.Header(), w.Body()
//		...
//	}
//	if err := w.Err(); err != nil { ... }
//
// The walk ends after the data page whose values bring the total to
// rng.NumValues when that is positive (as parquet-java and parquet-cpp stop,
// ignoring trailing bytes inside the declared range), and otherwise at the
// first page boundary at or past the declared length; a page may extend into
// the slack but not past it. Header and Body alias the chunk and are valid
// until the next call to Next. Every header and body is checked against the
// end of the buffer; a page running past it ends the walk with an error
// wrapping [ErrCorrupt]. Walking does not allocate. A PageWalker is not safe
// for concurrent use.
type PageWalker struct {
	// In streaming mode (ResetReaderAt), chunk is a window of the chunk's
	// bytes starting at chunk offset winAt, read from src on demand; avail
	// is how many bytes of the chunk src may be read for.
	src    io.ReaderAt
	winAt  int
	avail  int
	chunk  []byte
	end    int   // declared length: the walk stops at a page boundary at or past it
	want   int64 // values after which the walk stops, if positive
	values int64 // values in the data pages walked so far
	base   int64 // file offset of chunk[0], for error messages and Offset
	next   int   // offset of the next page header in chunk
	cur    int   // offset of the current page header in chunk
	header PageHeader
	hlen   int
	body   []byte
	// bodyUnread is set when NextHeader left the current page's body
	// unread.
	bodyUnread bool
	err        error
	crypt      walkerCrypt // encryption: see SetDecryptor (pages_encrypted.go)
}

// NewPageWalker returns a PageWalker over chunk, the bytes of rng as read by
// [ReadColumnChunk]. rng.Start is used for Offset and error messages;
// rng.Length is where the walk ends. A chunk shorter than rng.Length ends
// the walk with an error at the page that overruns it.
func NewPageWalker(chunk []byte, rng ChunkRange) *PageWalker {
	w := new(PageWalker)
	w.Reset(chunk, rng)
	return w
}

// Reset makes w walk chunk from its start, as [NewPageWalker] does.
func (w *PageWalker) Reset(chunk []byte, rng ChunkRange) {
	end := len(chunk)
	if rng.Length >= 0 {
		end = int(min(rng.Length, int64(len(chunk))+1)) // past len(chunk): the walk errors there
	}
	*w = PageWalker{chunk: chunk, end: end, base: rng.Start, want: rng.NumValues}
}

// Stream buffer sizes of a PageWalker reading from an io.ReaderAt.
const (
	// streamReadAhead is the least a refill reads, so that small pages
	// cost one read per several pages.
	streamReadAhead = 64 << 10
	// maxStreamHeader bounds the window a page header may need (headers
	// carry statistics, so they may be large, but not larger than this).
	maxStreamHeader = 64 << 20
	// headerReadAhead is the least NextHeader reads: enough for a header
	// with statistics of short values, so that skipping a page costs
	// one small read and not its body.
	headerReadAhead = 1 << 10
)

// ResetReaderAt makes w walk the column chunk rng of r, as [ReadColumnChunk]
// and [PageWalker.Reset] would, but without reading the chunk into memory:
// each page's header and body are read on demand into a window buffer that
// holds one page (its header and compressed body, at least 64 KiB) and is
// reused from page to page. buf, which may be nil, is the window's initial
// storage; [PageWalker.Buffer] returns it for reuse by a later walk. Header
// and Body alias the window and are valid until the next call to Next.
// Read errors end the walk with an error wrapping the reader's.
func (w *PageWalker) ResetReaderAt(r io.ReaderAt, rng ChunkRange, buf []byte) {
	*w = PageWalker{src: r, chunk: buf[:0], base: rng.Start, want: rng.NumValues}
	n := rng.Length + rng.Slack
	if rng.Start < 0 || rng.Length < 0 || rng.Slack < 0 || n < 0 || n > math.MaxInt-maxStreamHeader {
		w.err = fmt.Errorf("%w: invalid column chunk range %+v", ErrCorrupt, rng)
		return
	}
	w.avail, w.end = int(n), int(rng.Length)
}

// Buffer returns the storage of the window of a streaming walk (see
// [PageWalker.ResetReaderAt]), or of the chunk given to Reset.
func (w *PageWalker) Buffer() []byte { return w.chunk[:0] }

// fill makes the window hold the chunk's bytes [from, to), to <= w.avail,
// reading at least ahead bytes when it reads. It reports whether the window
// moved (invalidating what aliased it).
func (w *PageWalker) fill(from, to, ahead int) (bool, error) {
	if from >= w.winAt && to <= w.winAt+len(w.chunk) {
		return false, nil
	}
	end := min(w.avail, max(to, from+ahead))
	n := end - from
	// The window's bytes from from on, if any, are kept, not read again.
	var keep []byte
	if from >= w.winAt && from < w.winAt+len(w.chunk) {
		keep = w.chunk[from-w.winAt:]
	}
	if cap(w.chunk) < n {
		c := make([]byte, n)
		copy(c, keep)
		w.chunk = c
	} else {
		copy(w.chunk[:n], keep)
	}
	w.chunk, w.winAt = w.chunk[:n], from
	if err := ReadAt(w.src, w.chunk[len(keep):], w.base+int64(from+len(keep))); err != nil {
		w.chunk = w.chunk[:0]
		return true, fmt.Errorf("format: reading column chunk at %d: %w", w.base+int64(from+len(keep)), err)
	}
	return true, nil
}

// nextStream is Next for a streaming walk, from w.cur: it reads the page
// header and, when body is set, the body.
func (w *PageWalker) nextStream(body bool) bool {
	ahead := streamReadAhead
	if !body {
		ahead = headerReadAhead
	}
	var n int
	// The window must hold headerReadAhead bytes from the header on, more
	// only when the header is longer; a refill reads ahead bytes. (Asking
	// for ahead bytes past every header made each page of a chunk of
	// small pages move the whole window: 64 KiB per page.)
	for want := headerReadAhead; ; want *= 2 {
		if _, err := w.fill(w.cur, min(w.avail, w.cur+want), ahead); err != nil {
			w.err = err
			return false
		}
		var err error
		n, err = DecodePageHeader(w.chunk[w.cur-w.winAt:], &w.header)
		if err == nil {
			break
		}
		if !errors.Is(err, thrift.ErrTruncated) || w.winAt+len(w.chunk) >= w.avail || want >= maxStreamHeader {
			w.err = fmt.Errorf("page header at offset %d: %w", w.base+int64(w.cur), err)
			return false
		}
	}
	return w.headerRead(n, w.avail, body)
}

// headerRead takes the page whose header, hlen bytes (its encrypted module
// in an encrypted chunk) at w.cur, is decoded into w.header: its body must
// end by lim. It reads the body when body is set, as nextStream and
// nextEncrypted do. It reports false with w.err set on an error.
func (w *PageWalker) headerRead(hlen, lim int, body bool) bool {
	bodyStart := w.cur + hlen
	size := int(w.header.CompressedPageSize) // non-negative: checked by DecodePageHeader
	if size > lim-bodyStart {
		w.err = fmt.Errorf("%w: page at offset %d: body of %d bytes overruns the column chunk by %d bytes",
			ErrCorrupt, w.base+int64(w.cur), size, bodyStart+size-lim)
		return false
	}
	w.count()
	w.hlen = hlen
	w.body = nil
	w.next = bodyStart + size
	if !body {
		w.bodyUnread = true
		return true
	}
	if err := w.readBody(streamReadAhead); err != nil { // encryptedBody in an encrypted chunk
		w.err = err
		return false
	}
	return true
}

// readBody reads the body of the current page, whose header is decoded,
// reading at least ahead bytes from the header's start if it reads.
func (w *PageWalker) readBody(ahead int) error {
	if w.crypt.dec != nil { // encryption
		return w.encryptedBody(ahead)
	}
	bodyStart := w.cur + w.hlen
	moved, err := w.fill(w.cur, w.next, ahead)
	if err != nil {
		return err
	}
	if moved {
		// The header's statistics aliased the old window: decode it again.
		if _, err := DecodePageHeader(w.chunk[w.cur-w.winAt:], &w.header); err != nil {
			return fmt.Errorf("page header at offset %d: %w", w.base+int64(w.cur), err)
		}
	}
	b, size := bodyStart-w.winAt, w.next-bodyStart
	w.body = w.chunk[b : b+size : b+size]
	w.bodyUnread = false
	return nil
}

// count adds the current data page's values to the walk's total.
func (w *PageWalker) count() {
	switch w.header.Type {
	case DataPage:
		w.values += int64(w.header.DataPageHeader.NumValues)
	case DataPageV2:
		w.values += int64(w.header.DataPageHeaderV2.NumValues)
	}
}

// Next advances to the next page and reports whether there is one. It
// returns false at the end of the chunk or on error; see [PageWalker.Err].
func (w *PageWalker) Next() bool {
	if w.err != nil || w.next >= w.end || w.want > 0 && w.values >= w.want {
		return false
	}
	w.cur = w.next
	if w.crypt.dec != nil { // encryption
		return w.nextEncrypted(true)
	}
	if w.src != nil {
		return w.nextStream(true)
	}
	n, err := DecodePageHeader(w.chunk[w.cur:], &w.header)
	if err != nil {
		w.err = fmt.Errorf("page header at offset %d: %w", w.base+int64(w.cur), err)
		return false
	}
	bodyStart := w.cur + n
	size := int(w.header.CompressedPageSize) // non-negative: checked by DecodePageHeader
	if size > len(w.chunk)-bodyStart {
		w.err = fmt.Errorf("%w: page at offset %d: body of %d bytes overruns the column chunk by %d bytes",
			ErrCorrupt, w.base+int64(w.cur), size, bodyStart+size-len(w.chunk))
		return false
	}
	w.count()
	w.hlen = n
	w.body = w.chunk[bodyStart : bodyStart+size : bodyStart+size]
	w.next = bodyStart + size
	return true
}

// NextHeader advances to the next page like [PageWalker.Next], but in a
// streaming walk (see [PageWalker.ResetReaderAt]) reads only the page's
// header: Body returns nil until [PageWalker.ReadBody] reads it, so that a
// reader skipping pages reads a small window per page (at least 1 KiB),
// not their bodies. In a walk over a chunk in memory it is Next.
func (w *PageWalker) NextHeader() bool {
	if w.src == nil && w.crypt.dec == nil { // encryption: the walk in memory too
		return w.Next()
	}
	if w.err != nil || w.next >= w.end || w.want > 0 && w.values >= w.want {
		return false
	}
	w.cur = w.next
	if w.crypt.dec != nil { // encryption
		return w.nextEncrypted(false)
	}
	return w.nextStream(false)
}

// ReadBody makes Body return the current page's body, reading it if
// [PageWalker.NextHeader] left it unread, exactly (no read-ahead past the
// page). It returns the read error, which also ends the walk, or nil when
// the body is already there. Header stays valid.
func (w *PageWalker) ReadBody() error {
	if !w.bodyUnread || w.err != nil {
		return w.err
	}
	if err := w.readBody(0); err != nil {
		w.err = err
		return err
	}
	return nil
}

// SeekOffset positions w so that the next call to Next or NextHeader reads
// the page whose header starts at file offset offset, as if the data pages
// before it, holding values values, had been walked: the walk then stops
// as usual after the data page that completes the chunk's NumValues. When
// the caller knows only a lower bound of values, the walk may instead end
// at the chunk's declared length, and the caller should stop reading after
// the last data page it knows of. offset must lie in the chunk's declared
// range [rng.Start, rng.Start+rng.Length) and values must not be negative;
// otherwise SeekOffset returns an error wrapping [ErrCorrupt] and w is
// unchanged. SeekOffset clears the error that ended a walk, and invalidates
// Header and Body. It reads nothing.
func (w *PageWalker) SeekOffset(offset, values int64) error {
	if offset < w.base || offset-w.base >= int64(w.end) || values < 0 {
		return fmt.Errorf("%w: seek to page offset %d (after %d values) outside the column chunk [%d, %d)",
			ErrCorrupt, offset, values, w.base, w.base+int64(w.end))
	}
	w.next, w.cur = int(offset-w.base), int(offset-w.base)
	w.values, w.err = values, nil
	w.header, w.hlen, w.body, w.bodyUnread = PageHeader{}, 0, nil, false
	w.crypt.ordinal = -1 // encryption: unknown until SetPageOrdinal
	return nil
}

// NextOffset returns the file offset at which the next call to Next reads
// a page header.
func (w *PageWalker) NextOffset() int64 { return w.base + int64(w.next) }

// Header returns the current page header.
func (w *PageWalker) Header() *PageHeader { return &w.header }

// HeaderSize returns the encoded size of the current page header.
func (w *PageWalker) HeaderSize() int { return w.hlen }

// Body returns the current page's compressed_page_size bytes.
func (w *PageWalker) Body() []byte { return w.body }

// Page returns the current page as stored: its encoded header
// ([PageWalker.HeaderSize] bytes) followed by its body. It aliases the
// chunk or window as Body does, and is nil while the body is unread (see
// [PageWalker.NextHeader]).
func (w *PageWalker) Page() []byte {
	if w.bodyUnread || w.hlen == 0 && w.body == nil {
		return nil
	}
	from, to := w.cur-w.winAt, w.next-w.winAt
	return w.chunk[from:to:to]
}

// Offset returns the file offset of the current page header.
func (w *PageWalker) Offset() int64 { return w.base + int64(w.cur) }

// Err returns the error that ended the walk, or nil at the end of the chunk.
func (w *PageWalker) Err() error { return w.err }
