package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
)

// pageIndexBloom is arrow-go's file with a page index and a bloom filter
// on every column, and key-value metadata (scripts/foreign).
const pageIndexBloom = "../../testdata/foreign/arrow-go/page_index_bloom.parquet"

func TestNoArgumentsPrintsHelp(t *testing.T) {
	out, errOut, status := runCmd()
	require.Equal(t, exitOK, status, errOut)
	assert.Empty(t, errOut)
	for _, c := range commands {
		assert.Contains(t, out, "pqcodec "+c.name+" ")
	}
	assert.NotContains(t, out, "pqcodec demo: ", "the demo ran")
	// Flags before a command are a mistake, not the demo's flags.
	_, errOut, status = runCmd("--short")
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "--short before a command")
}

// TestHelpStyle checks every command's help: flags listed with the double
// dash the usage lines use, and no source file named.
func TestHelpStyle(t *testing.T) {
	top, _, _ := runCmd("--help")
	assert.NotContains(t, top, ".go")
	for _, c := range commands {
		out, errOut, status := runCmd(c.name, "--help")
		require.Equal(t, exitOK, status, errOut)
		assert.NotRegexp(t, `(?m)^\s+-[a-z]`, out, "%s: a flag listed with one dash", c.name)
		assert.NotRegexp(t, `\w\.go\b`, out, "%s: names a source file", c.name)
		for _, f := range strings.Fields(c.args) {
			if strings.HasPrefix(strings.Trim(f, "["), "-") {
				assert.True(t, strings.HasPrefix(strings.Trim(f, "["), "--"), "%s: %s", c.name, f)
			}
		}
	}
	out, _, _ := runCmd("bench", "--help")
	assert.Contains(t, out, "  --workers N")
}

func TestSchemaCommand(t *testing.T) {
	f, err := column.OpenFile(duckdbDefault)
	require.NoError(t, err)
	defer f.Close()
	out, errOut, status := runCmd("schema", duckdbDefault)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, f.Schema().String(), out)
	assert.True(t, strings.HasPrefix(out, "message duckdb_schema {\n  optional int32 id (INTEGER(32,true));\n"), out)
	assert.Contains(t, out, "  optional int64 tstz (TIMESTAMP(MICROS,true));\n")
	assert.Contains(t, out, "  optional group mp (MAP) {\n    repeated group key_value {\n      required binary key (STRING);\n")

	out, errOut, status = runCmd("schema", "--json", duckdbDefault)
	require.Equal(t, exitOK, status, errOut)
	var doc struct {
		Name   string `json:"name"`
		Fields []struct {
			Name string `json:"name"`
		} `json:"fields"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.Equal(t, "duckdb_schema", doc.Name)
	assert.Len(t, doc.Fields, len(f.Schema().Root().Children))
}

func TestRowCountAndSize(t *testing.T) {
	out, errOut, status := runCmd("rowcount", duckdbDefault)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, "1200\n", out)
	out, _, _ = runCmd("rowcount", "--json", "../../testdata/foreign/duckdb/row_groups.parquet")
	var rc struct {
		NumRows   int64   `json:"num_rows"`
		RowGroups []int64 `json:"row_groups"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rc))
	sum := int64(0)
	for _, n := range rc.RowGroups {
		sum += n
	}
	assert.Greater(t, len(rc.RowGroups), 1)
	assert.Equal(t, rc.NumRows, sum)

	out, errOut, status = runCmd("size", "--json", duckdbDefault)
	require.Equal(t, exitOK, status, errOut)
	var sz sizeReport
	require.NoError(t, json.Unmarshal([]byte(out), &sz))
	assert.Equal(t, int64(200105), sz.FileSize)
	assert.Equal(t, int64(4363), sz.Footer)
	assert.Greater(t, sz.Uncompressed, sz.Compressed)
	assert.Less(t, sz.Compressed+sz.Footer, sz.FileSize)
	out, _, _ = runCmd("size", duckdbDefault)
	assert.Contains(t, out, "file:          200 kB (200105 bytes)\n")
	assert.Contains(t, out, "footer:        4.36 kB (4363 bytes)\n")
}

func TestSizeText(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 B", 7: "7 B", 999: "999 B", 1000: "1.00 kB", 1234: "1.23 kB", 99_949: "99.9 kB", 99_950: "100 kB",
		999_499: "999 kB", 999_500: "1.00 MB", 1_234_567: "1.23 MB", 5e9: "5.00 GB", 1 << 62: "4.61 EB",
	} {
		assert.Equal(t, want, sizeText(n), "%d", n)
	}
	assert.Equal(t, "495 bytes", sizeAndBytes(495))
	assert.Equal(t, "1.32 kB (1324 bytes)", sizeAndBytes(1324))
}

// TestInspectIndexesAndStatistics checks that inspect reports statistics,
// key-value metadata, the page index and bloom filters, in text and JSON.
func TestInspectIndexesAndStatistics(t *testing.T) {
	out, errOut, status := runCmd("inspect", "--json", pageIndexBloom)
	require.Equal(t, exitOK, status, errOut)
	var rep inspectReport
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	require.NotEmpty(t, rep.RowGroups)
	for _, c := range rep.RowGroups[0].Columns {
		assert.True(t, c.ColumnIndex && c.OffsetIndex && c.BloomFilter, c.Path)
		require.NotNil(t, c.Statistics, c.Path)
		assert.Empty(t, c.Statistics.Error, c.Path)
	}
	text, _, status := runCmd("meta", pageIndexBloom)
	require.Equal(t, exitOK, status)
	assert.Contains(t, text, "column+offset")
	assert.Contains(t, text, "statistics")

	// DuckDB's file: key-value metadata none, statistics as logical
	// values, no page index.
	out, _, _ = runCmd("inspect", "--json", duckdbDefault)
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	byPath := map[string]chunkReport{}
	for _, c := range rep.RowGroups[0].Columns {
		byPath[c.Path] = c
		assert.False(t, c.ColumnIndex, c.Path)
	}
	dt := byPath["dt"].Statistics
	require.NotNil(t, dt)
	assert.Equal(t, "1833-02-08", *dt.Min)
	assert.Equal(t, "9999999.99", *byPath["d9"].Statistics.Max)
	assert.Equal(t, int64(172), *byPath["ob"].Statistics.NullCount)
	assert.True(t, byPath["i8"].BloomFilter)

	// parquet-go's decimal statistics in the wrong order are reported, not
	// fatal.
	out, errOut, status = runCmd("inspect", "../../testdata/foreign/parquet-go/v1.parquet")
	require.Equal(t, exitOK, status, errOut)
	assert.Regexp(t, `(?m)^  dfix .*min/max unusable: stats: corrupt statistics`, out)

	// Key-value metadata: arrow-go writes its schema.
	out, _, _ = runCmd("inspect", "../../testdata/foreign/arrow-rs/default.parquet")
	assert.Contains(t, out, "key-value metadata:\n  ARROW:schema = ")
}

func TestPagesCommand(t *testing.T) {
	out, errOut, status := runCmd("pages", "--json", pageIndexBloom)
	require.Equal(t, exitOK, status, errOut)
	var pages []pageReport
	require.NoError(t, json.Unmarshal([]byte(out), &pages))
	insp, _, _ := runCmd("inspect", "--json", pageIndexBloom)
	var rep inspectReport
	require.NoError(t, json.Unmarshal([]byte(insp), &rep))
	want := 0
	for _, rg := range rep.RowGroups {
		for _, c := range rg.Columns {
			want += c.Pages.Dictionary + c.Pages.DataV1 + c.Pages.DataV2 + c.Pages.Index + c.Pages.Other
		}
	}
	assert.Equal(t, want, len(pages))
	for i, p := range pages {
		if i > 0 && pages[i-1].Column == p.Column && pages[i-1].RowGroup == p.RowGroup {
			assert.Greater(t, p.Offset, pages[i-1].Offset)
			assert.Equal(t, pages[i-1].Page+1, p.Page)
		}
	}
	// The nulls and rows of each v2 page are its own (they were the last
	// page's: the walker reuses its header), so a chunk's pages add up to
	// its row group's rows.
	out, errOut, status = runCmd("pages", "--json", "../../testdata/foreign/arrow-rs/small_pages_v2.parquet")
	require.Equal(t, exitOK, status, errOut)
	pages = nil
	require.NoError(t, json.Unmarshal([]byte(out), &pages))
	rowsOf := map[string]int32{}
	for _, p := range pages {
		if p.Type == "DATA_PAGE_V2" {
			require.NotNil(t, p.Rows)
			require.NotNil(t, p.Nulls)
			assert.LessOrEqual(t, *p.Nulls, p.Values)
			rowsOf[p.Column] += *p.Rows
		}
	}
	require.NotEmpty(t, rowsOf)
	for col, n := range rowsOf {
		assert.Equal(t, int32(1200), n, "rows of the v2 pages of column %s", col)
	}
	out, errOut, status = runCmd("pages", duckdbDefault, "--columns", "dt")
	require.Equal(t, exitOK, status, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 2, out)
	assert.Regexp(t, `^\s+0\s+dt\s+0\s+\d+\s+DATA_PAGE\s+PLAIN\s+1200\s`, lines[1])
	_, errOut, status = runCmd("pages", duckdbDefault, "--columns", "nope")
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, `no leaf column "nope"`)
}
