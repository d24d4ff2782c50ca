package writer_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/writer"
)

// breakingWriter accepts bytes until failAt (of the stream) or until call
// failCall, then takes the bytes of the failing call up to failAt, and at
// most half of them (a short write), and returns errDisk; any call after
// that is counted.
type breakingWriter struct {
	failAt, failCall int
	calls            int
	got              []byte
	failed           bool
	callsAfter       int
}

func (w *breakingWriter) Write(p []byte) (int, error) {
	if w.failed {
		w.callsAfter++
		return 0, errDisk
	}
	w.calls++
	if w.calls == w.failCall || len(w.got)+len(p) > w.failAt {
		n := max(0, min(len(p)/2, w.failAt-len(w.got)))
		w.got = append(w.got, p[:n]...)
		w.failed = true
		return n, errDisk
	}
	w.got = append(w.got, p...)
	return len(p), nil
}

// TestFailingWriterEveryOffset fails the io.Writer at every byte offset
// of a file of three row groups (with a short write of the failing call),
// and at every call, with and without workers: each time the error wraps
// the io.Writer's, no call is made after the failure, and the bytes
// written are never a complete file (no footer).
func TestFailingWriterEveryOffset(t *testing.T) {
	var full bytes.Buffer
	writeSample(t, &full, 3)
	for _, workers := range []int{1, 2} {
		ok := &breakingWriter{failAt: math.MaxInt, failCall: -1}
		require.NoError(t, writeSampleWorkers(ok, 3, workers))
		require.Equal(t, full.Bytes(), ok.got)
		calls := ok.calls
		check := func(w *breakingWriter, what string) {
			err := writeSampleWorkers(w, 3, workers)
			require.ErrorIs(t, err, errDisk, what)
			require.False(t, errors.Is(err, pqcodec.ErrInvalidInput), what)
			require.True(t, w.failed, what)
			require.Zero(t, w.callsAfter, "%s: writes after the failure", what)
			_, err = column.Open(bytes.NewReader(w.got), int64(len(w.got)))
			require.Error(t, err, "%s: the bytes written open as a file", what)
		}
		for at := 0; at < full.Len(); at++ {
			check(&breakingWriter{failAt: at, failCall: -1}, fmt.Sprintf("workers %d, failing at byte %d", workers, at))
		}
		for call := 1; call <= calls; call++ {
			check(&breakingWriter{failAt: math.MaxInt, failCall: call}, fmt.Sprintf("workers %d, failing call %d", workers, call))
		}
	}
}

// writeSampleWorkers is writeSampleErr with WithWorkers(workers), each
// later call after an error returning an error too.
func writeSampleWorkers(out interface{ Write([]byte) (int, error) }, rowGroups, workers int) error {
	s, err := format.ParseSchema(`message m {
		required int64 id;
		optional binary name (STRING);
		optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
		required fixed_len_byte_array(2) f16 (FLOAT16);
	}`)
	if err != nil {
		return err
	}
	w, err := writer.New(out, s, writer.WithKeyValue("k", "v"), writer.WithWorkers(workers))
	if err != nil {
		return err
	}
	var first error
	for g := range rowGroups {
		for _, err := range []error{
			w.Write(0, int64s(int64(g), 2, 3), nil, nil),
			w.Write(1, strs("x", "y"), []int16{1, 0, 1}, nil),
			w.Write(2, strs("a"), []int16{3, 2, 0, 1}, []int16{0, 1, 0, 0}),
			w.Write(3, &column.Values{Type: format.FixedLenByteArray, TypeLength: 2, Bytes: []byte{0, 0x3c, 0, 0xc0, 0xff, 0x7f}}, nil, nil),
			w.Flush(),
		} {
			if first == nil {
				first = err
			} else if err == nil {
				return errors.New("a call succeeded after an error")
			}
		}
	}
	err = w.Close()
	if first == nil {
		return err
	}
	if err == nil {
		return errors.New("Close succeeded after an error")
	}
	return first
}

// TestByteArrayOffsets2GiB: BYTE_ARRAY offsets are int32, so a value over
// 2 GiB cannot be described; offsets that claim more bytes than given, or
// wrap past 2 GiB to a negative offset, are rejected without reading (or
// allocating) the bytes they claim.
func TestByteArrayOffsets2GiB(t *testing.T) {
	for name, v := range map[string]*column.Values{
		"offset past the bytes": {Type: format.ByteArray, Bytes: []byte("ab"), Offsets: []int32{0, math.MaxInt32}},
		"wrapped past 2 GiB":    {Type: format.ByteArray, Bytes: []byte("ab"), Offsets: []int32{0, 2, math.MinInt32 + 1}},
		"negative start":        {Type: format.ByteArray, Bytes: []byte("ab"), Offsets: []int32{-2, 2}},
	} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			w, err := writer.New(&buf, testSchema(t))
			require.NoError(t, err)
			def := make([]int16, v.Len())
			for i := range def {
				def[i] = 1
			}
			err = w.Write(1, v, def, nil)
			require.ErrorIs(t, err, writer.ErrType)
			require.ErrorIs(t, err, pqcodec.ErrInvalidInput)
			require.ErrorIs(t, w.Close(), writer.ErrType)
			require.Zero(t, buf.Len())
		})
	}
}
