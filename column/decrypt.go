package column

import (
	"errors"
	"fmt"
	"io"

	"github.com/pqcodec/pqcodec/bloom"
	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/format"
)

// This file reads encrypted files (Parquet Modular Encryption); the hooks
// in file.go, open.go and seek.go that call it are marked "encryption".

// WithDecryption makes [Open] read encrypted files with the keys of p: an
// encrypted footer (PARE magic) is decrypted, the signature of a plaintext
// footer verified (unless p.NoFooterSignature), and each encrypted column
// chunk's metadata, page headers, pages, column index and offset index
// decrypted with its key. A column whose key p does not give still opens
// with the File, and the File's other columns read; reading it returns an
// error that names it and wraps [ErrEncrypted] and encryption.ErrNoKey.
// Bytes that do not decrypt (a wrong key, tampered bytes, a truncated
// module) return errors wrapping pqcodec.ErrDecrypt, and so does a file
// that is not encrypted unless p.PlaintextFilesAllowed. Keys never appear in
// error messages. p must not be modified while the File is in use. The
// default, nil, reads plaintext files and the unencrypted columns of files
// with a plaintext footer, without verifying its signature.
func WithDecryption(p *encryption.Properties) Option {
	return func(o *options) error {
		o.decryption = p
		return nil
	}
}

// fileCrypt is the decryption state of a File.
type fileCrypt struct {
	dec *encryption.FileDecryptor
	// ciphers and errs are by row group, then column: the Cipher of an
	// encrypted chunk (nil for a plaintext one), or why it cannot be read.
	ciphers [][]*encryption.Cipher
	errs    [][]error
}

// readFooter reads the footer of r with the options' keys and prepares the
// decryption of every encrypted chunk.
func readFooter(r io.ReaderAt, size int64, o *options) (*format.FileMetaData, *fileCrypt, error) {
	meta, dec, err := format.ReadFooterDecrypt(r, size, o.decryption)
	if err != nil || dec == nil {
		return meta, nil, err
	}
	c := &fileCrypt{dec: dec, ciphers: make([][]*encryption.Cipher, len(meta.RowGroups)), errs: make([][]error, len(meta.RowGroups))}
	for i := range meta.RowGroups {
		cols := meta.RowGroups[i].Columns
		c.ciphers[i] = make([]*encryption.Cipher, len(cols))
		c.errs[i] = make([]error, len(cols))
		for j := range cols {
			c.ciphers[i][j], c.errs[i][j] = format.DecryptColumnChunk(dec, &cols[j], i, j)
		}
	}
	return meta, c, nil
}

// chunkCryptErr returns why the chunk cannot be decrypted, or nil.
func (f *File) chunkCryptErr(rowGroup, column int) error {
	if f.crypt == nil || rowGroup >= len(f.crypt.errs) || column >= len(f.crypt.errs[rowGroup]) {
		return nil
	}
	return f.crypt.errs[rowGroup][column]
}

// chunkCipher returns the Cipher of an encrypted chunk, nil for a plaintext
// one.
func (f *File) chunkCipher(rowGroup, column int) *encryption.Cipher {
	if f.crypt == nil || rowGroup >= len(f.crypt.ciphers) || column >= len(f.crypt.ciphers[rowGroup]) {
		return nil
	}
	return f.crypt.ciphers[rowGroup][column]
}

// chunkRange is format's ColumnChunkRange, for encrypted chunks too.
func (f *File) chunkRange(cc *format.ColumnChunk, rowGroup, column int) (format.ChunkRange, error) {
	if err := f.chunkCryptErr(rowGroup, column); err != nil {
		return format.ChunkRange{}, err
	}
	if f.chunkCipher(rowGroup, column) != nil {
		return f.meta.EncryptedChunkRange(cc, f.size)
	}
	return f.meta.ColumnChunkRange(cc, f.size)
}

// setDecryptor makes r's walk decrypt its chunk when it is encrypted.
func (f *File) setDecryptor(r *Reader) error {
	ci := f.chunkCipher(r.rowGroup, r.column)
	if ci == nil {
		r.crypt.Clear()
		return nil
	}
	if err := r.crypt.Reset(f.crypt.dec, ci, r.rowGroup, r.column); err != nil {
		return err
	}
	r.pages.SetDecryptor(&r.crypt)
	return nil
}

// readColumnIndex is format.ReadColumnIndexLimit under WithMaxMemory, for encrypted chunks too.
func (f *File) readColumnIndex(rowGroup, column int, cc *format.ColumnChunk) (*format.ColumnIndex, error) {
	return readIndex(f, rowGroup, column, cc, format.ReadColumnIndexDecrypt, format.ReadColumnIndexLimit)
}

// readOffsetIndex is format.ReadOffsetIndexLimit under WithMaxMemory, for encrypted chunks too.
func (f *File) readOffsetIndex(rowGroup, column int, cc *format.ColumnChunk) (*format.OffsetIndex, error) {
	return readIndex(f, rowGroup, column, cc, format.ReadOffsetIndexDecrypt, format.ReadOffsetIndexLimit)
}

// readIndex reads a page index of cc (a column index or an offset index)
// with decrypt when the chunk is encrypted, with read otherwise, under
// WithMaxMemory.
func readIndex[T any](f *File, rowGroup, column int, cc *format.ColumnChunk,
	decrypt func(io.ReaderAt, int64, *format.ColumnChunk, *encryption.FileDecryptor, *encryption.Cipher, int, int, int64) (*T, error),
	read func(io.ReaderAt, int64, *format.ColumnChunk, int64) (*T, error)) (*T, error) {
	if err := f.chunkCryptErr(rowGroup, column); err != nil {
		return nil, err
	}
	if ci := f.chunkCipher(rowGroup, column); ci != nil {
		return decrypt(f.r, f.size, cc, f.crypt.dec, ci, rowGroup, column, f.opts.maxMemory)
	}
	return read(f.r, f.size, cc, f.opts.maxMemory)
}

// Decryptor returns the decryptor of an encrypted file opened with
// [WithDecryption] (its algorithm, AAD and keys), or nil.
func (f *File) Decryptor() *encryption.FileDecryptor {
	if f.crypt == nil {
		return nil
	}
	return f.crypt.dec
}

// ChunkCipher returns the Cipher of the encrypted chunk of leaf column
// column in row group rowGroup, for reading its other modules (its bloom
// filter: format.ReadBloomFilterDecrypt); nil for a plaintext chunk. A
// chunk that cannot be decrypted returns the error reading it would.
func (f *File) ChunkCipher(rowGroup, column int) (*encryption.Cipher, error) {
	if err := f.checkIndex(rowGroup, column); err != nil {
		return nil, err
	}
	if err := f.chunkCryptErr(rowGroup, column); err != nil {
		return nil, f.chunkError(rowGroup, column, err)
	}
	return f.chunkCipher(rowGroup, column), nil
}

// checkIndex checks a row group and leaf column index.
func (f *File) checkIndex(rowGroup, column int) error {
	if rowGroup < 0 || rowGroup >= len(f.meta.RowGroups) {
		return fmt.Errorf("column: row group %d out of range [0, %d)", rowGroup, len(f.meta.RowGroups))
	}
	if column < 0 || column >= len(f.schema.Leaves()) {
		return fmt.Errorf("column: column %d out of range [0, %d)", column, len(f.schema.Leaves()))
	}
	return nil
}

// ReadChunkPages reads the chunk of leaf column column in row group
// rowGroup into buf (reusing its capacity; it may be nil) and resets w to
// walk its pages, decrypting them with d, which must not be in use by
// another walk, when the chunk is encrypted: the walk of a tool that reads
// page headers (pqcodec inspect) rather than values. It returns the
// chunk's bytes, to pass again as buf. A chunk that cannot be decrypted
// returns the error reading it would.
func (f *File) ReadChunkPages(w *format.PageWalker, d *encryption.ChunkDecryptor, buf []byte, rowGroup, column int) ([]byte, error) {
	if err := f.checkIndex(rowGroup, column); err != nil {
		return buf, err
	}
	cc := &f.meta.RowGroups[rowGroup].Columns[column]
	rng, err := f.chunkRange(cc, rowGroup, column)
	if err != nil {
		return buf, f.chunkError(rowGroup, column, err)
	}
	if buf, err = format.ReadColumnChunk(buf, f.r, rng); err != nil {
		return buf, f.chunkError(rowGroup, column, err)
	}
	w.Reset(buf, rng)
	if ci := f.chunkCipher(rowGroup, column); ci != nil {
		if err := d.Reset(f.crypt.dec, ci, rowGroup, column); err != nil {
			return buf, f.chunkError(rowGroup, column, err)
		}
		w.SetDecryptor(d)
	}
	return buf, nil
}

// bloomFilterDecrypt is File.BloomFilter for an encrypted chunk: its header
// and bitset are two AES-GCM modules.
func (f *File) bloomFilterDecrypt(rowGroup, column int, ci *encryption.Cipher) (*bloom.Filter, error) {
	cc := &f.meta.RowGroups[rowGroup].Columns[column]
	h, bitset, err := format.ReadBloomFilterDecrypt(f.r, f.size, cc, f.crypt.dec, ci, rowGroup, column)
	if err == nil && h == nil {
		return nil, nil
	}
	var bf *bloom.Filter
	if err == nil {
		// The header module may hold bytes after the thrift header
		// (parquet-java pads it with zeros): the bitset is the other
		// module, not what follows the header.
		var hlen int
		if _, hlen, err = format.DecodeBloomFilterHeader(h); err == nil {
			bf, _, err = bloom.Unmarshal(append(h[:hlen:hlen], bitset...))
		}
		if errors.Is(err, bloom.ErrCorrupt) || errors.Is(err, format.ErrCorrupt) {
			err = fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
	}
	if err != nil {
		return nil, f.chunkError(rowGroup, column, fmt.Errorf("bloom filter: %w", err))
	}
	return bf, nil
}
