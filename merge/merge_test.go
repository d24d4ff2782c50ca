package merge_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pqcodec/pqcodec"
	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/merge"
	"github.com/pqcodec/pqcodec/rows"
	"github.com/pqcodec/pqcodec/writer"
)

const testSchema = `message m {
	required int64 id;
	optional binary name (STRING);
	optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
	optional double x;
	required int32 day (DATE);
}`

// genFile writes a file of n random rows of testSchema, ids from first on,
// with options of its own drawn from rng: codec, page version, page rows,
// row group rows, bloom filters, dictionary.
func genFile(t testing.TB, rng *rand.Rand, first int64, n int) []byte {
	t.Helper()
	s, err := format.ParseSchema(testSchema)
	if err != nil {
		t.Fatal(err)
	}
	codecs := []codecfactory.Codec{codecfactory.Zstd, codecfactory.Snappy, codecfactory.Uncompressed, codecfactory.Gzip, codecfactory.Lz4Raw}
	wopts := []writer.Option{
		writer.WithCodec(codecs[rng.IntN(len(codecs))]),
		writer.WithPageVersion(1 + rng.IntN(2)),
		writer.WithPageRows(1 + rng.IntN(20)),
		writer.WithRowGroupRows(int64(1 + rng.IntN(60))),
		writer.WithDictionary(rng.IntN(2) == 0),
	}
	if rng.IntN(3) == 0 {
		wopts = append(wopts, writer.WithBloomFilter(100, 0.01))
	}
	var buf bytes.Buffer
	w, err := rows.NewWriter(&buf, s, rows.WithWriterOptions(wopts...), rows.WithBatchRows(1+rng.IntN(16)))
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		row := rows.Group{{Name: "id", Value: first + int64(i)}}
		if rng.IntN(4) > 0 {
			row = append(row, rows.Field{Name: "name", Value: fmt.Sprintf("name-%d", rng.IntN(50))})
		} else {
			row = append(row, rows.Field{Name: "name", Value: nil})
		}
		switch rng.IntN(4) {
		case 0:
			row = append(row, rows.Field{Name: "tags", Value: nil})
		default:
			var tags []any
			for range rng.IntN(4) {
				if rng.IntN(5) == 0 {
					tags = append(tags, nil)
				} else {
					tags = append(tags, fmt.Sprintf("t%d", rng.IntN(9)))
				}
			}
			if tags == nil {
				tags = []any{}
			}
			row = append(row, rows.Field{Name: "tags", Value: tags})
		}
		if rng.IntN(5) > 0 {
			row = append(row, rows.Field{Name: "x", Value: rng.NormFloat64()})
		} else {
			row = append(row, rows.Field{Name: "x", Value: nil})
		}
		row = append(row, rows.Field{Name: "day", Value: int32(19000 + rng.IntN(1000))})
		if err := w.WriteRow(row); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readRows returns the rows of file as JSON lines, as pqcodec cat prints
// them.
func readRows(t testing.TB, file []byte) []string {
	t.Helper()
	f, err := column.Open(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	r, err := rows.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var line []byte
	for {
		line, err = r.AppendRow(line[:0])
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(line))
	}
}

func genInputs(t testing.TB, seed uint64, files, maxRows int) ([]merge.Input, []string) {
	rng := rand.New(rand.NewPCG(seed, 1))
	var inputs []merge.Input
	var want []string
	var id int64
	for i := range files {
		n := rng.IntN(maxRows + 1)
		b := genFile(t, rng, id, n)
		id += int64(n)
		inputs = append(inputs, merge.Reader(fmt.Sprintf("in%04d.parquet", i), bytes.NewReader(b), int64(len(b))))
		want = append(want, readRows(t, b)...)
	}
	return inputs, want
}

// keep writes the inputs and the merged files of TestMergeThousand under
// $PQCODEC_MERGE_DIR when it is set, for scripts/difftest/mergecheck.mjs.
func keep(t *testing.T, name string, b []byte) {
	dir := os.Getenv("PQCODEC_MERGE_DIR")
	if dir == "" {
		return
	}
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func checkMerged(t *testing.T, inputs []merge.Input, want []string, opts ...merge.Option) (*merge.Result, []byte) {
	t.Helper()
	var out bytes.Buffer
	res, err := merge.Merge(&out, inputs, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if res.BytesOut != int64(out.Len()) || res.Rows != int64(len(want)) {
		t.Fatalf("result %+v for %d bytes, %d rows", res, out.Len(), len(want))
	}
	got := readRows(t, out.Bytes())
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("row %d: %s, want %s", i, got[i], want[i])
		}
	}
	if err := merge.Verify(context.Background(), bytes.NewReader(out.Bytes()), int64(out.Len()), inputs, res); err != nil {
		t.Fatal(err)
	}
	keep(t, "out-"+filepath.Base(t.Name())+".parquet", out.Bytes())
	return res, out.Bytes()
}

// TestMergeThousand merges 1,000 small files of random rows (and random
// writer options) and reads the rows back in input order: every row group
// copied, every small one combined, and a mix.
func TestMergeThousand(t *testing.T) {
	files := 1000
	if testing.Short() {
		files = 100
	}
	maxRows := 40
	if n, err := strconv.Atoi(os.Getenv("PQCODEC_MERGE_ROWS")); err == nil && n > 0 {
		maxRows = n // larger inputs, for scripts/difftest/mergebench.mjs
	}
	inputs, want := genInputs(t, 1, files, maxRows)
	for _, in := range inputs {
		r, size, err := in.Open()
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, size)
		if _, err := r.ReadAt(b, 0); err != nil {
			t.Fatal(err)
		}
		keep(t, filepath.Join("in", in.Name), b)
	}
	t.Run("copy", func(t *testing.T) {
		res, _ := checkMerged(t, inputs, want, merge.WithMinRowGroupSize(0), merge.WithWorkers(3))
		if res.RowGroupsCombined != 0 || res.RowGroupsOut != res.RowGroupsIn {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("combine", func(t *testing.T) {
		res, _ := checkMerged(t, inputs, want, merge.WithWorkers(2))
		if res.RowGroupsOut != 1 || res.RowGroupsCombined != res.RowGroupsIn {
			t.Fatalf("%d row groups out, %d of %d combined", res.RowGroupsOut, res.RowGroupsCombined, res.RowGroupsIn)
		}
	})
	t.Run("mixed", func(t *testing.T) {
		res, _ := checkMerged(t, inputs, want, merge.WithMinRowGroupSize(1200), merge.WithMaxMemory(64<<10))
		if res.RowGroupsCombined == 0 || res.RowGroupsCopied == 0 {
			t.Fatalf("%+v", res)
		}
	})
}

// TestMergeSameBytes checks that the output does not depend on the number
// of workers or the memory budget.
func TestMergeSameBytes(t *testing.T) {
	inputs, _ := genInputs(t, 2, 60, 30)
	var first []byte
	for _, opts := range [][]merge.Option{
		{merge.WithWorkers(1)},
		{merge.WithWorkers(4)},
		{merge.WithWorkers(3), merge.WithMaxMemory(1)},
	} {
		opts = append(opts, merge.WithMinRowGroupSize(800))
		var out bytes.Buffer
		if _, err := merge.Merge(&out, inputs, opts...); err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = out.Bytes()
		} else if !bytes.Equal(first, out.Bytes()) {
			t.Fatal("output depends on the workers")
		}
	}
	// One run of every row group, combined by one writer with as many
	// workers as the merge.
	first = nil
	for _, w := range []int{1, 2, 5} {
		var out bytes.Buffer
		res, err := merge.Merge(&out, inputs, merge.WithWorkers(w))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Groups) != 1 || !res.Groups[0].Combined {
			t.Fatalf("%d workers: %+v, want one run combined", w, res.Groups)
		}
		if first == nil {
			first = out.Bytes()
		} else if !bytes.Equal(first, out.Bytes()) {
			t.Fatalf("one run: output depends on the workers (%d)", w)
		}
	}
}

func TestMergeSchemaMismatch(t *testing.T) {
	inputs, _ := genInputs(t, 3, 3, 10)
	s, err := format.ParseSchema(`message other {
		required int64 id;
		optional binary name (STRING);
		optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
		optional float x;
		required int32 day (DATE);
	}`)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := writer.New(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	inputs = append(inputs, merge.Reader("float.parquet", bytes.NewReader(buf.Bytes()), int64(buf.Len())))
	var out bytes.Buffer
	_, err = merge.Merge(&out, inputs)
	var se *merge.SchemaError
	if !errors.As(err, &se) || !errors.Is(err, merge.ErrSchemaMismatch) {
		t.Fatalf("err = %v", err)
	}
	if se.First != "in0000.parquet" || se.Second != "float.parquet" || se.Field != "x" {
		t.Fatalf("%+v", se)
	}
	t.Log(err)
}

// failWriter fails after n bytes.
type failWriter struct{ n int }

var errFull = errors.New("disk full")

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		n := w.n
		w.n = 0
		return n, errFull
	}
	w.n -= len(p)
	return len(p), nil
}

func TestMergeInterrupted(t *testing.T) {
	inputs, _ := genInputs(t, 4, 200, 40)
	for _, n := range []int{0, 10, 5000, 40000} {
		_, err := merge.Merge(&failWriter{n: n}, inputs, merge.WithMinRowGroupSize(2000))
		if !errors.Is(err, errFull) {
			t.Fatalf("writer failing after %d bytes: %v", n, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	calls := 0
	_, err := merge.MergeContext(ctx, &out, inputs, merge.WithMinRowGroupSize(0), merge.WithProgress(func(done, total int64) {
		if calls++; calls == 3 {
			cancel()
		}
	}))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	// A broken input: an error naming it, ErrCorrupt.
	bad := make([]byte, 100)
	copy(bad, "PAR1")
	copy(bad[96:], "PAR1")
	inputs = append(inputs[:3:3], merge.Reader("bad.parquet", bytes.NewReader(bad), int64(len(bad))))
	_, err = merge.Merge(&out, inputs)
	if !errors.Is(err, pqcodec.ErrCorrupt) {
		t.Fatalf("bad input: %v", err)
	}
}

// TestMergeInputChanged checks that an input whose size changed between the
// footer and the row groups combined is an error, not a read of other
// bytes, and that each input is opened once for its footer and once for its
// run of combined row groups (and by Verify once for the run).
func TestMergeInputChanged(t *testing.T) {
	inputs, _ := genInputs(t, 3, 4, 30)
	opens := make([]int, len(inputs))
	for i := range inputs {
		open := inputs[i].Open
		inputs[i].Open = func() (io.ReaderAt, int64, error) {
			opens[i]++
			return open()
		}
	}
	res, err := merge.Merge(io.Discard, inputs, merge.WithWorkers(1))
	if err != nil {
		t.Fatal(err)
	}
	want := make([]int, len(inputs))
	for i := range want {
		want[i] = 1 // the footer
	}
	for _, g := range res.Groups {
		if !g.Combined {
			t.Fatalf("%+v: not combined", g)
		}
		for _, s := range g.Sources {
			want[s.Input] = 2 // and the run
		}
	}
	for i, n := range opens {
		if n != want[i] {
			t.Errorf("input %d opened %d times, want %d", i, n, want[i])
		}
	}
	// Verify opens each input once for its run of row groups.
	var out bytes.Buffer
	if res, err = merge.Merge(&out, inputs, merge.WithWorkers(1)); err != nil {
		t.Fatal(err)
	}
	clear(opens)
	if err := merge.Verify(context.Background(), bytes.NewReader(out.Bytes()), int64(out.Len()), inputs, res); err != nil {
		t.Fatal(err)
	}
	for i, n := range opens {
		if n != want[i]-1 {
			t.Errorf("Verify opened input %d %d times, want %d", i, n, want[i]-1)
		}
	}
	for i := range inputs {
		open := inputs[i].Open
		calls := 0
		inputs[i].Open = func() (io.ReaderAt, int64, error) {
			r, size, err := open()
			if calls++; calls > 1 {
				size--
			}
			return r, size, err
		}
	}
	_, err = merge.Merge(io.Discard, inputs, merge.WithWorkers(2))
	if !errors.Is(err, merge.ErrCorrupt) || !strings.Contains(err.Error(), "when its footer was read") {
		t.Fatalf("got %v, want ErrCorrupt for the changed size", err)
	}
}
