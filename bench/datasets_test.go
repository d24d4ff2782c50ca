package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDatasetsDeterministic checks that every dataset is a pure function of
// its size, so runs on different machines measure the same bytes.
func TestDatasetsDeterministic(t *testing.T) {
	const size = 64 << 10
	for _, d := range CodecDatasets {
		a, b := d.Page(size), d.Page(size)
		require.Equal(t, a, b, d.Name)
		assert.InDelta(t, size, len(a), 1100, "%s: page size", d.Name)
	}
	for name, gen := range map[string]func(int) ByteArrays{
		"lowcard": LowCardStrings, "highcard": HighCardStrings, "uuid": UUIDs, "kib": KiBStrings,
	} {
		a, b := gen(size), gen(size)
		require.Equal(t, a, b, name)
		assert.GreaterOrEqual(t, a.PlainSize(), size, name)
		assert.Less(t, a.PlainSize(), size+1100, name)
		assert.Equal(t, a.PlainSize(), len(PlainByteArrays(a)), name)
	}
	assert.Equal(t, Indices(size, 12), Indices(size, 12))
	assert.NotEqual(t, RandomDoubles(size), SmoothDoubles(size))
}

// TestDatasetShapes checks the properties the benchmark rows rely on.
func TestDatasetShapes(t *testing.T) {
	const size = 64 << 10
	for _, w := range []uint{1, 3, 8, 12, 20} {
		for _, v := range Indices(size, w) {
			require.Less(t, v, uint32(1)<<w, "width %d", w)
		}
	}
	ones := 0
	for _, v := range DefLevels(size) {
		require.LessOrEqual(t, v, uint32(1))
		ones += int(v)
	}
	assert.Greater(t, ones, size/4*3/4, "def levels are mostly 1 (non-null)")
	ts := Timestamps(size)
	for i := 1; i < len(ts); i++ {
		require.GreaterOrEqual(t, ts[i], ts[i-1], "timestamps increase")
	}
	u := UUIDs(size)
	for i := 0; i < u.Len(); i++ {
		require.Equal(t, int32(36), u.Offsets[i+1]-u.Offsets[i])
	}
	k := KiBStrings(size)
	for i := 0; i < k.Len(); i++ {
		n := k.Offsets[i+1] - k.Offsets[i]
		require.True(t, n >= 976 && n <= 1072, "value %d has %d bytes", i, n)
	}
	assert.Len(t, Booleans(size), 8*size)
}
