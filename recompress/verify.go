package recompress

import (
	"bytes"
	"fmt"
	"io"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/pages"
)

// Verify checks that out, the rewritten form of src (as [Rewrite] writes
// it), holds the same pages: the same row groups and column chunks with the
// same value counts, and in every chunk the same sequence of pages, each
// of the same type, value count and encodings, decompressing to the same
// bytes (for data pages v2, the same levels and values section). It also
// checks the CRC32 of every output page that carries one. It walks, splits
// and decompresses both files with the column reader's page pipeline
// (internal/pages) over chunks read whole (Rewrite streams the source
// through a walker of its own), decompressing with f (a default factory
// when nil). A difference returns an
// error wrapping [ErrMismatch]; a source that cannot be read one wrapping
// [ErrCorrupt].
func Verify(src io.ReaderAt, srcSize int64, out io.ReaderAt, outSize int64, f *codecfactory.Factory) error {
	v, err := newVerifier(f)
	if err != nil {
		return err
	}
	sm, err := format.ReadFooter(src, srcSize)
	if err != nil {
		return wrapSource(err)
	}
	om, err := format.ReadFooter(out, outSize)
	if err != nil {
		return fmt.Errorf("%w: output footer: %w", ErrMismatch, err)
	}
	return eachChunk(sm, om, func(rg, col int, sc, oc *format.ColumnChunk) error {
		return v.chunk(sm, sc, src, srcSize, om, oc, out, outSize)
	})
}

// eachChunk checks that sm and om have the same row groups, of the same
// rows and columns, and calls chunk for every pair of column chunks, in
// order, up to the first error.
func eachChunk(sm, om *format.FileMetaData, chunk func(rg, col int, sc, oc *format.ColumnChunk) error) error {
	if len(sm.RowGroups) != len(om.RowGroups) || sm.NumRows != om.NumRows || len(sm.Schema) != len(om.Schema) {
		return fmt.Errorf("%w: %d row groups of %d rows, output has %d of %d", ErrMismatch,
			len(sm.RowGroups), sm.NumRows, len(om.RowGroups), om.NumRows)
	}
	for i := range sm.RowGroups {
		sg, og := &sm.RowGroups[i], &om.RowGroups[i]
		if len(sg.Columns) != len(og.Columns) || sg.NumRows != og.NumRows {
			return fmt.Errorf("%w: row group %d: shape differs", ErrMismatch, i)
		}
		for c := range sg.Columns {
			if err := chunk(i, c, &sg.Columns[c], &og.Columns[c]); err != nil {
				return fmt.Errorf("row group %d column %d: %w", i, c, err)
			}
		}
	}
	return nil
}

type verifier struct {
	src, out   pages.Pipeline // the output's checks every CRC
	sbuf, obuf []byte
	sraw, oraw []byte
}

// newVerifier returns a verifier decompressing with f, or with a default
// factory when f is nil.
func newVerifier(f *codecfactory.Factory) (*verifier, error) {
	if f == nil {
		var err error
		if f, err = defaultDecoder(); err != nil {
			return nil, err
		}
	}
	v := new(verifier)
	v.src.Codecs, v.out.Codecs, v.out.VerifyCRC = f, f, true
	return v, nil
}

func (v *verifier) chunk(sm *format.FileMetaData, sc *format.ColumnChunk, src io.ReaderAt, srcSize int64,
	om *format.FileMetaData, oc *format.ColumnChunk, out io.ReaderAt, outSize int64) error {
	srng, err := sm.ColumnChunkRange(sc, srcSize)
	if err != nil {
		return wrapSource(err)
	}
	orng, err := om.ColumnChunkRange(oc, outSize)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrMismatch, err)
	}
	if srng.NumValues != orng.NumValues {
		return fmt.Errorf("%w: %d values, output %d", ErrMismatch, srng.NumValues, orng.NumValues)
	}
	if v.sbuf, err = format.ReadColumnChunk(v.sbuf, src, srng); err != nil {
		return wrapSource(err)
	}
	if v.obuf, err = format.ReadColumnChunk(v.obuf, out, orng); err != nil {
		return fmt.Errorf("%w: %w", ErrMismatch, err)
	}
	v.src.Codec, v.out.Codec = codecfactory.Codec(sc.MetaData.Codec), codecfactory.Codec(oc.MetaData.Codec)
	v.src.Reset(v.sbuf, srng)
	v.out.Reset(v.obuf, orng)
	return v.pages()
}

// pages compares the pages of the two chunks that v.src and v.out walk,
// reset by chunk or chunkCrypt, pair by pair (v.page). The checksums of
// the output are checked on the bytes they cover, as the file holds them
// (RawBody: the page module of an encrypted chunk, else the body).
func (v *verifier) pages() error {
	sw, ow := &v.src, &v.out
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
		oh := ow.Header()
		if err := ow.CheckCRC(oh, ow.RawBody()); err != nil {
			// Not the source's damage: no ErrCorrupt.
			return fmt.Errorf("%w: page %d: output %v", ErrMismatch, page, err)
		}
		if err := v.page(sw.Header(), sw.Body(), oh, ow.Body()); err != nil {
			return fmt.Errorf("page %d: %w", page, err)
		}
	}
}

func (v *verifier) page(sh *format.PageHeader, sbody []byte, oh *format.PageHeader, obody []byte) error {
	if sh.Type != oh.Type || sh.Type != format.DataPageV2 && sh.UncompressedPageSize != oh.UncompressedPageSize {
		// A data page v2's size is compared below, as the split finds it.
		return fmt.Errorf("%w: page %v of %d bytes became %v of %d bytes", ErrMismatch,
			sh.Type, sh.UncompressedPageSize, oh.Type, oh.UncompressedPageSize)
	}
	switch sh.Type {
	case format.DataPage, format.DictionaryPage:
		if !sameV1(&sh.DataPageHeader, &oh.DataPageHeader) ||
			sh.DictionaryPageHeader != oh.DictionaryPageHeader {
			return fmt.Errorf("%w: page header fields differ", ErrMismatch)
		}
	case format.DataPageV2:
		s, o := sh.DataPageHeaderV2, oh.DataPageHeaderV2
		if s.NumValues != o.NumValues || s.NumNulls != o.NumNulls || s.NumRows != o.NumRows ||
			s.Encoding != o.Encoding || s.DefinitionLevelsByteLength != o.DefinitionLevelsByteLength ||
			s.RepetitionLevelsByteLength != o.RepetitionLevelsByteLength ||
			s.HasStatistics != o.HasStatistics || !sameStats(&s.Statistics, &o.Statistics) {
			return fmt.Errorf("%w: data page v2 header fields differ", ErrMismatch)
		}
	}
	ss, err := pages.Split(sh, sbody)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	os, err := pages.Split(oh, obody)
	if err != nil {
		return fmt.Errorf("%w: output: %w", ErrMismatch, err)
	}
	sraw, err := v.src.Decompress(&v.sraw, ss)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	oraw, err := v.out.Decompress(&v.oraw, os)
	if err != nil {
		return fmt.Errorf("%w: output: %w", ErrMismatch, err)
	}
	if !bytes.Equal(ss.RepLevels, os.RepLevels) || !bytes.Equal(ss.DefLevels, os.DefLevels) || !bytes.Equal(sraw, oraw) {
		return fmt.Errorf("%w: page content differs", ErrMismatch)
	}
	return nil
}

// sameV1 compares data page v1 headers field by field (their statistics
// hold slices).
func sameV1(a, b *format.DataPageHeader) bool {
	return a.NumValues == b.NumValues && a.Encoding == b.Encoding &&
		a.DefinitionLevelEncoding == b.DefinitionLevelEncoding &&
		a.RepetitionLevelEncoding == b.RepetitionLevelEncoding &&
		a.HasStatistics == b.HasStatistics && sameStats(&a.Statistics, &b.Statistics)
}

func sameStats(a, b *format.Statistics) bool {
	return bytes.Equal(a.Max, b.Max) && bytes.Equal(a.Min, b.Min) &&
		bytes.Equal(a.MaxValue, b.MaxValue) && bytes.Equal(a.MinValue, b.MinValue) &&
		a.NullCount == b.NullCount && a.DistinctCount == b.DistinctCount && a.NaNCount == b.NaNCount &&
		a.HasNullCount == b.HasNullCount && a.HasDistinctCount == b.HasDistinctCount && a.HasNaNCount == b.HasNaNCount &&
		a.IsMaxValueExact == b.IsMaxValueExact && a.IsMinValueExact == b.IsMinValueExact &&
		a.HasIsMaxExact == b.HasIsMaxExact && a.HasIsMinExact == b.HasIsMinExact
}
