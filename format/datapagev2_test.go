package format

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/errs"
)

func TestSplitDataPageV2(t *testing.T) {
	v2 := func(size int32, rep, def int32, compressed bool) *PageHeader {
		return &PageHeader{Type: DataPageV2, UncompressedPageSize: size, HasDataPageHeaderV2: true,
			DataPageHeaderV2: DataPageHeaderV2{RepetitionLevelsByteLength: rep, DefinitionLevelsByteLength: def,
				IsCompressed: compressed, HasIsCompressed: true}}
	}
	body := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	// Compressed: the values section decompresses to the header's size
	// less the levels.
	b, err := SplitDataPageV2(v2(20, 1, 2, true), body)
	require.NoError(t, err)
	assert.Equal(t, []byte{1}, b.RepLevels)
	assert.Equal(t, []byte{2, 3}, b.DefLevels)
	assert.Equal(t, []byte{4, 5, 6, 7, 8}, b.Values)
	assert.True(t, b.Compressed)
	assert.Equal(t, 17, b.ValuesSize)
	assert.Equal(t, 20, b.UncompressedSize())
	// Uncompressed: taken as it is, whatever the header says, even below
	// the level lengths.
	for _, size := range []int32{8, 3, 0, 100} {
		b, err = SplitDataPageV2(v2(size, 1, 2, false), body)
		require.NoError(t, err, size)
		assert.False(t, b.Compressed)
		assert.Equal(t, 5, b.ValuesSize)
		assert.Equal(t, 8, b.UncompressedSize())
	}
	// An empty compressed section declared empty is not decompressed.
	b, err = SplitDataPageV2(v2(3, 1, 2, true), body[:3])
	require.NoError(t, err)
	assert.False(t, b.Compressed)
	assert.Equal(t, 0, b.ValuesSize)
	// Appending to a level section does not overwrite the values.
	_ = append(b.DefLevels, 0xff)
	assert.Equal(t, []byte{1, 2, 3}, body[:3])
	assert.Equal(t, byte(4), body[3])
	// Damaged headers.
	for _, h := range []*PageHeader{v2(20, -1, 0, true), v2(20, 0, -1, true), v2(20, 9, 0, true), v2(20, 4, 5, true), v2(2, 1, 2, true)} {
		_, err := SplitDataPageV2(h, body)
		require.ErrorIs(t, err, ErrCorrupt)
		require.ErrorIs(t, err, errs.ErrCorrupt)
	}
}
