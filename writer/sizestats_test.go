package writer_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/writer"
)

// histogram returns the counts of levels 0..max, nil when max is 0.
func histogram(levels []int16, max int) []int64 {
	if max == 0 {
		return nil
	}
	h := make([]int64, max+1)
	for _, l := range levels {
		h[l]++
	}
	return h
}

// TestSizeStatisticsCorpus writes every corpus file in small pages and
// checks, through format's decoding of what column reads, the
// SizeStatistics of each chunk's metadata (BYTE_ARRAY bytes for BYTE_ARRAY
// columns, level histograms for levels whose max is above 0), the level
// histograms of its ColumnIndex and the BYTE_ARRAY bytes of its
// OffsetIndex, against counts of the levels and values read back page by
// page; and that nothing of it is written without statistics.
func TestSizeStatisticsCorpus(t *testing.T) {
	f, err := codecfactory.New()
	require.NoError(t, err)
	var files, chunks, pages, withIndex int
	for _, path := range corpusInputs(t) {
		if strings.HasSuffix(path, "large_string_map.brotli.parquet") {
			continue
		}
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		if testing.Short() && len(b) > 1<<20 {
			continue
		}
		src, err := readFile(b)
		if err != nil {
			continue
		}
		files++
		for _, stats := range []bool{true, false} {
			out, err := writeFile(src, 0, writer.WithCodecs(f), writer.WithPageRows(300), writer.WithStatistics(stats))
			require.NoError(t, err, path)
			cf, err := column.Open(bytes.NewReader(out), int64(len(out)))
			require.NoError(t, err)
			for g := range cf.NumRowGroups() {
				for i, leaf := range cf.Schema().Leaves() {
					md := cf.MetaData().RowGroups[g].Columns[i].MetaData
					ci, oi, err := cf.PageIndex(g, i)
					require.NoError(t, err)
					if !stats {
						require.Nil(t, md.SizeStatistics, path)
						require.Nil(t, oi.UnencodedByteArrayDataBytes, path)
						continue
					}
					chunks++
					maxDef, maxRep := leaf.MaxDefinitionLevel, leaf.MaxRepetitionLevel
					isBA := *leaf.Element.Type == format.ByteArray
					var wantRep, wantDef, pageUnenc []int64
					var sumRep, sumDef []int64
					if maxRep > 0 {
						sumRep = make([]int64, maxRep+1)
					}
					if maxDef > 0 {
						sumDef = make([]int64, maxDef+1)
					}
					var unenc int64
					r, err := cf.Column(g, i)
					require.NoError(t, err)
					var p column.Page
					for {
						err := r.ReadPage(&p)
						if errors.Is(err, io.EOF) {
							break
						}
						require.NoError(t, err)
						pages++
						hr, hd := histogram(p.RepLevels, maxRep), histogram(p.DefLevels, maxDef)
						wantRep, wantDef = append(wantRep, hr...), append(wantDef, hd...)
						for k, x := range hr {
							sumRep[k] += x
						}
						for k, x := range hd {
							sumDef[k] += x
						}
						var n int64
						if isBA {
							for k := range p.Values.Len() {
								n += int64(len(p.Values.ByteArray(k)))
							}
						}
						pageUnenc = append(pageUnenc, n)
						unenc += n
					}
					ss := md.SizeStatistics
					if maxDef == 0 && !isBA {
						require.Nil(t, ss, path)
					} else {
						require.NotNil(t, ss, "%s: column %v", path, leaf.Path())
						require.Equal(t, sumRep, ss.RepetitionLevelHistogram, "%s: column %v", path, leaf.Path())
						require.Equal(t, sumDef, ss.DefinitionLevelHistogram, "%s: column %v", path, leaf.Path())
						if isBA {
							require.NotNil(t, ss.UnencodedByteArrayDataBytes)
							require.Equal(t, unenc, *ss.UnencodedByteArrayDataBytes, "%s: column %v", path, leaf.Path())
						} else {
							require.Nil(t, ss.UnencodedByteArrayDataBytes)
						}
					}
					if isBA {
						require.Equal(t, pageUnenc, oi.UnencodedByteArrayDataBytes, "%s: column %v", path, leaf.Path())
					} else {
						require.Nil(t, oi.UnencodedByteArrayDataBytes)
					}
					if ci != nil {
						withIndex++
						require.Equal(t, wantRep, ci.RepetitionLevelHistograms, "%s: column %v", path, leaf.Path())
						require.Equal(t, wantDef, ci.DefinitionLevelHistograms, "%s: column %v", path, leaf.Path())
					}
				}
			}
		}
	}
	t.Logf("%d files, %d chunks (%d with a ColumnIndex), %d pages", files, chunks, withIndex, pages)
	require.Greater(t, files, 100)
}
