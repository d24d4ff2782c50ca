package rows

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/writer"
)

// goRows reads every row of f with opts as Go values.
func goRows(f *column.File, opts ...Option) ([]Group, error) {
	r, err := NewReader(f, opts...)
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
			return nil, err
		}
		out = append(out, g)
	}
}

// smallBatches cuts batches, pages and row groups small, so that rows
// cross each boundary.
var smallBatches = []WriterOption{WithBatchRows(7), WithWriterOptions(writer.WithRowGroupRows(50), writer.WithPageRows(13))}

// writeBack writes rows with put under schema s and returns the JSON rows
// the file reads back as, with ropts.
func writeBack(t *testing.T, s *format.Schema, n int, put func(w *Writer, i int) error, wopts []WriterOption, ropts ...Option) []string {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, s, append(append([]WriterOption(nil), smallBatches...), wopts...)...)
	require.NoError(t, err)
	for i := range n {
		require.NoError(t, put(w, i), "row %d", i)
	}
	require.NoError(t, w.Close())
	f, err := column.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	got, err := jsonRows(f, ropts...)
	require.NoError(t, err)
	return got
}

// TestWriterCorpus reads every file of the corpus and of testdata/foreign
// that rows reads, writes its rows again under its schema (as Go values and
// as JSON, logical and raw), and reads the same rows back.
func TestWriterCorpus(t *testing.T) {
	foreign, err := filepath.Glob("../testdata/foreign/*/*.parquet")
	require.NoError(t, err)
	files := 0
	for _, path := range append(corpusFiles(t), foreign...) {
		name, _ := filepath.Rel("..", path)
		f, err := column.OpenFile(path)
		if err != nil {
			continue
		}
		js, err := jsonRows(f)
		if err != nil {
			f.Close()
			continue
		}
		raw, err := jsonRows(f, WithRaw())
		require.NoError(t, err, name)
		gs, err := goRows(f)
		require.NoError(t, err, name)
		rgs, err := goRows(f, WithRaw())
		require.NoError(t, err, name)
		s := f.Schema()
		f.Close()
		files++
		t.Run(name, func(t *testing.T) {
			got := writeBack(t, s, len(gs), func(w *Writer, i int) error { return w.WriteRow(gs[i]) }, nil)
			require.Equal(t, js, got, "logical Go values")
			got = writeBack(t, s, len(rgs), func(w *Writer, i int) error { return w.WriteRow(rgs[i]) }, nil, WithRaw())
			require.Equal(t, raw, got, "raw Go values")
			got = writeBack(t, s, len(js), func(w *Writer, i int) error { return w.WriteJSON([]byte(js[i])) }, nil)
			require.Equal(t, js, got, "logical JSON")
			got = writeBack(t, s, len(raw), func(w *Writer, i int) error { return w.WriteJSON([]byte(raw[i])) },
				[]WriterOption{WithRawJSON()}, WithRaw())
			require.Equal(t, raw, got, "raw JSON")
		})
	}
	t.Logf("%d files", files)
	require.Greater(t, files, 150)
}

// TestWriterBadRow checks that a row that does not fit is an error naming
// the row and the field, and that nothing of it is written.
func TestWriterBadRow(t *testing.T) {
	s, err := format.ParseSchema(`message m {
		required int64 id;
		optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
		optional group p { required int32 x; optional double y; }
	}`)
	require.NoError(t, err)
	var buf bytes.Buffer
	w, err := NewWriter(&buf, s)
	require.NoError(t, err)
	require.NoError(t, w.WriteJSON([]byte(`{"id": 1, "tags": ["a", null], "p": {"x": 1, "y": 2.5}}`)))
	for _, c := range []struct{ row, path string }{
		{`{"id": 2, "tags": ["b", 3], "p": null}`, "tags.element"},
		{`{"id": 2, "tags": ["b"], "p": {"y": 1}}`, "p.x"},
		{`{"id": 2, "tags": ["b"], "p": {"x": 1, "z": 1}}`, "p.z"},
		{`{"id": 2.5}`, "id"},
		{`{"id": 2, "tags": "b"}`, "tags"},
	} {
		err := w.WriteJSON([]byte(c.row))
		require.ErrorIs(t, err, ErrRow, c.row)
		require.ErrorIs(t, err, pqcodec.ErrInvalidInput, c.row)
		var re *RowError
		require.ErrorAs(t, err, &re)
		require.Equal(t, c.path, re.Path, c.row)
	}
	require.Equal(t, int64(6), w.Rows())
	require.NoError(t, w.WriteRow(Group{{"id", int64(3)}, {"tags", []any{}}}))
	require.Error(t, w.WriteRow(Group{{"id", nil}}))
	require.NoError(t, w.Close())
	f, err := column.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	got, err := jsonRows(f)
	require.NoError(t, err)
	require.Equal(t, []string{`{"id":1,"tags":["a",null],"p":{"x":1,"y":2.5}}`, `{"id":3,"tags":[],"p":null}`}, got)
}
