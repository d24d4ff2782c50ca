package rows

import "io"

// nextEmpty is next for a Reader without columns: a schema without leaf
// columns (fastparquet writes one for a DataFrame without columns) or a
// selection of empty groups. Its rows are empty records, as many as the
// row groups' num_rows say (a negative num_rows counts as 0), as DuckDB
// and arrow-cpp read them.
func (r *Reader) nextEmpty() error {
	meta := r.file.MetaData()
	for {
		if r.rowGroup >= 0 && r.emptyPos < meta.RowGroups[r.rowGroup].NumRows {
			if r.skip > 0 {
				n := min(r.skip, meta.RowGroups[r.rowGroup].NumRows-r.emptyPos)
				r.skip -= n
				r.emptyPos += n
				continue
			}
			r.emptyPos++
			return nil
		}
		if r.rowGroup+1 >= len(meta.RowGroups) {
			return io.EOF
		}
		r.rowGroup++
		r.emptyPos = 0
	}
}
