package writer_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/stats"
)

// statValue returns value i of v as a stats.Value, and whether it is NaN.
func statValue(v *column.Values, i int) (stats.Value, bool) {
	switch v.Type {
	case format.Boolean:
		return stats.BooleanValue(v.Booleans[i]), false
	case format.Int32:
		return stats.Int32Value(v.Int32s[i]), false
	case format.Int64:
		return stats.Int64Value(v.Int64s[i]), false
	case format.Float:
		return stats.FloatValue(v.Floats[i]), math.IsNaN(float64(v.Floats[i]))
	case format.Double:
		return stats.DoubleValue(v.Doubles[i]), math.IsNaN(v.Doubles[i])
	}
	b := v.ByteArray(i)
	if v.Type == format.Int96 {
		b = v.Int96s[i][:]
	}
	return stats.BytesValue(v.Type, b), false
}

// checkBounds checks that s bounds values [from, to) of v in c's order, and
// that exact bounds are values of the range.
func checkBounds(c *stats.Column, s stats.Stats, v *column.Values, from, to int, f16 bool) error {
	if !s.HasMinMax {
		return nil
	}
	sawMin, sawMax := false, false
	for i := from; i < to; i++ {
		x, nan := statValue(v, i)
		if f16 && math.IsNaN(float64(stats.Float16(x.Bytes()))) {
			nan = true
		}
		if nan {
			continue
		}
		if c.Compare(x, s.Min) < 0 || c.Compare(x, s.Max) > 0 {
			return fmt.Errorf("value %v outside [%v, %v]", x, s.Min, s.Max)
		}
		sawMin = sawMin || c.Compare(x, s.Min) == 0
		sawMax = sawMax || c.Compare(x, s.Max) == 0
	}
	if !sawMin && s.MinExact || !sawMax && s.MaxExact {
		return fmt.Errorf("bounds [%v, %v] are not values of the range", s.Min, s.Max)
	}
	return nil
}

// checkStatistics checks the chunk statistics, column index and offset
// index of every chunk of the file in b against its values.
func checkStatistics(b []byte) error {
	f, err := column.Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return err
	}
	var p column.Page
	for rg := range f.NumRowGroups() {
		for col := range f.NumColumns() {
			leaf := f.Schema().Leaves()[col]
			sc := stats.NewColumn(f.MetaData(), leaf)
			f16 := leaf.Element.LogicalType != nil && leaf.Element.LogicalType.Kind == format.LogicalFloat16
			chunk, err := f.Stats(rg, col)
			if err != nil {
				return err
			}
			if chunk.BadMinMax != nil {
				return fmt.Errorf("row group %d column %d: %w", rg, col, chunk.BadMinMax)
			}
			ci, oi, err := f.PageIndex(rg, col)
			if err != nil {
				return err
			}
			if oi == nil {
				return fmt.Errorf("row group %d column %d: no offset index", rg, col)
			}
			var pages []stats.Stats
			if ci != nil {
				pages = sc.Pages(nil, ci)
				for k, p := range pages {
					if p.BadMinMax != nil {
						return fmt.Errorf("row group %d column %d page %d: %w", rg, col, k, p.BadMinMax)
					}
				}
			}
			r, err := f.Column(rg, col)
			if err != nil {
				return err
			}
			var all column.Values
			all.Reset(*leaf.Element.Type, 0)
			nulls := int64(0)
			for k := 0; ; k++ {
				err := r.ReadPage(&p)
				if errors.Is(err, io.EOF) {
					if k != oi.NumPages() {
						return fmt.Errorf("row group %d column %d: %d pages, offset index %d", rg, col, k, oi.NumPages())
					}
					break
				}
				if err != nil {
					return err
				}
				if k >= oi.NumPages() || oi.PageLocations[k].FirstRowIndex != r.RowIndex() {
					return fmt.Errorf("row group %d column %d page %d: offset index disagrees (row %d)", rg, col, k, r.RowIndex())
				}
				nulls += int64(p.NumNulls())
				if pages != nil {
					ps := pages[k]
					if ps.HasNullCount && ps.NullCount != int64(p.NumNulls()) {
						return fmt.Errorf("row group %d column %d page %d: null count %d, page has %d", rg, col, k, ps.NullCount, p.NumNulls())
					}
					if ps.AllNull != (p.NumValues() == 0) {
						return fmt.Errorf("row group %d column %d page %d: null page %v with %d values", rg, col, k, ps.AllNull, p.NumValues())
					}
					if err := checkBounds(sc, ps, &p.Values, 0, p.Values.Len(), f16); err != nil {
						return fmt.Errorf("row group %d column %d page %d: %w", rg, col, k, err)
					}
				}
				if all.Type == format.ByteArray && len(all.Offsets) == 0 {
					all.Offsets = []int32{0}
				}
				all.TypeLength = p.Values.TypeLength
				appendValues(&all, &p.Values)
			}
			if !chunk.HasNullCount || chunk.NullCount != nulls {
				return fmt.Errorf("row group %d column %d: null count %d (%v), pages have %d", rg, col, chunk.NullCount, chunk.HasNullCount, nulls)
			}
			if chunk.HasMinMax != (sc.Order != stats.Undefined && hasNonNaN(&all, f16)) {
				return fmt.Errorf("row group %d column %d: min/max %v for order %v", rg, col, chunk.HasMinMax, sc.Order)
			}
			if err := checkBounds(sc, chunk, &all, 0, all.Len(), f16); err != nil {
				return fmt.Errorf("row group %d column %d: %w", rg, col, err)
			}
		}
	}
	return nil
}

func hasNonNaN(v *column.Values, f16 bool) bool {
	for i := range v.Len() {
		x, nan := statValue(v, i)
		if f16 && math.IsNaN(float64(stats.Float16(x.Bytes()))) {
			nan = true
		}
		if !nan {
			return true
		}
	}
	return false
}
