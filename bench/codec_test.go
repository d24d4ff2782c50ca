//go:build cgo

package bench

import (
	"bytes"
	stdgzip "compress/gzip"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"

	datadog "github.com/DataDog/zstd"
	abrotli "github.com/andybalholm/brotli"
	"github.com/golang/snappy"
	"github.com/google/brotli/go/cbrotli"
	kgzip "github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/s2"
	kzstd "github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/bench/internal/lz4bare"
	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/internal/benchdata"
	nbrotli "github.com/pqcodec/pqcodec/native/brotli"
	ndeflate "github.com/pqcodec/pqcodec/native/deflate"
	nlz4 "github.com/pqcodec/pqcodec/native/lz4"
	nzstd "github.com/pqcodec/pqcodec/native/zstd"
)

// The levels every implementation compresses at: codecfactory's defaults.
const (
	zstdLevel     = codecfactory.DefaultZstdLevel
	gzipLevel     = codecfactory.DefaultGzipLevel
	brotliQuality = codecfactory.DefaultBrotliQuality
	brotliWindow  = codecfactory.DefaultBrotliWindow
)

var (
	factoryOnce         sync.Once
	nativeF, pureGoF    *codecfactory.Factory
	errFactory          error
	errUnexpectedOutput = errors.New("bench: output differs from input")
)

// factories returns the shared default Factory (native where available)
// and a pure-Go one.
func factories(tb testing.TB) (*codecfactory.Factory, *codecfactory.Factory) {
	factoryOnce.Do(func() {
		nativeF, errFactory = codecfactory.New()
		if errFactory == nil {
			pureGoF, errFactory = codecfactory.New(codecfactory.WithPureGo(true))
		}
	})
	require.NoError(tb, errFactory)
	return nativeF, pureGoF
}

// appendWriter is an io.Writer appending to a slice, so stream encoders
// write straight into a reused buffer.
type appendWriter struct{ b []byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// readAll reads exactly len(dst) bytes from r into dst and checks that r
// ends there (which makes gzip and brotli readers verify their trailers).
func readAll(dst []byte, r io.Reader, probe []byte) ([]byte, error) {
	if _, err := io.ReadFull(r, dst); err != nil {
		return nil, err
	}
	if k, err := r.Read(probe); k != 0 || err != io.EOF {
		return nil, fmt.Errorf("bench: stream longer than %d bytes (%d, %v)", len(dst), k, err)
	}
	return dst, nil
}

// codecImpl is one implementation of a codec. compress appends to dst;
// decompress writes the n bytes of the page into dst[:n] (cap(dst) >= n)
// and returns them. Both keep their own state, reused across calls as each
// library allows.
type codecImpl struct {
	name       string
	compress   func(dst, src []byte) ([]byte, error)
	decompress func(dst, src []byte, n int) ([]byte, error)
}

// codecRow is one codec with every implementation measured for it.
type codecRow struct {
	name  string
	codec codecfactory.Codec
	impls []codecImpl
}

func factoryImpl(name string, f *codecfactory.Factory, c codecfactory.Codec) codecImpl {
	return codecImpl{
		name:       name,
		compress:   func(dst, src []byte) ([]byte, error) { return f.Compress(c, dst, src) },
		decompress: func(dst, src []byte, n int) ([]byte, error) { return f.Decompress(c, dst, src, n) },
	}
}

func codecRows(tb testing.TB) []codecRow {
	ours, pure := factories(tb)
	var rows []codecRow

	// ZSTD.
	zc, err := nzstd.NewCompressor(zstdLevel)
	require.NoError(tb, err)
	zd, err := nzstd.NewDecompressor()
	require.NoError(tb, err)
	kze, err := kzstd.NewWriter(nil, kzstd.WithEncoderConcurrency(1),
		kzstd.WithEncoderLevel(kzstd.EncoderLevelFromZstd(zstdLevel)))
	require.NoError(tb, err)
	kzd, err := kzstd.NewReader(nil, kzstd.WithDecoderConcurrency(1))
	require.NoError(tb, err)
	ddc, ddd := datadog.NewCtx(), datadog.NewCtx()
	rows = append(rows, codecRow{"zstd", codecfactory.Zstd, []codecImpl{
		factoryImpl("ours", ours, codecfactory.Zstd),
		{"native", zc.Compress, func(dst, src []byte, _ int) ([]byte, error) { return zd.Decompress(dst, src) }},
		factoryImpl("purego", pure, codecfactory.Zstd),
		{"klauspost",
			func(dst, src []byte) ([]byte, error) { return kze.EncodeAll(src, dst), nil },
			func(dst, src []byte, _ int) ([]byte, error) { return kzd.DecodeAll(src, dst) }},
		{"datadog", // one-shot calls, a new libzstd context each time
			func(dst, src []byte) ([]byte, error) { return datadog.CompressLevel(dst[:cap(dst)], src, zstdLevel) },
			func(dst, src []byte, n int) ([]byte, error) {
				k, err := datadog.DecompressInto(dst[:n], src)
				return dst[:k], err
			}},
		{"datadogctx", // the direct C call with a reused context
			func(dst, src []byte) ([]byte, error) { return ddc.CompressLevel(dst[:cap(dst)], src, zstdLevel) },
			func(dst, src []byte, n int) ([]byte, error) {
				k, err := ddd.DecompressInto(dst[:n], src)
				return dst[:k], err
			}},
	}})

	// GZIP.
	gc, err := ndeflate.NewCompressor(gzipLevel)
	require.NoError(tb, err)
	gd, err := ndeflate.NewDecompressor()
	require.NoError(tb, err)
	kgw, err := kgzip.NewWriterLevel(nil, gzipLevel)
	require.NoError(tb, err)
	sgw, err := stdgzip.NewWriterLevel(nil, gzipLevel)
	require.NoError(tb, err)
	var (
		kgr   kgzip.Reader
		sgr   stdgzip.Reader
		br    bytes.Reader
		aw    appendWriter
		probe [1]byte
	)
	rows = append(rows, codecRow{"gzip", codecfactory.Gzip, []codecImpl{
		factoryImpl("ours", ours, codecfactory.Gzip),
		{"native", gc.Compress, func(dst, src []byte, _ int) ([]byte, error) { return gd.Decompress(dst, src) }},
		factoryImpl("purego", pure, codecfactory.Gzip),
		{"klauspost",
			func(dst, src []byte) ([]byte, error) {
				aw.b = dst
				kgw.Reset(&aw)
				if _, err := kgw.Write(src); err != nil {
					return nil, err
				}
				err := kgw.Close()
				return aw.b, err
			},
			func(dst, src []byte, n int) ([]byte, error) {
				br.Reset(src)
				if err := kgr.Reset(&br); err != nil {
					return nil, err
				}
				return readAll(dst[:n], &kgr, probe[:])
			}},
		{"stdlib",
			func(dst, src []byte) ([]byte, error) {
				aw.b = dst
				sgw.Reset(&aw)
				if _, err := sgw.Write(src); err != nil {
					return nil, err
				}
				err := sgw.Close()
				return aw.b, err
			},
			func(dst, src []byte, n int) ([]byte, error) {
				br.Reset(src)
				if err := sgr.Reset(&br); err != nil {
					return nil, err
				}
				return readAll(dst[:n], &sgr, probe[:])
			}},
	}})

	// BROTLI.
	bc, err := nbrotli.NewCompressor(brotliQuality, brotliWindow)
	require.NoError(tb, err)
	bd, err := nbrotli.NewDecompressor()
	require.NoError(tb, err)
	abw := abrotli.NewWriterOptions(nil, abrotli.WriterOptions{Quality: brotliQuality, LGWin: brotliWindow})
	var abr abrotli.Reader
	cbOpts := cbrotli.WriterOptions{Quality: brotliQuality, LGWin: brotliWindow}
	rows = append(rows, codecRow{"brotli", codecfactory.Brotli, []codecImpl{
		factoryImpl("ours", ours, codecfactory.Brotli),
		{"native", bc.Compress, func(dst, src []byte, _ int) ([]byte, error) { return bd.Decompress(dst, src) }},
		factoryImpl("purego", pure, codecfactory.Brotli),
		{"andybalholm",
			func(dst, src []byte) ([]byte, error) {
				aw.b = dst
				abw.Reset(&aw)
				if _, err := abw.Write(src); err != nil {
					return nil, err
				}
				err := abw.Close()
				return aw.b, err
			},
			func(dst, src []byte, n int) ([]byte, error) {
				br.Reset(src)
				if err := abr.Reset(&br); err != nil {
					return nil, err
				}
				return readAll(dst[:n], &abr, probe[:])
			}},
		{"cbrotli", // no reusable state in its API: a new C instance per call
			func(dst, src []byte) ([]byte, error) {
				aw.b = dst
				w := cbrotli.NewWriter(&aw, cbOpts)
				if _, err := w.Write(src); err != nil {
					return nil, err
				}
				err := w.Close()
				return aw.b, err
			},
			func(dst, src []byte, n int) ([]byte, error) {
				br.Reset(src)
				r := cbrotli.NewReader(&br)
				out, err := readAll(dst[:n], r, probe[:])
				if cerr := r.Close(); err == nil {
					err = cerr
				}
				return out, err
			}},
	}})

	// SNAPPY.
	rows = append(rows, codecRow{"snappy", codecfactory.Snappy, []codecImpl{
		factoryImpl("ours", ours, codecfactory.Snappy),
		{"golang",
			func(dst, src []byte) ([]byte, error) { return snappy.Encode(dst[:cap(dst)], src), nil },
			func(dst, src []byte, n int) ([]byte, error) { return snappy.Decode(dst[:n], src) }},
		{"klauspost", // github.com/klauspost/compress/s2 in its Snappy-compatible mode
			func(dst, src []byte) ([]byte, error) { return s2.EncodeSnappy(dst[:cap(dst)], src), nil },
			func(dst, src []byte, n int) ([]byte, error) { return s2.Decode(dst[:n], src) }},
	}})

	// LZ4_RAW (Hadoop-framed LZ4 has no Go peer). "native" is native/lz4
	// called directly (LZ4_compress_fast_extState; its scan for match
	// offsets of 0, then LZ4_decompress_safe, on every block, where ours
	// hands liblz4 only blocks of mostly literals); its own BenchmarkCodec
	// compares it with the bare C call.
	var lzc lz4.Compressor
	lc, err := nlz4.NewCompressor(nlz4.LevelFast)
	require.NoError(tb, err)
	ld, err := nlz4.NewDecompressor()
	require.NoError(tb, err)
	rows = append(rows, codecRow{"lz4raw", codecfactory.Lz4Raw, []codecImpl{
		factoryImpl("ours", ours, codecfactory.Lz4Raw),
		{"native", lc.Compress, func(dst, src []byte, _ int) ([]byte, error) { return ld.Decompress(dst, src) }},
		factoryImpl("purego", pure, codecfactory.Lz4Raw),
		{"pierrec",
			func(dst, src []byte) ([]byte, error) {
				k, err := lzc.CompressBlock(src, dst[:cap(dst)])
				return dst[:k], err
			},
			func(dst, src []byte, n int) ([]byte, error) {
				k, err := lz4.UncompressBlock(src, dst[:n])
				return dst[:k], err
			}},
	}})
	if lz4bare.Available {
		// liblz4's LZ4_decompress_safe alone, without native/lz4's scan:
		// the limit the choice between liblz4 and pierrec is measured
		// against (it copies a match offset of 0 from dst, so no reader
		// can use it bare). Its compressor is native's, not timed again.
		last := &rows[len(rows)-1]
		last.impls = append(last.impls, codecImpl{"liblz4", lc.Compress,
			func(dst, src []byte, n int) ([]byte, error) {
				k := lz4bare.Decompress(dst[:n], src)
				if k < 0 {
					return dst, fmt.Errorf("LZ4_decompress_safe: %d", k)
				}
				return dst[:k], nil
			}})
	}
	return rows
}

// codecPages caches the datasets of the codec benchmarks.
var codecPages sync.Map // "name/size" -> []byte

func codecPage(d CodecDataset, size PageSize) []byte {
	key := d.Name + "/" + size.Name
	if v, ok := codecPages.Load(key); ok {
		return v.([]byte)
	}
	p := d.Page(size.Bytes)
	codecPages.Store(key, p)
	return p
}

// compressBound is room enough for any implementation's output.
func compressBound(n int) int { return n + n/8 + 1<<10 }

// BenchmarkDecompress decompresses, with every implementation, the page
// compressed by pqcodec (libzstd, libdeflate, libbrotli where available),
// into a reused buffer of the page's size. Beside wall time it reports the
// process's CPU time per operation as "cpu-ns/op", steadier than wall time
// on a shared machine.
func BenchmarkDecompress(b *testing.B) {
	ours, _ := factories(b)
	for _, row := range codecRows(b) {
		for _, d := range CodecDatasets {
			for _, size := range PageSizes {
				page := codecPage(d, size)
				comp, err := ours.Compress(row.codec, nil, page)
				require.NoError(b, err)
				for _, im := range row.impls {
					name := fmt.Sprintf("codec=%s/data=%s/size=%s/impl=%s", row.name, d.Name, size.Name, im.name)
					b.Run(name, func(b *testing.B) {
						dst := make([]byte, 0, len(page))
						out, err := im.decompress(dst, comp, len(page))
						require.NoError(b, err)
						require.True(b, bytes.Equal(out, page), "%s: %v", name, errUnexpectedOutput)
						b.SetBytes(int64(len(page)))
						b.ReportAllocs()
						cpu0 := benchdata.CPUTime()
						b.ResetTimer()
						for b.Loop() {
							if _, err := im.decompress(dst, comp, len(page)); err != nil {
								b.Fatal(err)
							}
						}
						b.StopTimer()
						if spent := benchdata.CPUTime() - cpu0; spent > 0 {
							b.ReportMetric(float64(spent)/float64(b.N), "cpu-ns/op")
						}
					})
				}
			}
		}
	}
}

// BenchmarkCompress compresses each page with every implementation at the
// same level into a reused buffer, and reports the compression ratio
// (uncompressed/compressed) as the "ratio" metric and the process's CPU
// time per operation as "cpu-ns/op". The output of every implementation is
// checked to decompress, with pqcodec, to the page.
func BenchmarkCompress(b *testing.B) {
	ours, _ := factories(b)
	for _, row := range codecRows(b) {
		for _, d := range CodecDatasets {
			for _, size := range PageSizes {
				page := codecPage(d, size)
				for _, im := range row.impls {
					if im.name == "purego" || im.name == "liblz4" {
						// pqcodec's pure-Go compressors are the peers' own
						// encoders behind the Factory, liblz4's is native's
						// LZ4_compress_fast_extState: timing them again would
						// only lengthen the run.
						continue
					}
					name := fmt.Sprintf("codec=%s/data=%s/size=%s/impl=%s", row.name, d.Name, size.Name, im.name)
					b.Run(name, func(b *testing.B) { benchCompress(b, ours, row.codec, page, im.compress, true) })
				}
			}
		}
	}
}

// benchCompress times compress on page into a reused buffer, after checking
// once that its output decompresses, with pqcodec, to the page. It reports
// the compression ratio (uncompressed/compressed) as "ratio" and, with cpu
// set, the process's CPU time per operation as "cpu-ns/op".
func benchCompress(b *testing.B, ours *codecfactory.Factory, c codecfactory.Codec, page []byte,
	compress func(dst, src []byte) ([]byte, error), cpu bool) {
	// Room for every implementation's worst case, so none grows dst (the
	// Factory's bound for SNAPPY is above compressBound's n/8).
	dst := make([]byte, 0, max(compressBound(len(page)), ours.CompressBound(c, len(page))))
	comp, err := compress(dst, page)
	require.NoError(b, err)
	back, err := ours.Decompress(c, nil, comp, len(page))
	require.NoError(b, err)
	require.True(b, bytes.Equal(back, page), "%s: %v", b.Name(), errUnexpectedOutput)
	ratio := float64(len(page)) / float64(len(comp))
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	cpu0 := benchdata.CPUTime()
	b.ResetTimer()
	for b.Loop() {
		if _, err := compress(dst, page); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if spent := benchdata.CPUTime() - cpu0; cpu && spent > 0 {
		b.ReportMetric(float64(spent)/float64(b.N), "cpu-ns/op")
	}
	b.ReportMetric(ratio, "ratio")
}

// TestCodecImplementations round-trips every dataset through every pair of
// implementations of each codec, so the benchmarks measure interchangeable
// work.
func TestCodecImplementations(t *testing.T) {
	size := PageSizes[0]
	for _, row := range codecRows(t) {
		for _, d := range CodecDatasets {
			page := codecPage(d, size)
			for _, c := range row.impls {
				comp, err := c.compress(make([]byte, 0, compressBound(len(page))), page)
				require.NoError(t, err, "%s/%s compress", row.name, c.name)
				for _, dc := range row.impls {
					out, err := dc.decompress(make([]byte, 0, len(page)), comp, len(page))
					require.NoError(t, err, "%s: %s -> %s", row.name, c.name, dc.name)
					require.Equal(t, page, out, "%s: %s -> %s", row.name, c.name, dc.name)
				}
			}
		}
	}
}
