package rows

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a", "\"\\\n", "\xff", "ü✓🎉", "\x00\x1f"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		got := AppendString(nil, s)
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("%q gives invalid JSON %s: %v", s, got, err)
		}
		if want := string([]rune(string(s))); back != want {
			t.Fatalf("%q reads back as %q, want %q", s, back, want)
		}
	})
}

// FuzzReader assembles the rows of arbitrary files: it must return rows of
// valid JSON or an error, never panic or loop, and ReadRow must return the
// same rows as Go values.
func FuzzReader(f *testing.F) {
	if dir, ok := testcorpus.Find(); ok {
		for _, name := range []string{"nested_lists.snappy.parquet", "nested_maps.snappy.parquet",
			"repeated_no_annotation.parquet", "old_list_structure.parquet", "null_list.parquet",
			"map_no_value.parquet", "list_columns.parquet"} {
			if b, err := os.ReadFile(dir + "/data/" + name); err == nil {
				f.Add(b)
			}
		}
	}
	// Small limits keep hostile page headers from making an input slow.
	codecs, err := codecfactory.New(codecfactory.WithMaxPageSize(1 << 20))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := column.Open(bytes.NewReader(data), int64(len(data)), column.WithMaxPageValues(1<<16), column.WithCodecs(codecs))
		if err != nil {
			return
		}
		// The first byte picks a row range, so that skipping is fuzzed too.
		var opts []Option
		if len(data) > 0 && data[0]&1 != 0 {
			opts = append(opts, WithRange(int64(data[0]>>4), int64(data[0]>>1&7)))
		}
		r, err := NewReader(file, opts...)
		if err != nil {
			t.Fatal(err)
		}
		rv, err := NewReader(file, opts...)
		if err != nil {
			t.Fatal(err)
		}
		rw, err := NewReader(file, opts...)
		if err != nil {
			t.Fatal(err)
		}
		var row []byte
		var line bytes.Buffer
		for range 10_000 {
			row, err = r.AppendRow(row[:0])
			g, gerr := rv.ReadRow(nil)
			line.Reset()
			werr := rw.WriteRow(&line)
			if (err == nil) != (gerr == nil) || (err == nil) != (werr == nil) {
				t.Fatalf("AppendRow error %v, ReadRow error %v, WriteRow error %v", err, gerr, werr)
			}
			if err == nil && line.String() != string(row)+"\n" {
				t.Fatalf("WriteRow gives %s, AppendRow %s", line.Bytes(), row)
			}
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				var pe *column.PageError
				if !errors.As(err, &pe) {
					t.Fatalf("error is not a *column.PageError: %v", err)
				}
				return
			}
			if !json.Valid(row) {
				t.Fatalf("invalid JSON row %s", row)
			}
			if got := appendJSON(nil, g); !bytes.Equal(got, row) {
				t.Fatalf("ReadRow gives %s, AppendRow %s", got, row)
			}
		}
	})
}
