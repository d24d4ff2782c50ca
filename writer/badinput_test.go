package writer_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec"
	"github.com/pqcodec/pqcodec/writer"
)

// TestBadInputWorkers completes TestBadInput: a negative repetition
// level and different row counts found by Close (not Flush), each with
// and without workers; the Writer is failed and writes nothing.
func TestBadInputWorkers(t *testing.T) {
	cases := []struct {
		name  string
		write func(w *writer.Writer) error
		want  error
	}{
		{"rep negative", func(w *writer.Writer) error {
			return w.Write(2, strs("a", "b"), []int16{3, 3}, []int16{0, -1})
		}, writer.ErrLevel},
		{"row counts differ at Close", func(w *writer.Writer) error {
			if err := w.Write(0, int64s(1, 2), nil, nil); err != nil {
				return err
			}
			if err := w.Write(1, strs("a"), []int16{1}, nil); err != nil {
				return err
			}
			return w.Close()
		}, writer.ErrRowCount},
	}
	for _, workers := range []int{1, 2} {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				var buf bytes.Buffer
				w, err := writer.New(&buf, testSchema(t), writer.WithWorkers(workers))
				require.NoError(t, err)
				err = c.write(w)
				require.ErrorIs(t, err, c.want)
				require.ErrorIs(t, err, pqcodec.ErrInvalidInput)
				require.ErrorIs(t, w.Close(), c.want)
				require.ErrorIs(t, w.Flush(), c.want)
				require.Zero(t, buf.Len(), "bytes written after an error")
			})
		}
	}
}
