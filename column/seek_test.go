package column

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/errs"
	"github.com/pqcodec/pqcodec/internal/testfile"
)

// flatChunk is a whole column chunk read page by page: its levels and
// values end to end, with where each row starts.
type flatChunk struct {
	numLevels int
	rep, def  []int16
	vals      []string
	rowLevel  []int // level index at which each row starts
	valBefore []int // values before each level (len numLevels+1)
}

func readFlat(t *testing.T, f *File, rg, col int) (*flatChunk, error) {
	r, err := f.Column(rg, col)
	if err != nil {
		return nil, err
	}
	fc := &flatChunk{}
	var p Page
	maxDef := r.Leaf().MaxDefinitionLevel
	for {
		err := r.ReadPage(&p)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		for i := range p.NumLevels {
			if len(p.RepLevels) == 0 || p.RepLevels[i] == 0 {
				fc.rowLevel = append(fc.rowLevel, fc.numLevels+i)
			}
			v := 1
			if maxDef > 0 && int(p.DefLevels[i]) != maxDef {
				v = 0
			}
			fc.valBefore = append(fc.valBefore, len(fc.vals))
			if v == 1 {
				fc.vals = append(fc.vals, "") // placeholder, set below
			}
		}
		// Values in order.
		base := len(fc.vals) - p.Values.Len()
		for i := range p.Values.Len() {
			fc.vals[base+i] = fmt.Sprint(p.Values.Value(i))
		}
		fc.rep = append(fc.rep, p.RepLevels...)
		fc.def = append(fc.def, p.DefLevels...)
		fc.numLevels += p.NumLevels
	}
	fc.valBefore = append(fc.valBefore, len(fc.vals))
	return fc, nil
}

// checkPageAt checks that p, returned by r after SeekRow(row), holds the
// rows of fc from row on.
func checkPageAt(t *testing.T, r *Reader, p *Page, fc *flatChunk, row int, where string) bool {
	t.Helper()
	if !assert.Equal(t, int64(row), r.RowIndex(), where) {
		return false
	}
	start := fc.rowLevel[row]
	end := start + p.NumLevels
	if !assert.LessOrEqual(t, end, fc.numLevels, where) {
		return false
	}
	if len(fc.rep) > 0 && !assert.Equal(t, fc.rep[start:end], p.RepLevels, where) {
		return false
	}
	if len(fc.def) > 0 && !assert.Equal(t, fc.def[start:end], p.DefLevels, where) {
		return false
	}
	want := fc.vals[fc.valBefore[start]:fc.valBefore[end]]
	if !assert.Equal(t, len(want), p.Values.Len(), where) {
		return false
	}
	// The first and last values (formatting every value of large pages
	// for every seek would dominate the test).
	for _, i := range []int{0, 1, 2, len(want) - 2, len(want) - 1} {
		if i >= 0 && i < len(want) && !assert.Equal(t, want[i], fmt.Sprint(p.Values.Value(i)), "%s value %d", where, i) {
			return false
		}
	}
	return true
}

// TestSeekRow seeks to rows of every column chunk of the corpus and checks
// the page returned, and the one after it, against a full read: every row
// of small chunks, a sample of larger ones, forward and backward.
func TestSeekRow(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	var seeks, indexed int
	for _, path := range corpusFiles(t, "data") {
		f, err := OpenFile(path)
		if err != nil {
			continue
		}
		name := filepath.Base(path)
		for rg := range f.NumRowGroups() {
			for col := range f.NumColumns() {
				if f.meta.RowGroups[rg].Columns[col].MetaData.TotalUncompressedSize > 4<<20 {
					continue
				}
				fc, err := readFlat(t, f, rg, col)
				if err != nil {
					continue
				}
				nrows := len(fc.rowLevel)
				var targets []int
				if nrows <= 200 {
					for i := range nrows {
						targets = append(targets, i)
					}
				} else {
					for range 40 {
						targets = append(targets, rnd.IntN(nrows))
					}
					slices.Sort(targets)
				}
				// Then a few backward.
				for range 5 {
					if nrows > 0 {
						targets = append(targets, rnd.IntN(nrows))
					}
				}
				_, oi, _ := f.PageIndex(rg, col)
				if oi != nil {
					indexed++
					// Without the offset index too: rows counted from
					// the headers and levels.
					r, err := f.Column(rg, col)
					require.NoError(t, err)
					r.seek.oiRead = true
					seeks += seekAll(t, r, fc, targets, fmt.Sprintf("%s rg %d col %d (no offset index)", name, rg, col))
				}
				r, err := f.Column(rg, col)
				require.NoError(t, err)
				seeks += seekAll(t, r, fc, targets, fmt.Sprintf("%s rg %d col %d", name, rg, col))
				err = r.SeekRow(int64(nrows + 1))
				if f.meta.RowGroups[rg].NumRows > 0 {
					assert.ErrorIs(t, err, ErrRange)
				}
			}
		}
		f.Close()
	}
	t.Logf("%d seeks, %d chunks with an offset index", seeks, indexed)
	assert.Greater(t, seeks, 10000)
	assert.Greater(t, indexed, 300)
}

// seekAll seeks r to each target row and checks the page there and the
// one after it; it returns the number of seeks checked.
func seekAll(t *testing.T, r *Reader, fc *flatChunk, targets []int, prefix string) int {
	t.Helper()
	nrows := len(fc.rowLevel)
	seeks := 0
	var p Page
	for _, row := range targets {
		where := fmt.Sprintf("%s row %d", prefix, row)
		require.NoError(t, r.SeekRow(int64(row)), where)
		require.NoError(t, r.ReadPage(&p), where)
		if !checkPageAt(t, r, &p, fc, row, where) {
			break
		}
		seeks++
		next := row + p.NumRows()
		if next < nrows {
			require.NoError(t, r.ReadPage(&p), where)
			if !checkPageAt(t, r, &p, fc, next, where+" next page") {
				break
			}
		}
	}
	// Reading on from a seek ends where a full read does.
	if nrows > 0 {
		row := nrows / 2
		require.NoError(t, r.SeekRow(int64(row)), prefix)
		for {
			err := r.ReadPage(&p)
			if errors.Is(err, io.EOF) {
				break
			}
			require.NoError(t, err, prefix)
			row += p.NumRows()
		}
		assert.Equal(t, nrows, row, "%s: rows read from row %d on", prefix, nrows/2)
	}
	return seeks
}

func TestSliceRows(t *testing.T) {
	f, err := OpenFile(nestedFile)
	require.NoError(t, err)
	defer f.Close()
	r, err := f.ColumnByPath(0, "lls.list.element.list.element")
	require.NoError(t, err)
	var p Page
	require.NoError(t, r.ReadPage(&p))
	// Rows 2 and 3 (nested.jsonl): [null, ["a", null]], [["x3", "y"], [], ["z"]].
	r.SliceRows(&p, 2, 4)
	assert.Equal(t, []int16{0, 1, 2, 0, 2, 1, 1}, p.RepLevels)
	assert.Equal(t, []int16{2, 5, 4, 5, 5, 3, 5}, p.DefLevels)
	assert.Equal(t, 7, p.NumLevels)
	got := ""
	for i := range p.Values.Len() {
		got += string(p.Values.ByteArray(i)) + ","
	}
	assert.Equal(t, "a,x3,y,z,", got)
	r.SliceRows(&p, 0, 0)
	assert.Zero(t, p.NumLevels)
	assert.Zero(t, p.Values.Len())
}

// TestSeekRowPastTheChunk seeks to a row that the row group's num_rows
// promises and its chunk does not hold: a corrupt file, not a row out of
// range; a row past num_rows stays ErrRange.
func TestSeekRowPastTheChunk(t *testing.T) {
	f := openBytes(t, testfile.RequiredInt32(10, 1, 2, 3, 4))
	r, err := f.Column(0, 0)
	require.NoError(t, err)
	err = r.SeekRow(7)
	require.ErrorIs(t, err, ErrCorrupt)
	assert.ErrorIs(t, err, errs.ErrCorrupt)
	assert.NotErrorIs(t, err, ErrRange)
	assert.Contains(t, err.Error(), "row group of 10 rows, its column chunk holds 4")
	r, err = f.Column(0, 0)
	require.NoError(t, err)
	require.NoError(t, r.SeekRow(3))
	var p Page
	require.NoError(t, r.ReadPage(&p))
	assert.Equal(t, []int32{4}, p.Values.Int32s)
	assert.ErrorIs(t, r.SeekRow(10), ErrRange)
}
