package column

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"slices"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/encoding/bitpacked"
	"github.com/pqcodec/pqcodec/encoding/dictionary"
	"github.com/pqcodec/pqcodec/encoding/rle"
	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/enctable"
	"github.com/pqcodec/pqcodec/internal/errs"
	"github.com/pqcodec/pqcodec/internal/levelscan"
	"github.com/pqcodec/pqcodec/internal/pages"
)

// Errors returned by readers. Errors from the packages below (format,
// codecfactory, the encodings) are wrapped as they are, so errors.Is finds
// their sentinels too. Every error caused by damaged bytes, from any layer,
// ErrCorrupt and ErrChecksum included, also matches pqcodec.ErrCorrupt.
var (
	// ErrCorrupt reports a page whose contents contradict its header or
	// the schema.
	ErrCorrupt = errs.Corrupt("column: corrupt page")
	// ErrChecksum reports a page whose CRC32 does not match its header.
	ErrChecksum = errs.Corrupt("column: page checksum mismatch")
	// ErrUnsupported reports an encoding or type this package cannot read.
	ErrUnsupported = errors.New("column: unsupported")
	// ErrLimit reports a page above a configured limit.
	ErrLimit = errors.New("column: limit exceeded")
	// ErrEncrypted is format.ErrEncrypted: the file or column is encrypted.
	ErrEncrypted = format.ErrEncrypted
)

// Page is the content of one data page: its levels and its non-null
// values. DefLevels is empty when the column's maximum definition level is
// 0 (every value is present), RepLevels when its maximum repetition level
// is 0. NumLevels is the page's value count including nulls: the number of
// levels, or of values when there are no levels.
type Page struct {
	NumLevels int
	DefLevels []int16
	RepLevels []int16
	Values    Values
	// Encoding is the encoding of the page's values, as its header says.
	Encoding format.Encoding
	// Version is 1 or 2 (DATA_PAGE or DATA_PAGE_V2).
	Version int
	// Under [KeepDictionary], a dictionary-encoded page leaves Values
	// empty and holds the index of each non-null value in Indices, and
	// Dictionary is the chunk's dictionary (owned by the Reader, the same
	// for every page of the chunk). Otherwise, and for pages that are not
	// dictionary-encoded, Indices is empty and Dictionary nil.
	Indices    []uint32
	Dictionary *Values

	deferredPage // ReadPageDeferred's values still encoded (deferred.go)
}

// reset empties p, keeping its capacity.
func (p *Page) reset(t format.Type, typeLength int) {
	p.NumLevels = 0
	p.DefLevels = p.DefLevels[:0]
	p.RepLevels = p.RepLevels[:0]
	p.Values.Reset(t, typeLength)
	p.Indices, p.Dictionary = p.Indices[:0], nil
	p.deferredPage = deferredPage{idx: p.idx[:0]}
}

// Reader reads the pages of one column chunk. It is not safe for concurrent
// use; open one Reader per goroutine (a [File] may be shared).
type Reader struct {
	file     *File
	opts     options
	leaf     *format.Node
	meta     *format.ColumnMetaData
	rowGroup int
	column   int

	chunk []byte         // storage for the walker's window, kept across chunks
	pages pages.Pipeline // walk, CRC, split and decompression of the chunk's pages
	page  int            // index of the current page in the chunk, for errors

	buf     []byte   // decompressed page or values section
	scratch []uint32 // decoded levels or dictionary indices
	// dicts holds the chunk's dictionary in the form of encoding/dictionary,
	// whose lookups resolve every dictionary-encoded page; dict shows its
	// values (aliasing dicts' memory) to Dictionary and KeepDictionary.
	dicts   enctable.Dict
	dict    Values
	hasDict bool
	// lookupPage is the page whose dictionary lookups run, for lookupLimit.
	lookupPage *Page
	// dictMinLen is the length of the shortest value of a byte array
	// dictionary, under WithMaxMemory (see valuesEstimate).
	dictMinLen int64
	valuesSum  int64
	seek       seekState       // row positions, for SeekRow (seek.go)
	ctx        context.Context // of a running SeekRowContext, else nil

	crypt encryption.ChunkDecryptor // encryption: page decryption (decrypt.go)

	// deferring is set during ReadPageDeferred (deferred.go).
	deferring bool
}

// Leaf returns the schema node of the column.
func (r *Reader) Leaf() *format.Node { return r.leaf }

// MetaData returns the column chunk's metadata. Its Type is the schema
// leaf's, which is the one read when the chunk names another.
func (r *Reader) MetaData() *format.ColumnMetaData { return r.meta }

// ReadPage empties p and fills it with the next data page of the chunk,
// reading and remembering any dictionary page before it and skipping index
// and unknown pages. It returns io.EOF after the last page. Errors name the
// row group, column and page, and wrap the cause's sentinel.
func (r *Reader) ReadPage(p *Page) error {
	p.reset(r.meta.Type, r.typeLength())
	if r.seek.inexact && r.seek.dataPages >= r.seek.oi.NumPages() {
		return io.EOF // after a jump of SeekRow: see there
	}
	for r.seek.pending || r.pages.Next() {
		r.seek.pending = false // SeekRow stopped on this page
		h, body := r.pages.Header(), r.pages.Body()
		page := r.page
		r.page++
		if err := r.checkCRC(h); err != nil {
			return r.errorf(page, "%w", err)
		}
		var err error
		switch h.Type {
		case format.DictionaryPage:
			err = r.readDictionary(h, body)
		case format.DataPage:
			err = r.readDataPageV1(h, body, p)
		case format.DataPageV2:
			err = r.readDataPageV2(h, body, p)
		default:
			continue // index pages and page types from the future
		}
		if err != nil {
			p.reset(r.meta.Type, r.typeLength())
			return r.errorf(page, "%w", err)
		}
		if h.Type != format.DictionaryPage {
			if err := r.afterDataPage(p); err != nil {
				p.reset(r.meta.Type, r.typeLength())
				return r.errorf(page, "%w", err)
			}
			return nil
		}
	}
	if err := r.pages.Err(); err != nil {
		return r.errorf(r.page, "%w", err)
	}
	if r.meta.NumValues >= 0 && r.valuesSum != r.meta.NumValues && r.meta.NumValues != 0 && !r.seek.inexact {
		return r.errorf(r.page, "%w: pages hold %d values, column chunk metadata says %d", ErrCorrupt, r.valuesSum, r.meta.NumValues)
	}
	return io.EOF
}

// PageError is the error type of a Reader: where in the file it happened,
// and why.
type PageError struct {
	Column   string // dotted path in the schema
	RowGroup int
	Page     int // index of the page in the column chunk, dictionary page included; -1 for the whole chunk
	Err      error
}

func (e *PageError) Error() string {
	if e.Page < 0 {
		return fmt.Sprintf("column %s, row group %d: %v", e.Column, e.RowGroup, e.Err)
	}
	return fmt.Sprintf("column %s, row group %d, page %d: %v", e.Column, e.RowGroup, e.Page, e.Err)
}

// PageIndex returns the index in the column chunk of the page the last
// ReadPage returned (dictionary and index pages count), or -1 before the
// first.
func (r *Reader) PageIndex() int { return r.page - 1 }

func (e *PageError) Unwrap() error { return e.Err }

func (r *Reader) errorf(page int, format string, args ...any) error {
	return &PageError{Column: r.file.columnName(r.column), RowGroup: r.rowGroup, Page: page, Err: fmt.Errorf(format, args...)}
}

func (r *Reader) typeLength() int {
	if r.meta.Type == format.FixedLenByteArray && r.leaf.Element.TypeLength != nil {
		return int(*r.leaf.Element.TypeLength)
	}
	return 0
}

// checkCRC checks the current page, whose header is h, against its CRC32
// under WithVerifyChecksums: the one page checksum check, for ReadPage and
// SeekRow. The CRC covers the body as stored (encrypted, in an encrypted
// chunk).
func (r *Reader) checkCRC(h *format.PageHeader) error {
	if err := r.pages.CheckCRC(h, r.pages.RawBody()); err != nil {
		return fmt.Errorf("%w: %w", ErrChecksum, err)
	}
	return nil
}

// decompress returns the uncompressed form of the data of s, in buf when a
// copy is needed (see pages.Pipeline.Decompress).
func (r *Reader) decompress(buf *[]byte, s pages.Sections) ([]byte, error) {
	out, err := r.pages.Decompress(buf, s)
	if errors.Is(err, pages.ErrCorrupt) {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return out, err
}

func (r *Reader) readDictionary(h *format.PageHeader, body []byte) error {
	// A dictionary page after data pages is read as the dictionary of the
	// pages that follow it, as parquet-java, arrow-cpp, arrow-rs and DuckDB
	// do; a second dictionary page is an error, as in parquet-java, arrow-cpp
	// and arrow-rs.
	if r.hasDict {
		return fmt.Errorf("%w: second dictionary page", ErrCorrupt)
	}
	dh := &h.DictionaryPageHeader
	if dh.Encoding != format.Plain && dh.Encoding != format.PlainDictionary {
		return fmt.Errorf("%w: dictionary page encoding %v", ErrUnsupported, dh.Encoding)
	}
	n := int(dh.NumValues)
	if n < 0 {
		return fmt.Errorf("%w: dictionary of %d values", ErrCorrupt, n)
	}
	if n > r.opts.maxPageValues {
		return fmt.Errorf("%w: dictionary of %d values (limit %d)", ErrLimit, n, r.opts.maxPageValues)
	}
	s, _ := pages.Split(h, body) // a dictionary page is one section
	if err := r.reserve(nil, s.Size, enctable.DictMemSizeFor(r.meta.Type, n, s.Size)); err != nil {
		return err
	}
	data, err := r.decompress(&r.buf, s) // r.dicts copies what it keeps
	if err != nil {
		return err
	}
	r.dict.Reset(r.meta.Type, r.typeLength())
	if err := r.dicts.Reset((*enctable.Values)(&r.dict), data, n); err != nil {
		return fmt.Errorf("%w: dictionary page: %w", ErrCorrupt, err)
	}
	if r.opts.maxMemory > 0 {
		r.dicts.SetBudget(r.lookupLimit)
	} else {
		r.dicts.SetBudget(nil)
	}
	r.hasDict = true
	r.dictMinLen = 0
	if n := r.dict.Len(); r.opts.maxMemory > 0 && r.dict.Type == format.ByteArray && n > 0 {
		m := r.dict.Offsets[1] - r.dict.Offsets[0]
		for i := 1; i < n; i++ {
			m = min(m, r.dict.Offsets[i+1]-r.dict.Offsets[i])
		}
		r.dictMinLen = int64(m)
	}
	return nil
}

// valuesCap returns the bytes v's slices hold, their capacity.
func valuesCap(v *Values) int64 {
	return int64(cap(v.Booleans)) + 4*int64(cap(v.Int32s)+cap(v.Floats)+cap(v.Offsets)) +
		8*int64(cap(v.Int64s)+cap(v.Doubles)) + 12*int64(cap(v.Int96s)) + int64(cap(v.Bytes))
}

// pageHeld returns the bytes p and the Reader's index scratch hold between
// pages, their capacity: a page reuses them, and while one grows the old
// buffer stays alive until the new one replaces it.
func (r *Reader) pageHeld(p *Page) int64 {
	if p == nil {
		return 4 * int64(cap(r.scratch))
	}
	return valuesCap(&p.Values) + 2*int64(cap(p.DefLevels)+cap(p.RepLevels)) + 4*int64(cap(p.Indices)+cap(p.idx)+cap(r.scratch))
}

// growth is what new buffers of about values bytes allocate, next to held
// bytes already there: nothing when the held capacity may take them,
// otherwise their size with growCap's 1/16 of headroom.
func growth(values, held int64) int64 {
	if values <= held {
		return 0
	}
	return values + values/16
}

// valuesSize returns the bytes v's values take.
func valuesSize(v *Values) int64 {
	return int64(len(v.Booleans)) + 4*int64(len(v.Int32s)+len(v.Floats)+len(v.Offsets)) +
		8*int64(len(v.Int64s)+len(v.Doubles)) + 12*int64(len(v.Int96s)) + int64(len(v.Bytes))
}

// valuesEstimate bounds the bytes the n values (and levels) of a data page
// of size decompressed bytes in encoding enc take once decoded.
func (r *Reader) valuesEstimate(p *Page, enc format.Encoding, size, n int, owned bool) int64 {
	levels := int64(0)
	if r.leaf.MaxRepetitionLevel > 0 {
		levels += 2 * int64(n)
	}
	if r.leaf.MaxDefinitionLevel > 0 {
		levels += 2 * int64(n)
	}
	e := int64(enctable.ElemSize(p.Values.Type, p.Values.TypeLength)) * int64(n)
	switch {
	case r.deferring && deferrable(p.Values.Type, enc):
		return levels // the values stay in the page's bytes
	case owned:
		return levels + 4*int64(n) // offsets; the bytes stay in the page buffer
	case enc == format.PlainDictionary || enc == format.RLEDictionary:
		// The indices (decoded before the lookup) and, for byte arrays,
		// at least the dictionary's shortest value per index: a page of
		// 64Mi indices into a dictionary of 16-byte strings is refused
		// here, before its 256 MiB of indices are decoded. lookupLimit
		// checks the exact bytes once the indices are known.
		return levels + e + 4*int64(n) + r.dictMinLen*int64(n)
	case p.Values.Type == format.ByteArray:
		return levels + e + int64(size)
	}
	return levels + e
}

// held returns the bytes the Reader holds between pages: its window, the
// dictionary and the spare buffers it keeps.
func (r *Reader) held() (window, dict int64) {
	window = int64(cap(r.pages.Buffer()))
	window += r.crypt.Held() // encryption: decrypted page and header
	dict = r.dicts.MemSize()
	return window, dict
}

// reserve checks, against MaxMemory, before anything is allocated, a page
// that decompresses to size bytes and whose values take about values bytes,
// decoded into p (nil for a dictionary page): what the Reader and p hold,
// plus the buffers that must grow, with their headroom.
func (r *Reader) reserve(p *Page, size int, values int64) error {
	limit := r.opts.maxMemory
	if limit <= 0 {
		return nil
	}
	window, dict := r.held()
	page := int64(size)
	if cap(r.buf) >= size {
		page = int64(cap(r.buf))
	} else {
		page += int64(cap(r.buf)) // the old buffer until it is replaced
	}
	held := r.pageHeld(p)
	values = held + growth(values, held)
	if need := window + dict + page + values; need > limit {
		return fmt.Errorf("%w: the page needs about %d bytes (compressed page %d, dictionary %d, decompressed page %d, values, levels and indices %d), the reader's limit (MaxMemory) is %d",
			ErrLimit, need, window, dict, page, values, limit)
	}
	return nil
}

// lookupLimit checks, against MaxMemory, the byte array values of
// r.lookupPage that its dictionary lookups are about to grow to size bytes:
// the budget of r.dicts, asked before the bytes are allocated.
func (r *Reader) lookupLimit(size int) error {
	p := r.lookupPage
	window, dict := r.held()
	page := int64(cap(r.buf))
	held := r.pageHeld(p)
	values := held + growth(int64(size), int64(cap(p.Values.Bytes)))
	if need := window + dict + page + values; need > r.opts.maxMemory {
		return fmt.Errorf("%w: the page's dictionary lookups need about %d bytes (compressed page %d, dictionary %d, decompressed page %d, values %d), the reader's limit (MaxMemory) is %d",
			ErrLimit, need, window, dict, page, values, r.opts.maxMemory)
	}
	return nil
}

// compactThreshold is the decompressed size from which PLAIN BYTE_ARRAY
// pages are compacted in their decompressed buffer instead
// of copied: the copy would double the memory of large pages, while small
// ones decode faster with the copying decoder.
var compactThreshold = 1 << 20

// compactByteArrays rewrites the first n PLAIN BYTE_ARRAY values of src
// as flat bytes at the start of dst, which shares src's memory and starts at
// or before src, and returns them with their offsets (appended to offs[:0]).
// Moving each value left over its length prefix never overwrites bytes not
// yet read. Values of up to 32 bytes move as two 16-byte blocks, without a
// memmove call, once the bytes written trail the bytes read by 32 (after 8
// values: each value's prefix widens the gap by 4); the bytes the blocks
// write past a value are overwritten by the values after it or lie past
// the result. It checks the values as it goes: on error dst holds
// unspecified bytes.
func compactByteArrays(dst, src []byte, n int, offs []int32) ([]byte, []int32, error) {
	size := len(src)
	full := src[:cap(src)] // blocks may read past size, never past cap
	dst = dst[:cap(dst)]
	offs = append(slices.Grow(offs[:0], n+1), 0)
	w, pos := 0, 0
	for i := range n {
		if size-pos < 4 {
			return nil, offs, byteArrayTruncated(i, n, pos)
		}
		l := int(binary.LittleEndian.Uint32(full[pos:]))
		pos += 4
		if l > size-pos {
			return nil, offs, byteArrayPastEnd(i, l)
		}
		if l <= 32 && w+32 <= pos && pos+32 <= len(full) && w+32 <= len(dst) {
			// Two moves whatever the length: a branch on random
			// lengths of 4-24 bytes cost more than the second move.
			*(*[16]byte)(dst[w : w+16]) = *(*[16]byte)(full[pos : pos+16])
			*(*[16]byte)(dst[w+16 : w+32]) = *(*[16]byte)(full[pos+16 : pos+32])
			w += l
		} else {
			w += copy(dst[w:], full[pos:pos+l])
		}
		pos += l
		offs = append(offs, int32(w))
	}
	return dst[:w], offs, nil
}

// ownsValues reports whether a data page in encoding enc, of size
// decompressed bytes, is decompressed into the page's own Bytes and
// compacted there (see compactThreshold).
func (r *Reader) ownsValues(p *Page, enc format.Encoding, size int) bool {
	return p.Values.Type == format.ByteArray && enc == format.Plain && r.pages.Codec != codecfactory.Uncompressed &&
		size >= compactThreshold && !r.deferring
}

func (r *Reader) readDataPageV1(h *format.PageHeader, body []byte, p *Page) error {
	dh := &h.DataPageHeader
	n, err := r.pageValueCount(dh.NumValues)
	if err != nil {
		return err
	}
	s, _ := pages.Split(h, body) // a data page v1 is one section
	size := s.Size
	target, owned := &r.buf, r.ownsValues(p, dh.Encoding, size)
	if owned {
		target = &p.Values.Bytes
	}
	if err := r.reserve(p, size, r.valuesEstimate(p, dh.Encoding, size, n, owned)); err != nil {
		return err
	}
	data, err := r.decompress(target, s)
	if err != nil {
		return err
	}
	p.Version, p.Encoding, p.NumLevels = 1, dh.Encoding, n
	if m := r.leaf.MaxRepetitionLevel; m > 0 {
		if p.RepLevels, _, data, err = r.decodeLevelsV1(p.RepLevels, data, dh.RepetitionLevelEncoding, m, n); err != nil {
			return fmt.Errorf("repetition levels: %w", err)
		}
	}
	nonNull := n
	if m := r.leaf.MaxDefinitionLevel; m > 0 {
		if p.DefLevels, nonNull, data, err = r.decodeLevelsV1(p.DefLevels, data, dh.DefinitionLevelEncoding, m, n); err != nil {
			return fmt.Errorf("definition levels: %w", err)
		}
	}
	if err := r.checkRecordStart(p); err != nil {
		return err
	}
	return r.takeValues(p, dh.Encoding, data, n, nonNull, owned)
}

// takeValues makes data, the values section of a data page of n levels
// and nonNull values in encoding enc, p's values: compacted in place when
// the page owns it (ownsValues), left to AppendValues under
// ReadPageDeferred, decoded otherwise.
func (r *Reader) takeValues(p *Page, enc format.Encoding, data []byte, n, nonNull int, owned bool) error {
	r.valuesSum += int64(n)
	if owned {
		return r.compactValues(p, data, nonNull)
	}
	if r.deferring && deferrable(p.Values.Type, enc) {
		return r.deferValues(p, data, nonNull)
	}
	return r.decodeValues(p, enc, data, nonNull)
}

// compactValues makes p's values the nonNull PLAIN BYTE_ARRAY values of
// data, which was decompressed into p.Values.Bytes, compacted in place.
func (r *Reader) compactValues(p *Page, data []byte, nonNull int) error {
	var err error
	p.Values.Bytes, p.Values.Offsets, err = compactByteArrays(p.Values.Bytes[:0], data, nonNull, p.Values.Offsets)
	if err != nil {
		p.Values.Bytes, p.Values.Offsets = p.Values.Bytes[:0], p.Values.Offsets[:0]
	}
	return err
}

// checkRecordStart rejects a column chunk whose first repetition level is
// not 0: a chunk starts a record (bad_data/ARROW-GH-45185.parquet).
func (r *Reader) checkRecordStart(p *Page) error {
	if r.valuesSum == 0 && len(p.RepLevels) > 0 && p.RepLevels[0] != 0 {
		return fmt.Errorf("%w: column chunk starts with repetition level %d, not 0", ErrCorrupt, p.RepLevels[0])
	}
	return nil
}

func (r *Reader) readDataPageV2(h *format.PageHeader, body []byte, p *Page) error {
	dh := &h.DataPageHeaderV2
	n, err := r.pageValueCount(dh.NumValues)
	if err != nil {
		return err
	}
	parts, err := pages.Split(h, body)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	p.Version, p.Encoding, p.NumLevels = 2, dh.Encoding, n
	if m := r.leaf.MaxRepetitionLevel; m > 0 {
		if p.RepLevels, _, err = r.decodeLevels(p.RepLevels, parts.RepLevels, m, n); err != nil {
			return fmt.Errorf("repetition levels: %w", err)
		}
	}
	// Some writers store a level stream for a column whose maximum level is
	// 0 (rle_boolean_encoding.parquet has two bytes of repetition levels);
	// like parquet-java and Arrow, skip it.
	nonNull := n
	if m := r.leaf.MaxDefinitionLevel; m > 0 {
		if p.DefLevels, nonNull, err = r.decodeLevels(p.DefLevels, parts.DefLevels, m, n); err != nil {
			return fmt.Errorf("definition levels: %w", err)
		}
	}
	// The definition levels, not num_nulls, say which values are present,
	// as in parquet-java, arrow-cpp and DuckDB, which do not read num_nulls;
	// like arrow-rs, a count outside [0, num_values] is an error.
	if nulls := int(dh.NumNulls); nulls < 0 || nulls > n {
		return fmt.Errorf("%w: header counts %d nulls in %d values", ErrCorrupt, nulls, n)
	}
	if err := r.checkRecordStart(p); err != nil {
		return err
	}
	// The values section: taken as it is when stored uncompressed, whatever
	// size the header says (format.SplitDataPageV2).
	data := parts.Data
	owned := false
	if parts.Compressed {
		valuesSize := parts.Size
		target := &r.buf
		if owned = r.ownsValues(p, dh.Encoding, valuesSize); owned {
			target = &p.Values.Bytes
		}
		if err := r.reserve(p, valuesSize, r.valuesEstimate(p, dh.Encoding, valuesSize, n, owned)); err != nil {
			return err
		}
		if data, err = r.decompress(target, parts); err != nil {
			return err
		}
	}
	return r.takeValues(p, dh.Encoding, data, n, nonNull, owned)
}

// pageValueCount checks a page's declared value count against the limits.
func (r *Reader) pageValueCount(n int32) (int, error) {
	if n < 0 {
		return 0, fmt.Errorf("%w: negative value count %d", ErrCorrupt, n)
	}
	if int(n) > r.opts.maxPageValues {
		return 0, fmt.Errorf("%w: page of %d values (limit %d)", ErrLimit, n, r.opts.maxPageValues)
	}
	if r.meta.NumValues > 0 && r.valuesSum+int64(n) > r.meta.NumValues {
		return 0, fmt.Errorf("%w: pages hold more than the chunk's %d values", ErrCorrupt, r.meta.NumValues)
	}
	return int(n), nil
}

// decodeLevelsV1 decodes n levels at the start of data in a v1 page's level
// encoding, and returns the levels, how many of them equal maxLevel, and the
// rest of data.
func (r *Reader) decodeLevelsV1(dst []int16, data []byte, enc format.Encoding, maxLevel, n int) ([]int16, int, []byte, error) {
	switch enc {
	case format.RLE:
		stream, rest, err := rle.SplitPrefix(data)
		if err != nil {
			return dst, 0, data, err
		}
		dst, atMax, err := r.decodeLevels(dst, stream, maxLevel, n)
		return dst, atMax, rest, err
	case format.BitPacked:
		var err error
		r.scratch, data, err = bitpacked.Decode(r.scratch[:0], data, levelWidth(maxLevel), n)
		if err != nil {
			return dst, 0, data, err
		}
		base := len(dst)
		dst, err = appendLevels(dst, r.scratch, maxLevel)
		if err != nil {
			return dst, 0, data, err
		}
		return dst, levelscan.CountEqual(dst[base:], int16(maxLevel)), data, nil
	}
	return dst, 0, data, fmt.Errorf("%w: level encoding %v", ErrUnsupported, enc)
}

// decodeLevels decodes n levels from a bare RLE/bit-packed hybrid stream,
// straight into dst, and returns them with how many equal maxLevel.
func (r *Reader) decodeLevels(dst []int16, stream []byte, maxLevel, n int) ([]int16, int, error) {
	base := len(dst)
	dst, err := rle.DecodeLevels(dst, stream, levelWidth(maxLevel), n)
	if err != nil {
		return dst[:base], 0, err
	}
	levels := dst[base:]
	if w := levelWidth(maxLevel); maxLevel == 1<<w-1 {
		// No level of the width can exceed the maximum (1, 3, 7...).
		return dst, levelscan.CountEqual(levels, int16(maxLevel)), nil
	}
	atMax, hi := levelscan.Scan(levels, int16(maxLevel))
	if int(hi) > maxLevel {
		return dst[:base], 0, fmt.Errorf("%w: level %d above the maximum %d", ErrCorrupt, hi, maxLevel)
	}
	return dst, atMax, nil
}

func levelWidth(maxLevel int) uint { return uint(bits.Len(uint(maxLevel))) }

func appendLevels(dst []int16, levels []uint32, maxLevel int) ([]int16, error) {
	dst = growLen(dst, len(levels))
	out := dst[len(dst)-len(levels):]
	for i, l := range levels {
		if l > uint32(maxLevel) {
			return dst[:len(dst)-len(levels)], fmt.Errorf("%w: level %d above the maximum %d", ErrCorrupt, l, maxLevel)
		}
		out[i] = int16(l)
	}
	return dst, nil
}

// decodeValues appends the n values of data, in encoding enc, to p.Values.
func (r *Reader) decodeValues(p *Page, enc format.Encoding, data []byte, n int) error {
	v := &p.Values
	var err error
	switch enc {
	case format.PlainDictionary, format.RLEDictionary:
		if !r.hasDict {
			return fmt.Errorf("%w: dictionary-encoded page without a dictionary page", ErrCorrupt)
		}
		if n == 0 {
			return nil // some writers leave out even the bit width of an all-null page
		}
		if r.deferring && !r.opts.keepDictionary && deferrableLookup(v.Type) {
			return r.deferLookups(p, data, n)
		}
		if r.opts.keepDictionary {
			// The indices alone, checked against the dictionary.
			if p.Indices, err = dictionary.DecodeIndices(p.Indices[:0], data, n, r.dict.Len()); err != nil {
				return fmt.Errorf("%w: dictionary indices: %w", ErrCorrupt, err)
			}
			p.Dictionary = &r.dict
			return nil
		}
		r.lookupPage = p
		err := r.dicts.Decode((*enctable.Values)(v), data, n)
		r.lookupPage = nil
		switch {
		case err == nil, errors.Is(err, ErrLimit):
			return err
		case errors.Is(err, dictionary.ErrTooLarge):
			return fmt.Errorf("%w: %w", ErrLimit, err)
		}
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	default:
		// Every self-contained encoding: through the one (encoding, type)
		// table that the writer uses too (internal/enctable).
		err = decodeTable(v, enc, data, n, p.NumLevels)
	}
	if err != nil {
		return err
	}
	got := v.Len()
	if got > n && (enc == format.DeltaBinaryPacked || enc == format.DeltaLengthByteArray ||
		enc == format.DeltaByteArray || enc == format.ByteStreamSplit) {
		// A DELTA or BYTE_STREAM_SPLIT stream holding more values than the
		// levels need is read for the values needed, as parquet-java,
		// arrow-cpp, arrow-rs and DuckDB read it.
		v.truncate(n)
		got = n
	}
	if got != n {
		return fmt.Errorf("%w: page holds %d %v values, its levels say %d", ErrCorrupt, got, enc, n)
	}
	return nil
}

// decodeTable appends the n values of data, in encoding enc, to v through
// the encoding table, whose damaged-input errors it wraps in ErrCorrupt.
// Bytes after the values are ignored, as other readers do.
func decodeTable(v *Values, enc format.Encoding, data []byte, n, numLevels int) error {
	row := enctable.Lookup(enc, v.Type)
	if row == nil || row.Decode == nil {
		return fmt.Errorf("%w: %v encoding for %v values", ErrUnsupported, enc, v.Type)
	}
	err := row.Decode((*enctable.Values)(v), data, n, numLevels)
	if errors.Is(err, enctable.ErrCorrupt) {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return err
}

// byteArrayTruncated and byteArrayPastEnd are the errors of
// compactByteArrays for PLAIN BYTE_ARRAY value i of n.
func byteArrayTruncated(i, n, pos int) error {
	return fmt.Errorf("%w: PLAIN BYTE_ARRAY value %d of %d truncated at offset %d", ErrCorrupt, i, n, pos)
}

func byteArrayPastEnd(i, l int) error {
	return fmt.Errorf("%w: PLAIN BYTE_ARRAY value %d of %d bytes past the end of the page", ErrCorrupt, i, l)
}
