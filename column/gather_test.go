package column

import (
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// TestGatherTwins reads every byte array chunk of the corpus through both
// dictionary gathers, dictionary.BytesDict's (the default) and
// Values.appendFrom (taken under WithMaxMemory), and requires the same
// values and the same errors.
func TestGatherTwins(t *testing.T) {
	files := append(testcorpus.Files(t, "data"), testcorpus.Files(t, "bad_data")...)
	dictChunks := 0
	for _, path := range files {
		fast, err := openFile(t, path)
		if err != nil {
			continue
		}
		size := int64(0)
		for _, rg := range fast.MetaData().RowGroups {
			size += rg.TotalByteSize
		}
		if size > 16<<20 {
			continue // the large files hold no more cases, only more time
		}
		slow, err := openFile(t, path, WithMaxMemory(1<<40))
		require.NoError(t, err)
		for rg := range fast.NumRowGroups() {
			for col := range fast.NumColumns() {
				a, errA := fast.Column(rg, col)
				b, errB := slow.Column(rg, col)
				require.Equal(t, errA == nil, errB == nil, path)
				if errA != nil {
					continue
				}
				if typ := a.MetaData().Type; typ != format.ByteArray && typ != format.FixedLenByteArray {
					continue
				}
				var pa, pb Page
				for {
					errA, errB = a.ReadPage(&pa), b.ReadPage(&pb)
					require.Equal(t, errA == nil, errB == nil, "%s rg %d col %d: %v / %v", path, rg, col, errA, errB)
					if errA != nil {
						require.Equal(t, errors.Is(errA, io.EOF), errors.Is(errB, io.EOF), path)
						break
					}
					require.Equal(t, pb.Values.Bytes, pa.Values.Bytes, "%s rg %d col %d", path, rg, col)
					require.Equal(t, pb.Values.Offsets, pa.Values.Offsets, "%s rg %d col %d", path, rg, col)
				}
				if a.useBytesDict {
					dictChunks++
				}
			}
		}
	}
	require.NotZero(t, dictChunks, "no dictionary-encoded byte array chunk in the corpus")
	t.Logf("%d dictionary-encoded byte array chunks", dictChunks)
}
