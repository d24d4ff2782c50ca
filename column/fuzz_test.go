package column

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/internal/benchdata"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
	"github.com/pqcodec/pqcodec/stats"
)

// FuzzReadFile feeds arbitrary bytes to Open and to every column chunk
// reader: errors are expected, panics, hangs and huge allocations are bugs.
// Seeds are small real files of several writers, codecs and page versions.
func FuzzReadFile(f *testing.F) {
	dir, ok := testcorpus.Find()
	if ok {
		for _, name := range []string{
			"alltypes_plain.parquet",
			"alltypes_plain.snappy.parquet",
			"datapage_v2.snappy.parquet",
			"nested_lists.snappy.parquet",
			"delta_encoding_optional_column.parquet",
			"byte_stream_split.zstd.parquet",
			"hadoop_lz4_compressed.parquet",
			"rle_boolean_encoding.parquet",
		} {
			b, err := os.ReadFile(dir + "/data/" + name)
			if err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte("PAR1PAR1"))
	codecs, err := codecfactory.New(codecfactory.WithMaxPageSize(1 << 20))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer guardCPU(10*time.Second, "FuzzReadFile: input takes over 10s of CPU time")()
		file, err := Open(bytes.NewReader(data), int64(len(data)), WithMaxPageValues(1<<20), WithCodecs(codecs))
		if err != nil {
			return
		}
		var p Page
		for rg := range file.NumRowGroups() {
			for col := range file.NumColumns() {
				r, err := file.Column(rg, col)
				if err != nil {
					continue
				}
				// Every page takes at least one byte of the file, so more
				// pages than bytes is a reader that does not advance.
				for pages := 0; r.ReadPage(&p) == nil; pages++ {
					if pages > len(data) {
						t.Fatalf("row group %d column %d: more pages than the file has bytes", rg, col)
					}
				}
				readDeferredChunk(t, file, rg, col, len(data))
			}
		}
	})
}

// readDeferredChunk reads a column chunk with ReadPageDeferred, taking
// each page's values with AppendValues in two steps: errors are expected,
// panics are bugs, and so is a Values that grows past the page's bytes
// (with append's headroom) or holds other than the values taken.
func readDeferredChunk(t *testing.T, file *File, rg, col, size int) {
	r, err := file.Column(rg, col)
	if err != nil {
		return
	}
	var p Page
	var dst Values
	for pages := 0; r.ReadPageDeferred(&p) == nil; pages++ {
		if pages > size {
			t.Fatalf("row group %d column %d: more pages than the file has bytes", rg, col)
		}
		if p.Dictionary != nil {
			continue
		}
		dst.Reset(p.Values.Type, p.Values.TypeLength)
		raw, n := len(p.raw), p.NumValues()
		if r.AppendValues(&p, &dst, n/2) != nil || r.AppendValues(&p, &dst, n-n/2) != nil {
			continue
		}
		if dst.Len() != n {
			t.Fatalf("AppendValues gave %d values of %d", dst.Len(), n)
		}
		if raw > 0 && valuesCap(&dst) > 2*int64(raw)+64 {
			t.Fatalf("AppendValues grew %d bytes for a section of %d", valuesCap(&dst), raw)
		}
	}
}

// FuzzSeek opens arbitrary bytes with dictionaries kept, reads each chunk's
// page index and seeks each chunk to a fuzzed row before reading it:
// errors are expected, panics and hangs are bugs.
func FuzzSeek(f *testing.F) {
	dir, ok := testcorpus.Find()
	if ok {
		for _, name := range []string{
			"data_index_bloom_encoding_stats.parquet",
			"int32_with_null_pages.parquet",
			"nested_lists.snappy.parquet",
			"datapage_v2.snappy.parquet",
			"repeated_primitive_no_list.parquet",
		} {
			b, err := os.ReadFile(dir + "/data/" + name)
			if err == nil {
				f.Add(b, uint16(3))
			}
		}
	}
	codecs, err := codecfactory.New(codecfactory.WithMaxPageSize(1 << 20))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte, row uint16) {
		defer guardCPU(10*time.Second, "FuzzSeek: input takes over 10s of CPU time")()
		file, err := Open(bytes.NewReader(data), int64(len(data)), WithMaxPageValues(1<<20), WithCodecs(codecs), WithKeepDictionary(row&1 == 1))
		if err != nil {
			return
		}
		var p Page
		for rg := range file.NumRowGroups() {
			for col := range file.NumColumns() {
				_, _, _ = file.PageIndex(rg, col)
				_, _ = file.MatchingRows(rg, col, func(s stats.Stats) bool { return s.HasMinMax })
				r, err := file.Column(rg, col)
				if err != nil {
					continue
				}
				if r.SeekRow(int64(row>>1)) != nil {
					continue
				}
				for r.ReadPage(&p) == nil {
					r.SliceRows(&p, 1, p.NumRows()-1)
					if p.Dictionary != nil && len(p.Indices) != p.NumValues() {
						t.Fatalf("%d indices, %d values", len(p.Indices), p.NumValues())
					}
				}
				_ = r.SeekRow(0)
			}
		}
	})
}

// guardCPU panics, crashing the fuzz worker so that the input is saved, once
// this process has used limit of CPU time since the call; the returned stop
// ends the guard. A hang never returns, so it cannot fail the test in any
// other way. CPU time rather than the wall clock: on a loaded machine a quick
// input can wait for a CPU for seconds (a 10 s wall-clock guard here could
// fire with the load average at 20 on 2 cores), and waiting is not a hang.
func guardCPU(limit time.Duration, msg string) (stop func()) {
	start := benchdata.CPUTime()
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				if benchdata.CPUTime()-start > limit {
					panic(msg)
				}
			}
		}
	}()
	return func() { close(done) }
}
