package arrowgo

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/stretchr/testify/require"
)

// writeOurs writes tbl with FileWriter in row groups of chunk rows.
func writeOurs(t testing.TB, tbl arrow.Table, chunk int64, opts ...WriterOption) []byte {
	var buf bytes.Buffer
	fw, err := NewFileWriter(tbl.Schema(), &buf, opts...)
	require.NoError(t, err)
	require.NoError(t, fw.WriteTable(tbl, chunk))
	require.NoError(t, fw.Close())
	return buf.Bytes()
}

// TestWriteRoundTrip reads every corpus file both readers read equal,
// writes the table with FileWriter and reads it back with pqarrow and
// with FileReader: both equal the original, schema included.
//
// With $PQCODEC_ARROWWRITE_DIR set, each written file is kept there with a
// manifest.tsv for scripts/difftest/readback.mjs (make arrow-readback):
// DuckDB, arrow-rs, Polars and hyparquet read each as they read its source.
func TestWriteRoundTrip(t *testing.T) {
	keep := os.Getenv("PQCODEC_ARROWWRITE_DIR")
	var manifest strings.Builder
	if keep != "" {
		require.NoError(t, os.MkdirAll(keep, 0o755))
		defer func() {
			require.NoError(t, os.WriteFile(filepath.Join(keep, "manifest.tsv"), []byte(manifest.String()), 0o644))
		}()
	}
	withAdapter(t, func() {
		var written, unsupported int
		for _, path := range corpusFiles(t) {
			name := filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
			if _, ok := tooLarge[name]; ok {
				continue
			}
			t.Run(name, func(t *testing.T) {
				data, err := os.ReadFile(path)
				require.NoError(t, err)
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				orig, ourErr := oursTable(data, mem)
				if ourErr != nil {
					return
				}
				defer orig.Release()
				theirs, theirErr := pqarrowTable(data, pqarrow.ArrowReadProperties{})
				if theirErr != nil {
					return
				}
				theirs.Release()
				var buf bytes.Buffer
				fw, err := NewFileWriter(orig.Schema(), &buf)
				require.NoError(t, err)
				if err := fw.WriteTable(orig, 1000); err != nil {
					unsupported++
					t.Logf("not written: %v", err)
					return
				}
				require.NoError(t, fw.Close())
				written++
				if keep != "" {
					abs, err := filepath.Abs(path)
					require.NoError(t, err)
					out := filepath.Join(keep, fmt.Sprintf("%03d-%s", written, filepath.Base(path)))
					require.NoError(t, os.WriteFile(out, buf.Bytes(), 0o644))
					fmt.Fprintf(&manifest, "%s\t%s\tarrowgo.FileWriter\n", abs, out)
				}
				back, err := pqarrowTable(buf.Bytes(), pqarrow.ArrowReadProperties{})
				require.NoError(t, err, "pqarrow reads it back")
				defer back.Release()
				want := orig
				if !orig.Schema().Equal(back.Schema()) {
					// pqarrow renames list elements "element" (the Parquet
					// names it writes): then the oracle is the table pqarrow
					// writes and reads back.
					var pb bytes.Buffer
					require.NoError(t, pqarrow.WriteTable(orig, &pb, 1000, nil, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema())))
					pt, err := pqarrowTable(pb.Bytes(), pqarrow.ArrowReadProperties{})
					require.NoError(t, err)
					defer pt.Release()
					want = pt
				}
				if diff := equalTables(want, back); diff != "" {
					t.Errorf("pqarrow reads back: %s", diff)
				}
				ours, err := oursTable(buf.Bytes(), mem)
				require.NoError(t, err, "FileReader reads it back")
				defer ours.Release()
				if diff := equalTables(want, ours); diff != "" {
					t.Errorf("FileReader reads back: %s", diff)
				}
			})
		}
		t.Logf("written and read back equal: %d files; not written: %d", written, unsupported)
	})
}

// TestWriterErrors: types pqarrow cannot write, records of another
// schema and writes after Close are errors, never panics.
func TestWriterErrors(t *testing.T) {
	var buf bytes.Buffer
	_, err := NewFileWriter(arrow.NewSchema([]arrow.Field{{Name: "d", Type: arrow.FixedWidthTypes.MonthDayNanoInterval}}, nil), &buf)
	require.ErrorIs(t, err, ErrUnsupported)
	_, err = NewFileWriter(arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.ListViewOf(arrow.PrimitiveTypes.Int32)}}, nil), &buf)
	require.ErrorIs(t, err, ErrUnsupported)
	_, err = NewFileWriter(arrow.NewSchema(nil, nil), &buf, WithWriterProperties(nil))
	require.ErrorIs(t, err, ErrArgument)

	sc := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32}}, nil)
	other := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64}}, nil)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := randomRecord(mem, other, 10, 1)
	defer rec.Release()
	fw, err := NewFileWriter(sc, &buf)
	require.NoError(t, err)
	require.ErrorIs(t, fw.Write(rec), ErrArgument)
	require.NoError(t, fw.Close())
	good := randomRecord(mem, sc, 10, 1)
	defer good.Release()
	require.ErrorIs(t, fw.Write(good), ErrArgument)
}
