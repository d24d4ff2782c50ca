package rows

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testexec"
	"github.com/pqcodec/pqcodec/internal/testfile"
	_ "github.com/pqcodec/pqcodec/native/arenas"
)

// hugeListFile returns a file of one row whose one column, a repeated
// INT32 "v" (a list), holds n values, in one ZSTD page: a few KB.
func hugeListFile(t testing.TB, n int) []byte {
	f, err := codecfactory.New()
	require.NoError(t, err)
	rle := func(runs ...[2]int) []byte { // (count, value) runs with bit width 1, length-prefixed
		var b []byte
		for _, r := range runs {
			b = binary.AppendUvarint(b, uint64(r[0])<<1)
			b = append(b, byte(r[1]))
		}
		return append(binary.LittleEndian.AppendUint32(nil, uint32(len(b))), b...)
	}
	page := rle([2]int{1, 0}, [2]int{n - 1, 1}) // repetition levels: a row of n
	page = append(page, rle([2]int{n, 1})...)   // definition levels: all present
	for i := range n {
		page = binary.LittleEndian.AppendUint32(page, uint32(i%1000))
	}
	body, err := f.Compress(codecfactory.Zstd, nil, page)
	require.NoError(t, err)
	p := testfile.Page(format.PageHeader{Type: format.DataPage, UncompressedPageSize: int32(len(page)), CompressedPageSize: int32(len(body)),
		HasDataPageHeader: true, DataPageHeader: format.DataPageHeader{NumValues: int32(n), Encoding: format.Plain,
			DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE}}, body)
	int32Type, repeated, one := format.Int32, format.Repeated, int32(1)
	return testfile.File([]format.SchemaElement{{Name: "schema", NumChildren: &one}, {Name: "v", Type: &int32Type, RepetitionType: &repeated}},
		1, []testfile.Chunk{{Meta: format.ColumnMetaData{Type: format.Int32, PathInSchema: []string{"v"}, Codec: format.Zstd, NumValues: int64(n)},
			Pages: [][]byte{p}}}, nil)
}

// TestMaxRow reads a row holding a list of 100,000 values: ReadRow and
// AppendRow fail with ErrLimit, giving the numbers, once it passes
// WithMaxRow's values or bytes (a 50M-value list took 3 GB through ReadRow,
// with no bound), read it whole under the defaults, and WriteRow, which
// streams, is not bounded.
func TestMaxRow(t *testing.T) {
	const n = 100_000
	b := hugeListFile(t, n)
	open := func(opts ...Option) *Reader {
		f, err := column.Open(bytes.NewReader(b), int64(len(b)))
		require.NoError(t, err)
		r, err := NewReader(f, opts...)
		require.NoError(t, err)
		return r
	}
	for _, bound := range [][2]int64{{n - 1, 1 << 30}, {1 << 30, 1 << 20}} {
		_, err := open(WithMaxRow(bound[0], bound[1])).ReadRow(nil)
		require.ErrorIs(t, err, ErrLimit, "%v", bound)
		require.ErrorIs(t, err, column.ErrLimit)
		require.Contains(t, err.Error(), fmt.Sprintf("more than %d values or %d bytes", bound[0], bound[1]))
		_, err = open(WithMaxRow(bound[0], bound[1]/4)).AppendRow(nil)
		require.ErrorIs(t, err, ErrLimit, "%v", bound)
		var out bytes.Buffer
		require.NoError(t, open(WithMaxRow(bound[0], bound[1]/4)).WriteRow(&out))
		require.Greater(t, out.Len(), n)
	}
	row, err := open().ReadRow(nil)
	require.NoError(t, err)
	require.Len(t, row[0].Value, n)
	_, err = open(WithMaxRow(n, n*32)).ReadRow(nil)
	require.NoError(t, err)
	line, err := open().AppendRow(nil)
	require.NoError(t, err)
	require.Greater(t, len(line), n)
	// The default follows the File's WithMaxMemory: n/32 values.
	f, err := column.Open(bytes.NewReader(b), int64(len(b)), column.WithMaxMemory(n*32-1))
	require.NoError(t, err)
	r, err := NewReader(f)
	require.NoError(t, err)
	_, err = r.ReadRow(nil)
	require.ErrorIs(t, err, ErrLimit)
	_, err = NewReader(f, WithMaxRow(0, 1))
	require.Error(t, err)
}

// maxRowChildEnv makes TestMaxRowUlimit the child that reads the row.
const maxRowChildEnv = "PQCODEC_MAXROW_CHILD"

// TestMaxRowUlimit reads a row holding a list of 10M values through
// ReadRow in a child process under ulimit -v 2 GiB, with the File bounded
// to 192 MiB: the row's default bound follows (6M values), and the read
// fails with ErrLimit instead of building the whole row, which under the
// limit died with Go's fatal "out of memory" (a list of 20M values bounded
// at 8M did too: a cgo test binary maps about 1.4 GiB it never uses, see
// native/arenas, which this test binary imports).
func TestMaxRowUlimit(t *testing.T) {
	if path := os.Getenv(maxRowChildEnv); path != "" {
		f, err := column.OpenFile(path, column.WithMaxMemory(192<<20))
		require.NoError(t, err)
		r, err := NewReader(f)
		require.NoError(t, err)
		_, err = r.ReadRow(nil)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		t.Logf("%v; %d MiB from the OS", err, ms.Sys>>20)
		require.True(t, errors.Is(err, ErrLimit), "%v", err)
		fmt.Println("MAXROW_OK")
		return
	}
	if runtime.GOOS != "linux" || raceEnabled {
		t.Skip("needs linux bash ulimit; the race detector reserves too much address space")
	}
	exe := testexec.Executable(t)
	path := filepath.Join(t.TempDir(), "list.parquet")
	require.NoError(t, os.WriteFile(path, hugeListFile(t, 10_000_000), 0o644))
	cmd := exec.Command("bash", "-c", `ulimit -v 2097152 && exec "$0" -test.run='^TestMaxRowUlimit$' -test.v`, exe)
	cmd.Env = append(os.Environ(), maxRowChildEnv+"="+path)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	t.Logf("%s", out.String())
	require.NoError(t, err)
	require.NotContains(t, out.String(), "fatal error")
	require.Contains(t, out.String(), "MAXROW_OK")
}
