package format

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/internal/thrift"
)

// This file reads files of Parquet Modular Encryption: the crypto metadata
// of an encrypted footer, the footer itself (encrypted, or plaintext with a
// signature), encrypted column metadata and page indexes, and the page
// walk of an encrypted column chunk (the hooks in pages.go marked
// "encryption"). The crypto is package encryption's.

// FileCryptoMetaData is the crypto metadata that precedes the encrypted
// footer of a file with the PARE magic.
type FileCryptoMetaData struct {
	EncryptionAlgorithm EncryptionAlgorithm
	// KeyMetadata is the footer key's metadata, for a key retriever.
	KeyMetadata []byte
}

var fileCryptoMetaDataFields = required("FileCryptoMetaData", []string{1: "encryption_algorithm"})

func (d *decoder) fileCryptoMetaData(m *FileCryptoMetaData) error {
	var seen uint32
	var err error
	for t, id := range d.fieldsOf(&err) {
		switch {
		case id == 1 && t == thrift.Struct:
			err = d.encryptionAlgorithm(&m.EncryptionAlgorithm)
		case id == 2 && t == thrift.Binary:
			m.KeyMetadata, err = d.binary()
		default:
			err = d.r.Skip(t)
			continue
		}
		seen |= 1 << id
	}
	if err != nil {
		return err
	}
	return fileCryptoMetaDataFields.check(seen)
}

// DecodeFileCryptoMetaData decodes the thrift FileCryptoMetaData at the
// start of b and returns it with its encoded length; the encrypted footer
// module follows it. The result does not alias b. Errors wrap [ErrCorrupt].
func DecodeFileCryptoMetaData(b []byte) (*FileCryptoMetaData, int, error) {
	return decodeCopy[FileCryptoMetaData](b, "file crypto metadata")
}

// AppendFileCryptoMetaData appends the thrift encoding of m to dst and
// returns the extended slice; dst may be nil.
func AppendFileCryptoMetaData(dst []byte, m *FileCryptoMetaData) []byte { return appendStruct(dst, m) }

func (e *encoder) fileCryptoMetaData(m *FileCryptoMetaData) {
	e.w.StructBegin()
	e.encryptionAlgorithmField(1, &m.EncryptionAlgorithm)
	e.optBinary(2, m.KeyMetadata)
	e.w.StructEnd()
}

func (e *encoder) encryptionAlgorithmField(id int16, a *EncryptionAlgorithm) {
	e.w.WriteFieldHeader(thrift.Struct, id)
	e.w.StructBegin()
	e.w.WriteFieldHeader(thrift.Struct, int16(a.Kind))
	e.w.StructBegin()
	e.optBinary(1, a.AadPrefix)
	e.optBinary(2, a.AadFileUnique)
	if a.SupplyAadPrefix != nil {
		e.w.WriteBoolField(3, *a.SupplyAadPrefix)
	}
	e.w.StructEnd()
	e.w.StructEnd()
}

// AppendColumnMetaData appends the thrift encoding of m to dst, as
// encrypted_column_metadata holds it before encryption, and returns the
// extended slice; dst may be nil.
func AppendColumnMetaData(dst []byte, m *ColumnMetaData) []byte {
	// The encoder writes ColumnMetaData as field 3 of ColumnChunk: encode
	// it so, in a struct of its own, and keep the struct between the
	// one-byte field header and the outer struct's stop byte.
	e := new(encoder)
	e.w.Reset(nil)
	e.w.StructBegin()
	e.columnMetaData(m)
	e.w.StructEnd()
	return append(dst, e.w.Buf[1:len(e.w.Buf)-1]...)
}

// DecodeColumnMetaData decodes a thrift ColumnMetaData, the plaintext of
// encrypted_column_metadata. The result does not alias b. Errors wrap
// [ErrCorrupt].
func DecodeColumnMetaData(b []byte) (*ColumnMetaData, error) {
	m, _, err := decodeCopy[ColumnMetaData](b, "column metadata")
	return m, err
}

// decodeFileMetaDataLen is DecodeFileMetaData that also returns the
// encoded length of the struct: a plaintext footer's signature follows it.
func decodeFileMetaDataLen(b []byte) (*FileMetaData, int, error) {
	return decodeCopy[FileMetaData](b, "file metadata")
}

func algorithm(a *EncryptionAlgorithm, p *encryption.Properties, footerKeyMetadata []byte) (*encryption.FileDecryptor, error) {
	supply := a.SupplyAadPrefix != nil && *a.SupplyAadPrefix
	return encryption.NewFileDecryptor(p, encryption.Algorithm(a.Kind), a.AadPrefix, a.AadFileUnique, supply, footerKeyMetadata)
}

// ReadFooterDecrypt reads the footer of the size-byte Parquet file r as
// [ReadFooter] does, decrypting it with the keys of p:
//
//   - an encrypted footer (PARE magic): the FileCryptoMetaData, then the
//     footer module, decrypted with the footer key;
//   - a plaintext footer of an encrypted file (it has an
//     EncryptionAlgorithm): its signature (nonce and tag after the
//     FileMetaData) verified with the footer key, unless
//     p.NoFooterSignature;
//   - a plaintext file: an error wrapping encryption.ErrDecrypt, unless
//     p.PlaintextFilesAllowed, when it reads as it is (dec is nil).
//
// For encrypted files it returns the file's decryptor, with which
// [DecryptColumnChunk] decrypts each chunk's metadata. With p nil it is
// ReadFooter: an encrypted footer is an error wrapping [ErrEncrypted], and
// a plaintext one is read without verifying its signature. Errors of
// decryption wrap encryption.ErrDecrypt; missing keys encryption.ErrNoKey
// and [ErrEncrypted]. The footer length is checked against the file size
// before reading, and module lengths against the footer.
func ReadFooterDecrypt(r io.ReaderAt, size int64, p *encryption.Properties) (m *FileMetaData, dec *encryption.FileDecryptor, err error) {
	if p == nil {
		m, err = ReadFooter(r, size)
		return m, nil, err
	}
	if size < int64(len(magic))+footerTail {
		return nil, nil, fmt.Errorf("%w: %d bytes is too short", ErrNotParquet, size)
	}
	var tail [footerTail]byte
	if err := ReadAt(r, tail[:], size-footerTail); err != nil {
		return nil, nil, fmt.Errorf("format: reading footer length: %w", err)
	}
	if string(tail[4:]) != magicEncrypted {
		b, err := ReadFooterBytes(r, size)
		if err != nil {
			return nil, nil, err
		}
		m, n, err := decodeFileMetaDataLen(b)
		if err != nil {
			return nil, nil, err
		}
		if m.EncryptionAlgorithm == nil {
			if !p.PlaintextFilesAllowed {
				return nil, nil, fmt.Errorf("format: %w: the file is not encrypted, and decryption keys were given (see PlaintextFilesAllowed)", encryption.ErrDecrypt)
			}
			return m, nil, nil
		}
		dec, err := algorithm(m.EncryptionAlgorithm, p, m.FooterSigningKeyMetadata)
		if err != nil {
			return nil, nil, noKey(err)
		}
		if p.NoFooterSignature {
			return m, dec, nil
		}
		c, err := dec.FooterCipher()
		if err != nil {
			return nil, nil, fmt.Errorf("format: verifying the plaintext footer's signature: %w", noKey(err))
		}
		aad, err := encryption.AppendModuleAAD(nil, dec.FileAAD(), encryption.Footer, 0, 0, 0)
		if err != nil {
			return nil, nil, err
		}
		if _, err := c.VerifySignature(nil, b[:n], b[n:], aad); err != nil {
			return nil, nil, fmt.Errorf("format: %w", err)
		}
		return m, dec, nil
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-int64(len(magic))-footerTail {
		return nil, nil, fmt.Errorf("%w: footer length %d exceeds file size %d", ErrCorrupt, n, size)
	}
	b := make([]byte, n)
	if err := ReadAt(r, b, size-footerTail-n); err != nil {
		return nil, nil, fmt.Errorf("format: reading footer: %w", err)
	}
	cm, k, err := DecodeFileCryptoMetaData(b)
	if err != nil {
		return nil, nil, err
	}
	dec, err = algorithm(&cm.EncryptionAlgorithm, p, cm.KeyMetadata)
	if err != nil {
		return nil, nil, noKey(err)
	}
	c, err := dec.FooterCipher()
	if err != nil {
		return nil, nil, fmt.Errorf("format: encrypted footer: %w", noKey(err))
	}
	module := b[k:]
	ms, err := encryption.ModuleSize(module)
	if err != nil {
		return nil, nil, fmt.Errorf("format: encrypted footer: %w", err)
	}
	plain, err := dec.DecryptModule(c, nil, module[:ms], encryption.Footer, 0, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("format: %w", err)
	}
	if m, err = DecodeFileMetaData(plain); err != nil {
		return nil, nil, err
	}
	return m, dec, nil
}

// noKey makes an error of encryption.ErrNoKey match [ErrEncrypted] too.
func noKey(err error) error {
	if errors.Is(err, encryption.ErrNoKey) {
		return fmt.Errorf("%w: %w", ErrEncrypted, err)
	}
	return err
}

// DecryptColumnChunk prepares chunk c, of row group rowGroup and column
// column (its index in the row group) of the file of dec, for reading: it
// returns the Cipher of the chunk's modules (nil for a chunk that is not
// encrypted), and replaces c.MetaData with the decryption of
// encrypted_column_metadata when the chunk has it. A chunk encrypted with
// a key dec does not have returns an error wrapping encryption.ErrNoKey and
// [ErrEncrypted] naming the column, and leaves c as it is; a chunk whose
// metadata does not decrypt, an error wrapping encryption.ErrDecrypt.
func DecryptColumnChunk(dec *encryption.FileDecryptor, c *ColumnChunk, rowGroup, column int) (*encryption.Cipher, error) {
	cm := c.CryptoMetadata
	if cm == nil {
		if c.EncryptedColumnMetadata != nil {
			return nil, fmt.Errorf("%w: encrypted column metadata without crypto metadata", ErrCorrupt)
		}
		return nil, nil
	}
	var ci *encryption.Cipher
	var err error
	switch cm.Kind {
	case EncryptionWithFooterKey:
		ci, err = dec.FooterCipher()
	case EncryptionWithColumnKey:
		ci, err = dec.ColumnCipher(strings.Join(cm.PathInSchema, "."), cm.KeyMetadata)
	default:
		return nil, fmt.Errorf("%w: column crypto metadata member %d", ErrEncrypted, cm.Kind)
	}
	if err != nil {
		return nil, noKey(err)
	}
	if c.EncryptedColumnMetadata != nil {
		plain, err := dec.DecryptModule(ci, nil, c.EncryptedColumnMetadata, encryption.ColumnMetaData, rowGroup, column)
		if err != nil {
			return nil, err
		}
		md, err := DecodeColumnMetaData(plain)
		if err != nil {
			return nil, err
		}
		c.MetaData, c.EncryptedColumnMetadata = md, nil
	}
	if c.MetaData == nil {
		return nil, fmt.Errorf("%w: encrypted column chunk without metadata", ErrCorrupt)
	}
	return ci, nil
}

// EncryptedChunkRange is [FileMetaData.ColumnChunkRange] for an encrypted
// chunk c whose metadata [DecryptColumnChunk] made readable.
func (m *FileMetaData) EncryptedChunkRange(c *ColumnChunk, fileSize int64) (ChunkRange, error) {
	plain := *c
	plain.CryptoMetadata, plain.EncryptedColumnMetadata = nil, nil
	return m.ColumnChunkRange(&plain, fileSize)
}

// ReadColumnIndexDecrypt is [ReadColumnIndexLimit] for a chunk encrypted
// with ci (from [DecryptColumnChunk]), at row group rowGroup and column
// column. The decoded index aliases the module's plaintext, which it owns.
func ReadColumnIndexDecrypt(r io.ReaderAt, fileSize int64, c *ColumnChunk, dec *encryption.FileDecryptor, ci *encryption.Cipher, rowGroup, column int, limit int64) (*ColumnIndex, error) {
	return readPageIndex[ColumnIndex](r, fileSize, c, limit, &indexCrypt{dec, ci, rowGroup, column})
}

// ReadOffsetIndexDecrypt is [ReadOffsetIndexLimit] for a chunk encrypted
// with ci (from [DecryptColumnChunk]), at row group rowGroup and column
// column.
func ReadOffsetIndexDecrypt(r io.ReaderAt, fileSize int64, c *ColumnChunk, dec *encryption.FileDecryptor, ci *encryption.Cipher, rowGroup, column int, limit int64) (*OffsetIndex, error) {
	return readPageIndex[OffsetIndex](r, fileSize, c, limit, &indexCrypt{dec, ci, rowGroup, column})
}

// MaxBloomFilterSize bounds the bloom filter bitset [ReadBloomFilterDecrypt]
// reads: 128 MiB, parquet-java's maximum.
const MaxBloomFilterSize = 128 << 20

// ReadBloomFilterDecrypt reads the bloom filter of chunk c encrypted with
// ci, at row group rowGroup and column column: the header module at
// bloom_filter_offset and the bitset module after it. It returns the
// plaintext of the header module (the thrift BloomFilterHeader, which
// parquet-java follows with zero padding) and the bitset, whose length the
// header's numBytes gives; nil, nil, nil when the chunk has no bloom
// filter. Module lengths are checked against the file (and the bitset
// against [MaxBloomFilterSize]) before reading.
func ReadBloomFilterDecrypt(r io.ReaderAt, fileSize int64, c *ColumnChunk, dec *encryption.FileDecryptor, ci *encryption.Cipher, rowGroup, column int) (header, bitset []byte, err error) {
	if c.MetaData == nil || c.MetaData.BloomFilterOffset == nil {
		return nil, nil, nil
	}
	off := *c.MetaData.BloomFilterOffset
	readModule := func(off int64, max int64, what string) ([]byte, error) {
		var l [encryption.LengthSize]byte
		if off < 0 || off > fileSize-encryption.LengthSize {
			return nil, fmt.Errorf("%w: %s at offset %d outside the file of %d bytes", ErrCorrupt, what, off, fileSize)
		}
		if err := ReadAt(r, l[:], off); err != nil {
			return nil, fmt.Errorf("format: reading %s: %w", what, err)
		}
		n := int64(binary.LittleEndian.Uint32(l[:]))
		if n > fileSize-off-encryption.LengthSize || n > max {
			return nil, fmt.Errorf("%w: %s module of %d bytes at offset %d in a file of %d bytes", ErrCorrupt, what, n, off, fileSize)
		}
		b := make([]byte, encryption.LengthSize+n)
		if err := ReadAt(r, b, off); err != nil {
			return nil, fmt.Errorf("format: reading %s: %w", what, err)
		}
		return b, nil
	}
	hm, err := readModule(off, MaxPageIndexSize, "bloom filter header")
	if err != nil {
		return nil, nil, err
	}
	if header, err = dec.DecryptModule(ci, nil, hm, encryption.BloomFilterHeader, rowGroup, column); err != nil {
		return nil, nil, err
	}
	_, numBytes, err := DecodeBloomFilterHeaderSize(header)
	if err != nil {
		return nil, nil, err
	}
	bm, err := readModule(off+int64(len(hm)), MaxBloomFilterSize+encryption.NonceSize+encryption.TagSize, "bloom filter bitset")
	if err != nil {
		return nil, nil, err
	}
	if bitset, err = dec.DecryptModule(ci, bm[:0:0], bm, encryption.BloomFilterBitset, rowGroup, column); err != nil {
		return nil, nil, err
	}
	if len(bitset) != int(numBytes) {
		return nil, nil, fmt.Errorf("%w: bloom filter bitset of %d bytes, header says %d", ErrCorrupt, len(bitset), numBytes)
	}
	return header, bitset, nil
}
