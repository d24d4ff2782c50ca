package column

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
	"github.com/pqcodec/pqcodec/internal/testexec"
)

// digestByteArrays reads every page of every BYTE_ARRAY chunk of f (the
// only ones compaction applies to) and returns a digest of their levels,
// bytes and offsets, page by page; ok is false when f has a chunk this
// package cannot read.
func digestByteArrays(f *File) (d []byte, ok bool) {
	h := sha256.New()
	var p Page
	var r Reader
	for rg := range f.NumRowGroups() {
		for col, leaf := range f.Schema().Leaves() {
			if t := leaf.Element.Type; t == nil || *t != format.ByteArray {
				continue
			}
			if err := f.ResetReader(&r, rg, col); err != nil {
				return nil, false
			}
			for {
				err := r.ReadPage(&p)
				if err == io.EOF {
					break
				}
				if err != nil {
					return nil, false
				}
				fmt.Fprint(h, p.NumLevels, p.DefLevels, p.RepLevels, p.Values.Offsets)
				h.Write(p.Values.Bytes)
			}
		}
	}
	return h.Sum(nil), true
}

// TestCompactedValues checks that compacting PLAIN BYTE_ARRAY pages in
// their decompressed buffer (used for pages of 1 MiB and more) gives the
// values the copying decoder gives, on every corpus file with byte array
// columns.
func TestCompactedValues(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testcorpus.Dir(t), "data", "*.parquet"))
	require.NoError(t, err)
	defer func(old int) { compactThreshold = old }(compactThreshold)
	compared := 0
	for _, path := range files {
		if strings.Contains(path, "large_string_map") {
			continue // 2 GiB of values: TestLargeStringMap
		}
		f, err := openFile(t, path)
		if err != nil {
			continue
		}
		compactThreshold = 1 << 20
		want, ok := digestByteArrays(f)
		if !ok {
			continue
		}
		compactThreshold = 0
		got, _ := digestByteArrays(f)
		require.Equal(t, want, got, filepath.Base(path))
		compared++
	}
	require.Greater(t, compared, 50)
}

// TestMaxMemory checks that a Reader bounded by MaxMemory fails with
// ErrLimit, giving the numbers, when a file needs more, and reads it when
// the bound allows.
func TestMaxMemory(t *testing.T) {
	path := testcorpus.Data(t, "alltypes_tiny_pages.parquet")
	f, err := openFile(t, path, WithMaxMemory(4<<10))
	require.NoError(t, err)
	var p Page
	r, err := f.Column(0, 9) // string_col, dictionary-encoded
	require.NoError(t, err)
	for err == nil {
		err = r.ReadPage(&p)
	}
	require.ErrorIs(t, err, ErrLimit)
	require.Contains(t, err.Error(), "limit (MaxMemory) is 4096")
	f, err = openFile(t, path, WithMaxMemory(16<<20))
	require.NoError(t, err)
	require.NoError(t, readAll(f))
	_, err = openFile(t, path, WithMaxMemory(-1))
	require.Error(t, err)
}

// largeEnv enables TestLargeStringMap, which decodes 2 GiB of values.
const largeEnv = "PQCODEC_LARGE"

// TestLargeStringMap reads large_string_map.brotli.parquet (pages of 1
// GiB) in a child process limited to 4 GiB of address space (ulimit -v):
// it must decode, or fail with an error, never with Go's fatal out of
// memory. Set PQCODEC_LARGE=1 to run it (about a minute).
func TestLargeStringMap(t *testing.T) {
	path := filepath.Join(testcorpus.Dir(t), "data", "large_string_map.brotli.parquet")
	if os.Getenv(largeEnv+"_CHILD") != "" {
		f, err := openFile(t, path)
		require.NoError(t, err)
		err = readAll(f)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		t.Logf("read: %v; %d MiB allocated in total, %d MiB from the OS", err, ms.TotalAlloc>>20, ms.Sys>>20)
		require.True(t, err == nil || errors.Is(err, ErrLimit), "%v", err)
		fmt.Println("LARGE_OK")
		return
	}
	if os.Getenv(largeEnv) == "" {
		t.Skip("set " + largeEnv + "=1 to read the 1 GiB pages of large_string_map.brotli.parquet")
	}
	if runtime.GOOS != "linux" {
		t.Skip("needs ulimit -v")
	}
	exe := testexec.Executable(t)
	cmd := exec.Command("bash", "-c", `ulimit -v 4194304 && exec "$0" -test.run='^TestLargeStringMap$' -test.v`, exe)
	cmd.Env = append(os.Environ(), largeEnv+"_CHILD=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	t.Logf("%s", out.String())
	require.NoError(t, err)
	require.NotContains(t, out.String(), "fatal error")
	require.Contains(t, out.String(), "LARGE_OK")
}

// expandingFile returns a small valid Parquet file (a few hundred bytes)
// whose one BYTE_ARRAY column has a dictionary of one value of valueLen
// bytes, referenced by refs rows: reading it needs refs*valueLen bytes.
func expandingFile(t *testing.T, valueLen, refs int) []byte {
	t.Helper()
	f, err := codecfactory.New()
	require.NoError(t, err)
	dict := binary.LittleEndian.AppendUint32(nil, uint32(valueLen))
	dict = append(dict, bytes.Repeat([]byte{'x'}, valueLen)...)
	cdict, err := f.Compress(codecfactory.Zstd, nil, dict)
	require.NoError(t, err)
	data := binary.AppendUvarint([]byte{0}, uint64(refs)<<1) // bit width 0, one RLE run of index 0
	cdata, err := f.Compress(codecfactory.Zstd, nil, data)
	require.NoError(t, err)

	file := []byte("PAR1")
	dictAt := int64(len(file))
	file = format.AppendPageHeader(file, &format.PageHeader{
		Type: format.DictionaryPage, UncompressedPageSize: int32(len(dict)), CompressedPageSize: int32(len(cdict)),
		HasDictionaryPageHeader: true, DictionaryPageHeader: format.DictionaryPageHeader{NumValues: 1, Encoding: format.Plain},
	})
	file = append(file, cdict...)
	dataAt := int64(len(file))
	file = format.AppendPageHeader(file, &format.PageHeader{
		Type: format.DataPage, UncompressedPageSize: int32(len(data)), CompressedPageSize: int32(len(cdata)),
		HasDataPageHeader: true, DataPageHeader: format.DataPageHeader{
			NumValues: int32(refs), Encoding: format.RLEDictionary,
			DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE,
		},
	})
	file = append(file, cdata...)
	byteArray, required, one := format.ByteArray, format.Required, int32(1)
	meta := format.FileMetaData{
		Version: 1,
		Schema: []format.SchemaElement{
			{Name: "schema", NumChildren: &one},
			{Name: "s", Type: &byteArray, RepetitionType: &required},
		},
		NumRows: int64(refs),
		RowGroups: []format.RowGroup{{
			NumRows: int64(refs), TotalByteSize: int64(len(file)),
			Columns: []format.ColumnChunk{{FileOffset: dictAt, MetaData: &format.ColumnMetaData{
				Type: format.ByteArray, Encodings: []format.Encoding{format.Plain, format.RLEDictionary},
				PathInSchema: []string{"s"}, Codec: format.Zstd, NumValues: int64(refs),
				TotalUncompressedSize: int64(len(dict) + len(data)), TotalCompressedSize: int64(len(file)) - dictAt,
				DataPageOffset: dataAt, DictionaryPageOffset: &dictAt,
			}}},
		}},
	}
	footer := format.AppendFileMetaData(nil, &meta)
	file = append(file, footer...)
	file = binary.LittleEndian.AppendUint32(file, uint32(len(footer)))
	return append(file, "PAR1"...)
}

// TestMaxMemoryExpandingFile reads a file of a few hundred bytes whose one
// 1 MiB dictionary value is referenced 2,047 times (2 GiB of values): with
// MaxMemory it fails with ErrLimit having allocated a few MiB, and a
// smaller version of it reads whole.
func TestMaxMemoryExpandingFile(t *testing.T) {
	b := expandingFile(t, 1<<20, 2047)
	t.Logf("%d bytes", len(b))
	f, err := Open(bytes.NewReader(b), int64(len(b)), WithMaxMemory(64<<20))
	require.NoError(t, err)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err = readAll(f)
	runtime.ReadMemStats(&after)
	require.ErrorIs(t, err, ErrLimit)
	require.Contains(t, err.Error(), "the page needs about") // refused before decoding its indices
	require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(8<<20), "allocated before failing")
	t.Logf("%v; %d bytes allocated", err, after.TotalAlloc-before.TotalAlloc)

	small := expandingFile(t, 1<<10, 100)
	f, err = Open(bytes.NewReader(small), int64(len(small)), WithMaxMemory(1<<20))
	require.NoError(t, err)
	r, err := f.Column(0, 0)
	require.NoError(t, err)
	var p Page
	require.NoError(t, r.ReadPage(&p))
	require.Equal(t, 100, p.Values.Len())
	require.Equal(t, bytes.Repeat([]byte{'x'}, 1<<10), p.Values.ByteArray(99))
}

// TestValuesPast2GiB reads a valid file whose one page looks its 1 MiB
// dictionary value up 2,100 times, without WithMaxMemory: the 2.1 GiB of
// values do not fit the int32 offsets of a Values, which is a limit
// (ErrLimit), not a corrupt page as it was reported. It needs about 3.5 GB;
// set PQCODEC_LARGE=1 to run it (make test-memory).
func TestValuesPast2GiB(t *testing.T) {
	if os.Getenv(largeEnv) == "" {
		t.Skip("set " + largeEnv + "=1 to gather 2 GiB of dictionary values")
	}
	b := expandingFile(t, 1<<20, 2100)
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	err = readAll(f)
	require.ErrorIs(t, err, ErrLimit)
	require.False(t, errors.Is(err, ErrCorrupt), "%v", err)
}

// TestCompactByteArrays compacts pages of values of every length from 0 to
// 40 bytes (the 16-byte block moves, the 32-byte ones and memmove), in
// random order, in place from offsets 0 and 7 of the buffer, and checks
// values and offsets against the page's own values.
func TestCompactByteArrays(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 3, 9, 100, 5000} {
		for _, lead := range []int{0, 7} {
			var page []byte
			var want [][]byte
			for range n {
				v := make([]byte, r.IntN(41))
				for i := range v {
					v[i] = byte(r.Uint32())
				}
				page = binary.LittleEndian.AppendUint32(page, uint32(len(v)))
				page = append(page, v...)
				want = append(want, v)
			}
			buf := append(make([]byte, lead), page...)
			buf = append(buf, "trailing bytes the blocks may read"...)
			vals, offs, err := compactByteArrays(buf[:0], buf[lead:], n, nil)
			require.NoError(t, err)
			require.Len(t, offs, n+1)
			require.Zero(t, offs[0])
			for i, v := range want {
				require.Equal(t, v, vals[offs[i]:offs[i+1]], "n=%d lead=%d value %d", n, lead, i)
			}
			require.Len(t, vals, int(offs[n]))
		}
	}
	_, _, err := compactByteArrays(nil, []byte{5, 0, 0, 0, 1}, 1, nil)
	require.ErrorIs(t, err, ErrCorrupt)
}

// BenchmarkCompactByteArrays compacts a 1 MiB PLAIN page of 4-24 byte
// strings in place, as readDataPageV1 does for large pages.
func BenchmarkCompactByteArrays(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	var page []byte
	n := 0
	for len(page) < 1<<20 {
		l := 4 + r.IntN(21)
		page = binary.LittleEndian.AppendUint32(page, uint32(l))
		page = append(page, make([]byte, l)...)
		n++
	}
	buf := make([]byte, len(page))
	offs := make([]int32, 0, n+1)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		copy(buf, page)
		if _, _, err := compactByteArrays(buf[:0], buf, n, offs); err != nil {
			b.Fatal(err)
		}
	}
}
