package encryption

import "fmt"

// ChunkDecryptor decrypts the page headers and pages of one column chunk,
// into buffers it keeps: once they have grown to the chunk's largest page,
// decrypting allocates nothing, except the AES-CTR stream of each page of
// an AES_GCM_CTR_V1 file (two allocations, 528 bytes with Go 1.26): the
// standard library cannot reset a stream to a new nonce, and its stream
// runs the AES-NI/VAES counter-mode assembly, which a stream made here of
// single-block encryptions would not. The zero value is ready for [ChunkDecryptor.Reset].
// A ChunkDecryptor is not safe for concurrent use.
type ChunkDecryptor struct {
	c   *Cipher
	ctr bool
	chunkAAD
	header []byte // plaintext of the last page header
	page   []byte // plaintext of the last page
}

// chunkAAD builds the module AADs of one column chunk, for
// [ChunkDecryptor] and [ChunkEncryptor]: aad starts with the file AAD.
type chunkAAD struct {
	fileAADLen int
	rowGroup   int
	column     int
	aad        []byte
}

// reset sets a to the chunk of row group rowGroup and column column of the
// file of AAD fileAAD, which may alias a.aad.
func (a *chunkAAD) reset(fileAAD []byte, rowGroup, column int) error {
	if err := checkOrdinals(rowGroup, column); err != nil {
		return err
	}
	a.rowGroup, a.column = rowGroup, column
	a.aad = append(a.aad[:0], fileAAD...)
	a.fileAADLen = len(fileAAD)
	return nil
}

// setAAD sets a.aad to the AAD of a module of type t and page ordinal page.
func (a *chunkAAD) setAAD(t ModuleType, page int) error {
	aad, err := AppendModuleAAD(a.aad[:0], a.aad[:a.fileAADLen], t, a.rowGroup, a.column, page)
	a.aad = aad
	return err
}

// pageHeaderModule and pageModule return the module type of a page's
// header and of its body: the dictionary page's when dict is set, a data
// page's otherwise.
func pageHeaderModule(dict bool) ModuleType {
	if dict {
		return DictionaryPageHeader
	}
	return DataPageHeader
}

func pageModule(dict bool) ModuleType {
	if dict {
		return DictionaryPage
	}
	return DataPage
}

// Reset makes d decrypt the chunk of row group rowGroup and column column
// of the file of fd, whose modules are encrypted with c, keeping d's
// buffers. Ordinals above [MaxOrdinal] return an error wrapping
// [ErrCorrupt].
func (d *ChunkDecryptor) Reset(fd *FileDecryptor, c *Cipher, rowGroup, column int) error {
	if err := d.chunkAAD.reset(fd.fileAAD, rowGroup, column); err != nil {
		return err
	}
	d.c, d.ctr = c, fd.alg == AesGcmCtrV1
	return nil
}

// Active reports whether d has been Reset to a chunk.
func (d *ChunkDecryptor) Active() bool { return d.c != nil }

// Clear makes d inactive, keeping its buffers.
func (d *ChunkDecryptor) Clear() { d.c = nil }

// PageHeader decrypts the page header module at the start of b (which may
// hold more bytes after it) and returns its plaintext, the module's size,
// and whether it is a dictionary page header. The AAD says which: a
// header is tried as a dictionary page header first when dictFirst is set
// (no data page seen yet in the chunk), as the data page header of page
// ordinal ordinal otherwise, then as the other. The plaintext is valid
// until the next call to PageHeader. Errors wrap [ErrDecrypt] or
// [ErrCorrupt].
func (d *ChunkDecryptor) PageHeader(b []byte, ordinal int, dictFirst bool) (plain []byte, size int, dict bool, err error) {
	size, err = ModuleSize(b)
	if err != nil {
		return nil, 0, false, fmt.Errorf("page header: %w", err)
	}
	nonce, ct, err := split(b[:size], NonceSize+TagSize)
	if err != nil {
		return nil, 0, false, fmt.Errorf("page header: %w", err)
	}
	// The first try fails for every chunk's first data page when dictFirst
	// is set and the chunk has no dictionary: it returns no error value,
	// which would allocate.
	for _, dict := range [2]bool{dictFirst, !dictFirst} {
		if err := d.setAAD(pageHeaderModule(dict), ordinal); err != nil {
			return nil, 0, false, err
		}
		out, err := d.c.gcm.Open(grow(d.header, len(ct)-TagSize)[:0], nonce, ct, d.aad)
		if cap(out) > cap(d.header) {
			d.header = out[:0]
		}
		if err == nil {
			return out, size, dict, nil
		}
	}
	return nil, 0, false, fmt.Errorf("page header (data page %d or dictionary page): %w: AES-GCM tag does not verify (wrong key, or the module, its place or the AAD prefix changed)", ordinal, ErrDecrypt)
}

// Page decrypts the page module body, the whole compressed_page_size bytes
// that follow its header: a dictionary page when dict is set, the data
// page of ordinal ordinal otherwise. It returns the plaintext, the page's
// compressed bytes, valid until the next call to Page. Under AES_GCM_V1 a
// page that does not verify returns an error wrapping [ErrDecrypt].
func (d *ChunkDecryptor) Page(body []byte, dict bool, ordinal int) ([]byte, error) {
	t := pageModule(dict)
	var out []byte
	var err error
	if d.ctr {
		out, err = d.c.DecryptCTR(d.page, body)
	} else {
		if err = d.setAAD(t, ordinal); err != nil {
			return nil, err
		}
		out, err = d.c.DecryptGCM(d.page, body, d.aad)
	}
	if cap(out) > cap(d.page) {
		d.page = out[:0]
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t, err)
	}
	return out, nil
}

// Held returns the bytes of d's plaintext buffers, for memory budgets.
func (d *ChunkDecryptor) Held() int64 { return int64(cap(d.header) + cap(d.page) + cap(d.aad)) }
