package recompress

import (
	"fmt"
	"io"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/format"
)

// VerifyDecrypt is [Verify] for a rewrite with [WithDecryption] or
// [WithEncryption]: src is read with the keys srcKeys and out with
// outKeys (either nil for a file in the clear), and every page of out must
// decrypt and decompress to the bytes of src's page, with the same header
// fields; page checksums of the output are checked on the bytes they
// cover (the encrypted page module in an encrypted chunk). Errors about
// out wrap [ErrMismatch] (and encryption.ErrDecrypt where a module does not
// decrypt).
func VerifyDecrypt(src io.ReaderAt, srcSize int64, srcKeys *encryption.Properties, out io.ReaderAt, outSize int64, outKeys *encryption.Properties, f *codecfactory.Factory) error {
	v, err := newVerifier(f)
	if err != nil {
		return err
	}
	sm, sdec, err := format.ReadFooterDecrypt(src, srcSize, srcKeys)
	if err != nil {
		return wrapSource(err)
	}
	om, odec, err := format.ReadFooterDecrypt(out, outSize, outKeys)
	if err != nil {
		return fmt.Errorf("%w: output footer: %w", ErrMismatch, err)
	}
	var sd, od encryption.ChunkDecryptor
	return eachChunk(sm, om, func(rg, col int, sc, oc *format.ColumnChunk) error {
		return v.chunkCrypt(sm, sdec, &sd, sc, src, srcSize, om, odec, &od, oc, out, outSize, rg, col)
	})
}

// openChunk decrypts the metadata of chunk cc when dec is set, returns its
// range, and makes w walk it (decrypting with d where it is encrypted)
// from buf, read from r.
func openChunk(m *format.FileMetaData, dec *encryption.FileDecryptor, d *encryption.ChunkDecryptor, cc *format.ColumnChunk,
	r io.ReaderAt, size int64, rg, col int, w *format.PageWalker, buf *[]byte) (format.ChunkRange, error) {
	var ci *encryption.Cipher
	if dec != nil {
		var err error
		if ci, err = format.DecryptColumnChunk(dec, cc, rg, col); err != nil {
			return format.ChunkRange{}, err
		}
	}
	rng, err := m.EncryptedChunkRange(cc, size)
	if err != nil {
		return rng, err
	}
	if *buf, err = format.ReadColumnChunk(*buf, r, rng); err != nil {
		return rng, err
	}
	w.Reset(*buf, rng)
	if ci != nil {
		if err := d.Reset(dec, ci, rg, col); err != nil {
			return rng, err
		}
		w.SetDecryptor(d)
	}
	return rng, nil
}

func (v *verifier) chunkCrypt(sm *format.FileMetaData, sdec *encryption.FileDecryptor, sd *encryption.ChunkDecryptor, sc *format.ColumnChunk, src io.ReaderAt, srcSize int64,
	om *format.FileMetaData, odec *encryption.FileDecryptor, od *encryption.ChunkDecryptor, oc *format.ColumnChunk, out io.ReaderAt, outSize int64, rg, col int) error {
	sw, ow := &v.src, &v.out
	srng, err := openChunk(sm, sdec, sd, sc, src, srcSize, rg, col, &sw.PageWalker, &v.sbuf)
	if err != nil {
		return wrapSource(err)
	}
	orng, err := openChunk(om, odec, od, oc, out, outSize, rg, col, &ow.PageWalker, &v.obuf)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrMismatch, err)
	}
	if srng.NumValues != orng.NumValues {
		return fmt.Errorf("%w: %d values, output %d", ErrMismatch, srng.NumValues, orng.NumValues)
	}
	sw.Codec, ow.Codec = codecfactory.Codec(sc.MetaData.Codec), codecfactory.Codec(oc.MetaData.Codec)
	return v.pages()
}
