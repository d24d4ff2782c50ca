package column

import (
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// TestGatherBudget reads every byte array chunk of the corpus with and
// without WithMaxMemory, whose check runs inside dictionary.BytesDict's
// gather (its budget), and requires the same values and the same errors:
// the check must not change what the one dictionary path decodes.
func TestGatherBudget(t *testing.T) {
	files := append(testcorpus.Files(t, "data"), testcorpus.Files(t, "bad_data")...)
	dictPages := 0
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
					if pa.Encoding == format.RLEDictionary || pa.Encoding == format.PlainDictionary {
						dictPages++
					}
				}
			}
		}
	}
	require.NotZero(t, dictPages, "no dictionary-encoded byte array page in the corpus")
	t.Logf("%d dictionary-encoded byte array pages", dictPages)
}
