package cgotest

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/encoding/rle"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

var update = flag.Bool("update", false, "rewrite COMPATIBILITY.md from this run")

// docPath is the checked-in compatibility table, relative to this package.
const docPath = "COMPATIBILITY.md"

// foreignMarker starts the section of COMPATIBILITY.md on the files of
// testdata/foreign, which TestCompat neither checks nor rewrites.
const foreignMarker = "<!-- foreign-writer corpus:"

// largeFile decompresses to two 1 GiB pages: read only with PQCODEC_LARGE=1.
const largeFile = "large_string_map.brotli.parquet"

// dataRow is one line of the data/ table.
type dataRow struct {
	file      string
	line      string // the rendered table row
	identical bool
}

// TestCompat decodes every file of the corpus with our column reader and
// compares it with its oracle (see oracles_test.go), checks that every
// bad_data/ file fails with the error its defect calls for and that
// encrypted files fail with column.ErrEncrypted, and checks COMPATIBILITY.md
// against the table this run produces (-update rewrites it).
func TestCompat(t *testing.T) {
	root := testcorpus.Dir(t)
	dataDir := filepath.Join(root, "data")
	old, _ := os.ReadFile(docPath) // absent before the first -update

	var rows []dataRow
	var encrypted []string
	for _, rel := range listParquet(t, dataDir) {
		if strings.HasSuffix(rel, ".encrypted") {
			t.Run(rel, func(t *testing.T) { encrypted = append(encrypted, checkEncrypted(t, dataDir, rel)) })
			continue
		}
		if rel == largeFile && os.Getenv("PQCODEC_LARGE") == "" {
			t.Run(rel, func(t *testing.T) { t.Skip("2 GiB of pages: set PQCODEC_LARGE=1 to read them") })
			rows = append(rows, carriedRow(string(old), rel))
			continue
		}
		t.Run(rel, func(t *testing.T) { rows = append(rows, checkDataFile(t, dataDir, rel)) })
	}
	var bad []string
	badDir := filepath.Join(root, "bad_data")
	for _, rel := range listParquet(t, badDir) {
		t.Run("bad_data/"+rel, func(t *testing.T) { bad = append(bad, checkBadFile(t, badDir, rel)) })
	}

	doc := render(rows, encrypted, bad)
	// The foreign-writer section, from foreignMarker on, is written by
	// interop/cmd/foreigngen -compat (make foreign-corpus): kept as it is.
	var foreign string
	if i := strings.Index(string(old), foreignMarker); i >= 0 {
		old, foreign = old[:i], string(old[i:])
	}
	if *update {
		doc += foreign
		if err := os.WriteFile(docPath, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if d := firstLineDiff(string(old), doc); d != "" {
		t.Errorf("%s is stale (regenerate with `go test -run TestCompat -update`, with PQCODEC_LARGE=1 to refresh %s): %s",
			docPath, largeFile, d)
	}
}

// listParquet returns the parquet files below dir, relative and
// slash-separated, sorted.
func listParquet(t *testing.T, dir string) []string {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".parquet") || strings.HasSuffix(p, ".parquet.encrypted")) {
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no parquet files in %s", dir)
	}
	slices.Sort(files)
	return files
}

// safeReadOurs is readOurs with a panic turned into an error, so that one
// file's panic is reported as that file's failure.
func safeReadOurs(b []byte, opts ...column.Option) (d fileData, st *ourStats, err error) {
	defer func() {
		if p := recover(); p != nil {
			d, err = nil, fmt.Errorf("PANIC: %v", p)
		}
	}()
	return readOurs(b, opts...)
}

// checkDataFile decodes data file rel, compares it with every oracle of
// the file and with parquet-go for information, and returns its row.
func checkDataFile(t *testing.T, dataDir, rel string) dataRow {
	row := dataRow{file: rel}
	cells := []string{"`" + rel + "`", "", "", "", "", "", ""} // file, codecs, encodings, pages, oracle, result, parquet-go
	finish := func(result string) dataRow {
		cells[5] = result
		row.line = "| " + strings.Join(cells, " | ") + " |"
		return row
	}
	b, err := os.ReadFile(filepath.Join(dataDir, rel))
	if err != nil {
		t.Fatal(err)
	}
	ours, st, err := safeReadOurs(b)
	var names []string
	for _, o := range oraclesFor(rel) {
		names = append(names, o.name)
	}
	cells[4] = strings.Join(names, " + ")
	if err != nil {
		t.Errorf("our reader: %v", err)
		return finish("**ERROR**: " + cell(err.Error()))
	}
	cells[1] = orDash(strings.Join(keys(st.Codecs), ", "))
	cells[2] = orDash(strings.Join(keys(st.Encodings), ", "))
	cells[3] = pageCounts(st)

	result := "identical"
	for _, o := range oraclesFor(rel) {
		d, err := o.check(dataDir, b, ours)
		switch {
		case err != nil:
			t.Errorf("oracle %s failed: %v", o.name, err)
			return finish("**ORACLE FAILED** (" + o.name + "): " + cell(err.Error()))
		case d != "":
			t.Errorf("differs from %s: %s", o.name, d)
			return finish("**DIFFERS** from " + o.name + ": " + cell(d))
		}
	}

	// With CRC32 verification on, the two files whose pages carry wrong
	// checksums (data/README.md, "Checksum Files") must fail, and every
	// other file must decode to the same data.
	if rel == largeFile { // minutes per read: one is enough
		row.identical = true
		cells[6] = parquetGoOpinion(rel, b, ours)
		return finish(result)
	}
	checked, _, err := safeReadOurs(b, column.WithVerifyChecksums(true))
	if strings.Contains(rel, "corrupt-checksum") {
		if !errors.Is(err, column.ErrChecksum) {
			t.Errorf("with WithVerifyChecksums(true): got %v, want column.ErrChecksum", err)
			return finish("**CRC mismatch not detected**")
		}
		result += "; CRC mismatch detected when verifying"
	} else if err != nil {
		t.Errorf("with WithVerifyChecksums(true): %v", err)
		return finish("**ERROR with CRC verification**: " + cell(err.Error()))
	} else if d := diffFiles(checked, ours); d != "" {
		t.Errorf("with WithVerifyChecksums(true): %s", d)
		return finish("**DIFFERS with CRC verification**: " + cell(d))
	}

	cells[6] = parquetGoOpinion(rel, b, ours)
	row.identical = true
	return finish(result)
}

// parquetGoOpinion compares parquet-go's decoding with ours, for the
// table only: the oracles above decide the result.
func parquetGoOpinion(rel string, b []byte, ours fileData) string {
	for _, o := range oraclesFor(rel) {
		if o.name == parquetGoOracle.name {
			return "(oracle)"
		}
	}
	if rel == largeFile {
		return "not tried (2 GiB)"
	}
	pg, err := readParquetGo(b)
	if err != nil {
		return "fails: " + cell(err.Error())
	}
	if d := diffFiles(ours, pg); d != "" {
		return "differs (ours, then parquet-go): " + cell(d)
	}
	return "agrees"
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func pageCounts(st *ourStats) string {
	var parts []string
	for _, v := range keys(st.Versions) {
		parts = append(parts, fmt.Sprintf("%d v%d", st.Versions[v], v))
	}
	if len(parts) == 0 {
		return "0"
	}
	return strings.Join(parts, " + ")
}

// carriedRow returns the row of rel from the checked-in table, for a file
// this run does not read.
func carriedRow(old, rel string) dataRow {
	prefix := "| `" + rel + "` |"
	for line := range strings.Lines(old) {
		if strings.HasPrefix(line, prefix) {
			line = strings.TrimRight(line, "\n")
			fields := strings.Split(line, " | ")
			return dataRow{file: rel, line: line, identical: len(fields) > 5 && strings.HasPrefix(fields[5], "identical")}
		}
	}
	return dataRow{file: rel, line: prefix + " | | | | not read (set PQCODEC_LARGE=1) | |"}
}

// checkEncrypted requires column.ErrEncrypted from Open or from reading.
func checkEncrypted(t *testing.T, dataDir, rel string) string {
	b, err := os.ReadFile(filepath.Join(dataDir, rel))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = safeReadOurs(b)
	res := "column.ErrEncrypted: " + cell(errString(err))
	if !errors.Is(err, column.ErrEncrypted) {
		t.Errorf("got %v, want column.ErrEncrypted", err)
		res = "**WRONG ERROR**: " + cell(errString(err))
	}
	return "| `" + rel + "` | " + res + " |"
}

// badExpect is what a bad_data file must do: fail with want (wrapping that
// sentinel), or, when want is nil, decode identically to arrow-go. why is
// the file's defect as bad_data/README.md describes it.
type badExpect struct {
	want error
	why  string
}

var badData = map[string]badExpect{
	"ARROW-GH-41317.parquet": {format.ErrCorrupt,
		"columns of different sizes: row group 1's chunk 18 names another path than the schema's leaf 18"},
	"ARROW-GH-41321.parquet": {rle.ErrCorrupt,
		"a page decodes fewer definition levels than its num_values"},
	"ARROW-GH-43605.parquet": {nil,
		"dictionary indices RLE-encoded with bit width 0 (all index 0): legal data, not an error"},
	"ARROW-GH-45185.parquet": {column.ErrCorrupt,
		"repetition levels start with 1 instead of 0"},
	"ARROW-GH-47662.parquet": {column.ErrCorrupt,
		"a required column holding nulls: the PLAIN values section is shorter than num_values values"},
	"ARROW-RS-GH-6229-DICTHEADER.parquet": {format.ErrCorrupt,
		"negative value count in the dictionary page header (the page header does not decode)"},
	"ARROW-RS-GH-6229-LEVELS.parquet": {column.ErrCorrupt,
		"a page with too few repetition levels: pages hold more values than the chunk's num_values"},
	"PARQUET-1481.parquet": {format.ErrCorrupt,
		"corrupted physical type in the schema thrift"},
}

// checkBadFile checks one bad_data file against badData and returns its row.
func checkBadFile(t *testing.T, badDir, rel string) string {
	exp, ok := badData[rel]
	if !ok {
		t.Errorf("no expectation for bad_data/%s: add one to badData", rel)
		return "| `" + rel + "` | **no expectation** | | | |"
	}
	b, err := os.ReadFile(filepath.Join(badDir, rel))
	if err != nil {
		t.Fatal(err)
	}
	ours, _, err := safeReadOurs(b)
	var res string
	switch {
	case exp.want == nil && err != nil:
		t.Errorf("legal file: %v", err)
		res = "**ERROR**: " + cell(err.Error())
	case exp.want == nil:
		res = "reads; identical to arrow-go"
		if d, err := arrowOracle.check(badDir, b, ours); err != nil || d != "" {
			t.Errorf("arrow-go comparison: %v %s", err, d)
			res = fmt.Sprintf("**DIFFERS from arrow-go**: %v %s", err, cell(d))
		}
	case errors.Is(err, exp.want):
		res = fmt.Sprintf("`%v`: %s", exp.want, cell(err.Error()))
	default:
		t.Errorf("got %v, want an error wrapping %q", err, exp.want)
		res = "**WRONG ERROR**: " + cell(errString(err))
	}
	_, aerr := readArrow(b)
	_, perr := readParquetGo(b)
	return fmt.Sprintf("| `%s` | %s | %s | %s | %s |", rel, exp.why, res, peerResult(aerr), peerResult(perr))
}

func peerResult(err error) string {
	if err == nil {
		return "reads"
	}
	return "fails: " + cell(err.Error())
}

func errString(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}

// cell makes s safe and short enough for a table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\n", " ")
	if r := []rune(s); len(r) > 160 {
		s = string(r[:160]) + "…"
	}
	return s
}

func render(rows []dataRow, encrypted, bad []string) string {
	var sb strings.Builder
	n := 0
	for _, r := range rows {
		if r.identical {
			n++
		}
	}
	sb.WriteString(`# Compatibility with apache/parquet-testing

Generated by ` + "`go test -run TestCompat -update`" + ` in cgo_test/ (with PQCODEC_LARGE=1 to read
` + largeFile + `; without it that row is carried over from the previous table). A normal
` + "`go test`" + ` run fails when this file differs from what the run produces.

Every column chunk of every file is decoded with package column (decompression, dictionary, levels,
values) and compared value by value, with its definition and repetition levels, against the oracle
named in the row. Floating-point values are compared by their bits.

Oracles (how each expectation is obtained; details in oracles_test.go):

- **arrow-go**: apache/arrow-go v18.8.0's low-level column chunk readers (` + "`file.ColumnChunkReader`" + ` ReadBatch)
  on the same bytes.
- **\*_expect.csv**: the expected values the corpus ships for the delta_* files, checked in addition to arrow-go.
- **parquet-go**: parquet-go v0.32.0's page reader, where arrow-go cannot read the file (it panics on
  unknown-logical-type.parquet).
- **arrow-go on a sibling**: the LZ4 (Hadoop-framed or bare block) files, which neither peer reads, hold the
  same table as an LZ4_RAW file of the corpus; both decodings must also hold the values apache/arrow-rs's
  reader tests publish for these files.
- **documented**: datapage_v2_empty_datapage.snappy.parquet, which neither peer reads; data/README.md
  documents it as one optional FLOAT row holding null.

Every file but ` + largeFile + ` is also read with CRC32 verification on: it must decode to the
same data, except the two corrupt-checksum files, which must fail with ` + "`column.ErrChecksum`" + `.
The last column is parquet-go's opinion, for information only: it is not an oracle where arrow-go reads
the file.

`)
	fmt.Fprintf(&sb, "%d of %d files decode identically\n\n", n, len(rows))
	sb.WriteString("## data/\n\n")
	sb.WriteString("| File | Codecs | Data page encodings | Data pages | Oracle | Result | parquet-go |\n")
	sb.WriteString("|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		sb.WriteString(r.line + "\n")
	}
	fmt.Fprintf(&sb, "\n## Encrypted files\n\nOpened without keys, each of these %d files must fail with `column.ErrEncrypted`; with the keys parquet-testing lists they read value for value (column/decrypt_test.go, cgo_test/encryption_test.go).\n\n", len(encrypted))
	sb.WriteString("| File | Result |\n|---|---|\n")
	for _, l := range encrypted {
		sb.WriteString(l + "\n")
	}
	sb.WriteString("\n## bad_data/\n\nEach file must fail with an error wrapping the named sentinel (never a panic), except\nARROW-GH-43605.parquet, which is legal.\n\n")
	sb.WriteString("| File | Defect | Ours | arrow-go | parquet-go |\n|---|---|---|---|---|\n")
	for _, l := range bad {
		sb.WriteString(l + "\n")
	}
	return sb.String()
}

// firstLineDiff describes the first line where got and want differ, or "".
func firstLineDiff(got, want string) string {
	if got == want {
		return ""
	}
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d is\n\t%s\nthis run produces\n\t%s", i+1, a, b)
		}
	}
	return "lengths differ"
}
