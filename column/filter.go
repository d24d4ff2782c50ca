package column

import (
	"github.com/pqcodec/pqcodec/stats"
)

// Stats returns the typed statistics of the chunk of leaf column column in
// row group rowGroup, from its column metadata (see package stats for
// which fields are trusted). A min or max that cannot be trusted is left
// out, with the reason in [stats.Stats.BadMinMax], and is not an error.
func (f *File) Stats(rowGroup, column int) (stats.Stats, error) {
	if err := f.checkChunk(rowGroup, column); err != nil {
		return stats.Stats{}, err
	}
	c := stats.NewColumn(f.meta, f.schema.Leaves()[column])
	return c.Chunk(f.meta.RowGroups[rowGroup].Columns[column].MetaData.Statistics), nil
}

// MatchingRows returns the ranges of rows of row group rowGroup whose pages
// of leaf column column may hold a value for which keep is true, judging
// each data page by the typed statistics of the chunk's column index:
// keep must return true whenever the page may match (for a range,
// [stats.Column.MayContain]; a page whose min/max cannot be trusted has none,
// see [stats.Stats.BadMinMax]). Adjacent ranges are merged. A chunk without
// a column index and an offset index gives the whole row group. The
// ranges can then be read from every column with [Reader.SeekRow].
func (f *File) MatchingRows(rowGroup, column int, keep func(stats.Stats) bool) ([]RowRange, error) {
	ci, oi, err := f.PageIndex(rowGroup, column)
	if err != nil {
		return nil, err
	}
	numRows := f.meta.RowGroups[rowGroup].NumRows
	if ci == nil || oi == nil {
		return []RowRange{{0, numRows}}, nil
	}
	c := stats.NewColumn(f.meta, f.schema.Leaves()[column])
	pages := c.Pages(nil, ci)
	var out []RowRange
	for i, s := range pages {
		if !keep(s) {
			continue
		}
		first, end := oi.PageLocations[i].FirstRowIndex, numRows
		if i+1 < len(pages) {
			end = oi.PageLocations[i+1].FirstRowIndex
		}
		if n := len(out); n > 0 && out[n-1].End == first {
			out[n-1].End = end
		} else {
			out = append(out, RowRange{first, end})
		}
	}
	return out, nil
}
