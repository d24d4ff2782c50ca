package rows

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
	"github.com/pqcodec/pqcodec/internal/testfile"
)

// appendJSON writes a Go row value as AppendRow would, so that the two
// outputs can be compared byte for byte.
func appendJSON(dst []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...)
	case bool:
		return strconv.AppendBool(dst, v)
	case int32:
		return strconv.AppendInt(dst, int64(v), 10)
	case int64:
		return strconv.AppendInt(dst, v, 10)
	case [12]byte:
		return AppendHex(dst, v[:])
	case float32:
		return AppendFloat(dst, float64(v), 32)
	case float64:
		return AppendFloat(dst, v, 64)
	case string:
		return AppendString(dst, []byte(v))
	case []byte:
		return AppendHex(dst, v)
	case jsonText:
		return append(dst, v...)
	case Group:
		dst = append(dst, '{')
		for i, f := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, []byte(f.Name))
			dst = append(dst, ':')
			dst = appendJSON(dst, f.Value)
		}
		return append(dst, '}')
	case []any:
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSON(dst, e)
		}
		return append(dst, ']')
	case []KeyValue:
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"key":`...)
			dst = appendJSON(dst, e.Key)
			dst = append(dst, `,"value":`...)
			dst = appendJSON(dst, e.Value)
			dst = append(dst, '}')
		}
		return append(dst, ']')
	}
	panic(fmt.Sprintf("unexpected %T", v))
}

// readAll reads every row of f with opts and WithRaw (physical values), as
// JSON and as Go values, and checks that the two agree byte for byte
// (TestLogicalCorpus checks the logical values against these).
func readAll(t *testing.T, f *column.File, opts ...Option) ([]string, []Group, error) {
	t.Helper()
	opts = append([]Option{WithRaw()}, opts...)
	rj, err := NewReader(f, opts...)
	require.NoError(t, err)
	rv, err := NewReader(f, opts...)
	require.NoError(t, err)
	rw, err := NewReader(f, opts...)
	require.NoError(t, err)
	var js []string
	var gs []Group
	var buf []byte
	var line bytes.Buffer
	for {
		buf, err = rj.AppendRow(buf[:0])
		g, gerr := rv.ReadRow(nil)
		line.Reset()
		werr := rw.WriteRow(&line)
		if errors.Is(err, io.EOF) {
			require.ErrorIs(t, gerr, io.EOF)
			require.ErrorIs(t, werr, io.EOF)
			return js, gs, nil
		}
		if err != nil {
			require.Error(t, gerr)
			require.Error(t, werr)
			return js, gs, err
		}
		require.NoError(t, gerr)
		require.NoError(t, werr)
		if j := appendJSON(nil, g); string(j) != string(buf) {
			t.Fatalf("ReadRow gives %s, AppendRow %s", j, buf)
		}
		if string(buf)+"\n" != line.String() {
			t.Fatalf("WriteRow gives %s, AppendRow %s", line.Bytes(), buf)
		}
		js = append(js, string(buf))
		gs = append(gs, g)
	}
}

// readValues reads every row of f with opts and WithRaw as Go values.
func readValues(f *column.File, opts ...Option) ([]Group, error) {
	r, err := NewReader(f, append([]Option{WithRaw()}, opts...)...)
	if err != nil {
		return nil, err
	}
	var out []Group
	for {
		g, err := r.ReadRow(nil)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, g)
	}
}

func corpusFiles(t *testing.T) []string {
	var files []string
	root := filepath.Join(testcorpus.Dir(t), "data")
	require.NoError(t, filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".parquet") && !strings.Contains(p, "large_string_map") {
			files = append(files, p)
		}
		return err
	}))
	return files
}

// TestCorpus reads every corpus file in full, by top-level field, by leaf
// path and by row ranges, and checks each against the full read: ReadRow
// against AppendRow byte for byte, a top-level projection against the
// field of the full rows, a leaf projection's values against the column's
// values, and a range against the slice of the full rows.
func TestCorpus(t *testing.T) {
	var files, leafPaths, ranges int
	for _, path := range corpusFiles(t) {
		name := filepath.Base(path)
		f, err := column.OpenFile(path)
		if err != nil {
			continue
		}
		js, gs, err := readAll(t, f)
		if err != nil {
			f.Close()
			continue
		}
		files++
		for i, top := range f.Schema().Root().Children {
			_, sub, err := readAll(t, f, WithColumns(top.Name()))
			require.NoError(t, err, name)
			require.Len(t, sub, len(gs), name)
			for r := range gs {
				// As JSON text, since NaN != NaN.
				if a, b := appendJSON(nil, Group{gs[r][i]}), appendJSON(nil, sub[r]); string(a) != string(b) {
					t.Fatalf("%s row %d field %s: %s, full row has %s", name, r, top.Name(), b, a)
				}
			}
		}
		for col, leaf := range f.Schema().Leaves() {
			p := strings.Join(leaf.Path(), ".")
			sub, err := readValues(f, WithColumns(p))
			require.NoError(t, err, name)
			require.Len(t, sub, len(gs), name)
			// For each map above the leaf, whether the leaf is its key.
			var inKey []bool
			for n := leaf; n.Parent != nil; n = n.Parent {
				if m := n.Parent.Parent; m != nil && isMap(m) && len(n.Parent.Children) > 0 {
					inKey = append([]bool{n == n.Parent.Children[0]}, inKey...)
				}
			}
			var got []any
			for _, g := range sub {
				got = appendLeaves(got, g, inKey)
			}
			assert.Equal(t, string(appendJSON(nil, columnValues(t, f, col, leaf))), string(appendJSON(nil, got)), "%s %s", name, p)
			leafPaths++
		}
		n := int64(len(js))
		for _, rg := range []struct{ first, count int64 }{{1, 2}, {n / 2, -1}, {n - 1, 5}, {n + 3, -1}, {n / 3, n / 3}} {
			if rg.first < 0 {
				continue
			}
			sub, _, err := readAll(t, f, WithRange(rg.first, rg.count))
			require.NoError(t, err, name)
			end := n
			if rg.count >= 0 {
				end = min(n, rg.first+rg.count)
			}
			var want []string
			if rg.first < end {
				want = js[rg.first:end]
			}
			require.Equal(t, want, sub, "%s WithRange(%d, %d)", name, rg.first, rg.count)
			ranges++
		}
		f.Close()
	}
	t.Logf("%d files, %d leaf projections, %d ranges", files, leafPaths, ranges)
	assert.Greater(t, files, 60)
}

// appendLeaves appends the non-null leaf values of v in order, taking the
// keys or the values of the maps at each depth as inKey says.
func appendLeaves(dst []any, v any, inKey []bool) []any {
	switch v := v.(type) {
	case nil:
	case Group:
		for _, f := range v {
			dst = appendLeaves(dst, f.Value, inKey)
		}
	case []any:
		for _, e := range v {
			dst = appendLeaves(dst, e, inKey)
		}
	case []KeyValue:
		for _, e := range v {
			if inKey[0] {
				dst = appendLeaves(dst, e.Key, inKey[1:])
			} else {
				dst = appendLeaves(dst, e.Value, inKey[1:])
			}
		}
	default:
		dst = append(dst, v)
	}
	return dst
}

// columnValues reads the non-null values of a column with package column,
// in the Go types of the value model.
func columnValues(t *testing.T, f *column.File, col int, leaf *format.Node) []any {
	var out []any
	c := newCursor(leaf, true)
	for rg := range f.NumRowGroups() {
		require.NoError(t, c.reset(f, rg))
		for {
			require.NoError(t, c.fill())
			if c.eof {
				break
			}
			for c.val < c.nvals {
				v, err := c.value()
				require.NoError(t, err)
				out = append(out, v)
			}
			c.pos = c.page.NumLevels
		}
	}
	return out
}

// nestedFile is DuckDB's file of lists, structs and maps with nulls at every
// level, from the committed foreign-writer corpus; its rows are
// testdata/foreign/duckdb/nested.jsonl.
const nestedFile = "../testdata/foreign/duckdb/nested.parquet"

func TestProjection(t *testing.T) {
	f, err := column.OpenFile(nestedFile)
	require.NoError(t, err)
	defer f.Close()
	for _, c := range []struct {
		paths []string
		want  []string
	}{
		{[]string{"lst.list.element.y", "id"}, []string{
			`{"lst":null,"id":0}`,
			`{"lst":[{"y":"e1"},null],"id":1}`,
			`{"lst":[{"y":"e2"},null],"id":2}`,
		}},
		// A map's value brings its key.
		{[]string{"mp.key_value.value"}, []string{
			`{"mp":null}`,
			`{"mp":[]}`,
			`{"mp":[{"key":"k2","value":2},{"key":"zz","value":null}]}`,
		}},
		// A map without its value.
		{[]string{"mp.key_value.key", "st.a"}, []string{
			`{"mp":null,"st":null}`,
			`{"mp":[],"st":{"a":1}}`,
			`{"mp":[{"key":"k2","value":null},{"key":"zz","value":null}],"st":{"a":2}}`,
		}},
	} {
		js, _, err := readAll(t, f, WithColumns(c.paths...), WithRange(0, 3))
		require.NoError(t, err)
		assert.Equal(t, c.want, js, "%v", c.paths)
	}
	_, err = NewReader(f, WithColumns("st.nope"))
	assert.ErrorIs(t, err, ErrNoColumn)
	_, err = NewReader(f, WithColumns(""))
	assert.ErrorIs(t, err, ErrNoColumn)
	_, err = NewReader(f, WithRange(-1, 2))
	assert.Error(t, err)
	cur, _, err := readAll(t, f, WithColumns("id"), WithRange(2, 2))
	require.NoError(t, err)
	assert.Len(t, cur, 2)

	// SkipRows.
	r, err := NewReader(f, WithColumns("id"))
	require.NoError(t, err)
	n, err := r.SkipRows(5)
	require.NoError(t, err)
	assert.Equal(t, int64(5), n)
	row, err := r.ReadRow(nil)
	require.NoError(t, err)
	assert.Equal(t, Group{{"id", int32(5)}}, row)
	n, err = r.SkipRows(1200)
	assert.ErrorIs(t, err, io.EOF)
	assert.Equal(t, int64(1194), n)
}

func TestReadRowReusesDst(t *testing.T) {
	f, err := column.OpenFile(nestedFile)
	require.NoError(t, err)
	defer f.Close()
	r, err := NewReader(f, WithColumns("id", "li"), WithRange(3, 1))
	require.NoError(t, err)
	row, err := r.ReadRow(make(Group, 0, 4))
	require.NoError(t, err)
	assert.Equal(t, 4, cap(row))
	assert.True(t, reflect.DeepEqual(Group{{"id", int32(3)}, {"li", []any{int64(0), int64(1), int64(2)}}}, row), "%v", row)
}

// TestRangePastTheChunk reads a range of a row group that claims 10 rows
// while its chunk holds 4. A range starting past the chunk's rows is a
// corrupt file, not a range error; one starting inside them reads the rows
// there are (num_rows is not checked against the pages: READING.md).
func TestRangePastTheChunk(t *testing.T) {
	data := testfile.RequiredInt32(10, 1, 2, 3, 4)
	f, err := column.Open(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	r, err := NewReader(f, WithRange(7, -1))
	require.NoError(t, err)
	_, err = r.ReadRow(nil)
	require.ErrorIs(t, err, pqcodec.ErrCorrupt)
	assert.NotErrorIs(t, err, column.ErrRange)
	lines, _, err := readAll(t, f, WithRange(2, -1))
	require.NoError(t, err)
	assert.Equal(t, []string{`{"a":3}`, `{"a":4}`}, lines)
}

// TestKeepDictionary reads every file of the corpus and of testdata/foreign
// that has a dictionary-encoded chunk twice, from a File opened with
// column.WithKeepDictionary(true) (pages keep their indices) and from one
// without: the rows are the same (as JSON; readAll checks that ReadRow and
// WriteRow agree with AppendRow on the kept File), and so is a range.
func TestKeepDictionary(t *testing.T) {
	foreign, err := filepath.Glob("../testdata/foreign/*/*.parquet")
	require.NoError(t, err)
	dictFiles, dictChunks := 0, 0
	for _, path := range append(corpusFiles(t), foreign...) {
		name := filepath.Base(path)
		plain, err := column.OpenFile(path)
		if err != nil {
			continue
		}
		want, err := jsonRows(plain, WithRaw())
		if err != nil {
			plain.Close()
			continue // a file rows rejects: not this test's
		}
		chunks := 0
		for _, rg := range plain.MetaData().RowGroups {
			for _, cc := range rg.Columns {
				for _, e := range cc.MetaData.Encodings {
					if e == format.PlainDictionary || e == format.RLEDictionary {
						chunks++
						break
					}
				}
			}
		}
		plain.Close()
		if chunks == 0 {
			continue
		}
		kept, err := column.OpenFile(path, column.WithKeepDictionary(true))
		require.NoError(t, err, name)
		got, _, err := readAll(t, kept)
		require.NoError(t, err, name)
		require.Equal(t, want, got, name)
		// Logical values come from the dictionary too.
		plain, err = column.OpenFile(path)
		require.NoError(t, err, name)
		wantLogical, err := jsonRows(plain)
		require.NoError(t, err, name)
		plain.Close()
		gotLogical, err := jsonRows(kept)
		require.NoError(t, err, name)
		require.Equal(t, wantLogical, gotLogical, name)
		if n := int64(len(want)); n > 2 {
			sub, err := jsonRows(kept, WithRange(n/2, -1), WithRaw())
			require.NoError(t, err, name)
			require.Equal(t, want[n/2:], sub, name)
		}
		require.NoError(t, kept.Close())
		dictFiles++
		dictChunks += chunks
	}
	t.Logf("%d files, %d dictionary-encoded chunks", dictFiles, dictChunks)
	assert.Greater(t, dictFiles, 80)
}

// jsonRows returns the rows of f as AppendRow writes them.
func jsonRows(f *column.File, opts ...Option) ([]string, error) {
	r, err := NewReader(f, opts...)
	if err != nil {
		return nil, err
	}
	var out []string
	var buf []byte
	for {
		buf, err = r.AppendRow(buf[:0])
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, string(buf))
	}
}
