package interop_test

// Cross-check of format.ReadColumnIndex and format.ReadOffsetIndex against
// arrow-go's page index reader on every corpus file with a page index.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

func TestPageIndexVsArrow(t *testing.T) {
	root := testcorpus.Dir(t)
	var files, chunks, pages int
	require.NoError(t, filepath.WalkDir(filepath.Join(root, "data"), func(path string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(path, ".parquet") {
			return err
		}
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		m, err := format.ReadFooter(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return nil
		}
		af, err := piOpenArrow(b)
		if err != nil {
			return nil // files arrow-go cannot open are covered by format's own tests
		}
		defer af.Close()
		pir := af.GetPageIndexReader()
		counted := false
		for g := range m.RowGroups {
			rg := &m.RowGroups[g]
			arg, err := pir.RowGroup(g)
			require.NoError(t, err, path)
			for i := range rg.Columns {
				c := &rg.Columns[i]
				where := filepath.Base(path)
				ci, err := format.ReadColumnIndex(bytes.NewReader(b), int64(len(b)), c)
				require.NoError(t, err, where)
				oi, err := format.ReadOffsetIndex(bytes.NewReader(b), int64(len(b)), c)
				require.NoError(t, err, where)
				if arg == nil {
					assert.Nil(t, ci, where)
					assert.Nil(t, oi, where)
					continue
				}
				aci, err := arg.GetColumnIndex(i)
				require.NoError(t, err, where)
				aoi, err := arg.GetOffsetIndex(i)
				require.NoError(t, err, where)
				if aci == nil {
					assert.Nil(t, ci, where)
				} else {
					require.NotNil(t, ci, where)
					assert.Equal(t, aci.GetNullPages(), ci.NullPages, where)
					assert.Equal(t, normBytes(aci.GetMinValues()), normBytes(ci.MinValues), where)
					assert.Equal(t, normBytes(aci.GetMaxValues()), normBytes(ci.MaxValues), where)
					assert.Equal(t, int32(aci.GetBoundaryOrder()), int32(ci.BoundaryOrder), where)
					if aci.IsSetNullCounts() {
						assert.Equal(t, aci.GetNullCounts(), ci.NullCounts, where)
					} else {
						assert.Nil(t, ci.NullCounts, where)
					}
					assert.Equal(t, len(aci.GetRepetitionLevelHistograms()), len(ci.RepetitionLevelHistograms), where)
					assert.Equal(t, len(aci.GetDefinitionLevelHistograms()), len(ci.DefinitionLevelHistograms), where)
				}
				if aoi == nil {
					assert.Nil(t, oi, where)
					continue
				}
				require.NotNil(t, oi, where)
				locs := aoi.GetPageLocations()
				require.Len(t, oi.PageLocations, len(locs), where)
				for p, l := range locs {
					assert.Equal(t, format.PageLocation{Offset: l.Offset, CompressedPageSize: l.CompressedPageSize, FirstRowIndex: l.FirstRowIndex},
						oi.PageLocations[p], "%s page %d", where, p)
				}
				if u := aoi.GetUnencodedByteArrayDataBytes(); len(u) > 0 {
					assert.Equal(t, u, oi.UnencodedByteArrayDataBytes, where)
				}
				chunks++
				pages += len(locs)
				counted = true
			}
		}
		if counted {
			files++
		}
		return nil
	}))
	t.Logf("%d files, %d chunks, %d pages agree with arrow-go", files, chunks, pages)
	assert.GreaterOrEqual(t, files, 20)
}

// normBytes maps nil and empty byte slices to empty, since the two readers
// differ there only in representation.
func normBytes(v [][]byte) []string {
	out := make([]string, len(v))
	for i, b := range v {
		out[i] = string(b)
	}
	return out
}

// piOpenArrow opens b with arrow-go, turning its panics on schemas it does
// not know (the newest logical types) into errors.
func piOpenArrow(b []byte) (f *file.Reader, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("arrow-go panicked: %v", r)
		}
	}()
	return file.NewParquetReader(bytes.NewReader(b))
}
