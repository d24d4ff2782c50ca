package recompress

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strings"

	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/format"
)

// This file holds what WithDecryption and WithEncryption add (Parquet
// Modular Encryption): a rewrite decrypts the modules of an encrypted
// source (page headers, pages, page indexes, bloom filters, column
// metadata, footer) and encrypts those of the output with new AADs, keys
// and nonces, without decoding a value. Pages go through the workers in
// plaintext; the writing goroutine encrypts them, where page ordinals are
// known. The hooks in rewrite.go and meta.go that call it are marked
// "encryption".

// WithDecryption gives the keys of an encrypted source (package
// encryption's Properties: footer and column keys, key retriever, AAD
// prefix). Without it (the default, nil), an encrypted footer or column
// returns an error wrapping [ErrEncrypted]; with it, a source without
// encryption returns an error wrapping encryption.ErrDecrypt unless
// p.PlaintextFilesAllowed, as the column reader does. A column whose key
// p lacks returns an error wrapping [ErrEncrypted] that names it.
func WithDecryption(p *encryption.Properties) Option {
	return func(c *config) error { c.crypt.decrypt = p; return nil }
}

// WithEncryption encrypts the output with the keys and choices of p, as
// writer.WithEncryption does: algorithm, footer key and mode, column keys
// (every column with the footer key when p.ColumnKeys is empty), AAD
// prefix stored or not. Off (nil) by default: the output is in the clear,
// so that WithDecryption alone decrypts a file. Page checksums of
// encrypted columns cover the encrypted page modules. Keys never appear in
// errors.
func WithEncryption(p *encryption.WriteProperties) Option {
	return func(c *config) error {
		if p != nil {
			if _, err := encryption.NewFileEncryptor(p); err != nil {
				return fmt.Errorf("%w: %w", ErrOption, err)
			}
		}
		c.crypt.encrypt = p
		return nil
	}
}

// cryptConfig is the encryption part of config.
type cryptConfig struct {
	decrypt *encryption.Properties
	encrypt *encryption.WriteProperties
}

// rewriteCrypt is the encryption state of a rewrite.
type rewriteCrypt struct {
	// The source: its decryptor and each chunk's cipher (nil in the clear),
	// and the walk's chunk decryptor (the producer's).
	dec     *encryption.FileDecryptor
	src     [][]*encryption.Cipher
	walkDec encryption.ChunkDecryptor
	// The output: its encryptor, each leaf's cipher (nil in the clear) and
	// the writing goroutine's chunk encryptor and buffers.
	fe      *encryption.FileEncryptor
	out     []*encryption.Cipher
	chunk   encryption.ChunkEncryptor
	rg, col int // the chunk chunk is reset to
	ordinal int // of the next data page of the chunk
	hdr     format.PageHeader
	hdrBuf  []byte
	hdrMod  []byte
	pageMod []byte
}

// readFooterCrypt reads the footer of src, decrypting it and every
// encrypted chunk's metadata with cfg's keys; the chunks it returns have
// their plaintext metadata and no crypto metadata.
func readFooterCrypt(cfg *config, src io.ReaderAt, size int64) (*format.FileMetaData, *rewriteCrypt, error) {
	rc := new(rewriteCrypt)
	if cfg.crypt.encrypt != nil {
		fe, err := encryption.NewFileEncryptor(cfg.crypt.encrypt)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %w", ErrOption, err)
		}
		rc.fe = fe
	}
	if cfg.crypt.decrypt == nil {
		meta, err := format.ReadFooter(src, size)
		return meta, rc, err
	}
	meta, dec, err := format.ReadFooterDecrypt(src, size, cfg.crypt.decrypt)
	if err != nil {
		if errors.Is(err, encryption.ErrDecrypt) {
			return nil, nil, fmt.Errorf("recompress: %w", err)
		}
		return nil, nil, err
	}
	if dec == nil {
		return meta, rc, nil
	}
	rc.dec = dec
	rc.src = make([][]*encryption.Cipher, len(meta.RowGroups))
	for g := range meta.RowGroups {
		rg := &meta.RowGroups[g]
		rc.src[g] = make([]*encryption.Cipher, len(rg.Columns))
		for i := range rg.Columns {
			cc := &rg.Columns[i]
			ci, err := format.DecryptColumnChunk(dec, cc, g, i)
			if err != nil {
				name := fmt.Sprint(i)
				if cc.CryptoMetadata != nil && cc.CryptoMetadata.PathInSchema != nil {
					name = strings.Join(cc.CryptoMetadata.PathInSchema, ".")
				} else if cc.MetaData != nil {
					name = strings.Join(cc.MetaData.PathInSchema, ".")
				}
				if errors.Is(err, encryption.ErrDecrypt) {
					return nil, nil, fmt.Errorf("recompress: row group %d column %s: %w", g, name, err)
				}
				return nil, nil, fmt.Errorf("%w: row group %d column %s: %w", ErrEncrypted, g, name, err)
			}
			rc.src[g][i] = ci
			cc.CryptoMetadata, cc.EncryptedColumnMetadata = nil, nil
		}
	}
	meta.EncryptionAlgorithm, meta.FooterSigningKeyMetadata = nil, nil
	return meta, rc, nil
}

// setup gives each leaf of schema its output cipher.
func (rc *rewriteCrypt) setup(schema *format.Schema) error {
	if rc.fe == nil {
		return nil
	}
	known := map[string]bool{}
	for _, leaf := range schema.Leaves() {
		path := strings.Join(leaf.Path(), ".")
		known[path] = true
		ci, _, _ := rc.fe.Column(path)
		rc.out = append(rc.out, ci)
	}
	for path := range rc.fe.Properties().ColumnKeys {
		if !known[path] {
			return fmt.Errorf("%w: the encryption key of %q names no leaf column", ErrOption, path)
		}
	}
	rc.rg, rc.col = -1, -1
	return nil
}

// srcCipher returns the cipher of the source chunk, nil in the clear.
func (rc *rewriteCrypt) srcCipher(rg, col int) *encryption.Cipher {
	if rc.src == nil {
		return nil
	}
	return rc.src[rg][col]
}

// walkEncrypted makes w, just reset to the chunk of ch, decrypt it when
// the source chunk is encrypted, and reports whether it is.
func (rc *rewriteCrypt) walkEncrypted(w *format.PageWalker, ch *chunkState) (bool, error) {
	ci := rc.srcCipher(ch.rg, ch.col)
	if ci == nil {
		return false, nil
	}
	if err := rc.walkDec.Reset(rc.dec, ci, ch.rg, ch.col); err != nil {
		return false, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	w.SetDecryptor(&rc.walkDec)
	return true, nil
}

// plainPage sets j.src and j.hlen to the plaintext page the walker w
// stands on, decrypted: its header, serialized again with
// compressed_page_size the plaintext's and the CRC (checked against the
// encrypted bytes it covers) recomputed on it, then its body.
func (r *rewriter) plainPage(w *format.PageWalker, j *job) error {
	h := *w.Header()
	switch h.Type {
	case format.DataPage, format.DataPageV2, format.DictionaryPage:
	default:
		return fmt.Errorf("%w: page at offset %d: %v page in an encrypted column chunk", ErrUnsupported, j.off, h.Type)
	}
	body := w.Body()
	if h.HasCRC && r.cfg.srcCRC {
		if got := crc32.ChecksumIEEE(w.RawBody()); got != uint32(h.CRC) {
			return fmt.Errorf("%w: page at offset %d: page crc32 %#08x, computed %#08x", ErrChecksum, j.off, uint32(h.CRC), got)
		}
	}
	h.CompressedPageSize = int32(len(body))
	if h.HasCRC {
		h.CRC = int32(crc32.ChecksumIEEE(body))
	}
	src := format.AppendPageHeader(getBuf(len(body)+256), &h)
	j.hlen = len(src)
	j.src = append(src, body...)
	return nil
}

// encryptPage returns the page of j as written: its header and body, or,
// for an encrypted output column, their modules (valid until the next
// call). It runs on the writing goroutine, in file order, which gives the
// data page ordinals.
func (r *rewriter) encryptPage(ch *chunkState, j *job) (hdr, body []byte, err error) {
	rc := r.crypt
	if rc.fe == nil || rc.out[ch.col] == nil {
		return j.hdr, j.body, nil
	}
	if ch.rg != rc.rg || ch.col != rc.col {
		if err := rc.chunk.Reset(rc.fe, rc.out[ch.col], ch.rg, ch.col); err != nil {
			return nil, nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
		}
		rc.rg, rc.col, rc.ordinal = ch.rg, ch.col, 0
	}
	h := &rc.hdr
	if _, err := format.DecodePageHeader(j.hdr, h); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	dict := false
	switch h.Type {
	case format.DataPage, format.DataPageV2:
	case format.DictionaryPage:
		dict = true
	default:
		return nil, nil, fmt.Errorf("%w: %v page in a column chunk to encrypt", ErrUnsupported, h.Type)
	}
	if len(j.body) > 1<<31-1-encryption.GCMModuleSize(0) {
		return nil, nil, fmt.Errorf("%w: page of %d bytes too large to encrypt", ErrUnsupported, len(j.body))
	}
	if rc.pageMod, err = rc.chunk.AppendPage(rc.pageMod[:0], j.body, dict, rc.ordinal); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	h.CompressedPageSize = int32(len(rc.pageMod))
	if h.HasCRC {
		h.CRC = int32(crc32.ChecksumIEEE(rc.pageMod))
	}
	rc.hdrBuf = format.AppendPageHeader(rc.hdrBuf[:0], h)
	if rc.hdrMod, err = rc.chunk.AppendPageHeader(rc.hdrMod[:0], rc.hdrBuf, dict, rc.ordinal); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	if !dict {
		rc.ordinal++
	}
	return rc.hdrMod, rc.pageMod, nil
}

// magic returns the output's leading magic.
func (rc *rewriteCrypt) magic() []byte {
	if rc.fe != nil && !rc.fe.Properties().PlaintextFooter {
		return []byte("PARE")
	}
	return []byte("PAR1")
}

// openIndex decrypts b, the page index module of type t of a source chunk,
// when the chunk is encrypted.
func (rc *rewriteCrypt) openIndex(b []byte, t encryption.ModuleType, rg, col int) ([]byte, error) {
	ci := rc.srcCipher(rg, col)
	if ci == nil || b == nil {
		return b, nil
	}
	return rc.dec.DecryptModule(ci, nil, b, t, rg, col)
}

// sealIndex encrypts b, a page index of type t, when the output chunk is
// encrypted.
func (rc *rewriteCrypt) sealIndex(b []byte, t encryption.ModuleType, rg, col int) ([]byte, error) {
	if rc.fe == nil || rc.out[col] == nil || b == nil {
		return b, nil
	}
	out, err := rc.fe.AppendModule(rc.out[col], nil, b, t, rg, col)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	return out, nil
}

// bloomFilterCrypt returns the bloom filter of chunk ch as the output
// holds it: read (and decrypted when the source chunk is encrypted), then
// encrypted as a header module and a bitset module when the output chunk
// is.
func (r *rewriter) bloomFilterCrypt(cc *format.ColumnChunk, ch *chunkState) ([]byte, error) {
	rc := r.crypt
	var b []byte
	if ci := rc.srcCipher(ch.rg, ch.col); ci != nil {
		header, bitset, err := format.ReadBloomFilterDecrypt(r.src, r.size, cc, rc.dec, ci, ch.rg, ch.col)
		if err != nil {
			return nil, err
		}
		hlen, _, err := format.DecodeBloomFilterHeaderSize(header)
		if err != nil {
			return nil, err
		}
		b = append(header[:hlen:hlen], bitset...)
	} else {
		var err error
		if b, err = r.bloomFilter(cc.MetaData); err != nil {
			return nil, err
		}
	}
	if rc.fe == nil || rc.out[ch.col] == nil {
		return b, nil
	}
	hlen, n, err := format.DecodeBloomFilterHeaderSize(b)
	if err != nil || hlen+int(n) != len(b) {
		return nil, fmt.Errorf("%w: bloom filter does not split into header and bitset", ErrCorrupt)
	}
	out, err := rc.fe.AppendModule(rc.out[ch.col], nil, b[:hlen], encryption.BloomFilterHeader, ch.rg, ch.col)
	if err == nil {
		out, err = rc.fe.AppendModule(rc.out[ch.col], out, b[hlen:], encryption.BloomFilterBitset, ch.rg, ch.col)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	return out, nil
}

// footer returns the output's footer with its length and magic.
func (rc *rewriteCrypt) footer(m *format.FileMetaData) ([]byte, error) {
	if rc.fe == nil {
		footer := format.AppendFileMetaData(nil, m)
		footer = binary.LittleEndian.AppendUint32(footer, uint32(len(footer)))
		return append(footer, "PAR1"...), nil
	}
	if err := format.EncryptColumnMetaData(m, rc.fe); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	out, _, err := format.AppendEncryptedFooter(nil, nil, m, rc.fe)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	return out, nil
}
