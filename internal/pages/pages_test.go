package pages

import (
	"hash/crc32"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/errs"
)

func TestCheckCRC(t *testing.T) {
	body := []byte("page body")
	h := &format.PageHeader{Type: format.DataPage, HasCRC: true, CRC: int32(crc32.ChecksumIEEE(body))}
	var p Pipeline
	require.NoError(t, p.CheckCRC(h, []byte("other")), "without VerifyCRC every page passes")
	p.VerifyCRC = true
	require.NoError(t, p.CheckCRC(h, body))
	err := p.CheckCRC(h, []byte("other"))
	require.ErrorIs(t, err, ErrChecksum)
	require.ErrorIs(t, err, errs.ErrCorrupt)
	require.NotContains(t, err.Error(), "pages:", "the detail only, for the caller's sentinel")
	h.HasCRC = false
	require.NoError(t, p.CheckCRC(h, []byte("other")))
}

func TestSplitAndDecompress(t *testing.T) {
	f, err := codecfactory.New()
	require.NoError(t, err)
	values := []byte("values values values values")
	comp, err := f.Compress(codecfactory.Snappy, nil, values)
	require.NoError(t, err)
	p := Pipeline{Codecs: f, Codec: codecfactory.Snappy}

	// A data page v2: levels stored as they are, the values compressed.
	body := append([]byte{1, 2, 3}, comp...)
	h := &format.PageHeader{Type: format.DataPageV2, UncompressedPageSize: int32(3 + len(values)),
		DataPageHeaderV2: format.DataPageHeaderV2{RepetitionLevelsByteLength: 1, DefinitionLevelsByteLength: 2, IsCompressed: true}}
	s, err := Split(h, body)
	require.NoError(t, err)
	require.Equal(t, []byte{1}, s.RepLevels)
	require.Equal(t, []byte{2, 3}, s.DefLevels)
	require.Equal(t, 3+len(values), s.UncompressedSize())
	var buf []byte
	got, err := p.Decompress(&buf, s)
	require.NoError(t, err)
	require.Equal(t, values, got)
	require.GreaterOrEqual(t, cap(buf), len(values), "the buffer is kept for the next page")

	// Level lengths past the body.
	h.DataPageHeaderV2.DefinitionLevelsByteLength = int32(len(body))
	_, err = Split(h, body)
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorIs(t, err, errs.ErrCorrupt)

	// A v1 page under UNCOMPRESSED is used in place, when its size is the
	// one its header says.
	p.Codec = codecfactory.Uncompressed
	v1 := &format.PageHeader{Type: format.DataPage, UncompressedPageSize: int32(len(values))}
	s, err = Split(v1, values)
	require.NoError(t, err)
	got, err = p.Decompress(&buf, s)
	require.NoError(t, err)
	require.Same(t, &values[0], &got[0])
	v1.UncompressedPageSize++
	s, _ = Split(v1, values)
	_, err = p.Decompress(&buf, s)
	require.ErrorIs(t, err, ErrCorrupt)

	// Index pages and unknown types: the body, as stored.
	s, err = Split(&format.PageHeader{Type: format.IndexPage}, values)
	require.NoError(t, err)
	require.False(t, s.Compressed)
	got, err = p.Decompress(&buf, s)
	require.NoError(t, err)
	require.Equal(t, values, got)
}
