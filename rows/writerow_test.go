package rows

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testfile"
)

// v1Levels encodes runs of levels (value, count) as a v1 page's RLE level
// stream of bit width 1: a 4-byte length, then the runs.
func v1Levels(runs ...int) []byte {
	var b []byte
	for i := 0; i < len(runs); i += 2 {
		b = binary.AppendUvarint(b, uint64(runs[i+1])<<1)
		b = append(b, byte(runs[i]))
	}
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(b))), b...)
}

// bigRowFile returns a file of two rows of one column, repeated int32 x:
// the first holds pages*perPage values over that many pages, the second
// the value -1.
func bigRowFile(pages, perPage int) []byte {
	var chunk testfile.Chunk
	chunk.Meta = format.ColumnMetaData{Type: format.Int32, Encodings: []format.Encoding{format.Plain, format.RLE},
		PathInSchema: []string{"x"}, Codec: format.Uncompressed, NumValues: int64(pages*perPage + 1)}
	for p := range pages {
		n := perPage
		rep := v1Levels(1, perPage)
		if p == 0 {
			rep = v1Levels(0, 1, 1, perPage-1)
		}
		if p == pages-1 {
			n++
			rep = v1Levels(1, perPage, 0, 1)
		}
		if p == 0 && p == pages-1 {
			rep = v1Levels(0, 1, 1, perPage-1, 0, 1)
		}
		body := append(rep, v1Levels(1, n)...)
		for i := range n {
			v := int32(p*perPage + i)
			if i == perPage {
				v = -1
			}
			body = binary.LittleEndian.AppendUint32(body, uint32(v))
		}
		chunk.Pages = append(chunk.Pages, testfile.Page(format.PageHeader{
			Type: format.DataPage, HasDataPageHeader: true, DataPageHeader: format.DataPageHeader{
				NumValues: int32(n), Encoding: format.Plain, DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE,
			},
		}, body))
	}
	int32Type, repeated, one := format.Int32, format.Repeated, int32(1)
	return testfile.File([]format.SchemaElement{
		{Name: "schema", NumChildren: &one},
		{Name: "x", Type: &int32Type, RepetitionType: &repeated},
	}, 2, []testfile.Chunk{chunk}, nil)
}

// maxWriter records the largest write.
type maxWriter struct {
	bytes.Buffer
	largest int
}

func (m *maxWriter) Write(p []byte) (int, error) {
	m.largest = max(m.largest, len(p))
	return m.Buffer.Write(p)
}

// TestWriteRowStreams writes a row of 2 MB of JSON over 6 pages: WriteRow
// writes it in pieces of about 32 KiB and keeps no more, and its text is
// AppendRow's.
func TestWriteRowStreams(t *testing.T) {
	const pages, perPage = 6, 50_000
	file := bigRowFile(pages, perPage)
	f, err := column.Open(bytes.NewReader(file), int64(len(file)))
	require.NoError(t, err)
	want := []byte(`{"x":[`)
	for i := range pages * perPage {
		if i > 0 {
			want = append(want, ',')
		}
		want = strconv.AppendInt(want, int64(i), 10)
	}
	want = append(want, "]}\n{\"x\":[-1]}\n"...)

	r, err := NewReader(f)
	require.NoError(t, err)
	var w maxWriter
	for {
		err := r.WriteRow(&w)
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
	}
	require.Equal(t, string(want), w.String())
	t.Logf("%d bytes written, largest write %d, buffer %d", w.Len(), w.largest, cap(r.line))
	assert.LessOrEqual(t, w.largest, jsonFlush+16)
	assert.LessOrEqual(t, cap(r.line), 2*jsonFlush)

	ra, err := NewReader(f)
	require.NoError(t, err)
	row, err := ra.AppendRow(nil)
	require.NoError(t, err)
	require.Equal(t, string(want[:len(row)]), string(row))

	// A failing writer's error is returned as it is.
	rf, err := NewReader(f)
	require.NoError(t, err)
	require.ErrorIs(t, rf.WriteRow(failWriter{}), errFail)
}

var errFail = errors.New("write failed")

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errFail }
