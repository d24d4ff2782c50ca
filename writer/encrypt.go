package writer

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"

	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/format"
)

// This file holds what WithEncryption adds (Parquet Modular Encryption,
// https://github.com/apache/parquet-format/blob/master/Encryption.md): the
// page headers and pages of encrypted columns become modules as the chunk
// is built, their bloom filters and page indexes when written, their
// metadata and the footer at Close. The ciphers and AADs are package
// encryption's, the ones its decryptors check.

// WithEncryption encrypts the file with the keys and choices of p: the
// algorithm (AES_GCM_V1 or AES_GCM_CTR_V1), the footer key and its key
// metadata, an encrypted footer (PARE magic) or a plaintext one signed with
// the footer key, the columns to encrypt with their keys (every column
// with the footer key when p.ColumnKeys is empty), and an AAD prefix,
// stored or not. Every module of an encrypted column is encrypted: page
// headers, pages, the dictionary page and its header, column and offset
// indexes, bloom filter header and bitset, and its ColumnMetaData where the
// specification asks (a column key, or a plaintext footer). Page CRCs
// (WithChecksums) cover the encrypted page modules, as parquet-java
// computes them. Off (nil) by default. The keys are checked at New, and
// an invalid one fails with an error wrapping ErrOption and an error of
// package encryption, which never holds a key.
func WithEncryption(p *encryption.WriteProperties) Option {
	return func(cfg *config) error {
		if err := fileOnly(cfg, "WithEncryption"); err != nil {
			return err
		}
		cfg.encrypt = p
		return nil
	}
}

// fileCrypt is the encryption state of a Writer.
type fileCrypt struct {
	fe      *encryption.FileEncryptor
	ciphers []*encryption.Cipher // per leaf column; nil for a column in the clear
	scratch []byte
}

// setupEncryption makes w's file encryptor and gives each encrypted
// column its chunk encryptor, from w.cfg.encrypt.
func (w *Writer) setupEncryption() error {
	p := w.cfg.encrypt
	if p == nil {
		return nil
	}
	fe, err := encryption.NewFileEncryptor(p)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrOption, err)
	}
	known := map[string]bool{}
	w.crypt = &fileCrypt{fe: fe, ciphers: make([]*encryption.Cipher, len(w.cols))}
	for i, c := range w.cols {
		path := joinPath(c.path)
		known[path] = true
		ci, _, _ := fe.Column(path)
		if ci == nil {
			continue
		}
		w.crypt.ciphers[i] = ci
		c.crypt = new(encryption.ChunkEncryptor)
		if err := c.crypt.Reset(fe, ci, 0, i); err != nil {
			return fmt.Errorf("%w: column %s: %w", ErrTooLarge, path, err)
		}
	}
	for path := range p.ColumnKeys {
		if !known[path] {
			return fmt.Errorf("%w: the encryption key of %q names no leaf column", ErrOption, path)
		}
	}
	return nil
}

// magic returns the file's leading magic: PARE for an encrypted footer.
func (w *Writer) magic() []byte {
	if w.crypt != nil && !w.crypt.fe.Properties().PlaintextFooter {
		return []byte("PARE")
	}
	return []byte("PAR1")
}

// appendPage appends the page of header h and compressed bytes out to dst
// and returns it with the size of the header as written. For an
// encrypted column the header and the page are modules (data page ordinal
// ordinal, or the dictionary page), and the header's compressed_page_size
// the page module's size. The CRC, under WithChecksums, covers the bytes
// written after the header.
func (c *chunkWriter) appendPage(dst []byte, h *format.PageHeader, out []byte, ordinal int) ([]byte, int, error) {
	if c.crypt == nil {
		if c.cfg.crc {
			h.CRC, h.HasCRC = int32(crc32.ChecksumIEEE(out)), true
		}
		start := len(dst)
		dst = format.AppendPageHeader(dst, h)
		hlen := len(dst) - start
		return append(dst, out...), hlen, nil
	}
	if ordinal > encryption.MaxOrdinal {
		return dst, 0, fmt.Errorf("%w: column %v: more than %d pages in a column chunk of an encrypted file",
			ErrTooLarge, c.pathString(), encryption.MaxOrdinal+1)
	}
	if len(out) > maxPagePlain {
		return dst, 0, fmt.Errorf("%w: column %v: encrypted page of %d bytes", ErrTooLarge, c.pathString(), len(out))
	}
	dict := h.Type == format.DictionaryPage
	var err error
	if c.cryptPage, err = c.crypt.AppendPage(c.cryptPage[:0], out, dict, ordinal); err != nil {
		return dst, 0, fmt.Errorf("%w: column %v: %w", ErrTooLarge, c.pathString(), err)
	}
	h.CompressedPageSize = int32(len(c.cryptPage)) // at most MaxInt32: out is at most maxPagePlain
	if c.cfg.crc {
		h.CRC, h.HasCRC = int32(crc32.ChecksumIEEE(c.cryptPage)), true
	}
	c.cryptHeader = format.AppendPageHeader(c.cryptHeader[:0], h)
	start := len(dst)
	if dst, err = c.crypt.AppendPageHeader(dst, c.cryptHeader, dict, ordinal); err != nil {
		return dst, 0, err
	}
	hlen := len(dst) - start
	return append(dst, c.cryptPage...), hlen, nil
}

// maxPagePlain is the largest compressed page an encrypted column holds:
// its module's size must fit compressed_page_size.
const maxPagePlain = 1<<31 - 1 - encryption.LengthSize - encryption.NonceSize - encryption.TagSize

// nextRowGroupCrypt moves the chunk encryptors to the next row group.
func (w *Writer) nextRowGroupCrypt() error {
	if w.crypt == nil {
		return nil
	}
	for _, c := range w.cols {
		if c.crypt != nil {
			if err := c.crypt.SetRowGroup(len(w.rowGroups)); err != nil {
				return fmt.Errorf("%w: more than %d row groups in an encrypted file", ErrTooLarge, encryption.MaxOrdinal+1)
			}
		}
	}
	return nil
}

// encryptModule returns b, a module of type t of row group rowGroup and
// column col (a page index, a bloom filter's header or bitset), encrypted
// when the column is, in w's scratch buffer.
func (w *Writer) encryptModule(b []byte, t encryption.ModuleType, rowGroup, col int) ([]byte, error) {
	if w.crypt == nil || w.crypt.ciphers[col] == nil {
		return b, nil
	}
	out, err := w.crypt.fe.AppendModule(w.crypt.ciphers[col], w.crypt.scratch[:0], b, t, rowGroup, col)
	if err != nil {
		return nil, fmt.Errorf("%w: column %d: %v: %w", ErrTooLarge, col, t, err)
	}
	w.crypt.scratch = out
	return out, nil
}

// bloomModules returns the marshalled bloom filter b of column col of the
// current row group as written: for an encrypted column, the module of
// its header followed by the module of its bitset.
func (w *Writer) bloomModules(b []byte, col int) ([]byte, error) {
	if w.crypt == nil || w.crypt.ciphers[col] == nil {
		return b, nil
	}
	hlen, numBytes, err := format.DecodeBloomFilterHeaderSize(b)
	if err != nil || hlen+int(numBytes) != len(b) {
		return nil, fmt.Errorf("writer: column %d: bloom filter does not split into header and bitset (%v)", col, err)
	}
	fe, ci, rg := w.crypt.fe, w.crypt.ciphers[col], len(w.rowGroups)
	out, err := fe.AppendModule(ci, w.crypt.scratch[:0], b[:hlen], encryption.BloomFilterHeader, rg, col)
	if err == nil {
		out, err = fe.AppendModule(ci, out, b[hlen:], encryption.BloomFilterBitset, rg, col)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: column %d: bloom filter: %w", ErrTooLarge, col, err)
	}
	w.crypt.scratch = out
	return out, nil
}

// appendFooter appends the footer of meta to dst, with its length and
// magic: for an encrypted file, the FileCryptoMetaData and the encrypted
// FileMetaData (PARE), or the FileMetaData with its encryption algorithm
// and signature (PAR1), after the column metadata is encrypted (package
// format's EncryptColumnMetaData and AppendEncryptedFooter).
func (w *Writer) appendFooter(dst []byte, meta *format.FileMetaData) ([]byte, error) {
	if w.crypt == nil {
		start := len(dst)
		dst = format.AppendFileMetaData(dst, meta)
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(dst)-start))
		return append(dst, "PAR1"...), nil
	}
	if err := format.EncryptColumnMetaData(meta, w.crypt.fe); err != nil {
		return dst, fmt.Errorf("%w: %w", ErrTooLarge, err)
	}
	dst, scratch, err := format.AppendEncryptedFooter(dst, w.crypt.scratch, meta, w.crypt.fe)
	w.crypt.scratch = scratch
	if err != nil {
		return dst, fmt.Errorf("%w: %w", ErrTooLarge, err)
	}
	return dst, nil
}
