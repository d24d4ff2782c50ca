package column

// ValueRows appends to dst, for each value of p, the page the last
// [Reader.ReadPage] returned (its Values, or its Indices under
// [KeepDictionary], in order), the index within the row group of the row
// the value belongs to, and returns the extended slice. It maps what a scan
// of one column found back to rows, to read them from other columns
// ([Reader.SeekRow]) or as file rows ([File.FirstRow] plus the index, for
// rows.WithRowRanges). Rows are counted by repetition level 0 from
// [Reader.RowIndex]; values are the levels at the column's maximum
// definition level.
func (r *Reader) ValueRows(dst []int64, p *Page) []int64 {
	maxDef := r.leaf.MaxDefinitionLevel
	row := r.RowIndex() - 1 // levels before the first row start continue the row before
	for i := range p.NumLevels {
		if len(p.RepLevels) == 0 || p.RepLevels[i] == 0 {
			row++
		}
		if maxDef == 0 || len(p.DefLevels) == 0 || int(p.DefLevels[i]) == maxDef {
			dst = append(dst, row)
		}
	}
	return dst
}
