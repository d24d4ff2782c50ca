package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testexec"
)

// expandingFile returns a valid file of a few hundred bytes: one BYTE_ARRAY
// column whose dictionary holds one value of valueLen bytes, referenced by
// refs rows (refs*valueLen bytes of values).
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
		HasDataPageHeader: true, DataPageHeader: format.DataPageHeader{NumValues: int32(refs), Encoding: format.RLEDictionary,
			DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE},
	})
	file = append(file, cdata...)
	byteArray, required, one := format.ByteArray, format.Required, int32(1)
	meta := format.FileMetaData{Version: 1, NumRows: int64(refs),
		Schema: []format.SchemaElement{{Name: "schema", NumChildren: &one}, {Name: "s", Type: &byteArray, RepetitionType: &required}},
		RowGroups: []format.RowGroup{{NumRows: int64(refs), TotalByteSize: int64(len(file)),
			Columns: []format.ColumnChunk{{FileOffset: dictAt, MetaData: &format.ColumnMetaData{
				Type: format.ByteArray, Encodings: []format.Encoding{format.Plain, format.RLEDictionary},
				PathInSchema: []string{"s"}, Codec: format.Zstd, NumValues: int64(refs),
				TotalUncompressedSize: int64(len(dict) + len(data)), TotalCompressedSize: int64(len(file)) - dictAt,
				DataPageOffset: dataAt, DictionaryPageOffset: &dictAt}}}}}}
	footer := format.AppendFileMetaData(nil, &meta)
	file = append(file, footer...)
	file = binary.LittleEndian.AppendUint32(file, uint32(len(footer)))
	return append(file, "PAR1"...)
}

// ulimitRunsEnv sets how many runs TestDefaultMaxMemoryUlimit makes of each
// case (default 2; the acceptance is 20).
const ulimitRunsEnv = "PQCODEC_ULIMIT_RUNS"

// TestDefaultMaxMemoryUlimit runs `pqcodec cat` and `pqcodec bench` with
// the default --max-memory under ulimit -v 1 GiB and 2 GiB on small valid
// files whose one dictionary value is referenced many times (100 MiB, 400
// MiB and 1000 MiB of 1 MiB values, and 64Mi references to a 16-byte
// value: 1 GiB of values and 256 MiB of indices): each run reads the file
// or fails with the limit, exit status 1, never with Go's "fatal error: out
// of memory" (3 of 3 runs under 2 GiB before: the default budget was half
// the limit, and the process maps 1.0-1.5 GiB it never uses) nor a failed
// thread creation.
func TestDefaultMaxMemoryUlimit(t *testing.T) {
	if runtime.GOOS != "linux" || raceEnabled {
		t.Skip("needs linux bash ulimit; the race detector reserves too much address space")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	exe := testexec.Executable(t)
	runs := 2
	if v := os.Getenv(ulimitRunsEnv); v != "" {
		runs, err = strconv.Atoi(v)
		require.NoError(t, err)
	}
	dir := t.TempDir()
	files := map[string][]byte{
		"100MiB.parquet":  expandingFile(t, 1<<20, 100),
		"400MiB.parquet":  expandingFile(t, 1<<20, 400),
		"1000MiB.parquet": expandingFile(t, 1<<20, 1000),
		"64Mi.parquet":    expandingFile(t, 16, 64<<20),
	}
	for name, b := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), b, 0o644))
	}
	counts := map[string]int{}
	for _, kib := range []int{1 << 20, 2 << 20} {
		for name := range files {
			for _, sub := range []string{"cat", "bench"} {
				for range runs {
					cmd := exec.Command(bash, "-c", fmt.Sprintf(`ulimit -v %d && exec "$0" "$@" >/dev/null`, kib), exe, sub, filepath.Join(dir, name))
					cmd.Env = append(os.Environ(), "PQCODEC_TEST_RUN_MAIN=1")
					var stderr bytes.Buffer
					cmd.Stderr = &stderr
					err := cmd.Run()
					msg := stderr.String()
					key := fmt.Sprintf("%d MiB %s %s", kib>>10, sub, name)
					switch {
					case err == nil:
						counts[key+": read"]++
					case strings.Contains(msg, "limit exceeded") && !strings.Contains(msg, "fatal error"):
						counts[key+": limit"]++
					default:
						t.Errorf("%s: %v\n%s", key, err, firstLines(msg, 5))
					}
				}
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		t.Logf("%s: %d of %d", k, counts[k], runs)
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
