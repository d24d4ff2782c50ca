package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
	"github.com/pqcodec/pqcodec/internal/testfile"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// runCmd runs the command in-process.
func runCmd(args ...string) (stdout, stderr string, status int) {
	var out, errOut bytes.Buffer
	status = run(args, &out, &errOut)
	return out.String(), errOut.String(), status
}

// golden compares got with testdata/golden/name, or rewrites it under
// -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create it")
	assert.Equal(t, string(want), got, "output differs from %s (go test -update rewrites it)", path)
}

// corpusName replaces the corpus directory in out by "data", so goldens do
// not depend on where the corpus is.
func corpusName(t *testing.T, out string) string {
	return strings.ReplaceAll(out, filepath.Join(testcorpus.Dir(t), "data"), "data")
}

// goldenFiles covers nested lists, maps, nulls, the legacy list layouts,
// every codec the corpus holds (BROTLI only in a file too large to cat) and
// both data page versions.
var goldenFiles = []struct {
	name  string
	limit string // for cat; empty: all rows
}{
	{"nested_lists.snappy.parquet", ""},
	{"nested_maps.snappy.parquet", ""},
	{"list_columns.parquet", ""},
	{"null_list.parquet", ""},
	{"map_no_value.parquet", ""},
	{"old_list_structure.parquet", ""},
	{"repeated_no_annotation.parquet", ""},
	{"repeated_primitive_no_list.parquet", ""},
	{"incorrect_map_schema.parquet", ""},
	{"nullable.impala.parquet", ""},
	{"nonnullable.impala.parquet", ""},
	{"nulls.snappy.parquet", ""},
	{"alltypes_plain.parquet", ""},
	{"int96_from_spark.parquet", ""},
	{"nan_in_stats.parquet", ""},
	{"datapage_v2.snappy.parquet", ""},
	{"byte_stream_split.zstd.parquet", "10"},
	{"concatenated_gzip_members.parquet", "10"},
	{"hadoop_lz4_compressed.parquet", ""},
	{"non_hadoop_lz4_compressed.parquet", ""},
	{"lz4_raw_compressed.parquet", ""},
	{"fixed_length_decimal.parquet", "5"},
	{"delta_byte_array.parquet", "5"},
	{"float16_nonzeros_and_nans.parquet", ""},
}

func TestGoldenInspect(t *testing.T) {
	names := []string{"large_string_map.brotli.parquet", "alltypes_tiny_pages.parquet", "sort_columns.parquet"}
	for _, f := range goldenFiles {
		names = append(names, f.name)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			path := testcorpus.Data(t, name)
			out, errOut, status := runCmd("inspect", path)
			require.Equal(t, exitOK, status, errOut)
			golden(t, name+".inspect.txt", corpusName(t, out))

			out, errOut, status = runCmd("inspect", "--json", path)
			require.Equal(t, exitOK, status, errOut)
			var doc map[string]any
			require.NoError(t, json.Unmarshal([]byte(out), &doc))
			golden(t, name+".inspect.json", corpusName(t, out))
		})
	}
}

func TestGoldenCat(t *testing.T) {
	for _, f := range goldenFiles {
		t.Run(f.name, func(t *testing.T) {
			args := []string{"cat", "--raw", testcorpus.Data(t, f.name)}
			if f.limit != "" {
				args = append(args, "--limit", f.limit)
			}
			out, errOut, status := runCmd(args...)
			require.Equal(t, exitOK, status, errOut)
			require.Empty(t, errOut)
			golden(t, f.name+".cat.jsonl", out)
		})
	}
}

func TestCatColumnsAndLimit(t *testing.T) {
	path := testcorpus.Data(t, "nullable.impala.parquet")
	out, errOut, status := runCmd("cat", path, "--columns", "int_map,id", "--limit", "2")
	require.Equal(t, exitOK, status, errOut)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, 2)
	assert.Equal(t, `{"int_map":[{"key":"k1","value":1},{"key":"k2","value":100}],"id":1}`, lines[0])
	assert.Equal(t, `{"int_map":[{"key":"k1","value":2},{"key":"k2","value":null}],"id":2}`, lines[1])

	out, _, status = runCmd("cat", "--limit", "0", path)
	assert.Equal(t, exitOK, status)
	assert.Empty(t, out)

	_, errOut, status = runCmd("cat", path, "--columns", "nope")
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, `"nope"`)
}

// corpusFiles lists the .parquet files under the corpus directory sub.
func corpusFiles(t *testing.T, sub string) []string { return testcorpus.Files(t, sub) }

// TestCatEveryDataFile prints every non-encrypted file of data/ and checks
// that every line is a JSON object with the file's top-level fields, one
// per row, holding the values the column readers return
// (compareWithColumns).
func TestCatEveryDataFile(t *testing.T) {
	for _, path := range corpusFiles(t, "data") {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			if name == "large_string_map.brotli.parquet" && os.Getenv("PQCODEC_LARGE") != "1" {
				t.Skip("two 1 GiB pages; set PQCODEC_LARGE=1 to read them")
			}
			out, errOut, status := runCmd("cat", "--raw", path)
			require.Equal(t, exitOK, status, errOut)
			f, fh, _, err := openFile(path)
			require.NoError(t, err)
			defer fh.Close()
			var fields []string
			for _, c := range f.Schema().Root().Children {
				fields = append(fields, c.Name())
			}
			rows := int64(0)
			dec := json.NewDecoder(strings.NewReader(out))
			for {
				var row map[string]json.RawMessage
				err := dec.Decode(&row)
				if errors.Is(err, io.EOF) {
					break
				}
				require.NoError(t, err, "row %d", rows)
				require.Len(t, row, len(fields))
				for _, k := range fields {
					assert.Contains(t, row, k)
				}
				rows++
			}
			want := f.MetaData().NumRows
			if name == "repeated_no_annotation.parquet" {
				want = 6 // the footer says 0; the pages hold 6 records
			}
			assert.Equal(t, want, rows)
			compareWithColumns(t, f, out)
		})
	}
}

// TestBadData checks that every file of bad_data/ gives exit status 1 and
// exactly one line on stderr naming the file, and never a panic.
func TestBadData(t *testing.T) {
	for _, path := range corpusFiles(t, "bad_data") {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			for _, args := range [][]string{{"cat", path}, {"bench", path, "--count", "1"}} {
				cmd := args[0]
				out, errOut, status := runCmd(args...)
				if name == "ARROW-GH-43605.parquet" {
					// Not an error: dictionary indices of bit width 0 are
					// all 0, a legal encoding (see column's corpus test).
					require.Equal(t, exitOK, status, errOut)
					continue
				}
				require.Equal(t, exitError, status, "%s: stdout %.200q", cmd, out)
				require.Equal(t, 1, strings.Count(errOut, "\n"), "%s: one line expected: %q", cmd, errOut)
				require.True(t, strings.HasPrefix(errOut, "pqcodec: "+path+": "), "%s: %q", cmd, errOut)
				assert.NotContains(t, errOut, "internal error")
				assert.NotContains(t, errOut, "goroutine")
				t.Logf("%s: %s", cmd, strings.TrimSpace(errOut))
			}
		})
	}
}

func TestErrorLineNamesThePage(t *testing.T) {
	path := testcorpus.BadData(t, "ARROW-GH-45185.parquet")
	_, errOut, status := runCmd("cat", path)
	require.Equal(t, exitError, status)
	assert.Regexp(t, `^pqcodec: .*ARROW-GH-45185\.parquet: column x\.list\.element, row group 0, page 0: .+\n$`, errOut)
}

func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		status int
		stdout string // substring
		stderr string // substring
	}{
		{[]string{"--help"}, exitOK, "usage:", ""},
		{[]string{"help", "cat"}, exitOK, "usage: pqcodec cat", ""},
		{[]string{"nope"}, exitUsage, "", `unknown command "nope"`},
		{[]string{"cat"}, exitUsage, "", "missing FILE"},
		{[]string{"cat", "a", "b"}, exitUsage, "", "one FILE expected"},
		{[]string{"inspect", "--bogus", "x"}, exitUsage, "", "flag provided but not defined"},
		{[]string{"bench", "x", "--count", "0"}, exitUsage, "", "--count must be at least 1"},
		{[]string{"demo", "extra"}, exitUsage, "", "takes no arguments"},
		{[]string{"demo", "--rows", "-1"}, exitUsage, "", "--rows"},
		{[]string{"cat", filepath.Join(t.TempDir(), "missing.parquet")}, exitError, "", "no such file"},
		{[]string{"cat", t.TempDir()}, exitError, "", "is a directory"},
	} {
		out, errOut, status := runCmd(tc.args...)
		assert.Equal(t, tc.status, status, "%v: %s", tc.args, errOut)
		assert.Contains(t, out, tc.stdout, "%v", tc.args)
		assert.Contains(t, errOut, tc.stderr, "%v", tc.args)
	}
	for _, c := range commands {
		out, errOut, status := runCmd(c.name, "--help")
		assert.Equal(t, exitOK, status, errOut)
		assert.Contains(t, out, "usage: pqcodec "+c.name)
		assert.Contains(t, out, longHelp[c.name][:20])
	}
}

func TestNotParquet(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.parquet")
	require.NoError(t, os.WriteFile(path, []byte("PAR1 this is not a parquet file PAR1"), 0o644))
	for _, cmd := range []string{"inspect", "cat", "bench"} {
		_, errOut, status := runCmd(cmd, path)
		assert.Equal(t, exitError, status)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
		assert.True(t, strings.HasPrefix(errOut, "pqcodec: "+path+": "), errOut)
	}
}

// TestPanicIsOneLine checks the top-level recover with a command that
// panics.
func TestPanicIsOneLine(t *testing.T) {
	saved := commands
	t.Cleanup(func() { commands = saved })
	commands = append(commands[:len(commands):len(commands)], command{name: "boom", setup: func(*flag.FlagSet) func([]string, io.Writer, io.Writer) error {
		return func([]string, io.Writer, io.Writer) error { panic("first\nsecond") }
	}})
	_, errOut, status := runCmd("boom")
	assert.Equal(t, exitError, status)
	assert.Equal(t, "pqcodec: internal error: first second\n", errOut)
}

func TestInspectEncryptedColumns(t *testing.T) {
	path := testcorpus.Data(t, "encrypt_columns_plaintext_footer.parquet.encrypted")
	out, errOut, status := runCmd("inspect", path)
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, out, "(encrypted)")
	_, errOut, status = runCmd("cat", path)
	assert.Equal(t, exitError, status)
	assert.Contains(t, errOut, "encrypted")
}

func TestBench(t *testing.T) {
	path := testcorpus.Data(t, "alltypes_plain.snappy.parquet")
	out, errOut, status := runCmd("bench", path, "--count", "2")
	require.Equal(t, exitOK, status, errOut)
	assert.Empty(t, errOut, "no progress on a non-terminal")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	// Title, note, blank, two header lines, 11 columns, total.
	require.Len(t, lines, 5+11+1, out)
	assert.True(t, strings.HasPrefix(lines[len(lines)-1], "total"))
	for _, l := range lines[5 : len(lines)-1] {
		assert.Contains(t, l, "SNAPPY")
		assert.Len(t, strings.Fields(l), 10, l)
	}
}

func TestDemoShort(t *testing.T) {
	out, errOut, status := runCmd("demo", "--short")
	require.Equal(t, exitOK, status, errOut)
	for _, want := range []string{"pqcodec demo: 2000 rows", "UNCOMPRESSED", "SNAPPY", "GZIP", "BROTLI", "ZSTD",
		"LZ4_RAW", "DELTA_BA", "BSS", "On a real file: pqcodec inspect FILE"} {
		assert.Contains(t, out, want)
	}
	t.Setenv("PQCODEC_DEMO_SHORT", "1")
	out, errOut, status = runCmd("demo", "--rows", "300")
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, out, "pqcodec demo: 300 rows")
}

// TestZeroRowGroups reads a file without row groups whose empty row_groups
// list has element type 0 (a JavaScript writer's): cat prints no rows,
// inspect reports none.
func TestZeroRowGroups(t *testing.T) {
	schema := []format.SchemaElement{
		{Name: "root", NumChildren: ptr[int32](1)},
		{Name: "a", Type: ptr(format.Int32), RepetitionType: ptr(format.Optional)},
	}
	path := filepath.Join(t.TempDir(), "empty.parquet")
	require.NoError(t, os.WriteFile(path, testfile.File(schema, 0, nil, testfile.EmptyListType0), 0o644))
	out, errOut, status := runCmd("cat", path)
	require.Equal(t, exitOK, status, errOut)
	require.Empty(t, out)
	out, errOut, status = runCmd("inspect", path)
	require.Equal(t, exitOK, status, errOut)
	require.Contains(t, out, "rows:        0 in 0 row group(s), 1 leaf column(s)")
	out, errOut, status = runCmd("inspect", "--json", path)
	require.Equal(t, exitOK, status, errOut)
	var doc struct {
		NumRows   int64 `json:"num_rows"`
		RowGroups []any `json:"row_groups"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Zero(t, doc.NumRows)
	require.NotNil(t, doc.RowGroups)
	require.Empty(t, doc.RowGroups)
}

func ptr[T any](v T) *T { return &v }

// TestMaxMemory checks that cat and bench stop with one line and exit
// status 1 when a file needs more than --max-memory, read it under a
// sufficient bound, and reject a malformed size as a usage error.
func TestMaxMemory(t *testing.T) {
	path := testcorpus.Data(t, "alltypes_tiny_pages.parquet")
	for _, cmd := range []string{"cat", "bench"} {
		_, errOut, status := runCmd(cmd, path, "--max-memory", "4KiB")
		require.Equal(t, exitError, status, errOut)
		assert.Regexp(t, `^pqcodec: .*alltypes_tiny_pages\.parquet: column \w+, row group 0, page \d+: column: limit exceeded: .* is 4096 \(raise --max-memory, or 0 for no bound\)\n$`, errOut)
		_, errOut, status = runCmd(cmd, path, "--max-memory", "64MiB")
		require.Equal(t, exitOK, status, errOut)
		_, errOut, status = runCmd(cmd, path, "--max-memory", "lots")
		require.Equal(t, exitUsage, status, errOut)
	}
	for in, want := range map[string]int64{"0": 0, "512": 512, "4KiB": 4096, "1.5GiB": 3 << 29, "2GB": 2e9, "3m": 3 << 20} {
		got, err := parseBytes(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "-1", "1XB", "GiB"} {
		_, err := parseBytes(in)
		assert.Error(t, err, in)
	}
}

func TestBenchWorkers(t *testing.T) {
	path := testcorpus.Data(t, "alltypes_plain.snappy.parquet")
	out, errOut, status := runCmd("bench", path, "--count", "1", "--workers", "2")
	require.Equal(t, exitOK, status, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 5+11+1+2, out)
	assert.True(t, strings.HasPrefix(lines[len(lines)-3], "total"))
	assert.Contains(t, lines[len(lines)-1], "2 goroutines")
	assert.Contains(t, lines[len(lines)-1], "speedup")
	_, errOut, status = runCmd("bench", path, "--workers", "-1")
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "--workers must not be negative")
}
