package encryption

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"math"
)

// This file is the encrypting side: the modules a writer produces, with the
// same AADs (AppendModuleAAD, chunkAAD) as the decrypting side reads them.

// maxPlain is the largest plaintext of one module: its length, nonce,
// ciphertext and tag must fit the 4-byte length.
const maxPlain = math.MaxUint32 - NonceSize - TagSize

// GCMModuleSize returns the size of the AES-GCM module of n plaintext
// bytes, its length included.
func GCMModuleSize(n int) int { return LengthSize + NonceSize + n + TagSize }

// CTRModuleSize returns the size of the AES-CTR module of n plaintext
// bytes, its length included.
func CTRModuleSize(n int) int { return LengthSize + NonceSize + n }

// appendHead appends the length of a module of n bytes after it and a
// fresh random nonce to dst, growing it to hold the whole module.
func appendHead(dst []byte, n int) (out []byte, nonce []byte) {
	start := len(dst)
	dst = growAppend(dst, LengthSize+n)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(n))
	dst = dst[:start+LengthSize+NonceSize]
	nonce = dst[start+LengthSize:]
	rand.Read(nonce) // never fails (it crashes the program instead) since Go 1.24
	return dst, nonce
}

// growAppend returns dst with capacity for n more bytes.
func growAppend(dst []byte, n int) []byte {
	if cap(dst)-len(dst) >= n {
		return dst
	}
	out := make([]byte, len(dst), len(dst)+n+(len(dst)+n)/4)
	copy(out, dst)
	return out
}

func checkPlain(n int) error {
	if uint64(n) > maxPlain {
		return fmt.Errorf("%w: module of %d bytes, more than a module's 4-byte length holds", ErrUnsupported, n)
	}
	return nil
}

// AppendGCM appends to dst the AES-GCM module of plain with AAD aad: its
// length, a random nonce (crypto/rand), the ciphertext and the tag. dst may
// be nil; plain and aad must not overlap the bytes appended. A plaintext
// too long for a module returns an error wrapping [ErrUnsupported].
func (c *Cipher) AppendGCM(dst, plain, aad []byte) ([]byte, error) {
	if err := checkPlain(len(plain)); err != nil {
		return dst, err
	}
	dst, nonce := appendHead(dst, NonceSize+len(plain)+TagSize)
	return c.gcm.Seal(dst, nonce, plain, aad), nil
}

// AppendCTR appends to dst the AES-CTR module of plain (the pages of
// AES_GCM_CTR_V1): its length, a random nonce and the ciphertext, the
// counter starting at nonce||00000001. dst may be nil; plain must not
// overlap the bytes appended.
func (c *Cipher) AppendCTR(dst, plain []byte) ([]byte, error) {
	if err := checkPlain(len(plain)); err != nil {
		return dst, err
	}
	dst, nonce := appendHead(dst, NonceSize+len(plain))
	var iv [aes.BlockSize]byte
	copy(iv[:], nonce)
	iv[aes.BlockSize-1] = 1
	n := len(dst)
	dst = dst[:n+len(plain)]
	cipher.NewCTR(c.block, iv[:]).XORKeyStream(dst[n:], plain)
	return dst, nil
}

// AppendSignature appends to dst the signature of a plaintext footer (the
// serialized FileMetaData): a random nonce and the AES-GCM tag of
// encrypting footer with it and AAD aad, the 28 bytes
// [Cipher.VerifySignature] checks. scratch, which may be nil, holds the
// ciphertext and is returned for reuse.
func (c *Cipher) AppendSignature(dst, scratch, footer, aad []byte) (out, buf []byte) {
	var nonce [NonceSize]byte
	rand.Read(nonce[:])
	buf = c.gcm.Seal(scratch[:0], nonce[:], footer, aad)
	dst = append(dst, nonce[:]...)
	return append(dst, buf[len(buf)-TagSize:]...), buf
}

// ColumnKey is the key of an encrypted column.
type ColumnKey struct {
	// Key is the column's AES key, 16, 24 or 32 bytes; nil encrypts the
	// column with the footer key.
	Key []byte
	// KeyMetadata is stored in the column's crypto metadata for a key
	// retriever (a key id); nil stores none. Ignored with the footer key.
	KeyMetadata []byte
}

// WriteProperties are the keys and choices with which a writer encrypts a
// file. It must not be modified once given to a writer.
type WriteProperties struct {
	// Algorithm is AesGcmV1 (every module AES-GCM, the default when 0) or
	// AesGcmCtrV1 (pages AES-CTR, every other module AES-GCM).
	Algorithm Algorithm
	// FooterKey encrypts the footer (or signs a plaintext footer) and the
	// columns without a key of their own; 16, 24 or 32 bytes. Required.
	FooterKey []byte
	// FooterKeyMetadata is stored for a key retriever (a key id); nil
	// stores none.
	FooterKeyMetadata []byte
	// PlaintextFooter writes the footer in the clear (PAR1 magic), signed
	// with the footer key, so that readers without keys read the schema and
	// the unencrypted columns; the encrypted columns' metadata is then
	// stored encrypted, and in the clear without its statistics.
	PlaintextFooter bool
	// ColumnKeys, when not empty, lists the columns to encrypt by dotted
	// path ("a.list.element"), each with its key; the others are written in
	// the clear. When empty, every column is encrypted with the footer key.
	ColumnKeys map[string]ColumnKey
	// AADPrefix is the file's AAD prefix (its identity, such as a table name
	// and a date), prepended to every module's AAD; nil for none.
	AADPrefix []byte
	// DisableAADPrefixStorage leaves AADPrefix out of the file: readers must
	// be given it (arrow's disable_aad_prefix_storage, parquet-java's
	// withoutAADPrefixStorage).
	DisableAADPrefixStorage bool
}

// FileEncryptor encrypts the modules of one file. It is safe for
// concurrent use.
type FileEncryptor struct {
	props         *WriteProperties
	alg           Algorithm
	aadFileUnique []byte
	fileAAD       []byte
	footer        *Cipher
	columns       map[string]*Cipher // by column path, for columns with their own key
}

// AADFileUniqueSize is the length of the random aad_file_unique of the
// files a FileEncryptor writes, parquet-java's and arrow's.
const AADFileUniqueSize = 8

// NewFileEncryptor checks p and returns the encryptor of a new file, with
// a fresh random aad_file_unique. A key of the wrong length returns an
// error wrapping [ErrInvalidKey] (naming the column, never holding the
// key); no footer key, an error wrapping [ErrNoKey]; an unknown algorithm
// or DisableAADPrefixStorage without a prefix, an error wrapping
// [ErrUnsupported].
func NewFileEncryptor(p *WriteProperties) (*FileEncryptor, error) {
	if p == nil || len(p.FooterKey) == 0 {
		return nil, fmt.Errorf("%w: encrypting a file needs a footer key", ErrNoKey)
	}
	alg := p.Algorithm
	if alg == 0 {
		alg = AesGcmV1
	}
	if alg != AesGcmV1 && alg != AesGcmCtrV1 {
		return nil, fmt.Errorf("%w: encryption algorithm %v", ErrUnsupported, alg)
	}
	if p.DisableAADPrefixStorage && len(p.AADPrefix) == 0 {
		return nil, fmt.Errorf("%w: DisableAADPrefixStorage without an AAD prefix", ErrUnsupported)
	}
	footer, err := NewCipher(p.FooterKey)
	if err != nil {
		return nil, fmt.Errorf("footer key: %w", err)
	}
	e := &FileEncryptor{props: p, alg: alg, footer: footer, columns: map[string]*Cipher{}}
	byKey := map[string]*Cipher{string(p.FooterKey): footer}
	for path, k := range p.ColumnKeys {
		if k.Key == nil {
			continue
		}
		c := byKey[string(k.Key)]
		if c == nil {
			if c, err = NewCipher(k.Key); err != nil {
				return nil, fmt.Errorf("key of column %s: %w", path, err)
			}
			byKey[string(k.Key)] = c
		}
		e.columns[path] = c
	}
	e.aadFileUnique = make([]byte, AADFileUniqueSize)
	rand.Read(e.aadFileUnique)
	e.fileAAD = append(append([]byte{}, p.AADPrefix...), e.aadFileUnique...)
	return e, nil
}

// Algorithm returns the file's algorithm.
func (e *FileEncryptor) Algorithm() Algorithm { return e.alg }

// AAD returns what the file's EncryptionAlgorithm stores: the AAD prefix
// (nil when not stored), aad_file_unique and whether readers must supply
// the prefix. The slices must not be modified.
func (e *FileEncryptor) AAD() (prefix, fileUnique []byte, supply bool) {
	if len(e.props.AADPrefix) > 0 && !e.props.DisableAADPrefixStorage {
		prefix = e.props.AADPrefix
	}
	return prefix, e.aadFileUnique, e.props.DisableAADPrefixStorage
}

// FileAAD returns the file AAD, prefix and aad_file_unique. It must not be
// modified.
func (e *FileEncryptor) FileAAD() []byte { return e.fileAAD }

// Properties returns the properties e was made with.
func (e *FileEncryptor) Properties() *WriteProperties { return e.props }

// FooterCipher returns the Cipher of the footer key.
func (e *FileEncryptor) FooterCipher() *Cipher { return e.footer }

// Column says how the column at dotted path path is encrypted: c is nil for
// a column left in the clear; withFooterKey reports the footer key, and
// keyMetadata is the column key's metadata otherwise.
func (e *FileEncryptor) Column(path string) (c *Cipher, withFooterKey bool, keyMetadata []byte) {
	if len(e.props.ColumnKeys) == 0 {
		return e.footer, true, nil
	}
	k, ok := e.props.ColumnKeys[path]
	if !ok {
		return nil, false, nil
	}
	if k.Key == nil {
		return e.footer, true, nil
	}
	return e.columns[path], false, k.KeyMetadata
}

// AppendModule appends to dst the AES-GCM module of plain, a module of type
// t (not a page) of row group rowGroup and column column (both ignored for
// the footer), encrypted with c. Ordinals above [MaxOrdinal] return an error
// wrapping [ErrCorrupt].
func (e *FileEncryptor) AppendModule(c *Cipher, dst, plain []byte, t ModuleType, rowGroup, column int) ([]byte, error) {
	var buf [64]byte
	aad, err := AppendModuleAAD(buf[:0], e.fileAAD, t, rowGroup, column, 0)
	if err != nil {
		return dst, err
	}
	return c.AppendGCM(dst, plain, aad)
}

// AppendFooterSignature appends the signature of the plaintext footer (the
// serialized FileMetaData) to dst; scratch is as in
// [Cipher.AppendSignature].
func (e *FileEncryptor) AppendFooterSignature(dst, scratch, footer []byte) (out, buf []byte) {
	var b [64]byte
	aad, _ := AppendModuleAAD(b[:0], e.fileAAD, Footer, 0, 0, 0) // the footer has no ordinals: no error
	return e.footer.AppendSignature(dst, scratch, footer, aad)
}

// ChunkEncryptor encrypts the page headers and pages of one column chunk,
// with the AADs [ChunkDecryptor] checks. Encrypting a page allocates
// nothing under AES_GCM_V1 once dst has grown (the AES-CTR pages of
// AES_GCM_CTR_V1 allocate their stream, see [ChunkDecryptor]). The zero
// value is ready for [ChunkEncryptor.Reset]; it is not safe for concurrent
// use.
type ChunkEncryptor struct {
	c   *Cipher
	ctr bool
	chunkAAD
}

// Reset makes d encrypt the chunk of row group rowGroup and column column
// of the file of fe with c. Ordinals above [MaxOrdinal] return an error
// wrapping [ErrCorrupt].
func (d *ChunkEncryptor) Reset(fe *FileEncryptor, c *Cipher, rowGroup, column int) error {
	d.c, d.ctr = c, fe.alg == AesGcmCtrV1
	return d.chunkAAD.reset(fe.fileAAD, rowGroup, column)
}

// SetRowGroup moves d to the chunk of the same column in row group
// rowGroup.
func (d *ChunkEncryptor) SetRowGroup(rowGroup int) error {
	return d.chunkAAD.reset(d.aad[:d.fileAADLen], rowGroup, d.column)
}

// PageModuleSize returns the size of the module of an n-byte page, the
// compressed_page_size its header states.
func (d *ChunkEncryptor) PageModuleSize(n int) int {
	if d.ctr {
		return CTRModuleSize(n)
	}
	return GCMModuleSize(n)
}

// AppendPageHeader appends to dst the module of a serialized page header:
// a dictionary page header when dict is set, the header of data page
// ordinal ordinal otherwise.
func (d *ChunkEncryptor) AppendPageHeader(dst, header []byte, dict bool, ordinal int) ([]byte, error) {
	return d.appendGCM(dst, header, pageHeaderModule(dict), ordinal)
}

// AppendPage appends to dst the module of a page's compressed bytes: the
// dictionary page when dict is set, data page ordinal ordinal otherwise;
// AES-CTR under AES_GCM_CTR_V1, AES-GCM under AES_GCM_V1.
func (d *ChunkEncryptor) AppendPage(dst, page []byte, dict bool, ordinal int) ([]byte, error) {
	if d.ctr {
		return d.c.AppendCTR(dst, page)
	}
	return d.appendGCM(dst, page, pageModule(dict), ordinal)
}

// appendGCM appends to dst the AES-GCM module of b, a module of type t of
// page ordinal (the AAD says both).
func (d *ChunkEncryptor) appendGCM(dst, b []byte, t ModuleType, ordinal int) ([]byte, error) {
	if err := d.setAAD(t, ordinal); err != nil {
		return dst, err
	}
	return d.c.AppendGCM(dst, b, d.aad)
}
