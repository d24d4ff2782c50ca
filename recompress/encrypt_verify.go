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
	if f == nil {
		var err error
		if f, err = defaultDecoder(); err != nil {
			return err
		}
	}
	sm, sdec, err := format.ReadFooterDecrypt(src, srcSize, srcKeys)
	if err != nil {
		return wrapSource(err)
	}
	om, odec, err := format.ReadFooterDecrypt(out, outSize, outKeys)
	if err != nil {
		return fmt.Errorf("%w: output footer: %w", ErrMismatch, err)
	}
	if len(sm.RowGroups) != len(om.RowGroups) || sm.NumRows != om.NumRows || len(sm.Schema) != len(om.Schema) {
		return fmt.Errorf("%w: %d row groups of %d rows, output has %d of %d", ErrMismatch,
			len(sm.RowGroups), sm.NumRows, len(om.RowGroups), om.NumRows)
	}
	var v verifier
	v.src.Codecs, v.out.Codecs, v.out.VerifyCRC = f, f, true
	var sd, od encryption.ChunkDecryptor
	for i := range sm.RowGroups {
		sg, og := &sm.RowGroups[i], &om.RowGroups[i]
		if len(sg.Columns) != len(og.Columns) || sg.NumRows != og.NumRows {
			return fmt.Errorf("%w: row group %d: shape differs", ErrMismatch, i)
		}
		for c := range sg.Columns {
			err := v.chunkCrypt(sm, sdec, &sd, &sg.Columns[c], src, srcSize, om, odec, &od, &og.Columns[c], out, outSize, i, c)
			if err != nil {
				return fmt.Errorf("row group %d column %d: %w", i, c, err)
			}
		}
	}
	return nil
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
	for page := 0; ; page++ {
		sn, on := sw.Next(), ow.Next()
		if err := sw.Err(); err != nil {
			return wrapSource(err)
		}
		if err := ow.Err(); err != nil {
			return fmt.Errorf("%w: page %d: %w", ErrMismatch, page, err)
		}
		if sn != on {
			return fmt.Errorf("%w: page count differs at page %d", ErrMismatch, page)
		}
		if !sn {
			return nil
		}
		// The checksums cover the bytes as written: check the output's
		// here, on them, and compare the rest as Verify does.
		sh, oh := *sw.Header(), *ow.Header()
		if err := ow.CheckCRC(&oh, ow.RawBody()); err != nil {
			return fmt.Errorf("%w: page %d: output %v", ErrMismatch, page, err)
		}
		oh.HasCRC = false
		if err := v.page(&sh, sw.Body(), &oh, ow.Body()); err != nil {
			return fmt.Errorf("page %d: %w", page, err)
		}
	}
}
