package recompress

import (
	"fmt"

	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/splice"
)

// writeTail updates the footer for the chunks as written, then writes the
// bloom filters, column indexes, offset indexes and the footer.
// put writes b at offset written, which it advances.
func (r *rewriter) writeTail(put func([]byte) error, written int64, chunks []*chunkState, res *Result) error {
	emit := func(b []byte) (int64, error) {
		off := written
		written += int64(len(b))
		return off, put(b)
	}
	// Per-row-group bookkeeping before the chunks' metadata changes.
	rgDelta := make([]int64, len(r.meta.RowGroups))
	type indexes struct {
		ci, oi []byte
	}
	idx := make([][]indexes, len(r.meta.RowGroups))
	for i := range r.meta.RowGroups {
		idx[i] = make([]indexes, len(r.meta.RowGroups[i].Columns))
	}
	for _, ch := range chunks {
		cc := &r.meta.RowGroups[ch.rg].Columns[ch.col]
		ci, oi, dropped, err := r.pageIndex(cc, ch)
		if err != nil {
			return err
		}
		if dropped {
			res.DroppedPageIndexes++
		}
		idx[ch.rg][ch.col] = indexes{ci: ci, oi: oi}
		rgDelta[ch.rg] += ch.uncomp - cc.MetaData.TotalUncompressedSize
		r.moveChunk(cc, ch)
	}
	for i := range r.meta.RowGroups {
		rg := &r.meta.RowGroups[i]
		rg.TotalByteSize += rgDelta[i]
		var total int64
		for _, ch := range chunks {
			if ch.rg == i {
				total += ch.newEnd - ch.newStart
			}
		}
		splice.PlaceRowGroup(rg, total)
	}
	// Bloom filters, copied with their new offsets.
	for _, ch := range chunks {
		m := r.meta.RowGroups[ch.rg].Columns[ch.col].MetaData
		if m.BloomFilterOffset == nil {
			continue
		}
		b, err := r.bloomFilterCrypt(&r.meta.RowGroups[ch.rg].Columns[ch.col], ch) // encryption: encrypt.go
		if err != nil {
			m.BloomFilterOffset, m.BloomFilterLength = nil, nil
			res.DroppedBloomFilters++
			continue
		}
		off, err := emit(b)
		if err != nil {
			return err
		}
		splice.PlaceBloomFilter(m, off, len(b))
	}
	// Column indexes, then offset indexes, as parquet-java and Arrow lay
	// them out.
	for _, module := range []encryption.ModuleType{encryption.ColumnIndex, encryption.OffsetIndex} {
		for _, ch := range chunks {
			cc := &r.meta.RowGroups[ch.rg].Columns[ch.col]
			b, off, n := idx[ch.rg][ch.col].ci, &cc.ColumnIndexOffset, &cc.ColumnIndexLength
			if module == encryption.OffsetIndex {
				b, off, n = idx[ch.rg][ch.col].oi, &cc.OffsetIndexOffset, &cc.OffsetIndexLength
			}
			*off, *n = nil, nil
			if b == nil {
				continue
			}
			b, err := r.crypt.sealIndex(b, module, ch.rg, ch.col) // encryption: encrypt.go
			if err != nil {
				return err
			}
			o, err := emit(b)
			if err != nil {
				return err
			}
			l := int32(len(b))
			*off, *n = &o, &l
		}
	}
	r.meta.KeyValueMetadata = setKeyValues(r.meta.KeyValueMetadata, r.cfg.keyValue)
	footer, err := r.crypt.footer(r.meta) // encryption: encrypt.go
	if err != nil {
		return err
	}
	_, err = emit(footer)
	return err
}

// moveChunk updates the metadata of column chunk cc for where and how its
// pages were written.
func (r *rewriter) moveChunk(cc *format.ColumnChunk, ch *chunkState) {
	m := cc.MetaData
	moved := make(map[int64]int64, len(ch.pages))
	var firstData, firstDict int64 = -1, -1
	for _, p := range ch.pages {
		moved[p.oldOff] = p.newOff
		switch p.typ {
		case format.DataPage, format.DataPageV2:
			if firstData < 0 {
				firstData = p.newOff
			}
		case format.DictionaryPage:
			if firstDict < 0 {
				firstDict = p.newOff
			}
		}
	}
	mapOff := func(old, fallback int64) int64 {
		if n, ok := moved[old]; ok {
			return n
		}
		return fallback
	}
	dataFallback := firstData
	if dataFallback < 0 {
		dataFallback = ch.newStart
	}
	m.DataPageOffset = mapOff(m.DataPageOffset, dataFallback)
	if p := m.DictionaryPageOffset; p != nil && *p != 0 {
		var v int64
		if n, ok := moved[*p]; ok {
			v = n
		} else if firstDict >= 0 {
			v = firstDict
		} else {
			v = 0 // as invalid as in the source; readers ignore 0
		}
		m.DictionaryPageOffset = &v
	}
	if p := m.IndexPageOffset; p != nil {
		if n, ok := moved[*p]; ok {
			m.IndexPageOffset = &n
		} else {
			m.IndexPageOffset = nil
		}
	}
	switch {
	case cc.FileOffset == ch.oldEnd && ch.oldEnd != ch.oldStart:
		cc.FileOffset = ch.newEnd
	case cc.FileOffset == 0:
	default:
		cc.FileOffset = mapOff(cc.FileOffset, ch.newStart)
	}
	if c := r.targets[ch.col].Codec; c != Keep {
		m.Codec = format.CompressionCodec(c)
	}
	m.TotalCompressedSize = ch.newEnd - ch.newStart
	m.TotalUncompressedSize = ch.uncomp
}

// maxIndexBytes bounds the page index and bloom filter sizes read from a
// source file.
const maxIndexBytes = 1 << 30

// readRange reads n bytes at off of the source, checking the range.
func (r *rewriter) readRange(off, n int64) ([]byte, error) {
	if off < 4 || n < 0 || n > maxIndexBytes || off > r.size || n > r.size-off {
		return nil, fmt.Errorf("%w: range [%d, +%d) outside the file of %d bytes", ErrCorrupt, off, n, r.size)
	}
	b := make([]byte, n)
	if err := format.ReadAt(r.src, b, off); err != nil {
		return nil, fmt.Errorf("%w: reading [%d, +%d): %w", ErrCorrupt, off, n, err)
	}
	return b, nil
}

// pageIndex returns the column index of cc, copied, and its offset index
// with the page locations moved. When the offset index does not decode or
// names a page that was not written, both are dropped (dropped is true).
func (r *rewriter) pageIndex(cc *format.ColumnChunk, ch *chunkState) (ci, oi []byte, dropped bool, err error) {
	if cc.ColumnIndexOffset != nil && cc.ColumnIndexLength != nil {
		if ci, err = r.readRange(*cc.ColumnIndexOffset, int64(*cc.ColumnIndexLength)); err != nil {
			ci, dropped = nil, true
		} else if ci, err = r.crypt.openIndex(ci, encryption.ColumnIndex, ch.rg, ch.col); err != nil { // encryption
			return nil, nil, false, err
		}
	}
	if cc.OffsetIndexOffset == nil || cc.OffsetIndexLength == nil {
		if cc.OffsetIndexOffset != nil {
			dropped = true
		}
		return ci, nil, dropped, nil
	}
	b, err := r.readRange(*cc.OffsetIndexOffset, int64(*cc.OffsetIndexLength))
	if err != nil {
		return nil, nil, true, nil
	}
	if b, err = r.crypt.openIndex(b, encryption.OffsetIndex, ch.rg, ch.col); err != nil { // encryption
		return nil, nil, false, err
	}
	o, err := format.DecodeOffsetIndex(b)
	if err != nil {
		return nil, nil, true, nil
	}
	pages := make(map[int64]*pageMove, len(ch.pages))
	for i := range ch.pages {
		pages[ch.pages[i].oldOff] = &ch.pages[i]
	}
	for i := range o.PageLocations {
		l := &o.PageLocations[i]
		p := pages[l.Offset]
		if p == nil {
			return nil, nil, true, nil
		}
		l.Offset, l.CompressedPageSize = p.newOff, p.newSize
	}
	return ci, format.AppendOffsetIndex(nil, o), dropped, nil
}

// bloomFilter returns the bytes of the bloom filter of m: bloom_filter_length
// bytes when set, and otherwise its header and the bitset it declares.
func (r *rewriter) bloomFilter(m *format.ColumnMetaData) ([]byte, error) {
	off := *m.BloomFilterOffset
	if m.BloomFilterLength != nil {
		return r.readRange(off, int64(*m.BloomFilterLength))
	}
	head, err := r.readRange(off, min(4096, r.size-off))
	if err != nil {
		return nil, err
	}
	hlen, n, err := format.DecodeBloomFilterHeaderSize(head)
	if err != nil {
		return nil, err
	}
	return r.readRange(off, int64(hlen)+int64(n))
}
