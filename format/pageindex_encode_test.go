package format

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAppendColumnIndexRoundTrip(t *testing.T) {
	for _, c := range []*ColumnIndex{
		{NullPages: []bool{}, MinValues: [][]byte{}, MaxValues: [][]byte{}},
		{
			NullPages:     []bool{false, true, false},
			MinValues:     [][]byte{{1, 2}, {}, []byte("abc")},
			MaxValues:     [][]byte{{3}, {}, []byte("abd")},
			BoundaryOrder: Ascending,
			NullCounts:    []int64{0, 7, 1},
			// Two levels per page.
			RepetitionLevelHistograms: []int64{1, 2, 3, 4, 5, 6},
			DefinitionLevelHistograms: []int64{6, 5, 4, 3, 2, 1},
		},
	} {
		got, err := DecodeColumnIndex(AppendColumnIndex(nil, c))
		require.NoError(t, err)
		require.Equal(t, c.NullPages, got.NullPages)
		require.Equal(t, len(c.MinValues), len(got.MinValues))
		for i := range c.MinValues {
			require.Equal(t, string(c.MinValues[i]), string(got.MinValues[i]))
			require.Equal(t, string(c.MaxValues[i]), string(got.MaxValues[i]))
		}
		require.Equal(t, c.BoundaryOrder, got.BoundaryOrder)
		require.Equal(t, c.NullCounts, got.NullCounts)
		require.Equal(t, c.RepetitionLevelHistograms, got.RepetitionLevelHistograms)
		require.Equal(t, c.DefinitionLevelHistograms, got.DefinitionLevelHistograms)
	}
}
