package cgotest

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/pqcodec/pqcodec/column"
)

// diffArrowPageIndex compares the page index of every chunk of the file in
// b as arrow-go reads it with ours: null pages, null counts, min and max
// bytes, boundary order and page locations. It returns the first
// difference, or "".
func diffArrowPageIndex(b []byte) (diff string, err error) {
	defer func() {
		if p := recover(); p != nil {
			diff, err = "", fmt.Errorf("arrow-go panicked: %v", p)
		}
	}()
	ours, err := column.Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return "", err
	}
	r, err := file.NewParquetReader(bytes.NewReader(b))
	if err != nil {
		return "", err
	}
	pir := r.GetPageIndexReader()
	for rg := range ours.NumRowGroups() {
		rgr, err := pir.RowGroup(rg)
		if err != nil {
			return "", err
		}
		for col := range ours.NumColumns() {
			ci, oi, err := ours.PageIndex(rg, col)
			if err != nil {
				return "", err
			}
			where := fmt.Sprintf("row group %d column %d", rg, col)
			aoi, err := rgr.GetOffsetIndex(col)
			if err != nil || aoi == nil {
				return fmt.Sprintf("%s: arrow-go reads no offset index: %v", where, err), nil
			}
			locs := aoi.GetPageLocations()
			if len(locs) != oi.NumPages() {
				return fmt.Sprintf("%s: %d page locations, ours %d", where, len(locs), oi.NumPages()), nil
			}
			for i, l := range locs {
				o := oi.PageLocations[i]
				if l.Offset != o.Offset || l.CompressedPageSize != o.CompressedPageSize || l.FirstRowIndex != o.FirstRowIndex {
					return fmt.Sprintf("%s page %d: location %+v, ours %+v", where, i, *l, o), nil
				}
			}
			aci, err := rgr.GetColumnIndex(col)
			if err != nil {
				return "", err
			}
			if ci == nil {
				if aci != nil {
					return fmt.Sprintf("%s: arrow-go reads a column index where we have none", where), nil
				}
				continue
			}
			if aci == nil {
				return fmt.Sprintf("%s: arrow-go reads no column index", where), nil
			}
			if !slices.Equal(aci.GetNullPages(), ci.NullPages) || !slices.Equal(aci.GetNullCounts(), ci.NullCounts) ||
				int32(aci.GetBoundaryOrder()) != int32(ci.BoundaryOrder) {
				return fmt.Sprintf("%s: null pages, null counts or boundary order differ", where), nil
			}
			for i := range ci.NullPages {
				if !bytes.Equal(aci.GetMinValues()[i], ci.MinValues[i]) || !bytes.Equal(aci.GetMaxValues()[i], ci.MaxValues[i]) {
					return fmt.Sprintf("%s page %d: bounds differ", where, i), nil
				}
			}
		}
	}
	return "", nil
}
