package column

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testfile"
)

// plainStrings returns the PLAIN encoding of vals.
func plainStrings(vals ...string) []byte {
	var b []byte
	for _, v := range vals {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(v)))
		b = append(b, v...)
	}
	return b
}

// regressFiles are the files of testdata/regress, made here: the shapes of
// writers outside our corpora that once failed to read.
var regressFiles = map[string]func() []byte{
	// PLAIN BYTE_ARRAY pages with bytes after the last value, as HVR 5.3
	// writes them (DuckDB and hyparquet read them): "s" required, 3
	// values and 2 bytes more (fewer than a length); "o" optional, 2 of 3
	// values and 4 bytes more (a length past the end); "d" a dictionary
	// page of 2 values and 3 bytes more, read through an index page.
	"plain_trailing_bytes.parquet": func() []byte {
		str := format.ConvertedUTF8
		leaf := func(name string, rep format.FieldRepetitionType) format.SchemaElement {
			return format.SchemaElement{Name: name, Type: ptr(format.ByteArray), RepetitionType: ptr(rep), ConvertedType: &str}
		}
		schema := []format.SchemaElement{{Name: "schema", NumChildren: ptr[int32](3)},
			leaf("s", format.Required), leaf("o", format.Optional), leaf("d", format.Required)}
		meta := func(name string) format.ColumnMetaData {
			return format.ColumnMetaData{Type: format.ByteArray, PathInSchema: []string{name}, Codec: format.Uncompressed,
				NumValues: 3, Encodings: []format.Encoding{format.Plain, format.RLE}}
		}
		// Definition levels 1, 0, 1: a bit-packed run of one group.
		defs := prefixed(0x03, 0b101)
		dictMeta := meta("d")
		dictMeta.Encodings = append(dictMeta.Encodings, format.RLEDictionary)
		return testfile.File(schema, 3, []testfile.Chunk{
			{Meta: meta("s"), Pages: [][]byte{v1Page(3, format.Plain, append(plainStrings("ab", "cde", "f"), 1, 2))}},
			{Meta: meta("o"), Pages: [][]byte{v1Page(3, format.Plain, append(append(defs, plainStrings("x", "yz")...), 9, 0, 0, 0))}},
			{Meta: dictMeta, Dict: true, Pages: [][]byte{
				dictPage(2, append(plainStrings("red", "green"), 7, 7, 7)),
				// Bit width 1, one bit-packed group: indices 1, 0, 1.
				v1Page(3, format.RLEDictionary, []byte{1, 0x03, 0b101}),
			}},
		}, nil)
	},
	// A schema without leaf columns whose row group holds 2 rows, as
	// fastparquet writes an empty DataFrame with an index of 2: the rows
	// are empty records.
	"no_columns.parquet": func() []byte {
		schema := []format.SchemaElement{{Name: "schema", NumChildren: ptr[int32](0)}}
		return testfile.File(schema, 2, []testfile.Chunk{}, nil)
	},
}

// TestRegressFiles checks that testdata/regress holds what regressFiles
// make (PQCODEC_UPDATE=1 writes them).
func TestRegressFiles(t *testing.T) {
	for name, make := range regressFiles {
		path := filepath.Join("..", "testdata", "regress", name)
		want := make()
		if os.Getenv("PQCODEC_UPDATE") == "1" {
			require.NoError(t, os.WriteFile(path, want, 0o644))
		}
		got, err := os.ReadFile(path)
		require.NoError(t, err)
		require.True(t, bytes.Equal(got, want), "%s differs from what regressFiles makes", name)
	}
}

// TestPlainTrailingBytes reads PLAIN BYTE_ARRAY pages with bytes after
// their last value (READING.md: other readers ignore them): the first
// values the levels ask for, the rest ignored. The one-pass decode of the
// whole page failed on them and its error was returned.
func TestPlainTrailingBytes(t *testing.T) {
	f, err := OpenFile(filepath.Join("..", "testdata", "regress", "plain_trailing_bytes.parquet"))
	require.NoError(t, err)
	defer f.Close()
	want := [][]any{
		{"ab", "cde", "f"},
		{"x", "yz"},
		{"green", "red", "green"},
	}
	for col, w := range want {
		pages, err := readPages(t, f, col)
		require.NoError(t, err, "column %d", col)
		require.Len(t, pages, 1)
		var got []any
		for i := range pages[0].Values.Len() {
			got = append(got, string(pages[0].Values.ByteArray(i)))
		}
		require.Equal(t, w, got, "column %d", col)
	}
}
