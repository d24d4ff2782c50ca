package format

import (
	"encoding/binary"
	"fmt"

	"github.com/pqcodec/pqcodec/encryption"
)

// walkerCrypt is the state of a PageWalker over an encrypted column chunk:
// every page header is an AES-GCM module, and every page body a module of
// the file's algorithm, each with the AAD of its type, row group, column
// and, for data pages, page ordinal.
type walkerCrypt struct {
	dec      *encryption.ChunkDecryptor
	ordinal  int    // ordinal of the next data page
	sawData  bool   // a data page header was decrypted
	pageDict bool   // the current page is the dictionary page
	pageOrd  int    // ordinal of the current data page
	raw      []byte // the current page's body as in the file, encrypted
}

// SetDecryptor makes w decrypt the encrypted column chunk it walks with d,
// which must be Reset to the chunk. Call it after [PageWalker.Reset] or
// [PageWalker.ResetReaderAt], which clear it. Header then returns the
// decrypted header, Body the decrypted page (its compressed bytes), and
// HeaderSize the size of the header's module; both are checked against the
// chunk before they are decrypted, and errors wrap encryption.ErrDecrypt
// (a module that does not decrypt) or [ErrCorrupt]. d owns the plaintext
// buffers: walking allocates nothing once they have grown.
func (w *PageWalker) SetDecryptor(d *encryption.ChunkDecryptor) {
	w.crypt = walkerCrypt{dec: d}
}

// SetPageOrdinal tells w, after [PageWalker.SeekOffset], the ordinal of the
// data page there (its index among the chunk's data pages, as the offset
// index counts them), which the AADs of an encrypted chunk hold.
func (w *PageWalker) SetPageOrdinal(n int) {
	w.crypt.ordinal, w.crypt.sawData = n, true
}

// RawBody returns the current page's body as the file holds it: for an
// encrypted chunk, the page module (the bytes a page CRC covers: it is
// computed after compression and encryption), for others [PageWalker.Body].
// It is valid until the next call to Next, and nil until the body is read.
func (w *PageWalker) RawBody() []byte {
	if w.crypt.dec != nil {
		if w.bodyUnread {
			return nil
		}
		return w.crypt.raw
	}
	return w.body
}

// limit is how many bytes of the chunk the walk may read.
func (w *PageWalker) limit() int {
	if w.src != nil {
		return w.avail
	}
	return len(w.chunk)
}

// span returns the chunk's bytes [from, to), which must be within limit,
// reading them in a streaming walk (at least ahead bytes when it reads).
func (w *PageWalker) span(from, to, ahead int) ([]byte, error) {
	if w.src == nil {
		return w.chunk[from:to], nil
	}
	if _, err := w.fill(from, to, ahead); err != nil {
		return nil, err
	}
	return w.chunk[from-w.winAt : to-w.winAt], nil
}

// nextEncrypted is Next (body set) or NextHeader for an encrypted chunk,
// from w.cur.
func (w *PageWalker) nextEncrypted(body bool) bool {
	c := &w.crypt
	ahead := streamReadAhead
	if !body {
		ahead = headerReadAhead
	}
	fail := func(err error) bool {
		w.err = fmt.Errorf("page header at offset %d: %w", w.base+int64(w.cur), err)
		return false
	}
	lim := w.limit()
	if lim-w.cur < encryption.LengthSize {
		return fail(fmt.Errorf("%w: page header module past the column chunk", ErrCorrupt))
	}
	b, err := w.span(w.cur, w.cur+encryption.LengthSize, ahead)
	if err != nil {
		return fail(err)
	}
	n := int64(binary.LittleEndian.Uint32(b))
	if n > int64(lim-w.cur-encryption.LengthSize) || n > maxStreamHeader {
		return fail(fmt.Errorf("%w: page header module of %d bytes overruns the column chunk", ErrCorrupt, n))
	}
	if b, err = w.span(w.cur, w.cur+encryption.LengthSize+int(n), ahead); err != nil {
		return fail(err)
	}
	plain, size, dict, err := c.dec.PageHeader(b, c.ordinal, !c.sawData)
	if err != nil {
		return fail(err)
	}
	if _, err := DecodePageHeader(plain, &w.header); err != nil {
		return fail(err)
	}
	if dict != (w.header.Type == DictionaryPage) {
		return fail(fmt.Errorf("%w: %v page header encrypted as a dictionary page header: %t", ErrCorrupt, w.header.Type, dict))
	}
	c.pageDict, c.pageOrd = dict, c.ordinal
	if !dict {
		c.ordinal++
		c.sawData = true
	}
	return w.headerRead(size, lim, body)
}

// encryptedBody reads and decrypts the body of the current page, whose
// header is decrypted. Pages other than data and dictionary pages (index
// pages, page types from the future) are left as they are, encrypted: no
// reader decodes them.
func (w *PageWalker) encryptedBody(ahead int) error {
	b, err := w.span(w.cur+w.hlen, w.next, ahead)
	if err != nil {
		return err
	}
	w.crypt.raw = b
	w.bodyUnread = false
	switch w.header.Type {
	case DataPage, DataPageV2, DictionaryPage:
	default:
		w.body = b
		return nil
	}
	plain, err := w.crypt.dec.Page(b, w.crypt.pageDict, w.crypt.pageOrd)
	if err != nil {
		return fmt.Errorf("page at offset %d: %w", w.base+int64(w.cur), err)
	}
	w.body = plain
	return nil
}
