package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// writers are the directories of testdata/foreign, in the order of the
// tables.
var writers = []struct{ dir, title string }{
	{"duckdb", "DuckDB 1.5.6 (@duckdb/node-api 1.5.6-r.1)"},
	{"arrow-rs", "arrow-rs (parquet-wasm 0.8.0)"},
	{"polars", "Polars (nodejs-polars 0.25.2)"},
	{"hyparquet", "hyparquet-writer 0.17.0 (rows: DuckDB, checked against hyparquet 1.31.5)"},
	{"parquet-go", "parquet-go v0.32.0"},
	{"arrow-go", "arrow-go v18.8.0 (pqarrow)"},
}

// foreignMarker starts the foreign-writer section of COMPATIBILITY.md
// (cgo_test/compat_test.go leaves it alone).
const foreignMarker = "<!-- foreign-writer corpus:"

// compat reads every file of the corpus with pqcodec (the cat command),
// with arrow-go's pqarrow and with parquet-go, and replaces the
// foreign-writer section of the document at docPath with the results.
func compat(corpus, docPath string) error {
	bin := filepath.Join(os.TempDir(), "pqcodec-foreigngen-compat")
	// The corpus is ROOT/testdata/foreign; pqcodec is built in its own module.
	build := exec.Command("go", "build", "-o", bin, "./cmd/pqcodec")
	build.Dir = filepath.Dir(filepath.Dir(corpus))
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building pqcodec: %w", err)
	}
	defer os.Remove(bin)

	var sec strings.Builder
	sec.WriteString(foreignMarker + " written by `make foreign-corpus` (interop/cmd/foreigngen -compat) -->\n")
	sec.WriteString(`
# Files of other writers

testdata/foreign holds files written by six writers with every option of theirs that changes the bytes
(codecs, data page versions, dictionary on/off/fallback, explicit encodings, page and row group sizes,
statistics; see each writer's MANIFEST.tsv), with the rows the writer's own reader gives, rendered as
` + "`pqcodec cat`" + ` prints them (scripts/foreign/render.mjs, interop/cmd/foreigngen). DuckDB reads every file as a
second reader; testdata/foreign/CROSSCHECK.txt lists where it cannot or disagrees, and why.
` + "`go test ./cmd/pqcodec -run TestForeignCorpus`" + ` (part of make test) compares pqcodec with the expected rows.

The peer columns are for information: arrow-go reads with pqarrow (ReadTable, its rows rendered by the same
rules and compared with the expected rows); parquet-go reads every row with its generic row reader (only
success and the row count are checked).
`)
	for _, w := range writers {
		dir := filepath.Join(corpus, w.dir)
		data, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
		if err != nil {
			return err
		}
		var lines []string
		identical, total := 0, 0
		for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
			if strings.HasPrefix(line, "#") {
				continue
			}
			f := strings.SplitN(line, "\t", 3)
			if len(f) != 3 {
				return fmt.Errorf("%s/MANIFEST.tsv: bad line %q", w.dir, line)
			}
			want, err := os.ReadFile(filepath.Join(dir, f[1]))
			if err != nil {
				return err
			}
			file := filepath.Join(dir, f[0])
			raw, err := os.ReadFile(file)
			if err != nil {
				return err
			}
			total++
			out, err := exec.Command(bin, "cat", file).Output()
			ours := compareRows(out, want, err)
			if ours == "identical" {
				identical++
			}
			lines = append(lines, fmt.Sprintf("| `%s` | %s | %s | %s | %s |", f[0], f[2], ours, arrowOpinion(raw, want), parquetGoOpinion(raw, want)))
		}
		fmt.Fprintf(&sec, "\n## %s\n\n%d of %d files decode identically\n\n", w.title, identical, total)
		sec.WriteString("| File | Options | pqcodec | arrow-go | parquet-go |\n|---|---|---|---|---|\n")
		sec.WriteString(strings.Join(lines, "\n") + "\n")
	}

	old, err := os.ReadFile(docPath)
	if err != nil {
		return err
	}
	doc := string(old)
	if i := strings.Index(doc, foreignMarker); i >= 0 {
		doc = doc[:i]
	}
	return os.WriteFile(docPath, []byte(doc+sec.String()), 0o644)
}

// compareRows describes rows got (or the error that ended them) against
// the expected rows.
func compareRows(got, want []byte, err error) string {
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			msg := strings.TrimSpace(string(ee.Stderr))
			if i := strings.Index(msg, ".parquet: "); i >= 0 {
				msg = msg[i+len(".parquet: "):]
			}
			return "fails: " + cell(msg)
		}
		return "fails: " + cell(err.Error())
	}
	if bytes.Equal(got, want) {
		return "identical"
	}
	g := bytes.Split(got, []byte("\n"))
	w := bytes.Split(want, []byte("\n"))
	for i := 0; i < len(g) && i < len(w); i++ {
		if !bytes.Equal(g[i], w[i]) {
			return fmt.Sprintf("differs from row %d", i)
		}
	}
	return fmt.Sprintf("%d rows, expected %d", len(g)-1, len(w)-1)
}

func cell(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

// arrowOpinion reads a file with pqarrow.
func arrowOpinion(raw, want []byte) (res string) {
	defer func() {
		if r := recover(); r != nil {
			res = "panics: " + cell(fmt.Sprint(r))
		}
	}()
	rows, err := readArrowGo(raw)
	if err != nil {
		return compareRows(nil, nil, err)
	}
	var got []byte
	for _, r := range rows {
		got = append(append(got, r...), '\n')
	}
	return compareRows(got, want, nil)
}

// parquetGoOpinion reads every row of a file with parquet-go.
func parquetGoOpinion(raw, want []byte) (res string) {
	defer func() {
		if r := recover(); r != nil {
			res = "panics: " + cell(fmt.Sprint(r))
		}
	}()
	f, err := parquet.OpenFile(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		return "fails: " + cell(err.Error())
	}
	r := parquet.NewReader(f)
	defer r.Close()
	n := 0
	buf := make([]parquet.Row, 64)
	for {
		k, err := r.ReadRows(buf)
		n += k
		if err == io.EOF {
			break
		}
		if err != nil {
			return "fails: " + cell(err.Error())
		}
	}
	wantRows := 0
	sc := bufio.NewScanner(bytes.NewReader(want))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		wantRows++
	}
	if n != wantRows {
		return fmt.Sprintf("reads %d rows, expected %d", n, wantRows)
	}
	return "reads"
}
