package writer_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/writer"
)

// testSchema is: required int64 id; optional binary name (STRING);
// optional group tags (LIST) { repeated group list { optional binary
// element (STRING); } }; required fixed_len_byte_array(2) f16.
func testSchema(t testing.TB) *format.Schema {
	s, err := format.ParseSchema(`message m {
		required int64 id;
		optional binary name (STRING);
		optional group tags (LIST) {
			repeated group list {
				optional binary element (STRING);
			}
		}
		required fixed_len_byte_array(2) f16 (FLOAT16);
	}`)
	require.NoError(t, err)
	return s
}

func int64s(v ...int64) *column.Values { return &column.Values{Type: format.Int64, Int64s: v} }

func strs(v ...string) *column.Values {
	out := &column.Values{Type: format.ByteArray, Offsets: []int32{0}}
	for _, s := range v {
		out.Bytes = append(out.Bytes, s...)
		out.Offsets = append(out.Offsets, int32(len(out.Bytes)))
	}
	return out
}

type failWriter struct{ after int }

var errDisk = errors.New("disk full")

func (f *failWriter) Write(p []byte) (int, error) {
	if f.after < len(p) {
		return 0, errDisk
	}
	f.after -= len(p)
	return len(p), nil
}

func TestBadInput(t *testing.T) {
	cases := []struct {
		name  string
		write func(w *writer.Writer) error
		want  error
	}{
		{"wrong type", func(w *writer.Writer) error { return w.Write(0, strs("a"), nil, nil) }, writer.ErrType},
		{"no such column", func(w *writer.Writer) error { return w.Write(9, int64s(1), nil, nil) }, writer.ErrType},
		{"nil values", func(w *writer.Writer) error { return w.Write(0, nil, nil, nil) }, writer.ErrType},
		{"flba length", func(w *writer.Writer) error {
			return w.Write(3, &column.Values{Type: format.FixedLenByteArray, TypeLength: 3, Bytes: make([]byte, 3)}, nil, nil)
		}, writer.ErrType},
		{"bad offsets", func(w *writer.Writer) error {
			return w.Write(1, &column.Values{Type: format.ByteArray, Bytes: []byte("ab"), Offsets: []int32{0, 5}}, []int16{1}, nil)
		}, writer.ErrType},
		{"def too high", func(w *writer.Writer) error { return w.Write(1, strs("a"), []int16{2}, nil) }, writer.ErrLevel},
		{"def negative", func(w *writer.Writer) error { return w.Write(1, strs(), []int16{-1}, nil) }, writer.ErrLevel},
		{"levels disagree with values", func(w *writer.Writer) error { return w.Write(1, strs("a", "b"), []int16{1, 0}, nil) }, writer.ErrLevel},
		{"rep on flat column", func(w *writer.Writer) error { return w.Write(1, strs("a"), []int16{1}, []int16{0}) }, writer.ErrLevel},
		{"rep too high", func(w *writer.Writer) error { return w.Write(2, strs("a", "b"), []int16{3, 3}, []int16{0, 2}) }, writer.ErrLevel},
		{"null in required", func(w *writer.Writer) error { return w.Write(0, int64s(1), []int16{0, 0}, nil) }, writer.ErrNull},
		{"def on required", func(w *writer.Writer) error { return w.Write(0, int64s(1), []int16{1}, nil) }, writer.ErrLevel},
		{"too few levels", func(w *writer.Writer) error { return w.Write(0, int64s(1, 2), []int16{0}, nil) }, writer.ErrLevel},
		{"batch starts mid-row", func(w *writer.Writer) error { return w.Write(2, strs("a"), []int16{3}, []int16{1}) }, writer.ErrRepetition},
		{"repeats an empty list", func(w *writer.Writer) error { return w.Write(2, strs("a"), []int16{1, 3}, []int16{0, 1}) }, writer.ErrRepetition},
		{"repeats a null list", func(w *writer.Writer) error { return w.Write(2, strs("a"), []int16{0, 3}, []int16{0, 1}) }, writer.ErrRepetition},
		{"row counts differ", func(w *writer.Writer) error {
			if err := w.Write(0, int64s(1, 2), nil, nil); err != nil {
				return err
			}
			return w.Flush()
		}, writer.ErrRowCount},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			w, err := writer.New(&buf, testSchema(t))
			require.NoError(t, err)
			err = c.write(w)
			require.ErrorIs(t, err, c.want)
			require.ErrorIs(t, err, pqcodec.ErrInvalidInput)
			// The writer is failed: no footer, ever.
			require.ErrorIs(t, w.Close(), c.want)
			require.ErrorIs(t, w.Write(0, int64s(1), nil, nil), c.want)
			require.Zero(t, buf.Len(), "bytes written after an error")
		})
	}
}

func TestWriteAfterClose(t *testing.T) {
	var buf bytes.Buffer
	w, err := writer.New(&buf, testSchema(t))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	n := buf.Len()
	require.ErrorIs(t, w.Write(0, int64s(1), nil, nil), writer.ErrClosed)
	require.ErrorIs(t, w.Close(), writer.ErrClosed)
	require.ErrorIs(t, w.Flush(), writer.ErrClosed)
	require.Equal(t, n, buf.Len())
	// An empty file is a valid file.
	f, err := column.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	require.Zero(t, f.NumRowGroups())
}

// TestFailingWriter fails the io.Writer at every offset of a file: the
// error names the cause, and nothing is written after it.
func TestFailingWriter(t *testing.T) {
	var full bytes.Buffer
	writeSample(t, &full, 3)
	for after := 0; after < full.Len(); after += max(1, full.Len()/50) {
		fw := &failWriter{after: after}
		err := writeSampleErr(fw, 3)
		require.ErrorIs(t, err, errDisk, "failing after %d bytes", after)
		require.False(t, errors.Is(err, pqcodec.ErrInvalidInput))
	}
}

// writeSample writes rowGroups row groups of a few rows of testSchema.
func writeSample(t testing.TB, buf *bytes.Buffer, rowGroups int) {
	require.NoError(t, writeSampleErr(buf, rowGroups))
}

func writeSampleErr(out interface{ Write([]byte) (int, error) }, rowGroups int) error {
	s, err := format.ParseSchema(`message m {
		required int64 id;
		optional binary name (STRING);
		optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
		required fixed_len_byte_array(2) f16 (FLOAT16);
	}`)
	if err != nil {
		return err
	}
	w, err := writer.New(out, s, writer.WithKeyValue("k", "v"))
	if err != nil {
		return err
	}
	for g := range rowGroups {
		steps := []error{
			w.Write(0, int64s(int64(g), 2, 3), nil, nil),
			w.Write(1, strs("x", "y"), []int16{1, 0, 1}, nil),
			// [a, null], null, []
			w.Write(2, strs("a"), []int16{3, 2, 0, 1}, []int16{0, 1, 0, 0}),
			w.Write(3, &column.Values{Type: format.FixedLenByteArray, TypeLength: 2, Bytes: []byte{0, 0x3c, 0, 0xc0, 0xff, 0x7f}}, nil, nil),
			w.Flush(),
		}
		for _, err := range steps {
			if err != nil {
				return err
			}
		}
	}
	return w.Close()
}
