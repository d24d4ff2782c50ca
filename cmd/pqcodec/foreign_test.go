package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// foreignDir holds the files of other writers (DuckDB, arrow-rs, Polars,
// parquet-go, arrow-go), one directory per writer, with the rows each
// writer's own reader gives (make foreign-corpus writes them; see
// scripts/foreign).
const foreignDir = "../../testdata/foreign"

// knownForeignFailures are the corpus files pqcodec does not read yet, with
// the text their error contains. A file listed here that decodes
// identically fails the test, so the list only shrinks.
var knownForeignFailures = map[string]string{
	// Empty since the leniencies of issue 13 (DuckDB's INT32 miniblock
	// widths of 33, hyparquet-writer's empty row_groups list written as
	// 0x00); add "writer/file.parquet": "error text" for a new failure.
}

// foreignEntry is one line of a writer's MANIFEST.tsv.
type foreignEntry struct {
	file, rows, options string
}

// readManifest returns the entries of dir/MANIFEST.tsv.
func readManifest(dir string) ([]foreignEntry, error) {
	data, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		return nil, err
	}
	var out []foreignEntry
	for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 {
			return nil, fmt.Errorf("MANIFEST.tsv line %d: %d fields, want 3", i+1, len(f))
		}
		out = append(out, foreignEntry{f[0], f[1], f[2]})
	}
	return out, nil
}

// TestForeignCorpus reads every file of testdata/foreign as `pqcodec cat
// --raw` does and compares the rows with the ones its writer's reader gave.
func TestForeignCorpus(t *testing.T) {
	writers, err := os.ReadDir(foreignDir)
	if err != nil {
		t.Fatalf("the foreign-writer corpus is part of the repository: %v", err)
	}
	seen := make(map[string]bool)
	total, identical := 0, 0
	for _, w := range writers {
		if !w.IsDir() {
			continue
		}
		dir := filepath.Join(foreignDir, w.Name())
		entries, err := readManifest(dir)
		if err != nil {
			t.Errorf("%s: %v", w.Name(), err)
			continue
		}
		listed := make(map[string]bool)
		for _, e := range entries {
			listed[e.file] = true
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.parquet"))
		for _, f := range files {
			if !listed[filepath.Base(f)] {
				t.Errorf("%s/%s has no expected rows in MANIFEST.tsv", w.Name(), filepath.Base(f))
			}
		}
		for _, e := range entries {
			name := w.Name() + "/" + e.file
			seen[name] = true
			total++
			t.Run(name, func(t *testing.T) {
				want, err := os.ReadFile(filepath.Join(dir, e.rows))
				if err != nil {
					t.Fatalf("expected rows: %v", err)
				}
				got, err := catFile(filepath.Join(dir, e.file))
				if known, ok := knownForeignFailures[name]; ok {
					if err != nil && strings.Contains(err.Error(), known) {
						t.Skipf("known failure (%s): %v", e.options, err)
					}
					if err == nil && bytes.Equal(got, want) {
						t.Fatalf("decodes identically now: remove it from knownForeignFailures")
					}
				}
				if err != nil {
					t.Fatalf("%s (%s): %v", name, e.options, err)
				}
				if msg := firstDifference(got, want); msg != "" {
					t.Fatalf("%s (%s): %s", name, e.options, msg)
				}
				identical++
			})
		}
	}
	if total == 0 {
		t.Fatal("no files in the foreign-writer corpus")
	}
	var stale []string
	for name := range knownForeignFailures {
		if !seen[name] {
			stale = append(stale, name)
		}
	}
	sort.Strings(stale)
	if len(stale) > 0 {
		t.Errorf("knownForeignFailures names files not in the corpus: %v", stale)
	}
	t.Logf("%d of %d foreign files decode identically", identical, total)
}

// catFile returns the output of `pqcodec cat --raw path`, run by the
// command's own code: the expected rows hold physical values (see
// scripts/foreign/README.md).
func catFile(path string) ([]byte, error) {
	fs := flag.NewFlagSet("cat", flag.ContinueOnError)
	run := setupCat(fs)
	if err := fs.Parse([]string{"--raw"}); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	err := run([]string{path}, &buf, io.Discard)
	return buf.Bytes(), err
}

// firstDifference describes the first row where got and want (JSON Lines)
// differ, naming the row and the top-level column, or returns "".
func firstDifference(got, want []byte) string {
	gs := bufio.NewScanner(bytes.NewReader(got))
	ws := bufio.NewScanner(bytes.NewReader(want))
	gs.Buffer(nil, 1<<26)
	ws.Buffer(nil, 1<<26)
	for row := 0; ; row++ {
		g, w := gs.Scan(), ws.Scan()
		switch {
		case !g && !w:
			return ""
		case !g:
			return fmt.Sprintf("pqcodec ends after %d rows, the writer has more", row)
		case !w:
			return fmt.Sprintf("pqcodec has more than the writer's %d rows", row)
		}
		if bytes.Equal(gs.Bytes(), ws.Bytes()) {
			continue
		}
		gk, gv := members(gs.Bytes())
		wk, wv := members(ws.Bytes())
		for _, k := range wk {
			if !bytes.Equal(gv[k], wv[k]) {
				return fmt.Sprintf("row %d, column %s: pqcodec %s, writer %s", row, k, clip(gv[k]), clip(wv[k]))
			}
		}
		return fmt.Sprintf("row %d: columns %v, writer's %v", row, gk, wk)
	}
}

// members splits a JSON object into its keys, in order, and their raw
// values (nil when line is not an object).
func members(line []byte) ([]string, map[string][]byte) {
	d := json.NewDecoder(bytes.NewReader(line))
	d.UseNumber()
	vals := make(map[string][]byte)
	var keys []string
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return nil, vals
	}
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			break
		}
		k, _ := tok.(string)
		var raw json.RawMessage
		if err := d.Decode(&raw); err != nil {
			break
		}
		keys = append(keys, k)
		vals[k] = raw
	}
	return keys, vals
}

func clip(b []byte) string {
	if b == nil {
		return "(missing)"
	}
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}
