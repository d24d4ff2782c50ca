package encryption

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/pqcodec/pqcodec/internal/errs"
)

// Errors of the package. ErrDecrypt also matches pqcodec.ErrDecrypt, and
// ErrCorrupt pqcodec.ErrCorrupt.
var (
	// ErrDecrypt reports a module that does not decrypt: a tag that does
	// not verify (wrong key, tampered ciphertext, nonce or AAD), a footer
	// signature that does not match, a module shorter than its nonce and
	// tag or longer than the bytes that hold it, an AAD prefix that
	// differs from the file's.
	ErrDecrypt = errs.Decrypt("encryption: module does not decrypt")
	// ErrNoKey reports a key (or the AAD prefix) that the file needs and
	// the [Properties] do not give, or that the key retriever did not
	// return.
	ErrNoKey = errors.New("encryption: no key")
	// ErrInvalidKey reports a key that is not 16, 24 or 32 bytes long.
	ErrInvalidKey = errors.New("encryption: invalid key")
	// ErrUnsupported reports an encryption algorithm other than
	// AES_GCM_V1 and AES_GCM_CTR_V1.
	ErrUnsupported = errors.New("encryption: unsupported")
	// ErrCorrupt reports metadata that no valid encrypted file holds: an
	// ordinal above [MaxOrdinal].
	ErrCorrupt = errs.Corrupt("encryption: corrupt metadata")
)

// Sizes of the parts of a module.
const (
	LengthSize = 4  // the little-endian length that starts every module
	NonceSize  = 12 // the nonce after it
	TagSize    = 16 // the AES-GCM tag that ends a GCM module
	// MaxOrdinal is the largest row group, column or page ordinal a module
	// AAD holds (a 2-byte signed integer in parquet-java and arrow-cpp).
	MaxOrdinal = math.MaxInt16
)

// Algorithm is an encryption algorithm: the member of the thrift union
// EncryptionAlgorithm.
type Algorithm int16

// Algorithms.
const (
	AesGcmV1    Algorithm = 1 // every module AES-GCM
	AesGcmCtrV1 Algorithm = 2 // pages AES-CTR, every other module AES-GCM
)

// String returns the specification's name of a.
func (a Algorithm) String() string {
	switch a {
	case AesGcmV1:
		return "AES_GCM_V1"
	case AesGcmCtrV1:
		return "AES_GCM_CTR_V1"
	}
	return fmt.Sprintf("EncryptionAlgorithm(%d)", int16(a))
}

// ModuleType is the module type byte of a module AAD.
type ModuleType uint8

// Module types, as the specification numbers them.
const (
	Footer               ModuleType = 0
	ColumnMetaData       ModuleType = 1
	DataPage             ModuleType = 2
	DictionaryPage       ModuleType = 3
	DataPageHeader       ModuleType = 4
	DictionaryPageHeader ModuleType = 5
	ColumnIndex          ModuleType = 6
	OffsetIndex          ModuleType = 7
	BloomFilterHeader    ModuleType = 8
	BloomFilterBitset    ModuleType = 9
)

var moduleNames = [...]string{"footer", "column metadata", "data page", "dictionary page", "data page header",
	"dictionary page header", "column index", "offset index", "bloom filter header", "bloom filter bitset"}

// String returns the module type's name ("data page header").
func (t ModuleType) String() string {
	if int(t) < len(moduleNames) {
		return moduleNames[t]
	}
	return fmt.Sprintf("module type %d", uint8(t))
}

// hasPageOrdinal reports whether the AAD of a module of type t ends with a
// page ordinal.
func (t ModuleType) hasPageOrdinal() bool { return t == DataPage || t == DataPageHeader }

// AppendModuleAAD appends to dst the AAD of a module of type t: the file
// AAD, the type byte, then, except for the footer, the row group and column
// ordinals and, for data pages and their headers, the page ordinal, each a
// 2-byte little-endian integer. An ordinal outside [0, MaxOrdinal] returns
// an error wrapping [ErrCorrupt]. dst may be nil; it is reused by capacity.
func AppendModuleAAD(dst, fileAAD []byte, t ModuleType, rowGroup, column, page int) ([]byte, error) {
	dst = append(append(dst[:0], fileAAD...), byte(t))
	if t == Footer {
		return dst, nil
	}
	if err := checkOrdinals(rowGroup, column); err != nil {
		return dst, err
	}
	dst = binary.LittleEndian.AppendUint16(dst, uint16(rowGroup))
	dst = binary.LittleEndian.AppendUint16(dst, uint16(column))
	if t.hasPageOrdinal() {
		if page < 0 || page > MaxOrdinal {
			return dst, fmt.Errorf("%w: page ordinal %d past %d", ErrCorrupt, page, MaxOrdinal)
		}
		dst = binary.LittleEndian.AppendUint16(dst, uint16(page))
	}
	return dst, nil
}

func checkOrdinals(rowGroup, column int) error {
	if rowGroup < 0 || rowGroup > MaxOrdinal || column < 0 || column > MaxOrdinal {
		return fmt.Errorf("%w: row group %d, column %d: ordinals of an encrypted file are at most %d",
			ErrCorrupt, rowGroup, column, MaxOrdinal)
	}
	return nil
}

// ModuleSize returns the size of the module at the start of b: LengthSize
// plus the length it starts with. A module that b cannot hold, or too
// short to hold a nonce, returns an error wrapping [ErrDecrypt], so that a
// length is never trusted past the bytes that hold it.
func ModuleSize(b []byte) (int, error) {
	if len(b) < LengthSize {
		return 0, fmt.Errorf("%w: module of %d bytes, shorter than its length", ErrDecrypt, len(b))
	}
	n := uint64(binary.LittleEndian.Uint32(b))
	if n < NonceSize || n > uint64(len(b)-LengthSize) {
		return 0, fmt.Errorf("%w: module length %d, %d bytes hold it (truncated module)", ErrDecrypt, n, len(b)-LengthSize)
	}
	return LengthSize + int(n), nil
}

// Cipher decrypts the modules of one key. It is safe for concurrent use.
type Cipher struct {
	gcm   cipher.AEAD
	block cipher.Block
}

// NewCipher returns the Cipher of an AES key of 16, 24 or 32 bytes; other
// lengths return an error wrapping [ErrInvalidKey] (which does not hold
// the key).
func NewCipher(key []byte) (*Cipher, error) {
	switch len(key) {
	case 16, 24, 32:
	default:
		return nil, fmt.Errorf("%w: key of %d bytes, want 16, 24 or 32", ErrInvalidKey, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidKey, err)
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidKey, err)
	}
	return &Cipher{gcm: gcm, block: block}, nil
}

// split checks that module is one whole module at least min bytes long
// after its length, and returns its nonce and the bytes after it.
func split(module []byte, minLen int) (nonce, rest []byte, err error) {
	n, err := ModuleSize(module)
	if err != nil {
		return nil, nil, err
	}
	if n != len(module) {
		return nil, nil, fmt.Errorf("%w: module length %d, %d bytes given", ErrDecrypt, n-LengthSize, len(module)-LengthSize)
	}
	if n-LengthSize < minLen {
		return nil, nil, fmt.Errorf("%w: module of %d bytes, shorter than its nonce and tag (truncated module)", ErrDecrypt, n-LengthSize)
	}
	return module[LengthSize : LengthSize+NonceSize], module[LengthSize+NonceSize:], nil
}

// grow returns dst[:n], reallocated when its capacity is below n.
func grow(dst []byte, n int) []byte {
	if cap(dst) < n {
		return make([]byte, n)
	}
	return dst[:n]
}

// DecryptGCM decrypts the AES-GCM module (length, nonce, ciphertext, tag)
// with AAD aad into dst, reusing its capacity, and returns the plaintext.
// dst may be nil and must not overlap module. When the tag does not verify
// it returns an error wrapping [ErrDecrypt] and no plaintext.
func (c *Cipher) DecryptGCM(dst, module, aad []byte) ([]byte, error) {
	nonce, ct, err := split(module, NonceSize+TagSize)
	if err != nil {
		return dst[:0], err
	}
	out, err := c.gcm.Open(grow(dst, len(ct)-TagSize)[:0], nonce, ct, aad)
	if err != nil {
		return dst[:0], fmt.Errorf("%w: AES-GCM tag does not verify (wrong key, or the module, its place or the AAD prefix changed)", ErrDecrypt)
	}
	return out, nil
}

// DecryptCTR decrypts the AES-CTR module (length, nonce, ciphertext) into
// dst, reusing its capacity, and returns the plaintext; the counter starts
// at nonce||00000001 as AES_GCM_CTR_V1 defines. dst may be nil and must not
// overlap module. Nothing authenticates the plaintext: AES_GCM_CTR_V1 pages
// have no tag.
func (c *Cipher) DecryptCTR(dst, module []byte) ([]byte, error) {
	nonce, ct, err := split(module, NonceSize)
	if err != nil {
		return dst[:0], err
	}
	var iv [aes.BlockSize]byte
	copy(iv[:], nonce)
	iv[aes.BlockSize-1] = 1
	out := grow(dst, len(ct))
	cipher.NewCTR(c.block, iv[:]).XORKeyStream(out, ct)
	return out, nil
}

// VerifySignature checks the signature of a plaintext footer: sig is the
// 28 bytes after the footer's FileMetaData, a nonce and the AES-GCM tag of
// encrypting footer (the FileMetaData bytes) with that nonce and AAD aad.
// A mismatch returns an error wrapping [ErrDecrypt]. buf, which may be nil,
// is scratch storage of len(footer)+TagSize bytes, returned for reuse.
func (c *Cipher) VerifySignature(buf, footer, sig, aad []byte) ([]byte, error) {
	if len(sig) != NonceSize+TagSize {
		return buf, fmt.Errorf("%w: footer signature of %d bytes, want %d", ErrDecrypt, len(sig), NonceSize+TagSize)
	}
	buf = c.gcm.Seal(buf[:0], sig[:NonceSize], footer, aad)
	if subtle.ConstantTimeCompare(buf[len(buf)-TagSize:], sig[NonceSize:]) != 1 {
		return buf, fmt.Errorf("%w: plaintext footer signature does not verify (wrong footer key, or the footer changed)", ErrDecrypt)
	}
	return buf, nil
}
