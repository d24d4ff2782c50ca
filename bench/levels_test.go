//go:build cgo

package bench

import (
	"bytes"
	stdgzip "compress/gzip"
	"fmt"
	"os"
	"testing"

	abrotli "github.com/andybalholm/brotli"
	"github.com/golang/snappy"
	kgzip "github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/s2"
	kzstd "github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
)

// The level rows compress every codec dataset at every level each library
// offers (a representative subset where a library has many), so that
// bench/cmd/frontier can check that no peer is both faster and smaller
// than some level of ours: speed alone at one level hides a library that
// buys its speed with a worse ratio, or the reverse.
//
// Speed is measured as the process's CPU time per operation (the
// "cpu-ns/op" metric): compression is single-threaded in every
// implementation here, so CPU time is the work done, and it moves far less
// than wall time on a shared machine.

// levelImpl is one implementation at one level; compress appends to dst.
type levelImpl struct {
	impl     string
	level    string
	compress func(dst, src []byte) ([]byte, error)
}

// levelFamily is one codec with every implementation and level measured.
type levelFamily struct {
	name  string
	codec codecfactory.Codec
	impls []levelImpl
}

// factoryAt returns the compress function of a Factory built with opt.
func factoryAt(tb testing.TB, c codecfactory.Codec, opts ...codecfactory.Option) func(dst, src []byte) ([]byte, error) {
	f, err := codecfactory.New(opts...)
	require.NoError(tb, err)
	tb.Cleanup(func() { f.Close() })
	return func(dst, src []byte) ([]byte, error) { return f.Compress(c, dst, src) }
}

// streamCompress adapts a reusable stream writer (Reset + Write + Close)
// to an append-style compress function.
func streamCompress[W interface {
	Write([]byte) (int, error)
	Close() error
}](w W, reset func(*appendWriter)) func(dst, src []byte) ([]byte, error) {
	var aw appendWriter
	return func(dst, src []byte) ([]byte, error) {
		aw.b = dst
		reset(&aw)
		if _, err := w.Write(src); err != nil {
			return nil, err
		}
		err := w.Close()
		return aw.b, err
	}
}

func levelFamilies(tb testing.TB) []levelFamily {
	var fams []levelFamily

	zstd := levelFamily{name: "zstd", codec: codecfactory.Zstd}
	for _, l := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 19} {
		zstd.impls = append(zstd.impls, levelImpl{"ours", fmt.Sprint(l),
			factoryAt(tb, codecfactory.Zstd, codecfactory.WithZstdLevel(l))})
	}
	for _, l := range []kzstd.EncoderLevel{kzstd.SpeedFastest, kzstd.SpeedDefault, kzstd.SpeedBetterCompression, kzstd.SpeedBestCompression} {
		e, err := kzstd.NewWriter(nil, kzstd.WithEncoderConcurrency(1), kzstd.WithEncoderLevel(l))
		require.NoError(tb, err)
		zstd.impls = append(zstd.impls, levelImpl{"klauspost", l.String(),
			func(dst, src []byte) ([]byte, error) { return e.EncodeAll(src, dst), nil }})
	}
	fams = append(fams, zstd)

	gzip := levelFamily{name: "gzip", codec: codecfactory.Gzip}
	for l := 1; l <= 9; l++ {
		gzip.impls = append(gzip.impls, levelImpl{"ours", fmt.Sprint(l),
			factoryAt(tb, codecfactory.Gzip, codecfactory.WithGzipLevel(l))})
	}
	for l := 1; l <= 9; l++ {
		kw, err := kgzip.NewWriterLevel(nil, l)
		require.NoError(tb, err)
		gzip.impls = append(gzip.impls, levelImpl{"klauspost", fmt.Sprint(l),
			streamCompress(kw, func(aw *appendWriter) { kw.Reset(aw) })})
		sw, err := stdgzip.NewWriterLevel(nil, l)
		require.NoError(tb, err)
		gzip.impls = append(gzip.impls, levelImpl{"stdlib", fmt.Sprint(l),
			streamCompress(sw, func(aw *appendWriter) { sw.Reset(aw) })})
	}
	fams = append(fams, gzip)

	brotli := levelFamily{name: "brotli", codec: codecfactory.Brotli}
	for _, q := range []int{0, 1, 2, 4, 5, 6, 8, 9, 11} {
		brotli.impls = append(brotli.impls, levelImpl{"ours", fmt.Sprint(q),
			factoryAt(tb, codecfactory.Brotli, codecfactory.WithBrotli(q, brotliWindow))})
		w := abrotli.NewWriterOptions(nil, abrotli.WriterOptions{Quality: q, LGWin: brotliWindow})
		brotli.impls = append(brotli.impls, levelImpl{"andybalholm", fmt.Sprint(q),
			streamCompress(w, func(aw *appendWriter) { w.Reset(aw) })})
	}
	fams = append(fams, brotli)

	snappyFam := levelFamily{name: "snappy", codec: codecfactory.Snappy}
	for l := 1; l <= codecfactory.MaxSnappyLevel; l++ {
		snappyFam.impls = append(snappyFam.impls, levelImpl{"ours", fmt.Sprint(l),
			factoryAt(tb, codecfactory.Snappy, codecfactory.WithSnappyLevel(l))})
	}
	snappyFam.impls = append(snappyFam.impls, []levelImpl{
		{"golang", "-", func(dst, src []byte) ([]byte, error) { return snappy.Encode(dst[:cap(dst)], src), nil }},
		{"klauspost", "snappy", func(dst, src []byte) ([]byte, error) { return s2.EncodeSnappy(dst[:cap(dst)], src), nil }},
		{"klauspost", "better", func(dst, src []byte) ([]byte, error) { return s2.EncodeSnappyBetter(dst[:cap(dst)], src), nil }},
		{"klauspost", "best", func(dst, src []byte) ([]byte, error) { return s2.EncodeSnappyBest(dst[:cap(dst)], src), nil }},
	}...)
	fams = append(fams, snappyFam)

	lz4raw := levelFamily{name: "lz4raw", codec: codecfactory.Lz4Raw}
	for _, l := range []int{0, 1, 3, 5, 9} {
		lz4raw.impls = append(lz4raw.impls, levelImpl{"ours", fmt.Sprint(l),
			factoryAt(tb, codecfactory.Lz4Raw, codecfactory.WithLz4Level(l))})
	}
	var fast lz4.Compressor
	lz4raw.impls = append(lz4raw.impls, levelImpl{"pierrec", "fast", func(dst, src []byte) ([]byte, error) {
		k, err := fast.CompressBlock(src, dst[:cap(dst)])
		return dst[:k], err
	}})
	for _, l := range []struct {
		name  string
		level lz4.CompressionLevel
	}{{"hc1", lz4.Level1}, {"hc5", lz4.Level5}, {"hc9", lz4.Level9}} {
		hc := &lz4.CompressorHC{Level: l.level}
		lz4raw.impls = append(lz4raw.impls, levelImpl{"pierrec", l.name, func(dst, src []byte) ([]byte, error) {
			k, err := hc.CompressBlock(src, dst[:cap(dst)])
			return dst[:k], err
		}})
	}
	fams = append(fams, lz4raw)
	return fams
}

// BenchmarkCompressLevels compresses each codec dataset with every
// implementation at every level into a reused buffer, reporting the
// compression ratio ("ratio") and the process CPU time per operation
// ("cpu-ns/op"). Every output is checked once to decompress, with
// pqcodec, to the page. It runs only with PQCODEC_LEVELS_BENCH set (the
// slowest levels take seconds per page, too long for `make bench`); `make
// bench-levels` runs it and summarises the run with cmd/frontier into
// bench/LEVELS.md.
func BenchmarkCompressLevels(b *testing.B) {
	if os.Getenv("PQCODEC_LEVELS_BENCH") == "" {
		b.Skip("set PQCODEC_LEVELS_BENCH=1 to run")
	}
	ours, _ := factories(b)
	for _, fam := range levelFamilies(b) {
		for _, d := range CodecDatasets {
			for _, size := range PageSizes {
				page := codecPage(d, size)
				for _, im := range fam.impls {
					name := fmt.Sprintf("codec=%s/data=%s/size=%s/impl=%s/level=%s", fam.name, d.Name, size.Name, im.impl, im.level)
					b.Run(name, func(b *testing.B) { benchCompress(b, ours, fam.codec, page, im.compress, true) })
				}
			}
		}
	}
}

// TestLevelImplementations checks every level row's output once on the
// smallest page of each dataset, so a broken row fails `go test`.
func TestLevelImplementations(t *testing.T) {
	ours, _ := factories(t)
	size := PageSizes[0]
	for _, fam := range levelFamilies(t) {
		for _, d := range CodecDatasets {
			page := codecPage(d, size)
			for _, im := range fam.impls {
				dst := make([]byte, 0, max(compressBound(len(page)), ours.CompressBound(fam.codec, len(page))))
				comp, err := im.compress(dst, page)
				require.NoError(t, err, "%s/%s/%s/%s", fam.name, d.Name, im.impl, im.level)
				back, err := ours.Decompress(fam.codec, nil, comp, len(page))
				require.NoError(t, err, "%s/%s/%s/%s", fam.name, d.Name, im.impl, im.level)
				require.True(t, bytes.Equal(back, page), "%s/%s/%s/%s", fam.name, d.Name, im.impl, im.level)
			}
		}
	}
}
