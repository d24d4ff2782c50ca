// Package pages is the one page pipeline of the module: it walks the pages
// of a column chunk ([format.PageWalker]), checks their CRC, splits a page
// into the sections a decoder reads (levels of a data page v2 apart from its
// values, [format.SplitDataPageV2]) and decompresses a page's data into a
// reused buffer, with the rules of READING.md. column.Reader,
// recompress, `pqcodec bench` and the test helpers share it, so that they
// accept and refuse the same pages; decoding levels and values stays with
// package column.
package pages

import (
	"hash/crc32"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/errs"
)

// ErrCorrupt is matched by the errors of a page whose header contradicts
// its body. Its errors carry only their detail ("page crc32 0x..., computed
// 0x..."), for the caller to wrap in its own sentinel.
var ErrCorrupt = errs.Corrupt("pages: corrupt page")

// ErrChecksum is matched by the error of a page whose CRC does not match
// its header; it matches ErrCorrupt too.
var ErrChecksum = errs.Corrupt("pages: page checksum mismatch")

// Pipeline walks a column chunk's pages and turns each into its
// uncompressed sections. Its walk is that of the embedded
// [format.PageWalker] (Reset or ResetReaderAt, then Next, Header, Body);
// the other steps take a header and its body as arguments, so that a
// worker given a copy of a page (recompress) runs them as the walker's
// owner does. The zero value walks nothing and verifies no CRC; set Codecs
// and Codec before Decompress. It is not safe for concurrent use.
type Pipeline struct {
	format.PageWalker
	// Codecs decompresses pages; Codec is the column chunk's codec.
	Codecs *codecfactory.Factory
	Codec  codecfactory.Codec
	// VerifyCRC makes CheckCRC compare a page's body with the CRC32 of
	// its header; without it CheckCRC accepts every page.
	VerifyCRC bool
}

// CheckCRC checks stored, a page's body as the file holds it (for an
// encrypted chunk, the page module: [format.PageWalker.RawBody]), against
// the CRC32 of its header h, when VerifyCRC is set and h has one. The error
// matches ErrChecksum.
func (p *Pipeline) CheckCRC(h *format.PageHeader, stored []byte) error {
	if !p.VerifyCRC || !h.HasCRC {
		return nil
	}
	if sum := crc32.ChecksumIEEE(stored); sum != uint32(h.CRC) {
		return errs.Detailf(ErrChecksum, "page crc32 %#08x, computed %#08x", uint32(h.CRC), sum)
	}
	return nil
}

// Sections is a page split into what a decoder reads.
type Sections struct {
	// RepLevels and DefLevels are the level sections of a data page v2,
	// stored uncompressed; empty for other pages (a data page v1 holds its
	// levels in Data).
	RepLevels, DefLevels []byte
	// Data is the rest of the body as stored: the whole body of a data
	// page v1 or dictionary page, the values section of a data page v2.
	Data []byte
	// Size is the size of Data once decompressed.
	Size int
	// Compressed reports whether Data is compressed with the chunk's
	// codec: always for a data page v1 or dictionary page (the codec may
	// be UNCOMPRESSED), as the header says for a data page v2 (see
	// format.SplitDataPageV2), never for other pages.
	Compressed bool
}

// Split splits the page with header h and body into its sections; the
// slices alias body. A data page v2 whose level lengths do not fit its
// body is an error matching ErrCorrupt and format.ErrCorrupt.
func Split(h *format.PageHeader, body []byte) (Sections, error) {
	switch h.Type {
	case format.DataPage, format.DictionaryPage:
		return Sections{Data: body, Size: int(h.UncompressedPageSize), Compressed: true}, nil
	case format.DataPageV2:
		parts, err := format.SplitDataPageV2(h, body)
		if err != nil {
			return Sections{}, errs.Detailf(ErrCorrupt, "%v", err)
		}
		return Sections{RepLevels: parts.RepLevels, DefLevels: parts.DefLevels, Data: parts.Values,
			Size: parts.ValuesSize, Compressed: parts.Compressed}, nil
	}
	return Sections{Data: body, Size: len(body)}, nil
}

// UncompressedSize returns the size of the page's body once decompressed.
func (s *Sections) UncompressedSize() int { return len(s.RepLevels) + len(s.DefLevels) + s.Size }

// Decompress returns the s.Size bytes s.Data decompresses to. It
// decompresses into the capacity of *buf, which it replaces when it had to
// grow (a buffer reused by capacity across pages); data stored uncompressed
// (s.Compressed false, or the UNCOMPRESSED codec) is returned as it is,
// aliasing s.Data, without a copy. An UNCOMPRESSED page whose size is not
// the size its header says, or a negative size, is an error matching
// ErrCorrupt; the codecs' errors are returned as they are.
func (p *Pipeline) Decompress(buf *[]byte, s Sections) ([]byte, error) {
	if !s.Compressed {
		return s.Data, nil
	}
	n := s.Size
	if n < 0 {
		return nil, errs.Detailf(ErrCorrupt, "negative uncompressed size %d", n)
	}
	if p.Codec == codecfactory.Uncompressed && len(s.Data) != n {
		return nil, errs.Detailf(ErrCorrupt, "uncompressed page of %d bytes, header says %d", len(s.Data), n)
	}
	out, err := p.Codecs.DecompressShared(p.Codec, (*buf)[:0], s.Data, n)
	if err != nil {
		return nil, err
	}
	if p.Codec != codecfactory.Uncompressed && cap(out) > cap(*buf) {
		*buf = out // grown; otherwise out is the start of *buf, whose capacity we keep
	}
	return out, nil
}
