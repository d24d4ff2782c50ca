package recompress

import (
	"bytes"
	"fmt"
	"io"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/format"
)

// Verify checks that out, the rewritten form of src (as [Rewrite] writes
// it), holds the same pages: the same row groups and column chunks with the
// same value counts, and in every chunk the same sequence of pages, each
// of the same type, value count and encodings, decompressing to the same
// bytes (for data pages v2, the same levels and values section). It also
// checks the CRC32 of every output page that carries one. It walks both files
// with [format.PageWalker] over chunks read whole (Rewrite streams the
// source through a PageWalker of its own), splits data pages v2 with
// [format.SplitDataPageV2], and decompresses with f (a default factory
// when nil). A difference returns an
// error wrapping [ErrMismatch]; a source that cannot be read one wrapping
// [ErrCorrupt].
func Verify(src io.ReaderAt, srcSize int64, out io.ReaderAt, outSize int64, f *codecfactory.Factory) error {
	if f == nil {
		var err error
		if f, err = defaultDecoder(); err != nil {
			return err
		}
	}
	sm, err := format.ReadFooter(src, srcSize)
	if err != nil {
		return wrapSource(err)
	}
	om, err := format.ReadFooter(out, outSize)
	if err != nil {
		return fmt.Errorf("%w: output footer: %w", ErrMismatch, err)
	}
	if len(sm.RowGroups) != len(om.RowGroups) || sm.NumRows != om.NumRows || len(sm.Schema) != len(om.Schema) {
		return fmt.Errorf("%w: %d row groups of %d rows, output has %d of %d", ErrMismatch,
			len(sm.RowGroups), sm.NumRows, len(om.RowGroups), om.NumRows)
	}
	var v verifier
	v.f = f
	for i := range sm.RowGroups {
		sg, og := &sm.RowGroups[i], &om.RowGroups[i]
		if len(sg.Columns) != len(og.Columns) || sg.NumRows != og.NumRows {
			return fmt.Errorf("%w: row group %d: shape differs", ErrMismatch, i)
		}
		for c := range sg.Columns {
			if err := v.chunk(sm, &sg.Columns[c], src, srcSize, om, &og.Columns[c], out, outSize); err != nil {
				return fmt.Errorf("row group %d column %d: %w", i, c, err)
			}
		}
	}
	return nil
}

type verifier struct {
	f                *codecfactory.Factory
	sbuf, obuf       []byte
	sraw, oraw       []byte
	swalker, owalker format.PageWalker
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
	scodec, ocodec := codecfactory.Codec(sc.MetaData.Codec), codecfactory.Codec(oc.MetaData.Codec)
	sw, ow := &v.swalker, &v.owalker
	sw.Reset(v.sbuf, srng)
	ow.Reset(v.obuf, orng)
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
		if err := v.page(sw.Header(), sw.Body(), scodec, ow.Header(), ow.Body(), ocodec); err != nil {
			return fmt.Errorf("page %d: %w", page, err)
		}
	}
}

func (v *verifier) page(sh *format.PageHeader, sbody []byte, scodec codecfactory.Codec,
	oh *format.PageHeader, obody []byte, ocodec codecfactory.Codec) error {
	if oh.HasCRC {
		if got := crc32IEEE(obody); got != uint32(oh.CRC) {
			return fmt.Errorf("%w: output page crc32 %#08x, computed %#08x", ErrMismatch, uint32(oh.CRC), got)
		}
	}
	if sh.Type != oh.Type || sh.Type != format.DataPageV2 && sh.UncompressedPageSize != oh.UncompressedPageSize {
		// A data page v2's size is compared below, as the split finds it.
		return fmt.Errorf("%w: page %v of %d bytes became %v of %d bytes", ErrMismatch,
			sh.Type, sh.UncompressedPageSize, oh.Type, oh.UncompressedPageSize)
	}
	var err error
	switch sh.Type {
	case format.DataPage, format.DictionaryPage:
		if !sameV1(&sh.DataPageHeader, &oh.DataPageHeader) ||
			sh.DictionaryPageHeader != oh.DictionaryPageHeader {
			return fmt.Errorf("%w: page header fields differ", ErrMismatch)
		}
		n := int(sh.UncompressedPageSize)
		if v.sraw, err = v.f.Decompress(scodec, v.sraw[:0], sbody, n); err != nil {
			return fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		if v.oraw, err = v.f.Decompress(ocodec, v.oraw[:0], obody, n); err != nil {
			return fmt.Errorf("%w: output: %w", ErrMismatch, err)
		}
	case format.DataPageV2:
		s, o := sh.DataPageHeaderV2, oh.DataPageHeaderV2
		if s.NumValues != o.NumValues || s.NumNulls != o.NumNulls || s.NumRows != o.NumRows ||
			s.Encoding != o.Encoding || s.DefinitionLevelsByteLength != o.DefinitionLevelsByteLength ||
			s.RepetitionLevelsByteLength != o.RepetitionLevelsByteLength ||
			s.HasStatistics != o.HasStatistics || !sameStats(&s.Statistics, &o.Statistics) {
			return fmt.Errorf("%w: data page v2 header fields differ", ErrMismatch)
		}
		if v.sraw, err = v2raw(v.f, v.sraw[:0], sh, sbody, scodec); err != nil {
			return fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		if v.oraw, err = v2raw(v.f, v.oraw[:0], oh, obody, ocodec); err != nil {
			return fmt.Errorf("%w: output: %w", ErrMismatch, err)
		}
	default:
		v.sraw, v.oraw = append(v.sraw[:0], sbody...), append(v.oraw[:0], obody...)
	}
	if !bytes.Equal(v.sraw, v.oraw) {
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

// v2raw appends the levels and the decompressed values section of a data
// page v2 to dst, split as the column reader splits it
// ([format.SplitDataPageV2]).
func v2raw(f *codecfactory.Factory, dst []byte, h *format.PageHeader, body []byte, c codecfactory.Codec) ([]byte, error) {
	parts, err := format.SplitDataPageV2(h, body)
	if err != nil {
		return dst, err
	}
	dst = append(append(dst, parts.RepLevels...), parts.DefLevels...)
	if !parts.Compressed {
		return append(dst, parts.Values...), nil
	}
	return f.Decompress(c, dst, parts.Values, parts.ValuesSize)
}
