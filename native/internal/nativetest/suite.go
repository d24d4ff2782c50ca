package nativetest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// Compressor is the method set every native Compressor has.
type Compressor interface {
	Compress(dst, src []byte) ([]byte, error)
	Close() error
}

// Decompressor is the method set every native Decompressor has.
type Decompressor interface {
	Decompress(dst, src []byte) ([]byte, error)
	Close() error
}

// Codec describes one binding to the conformance suite.
type Codec struct {
	// NewCompressor returns a compressor at the level the suite uses for
	// every size (it should be fast enough for 8 MiB inputs).
	NewCompressor func() (Compressor, error)
	// Levels are extra constructors (name -> constructor) round-tripped on
	// inputs up to 1 MiB, typically the fastest and the slowest levels.
	Levels          map[string]func() (Compressor, error)
	NewDecompressor func() (Decompressor, error)
	CompressBound   func(int) int

	ErrCorrupt     error
	ErrDstTooSmall error
	ErrClosed      error

	// Invalid holds inputs that must be rejected with ErrCorrupt,
	// beyond the truncations the suite derives itself.
	Invalid map[string][]byte
	// TruncationsDetected reports that every proper prefix of a valid
	// stream is rejected (false for formats where a prefix can be valid).
	TruncationsDetected bool
}

// canary is the byte pattern written past the output region of dst.
const canary = 0xA5

// CanaryLen is how many canary bytes follow the output region.
const CanaryLen = 64

// WithCanary returns a slice with len(prefix) bytes copied from prefix and
// exactly spare bytes of spare capacity, followed in memory by CanaryLen
// canary bytes (also filling the spare capacity).
func WithCanary(prefix []byte, spare int) []byte {
	buf := bytes.Repeat([]byte{canary}, len(prefix)+spare+CanaryLen)
	copy(buf, prefix)
	return buf[: len(prefix) : len(prefix)+spare]
}

// CanaryIntact reports whether the CanaryLen bytes after cap(dst) still hold
// the canary, dst being a slice made by WithCanary (or re-sliced from one
// within its capacity).
func CanaryIntact(dst []byte) bool {
	tail := dst[:cap(dst)]
	full := unsafe.Slice(unsafe.SliceData(tail), cap(dst)+CanaryLen)
	for _, c := range full[cap(dst):] {
		if c != canary {
			return false
		}
	}
	return true
}

// Run runs the conformance suite against c.
func Run(t *testing.T, c Codec) {
	t.Run("RoundTrip", func(t *testing.T) { testRoundTrip(t, c) })
	t.Run("Levels", func(t *testing.T) { testLevels(t, c) })
	t.Run("CorpusFiles", func(t *testing.T) { testCorpusFiles(t, c) })
	t.Run("AppendAndCanary", func(t *testing.T) { testAppend(t, c) })
	t.Run("DstTooSmall", func(t *testing.T) { testDstTooSmall(t, c) })
	t.Run("Empty", func(t *testing.T) { testEmpty(t, c) })
	t.Run("Corrupt", func(t *testing.T) { testCorrupt(t, c) })
	t.Run("Concurrent", func(t *testing.T) { testConcurrent(t, c) })
	t.Run("ZeroAllocs", func(t *testing.T) { testAllocs(t, c) })
	t.Run("Closed", func(t *testing.T) { testClosed(t, c) })
}

func newPair(t *testing.T, c Codec) (Compressor, Decompressor) {
	t.Helper()
	comp, err := c.NewCompressor()
	require.NoError(t, err)
	dec, err := c.NewDecompressor()
	require.NoError(t, err)
	t.Cleanup(func() {
		assert.NoError(t, comp.Close())
		assert.NoError(t, dec.Close())
	})
	return comp, dec
}

// roundTrip compresses src with comp and decompresses it with dec into a dst
// with exactly len(src) spare bytes and a canary behind it.
func roundTrip(t *testing.T, c Codec, comp Compressor, dec Decompressor, src []byte) {
	t.Helper()
	z, err := comp.Compress(nil, src)
	require.NoError(t, err)
	require.LessOrEqual(t, len(z), c.CompressBound(len(src)))
	dst := WithCanary(nil, len(src))
	got, err := dec.Decompress(dst, z)
	require.NoError(t, err)
	require.True(t, bytes.Equal(src, got), "round trip of %d bytes differs", len(src))
	require.True(t, CanaryIntact(dst), "write past the output region")
}

func testRoundTrip(t *testing.T, c Codec) {
	comp, dec := newPair(t, c)
	for _, kind := range Kinds {
		for _, n := range Sizes {
			t.Run(fmt.Sprintf("%s/%d", kind, n), func(t *testing.T) {
				roundTrip(t, c, comp, dec, Gen(kind, n, uint64(n)))
			})
		}
	}
}

func testLevels(t *testing.T, c Codec) {
	_, dec := newPair(t, c)
	for name, newComp := range c.Levels {
		comp, err := newComp()
		require.NoError(t, err, name)
		for _, kind := range Kinds {
			for _, n := range []int{0, 1, 31, 64 << 10, 1 << 20} {
				t.Run(fmt.Sprintf("%s/%s/%d", name, kind, n), func(t *testing.T) {
					roundTrip(t, c, comp, dec, Gen(kind, n, uint64(n)+7))
				})
			}
		}
		require.NoError(t, comp.Close())
	}
}

// corpusFiles are parquet-testing files whose raw bytes serve as real-world
// input: plain-encoded pages, delta encodings and compressed pages.
var corpusFiles = []string{
	"alltypes_tiny_pages_plain.parquet",
	"delta_byte_array.parquet",
	"nested_structs.rust.parquet",
}

func testCorpusFiles(t *testing.T, c Codec) {
	comp, dec := newPair(t, c)
	for _, name := range corpusFiles {
		src, err := os.ReadFile(testcorpus.Data(t, name))
		require.NoError(t, err)
		roundTrip(t, c, comp, dec, src)
	}
}

// testAppend checks the append-by-capacity contract on both sides: output
// goes after dst's length, reuses dst's backing array when the spare capacity
// suffices, and never touches memory past cap(dst).
func testAppend(t *testing.T, c Codec) {
	comp, dec := newPair(t, c)
	prefix := []byte("page-header:")
	for _, n := range []int{0, 1, 31, 64 << 10} {
		src := ParquetPage(n, 3)

		dst := WithCanary(prefix, c.CompressBound(n))
		z, err := comp.Compress(dst, src)
		require.NoError(t, err)
		require.Equal(t, prefix, z[:len(prefix)])
		require.Same(t, unsafe.SliceData(dst), unsafe.SliceData(z), "spare capacity not reused")
		require.True(t, CanaryIntact(dst))

		// Too little spare capacity: dst grows, its old backing array is
		// not written past its length.
		small := WithCanary(prefix, c.CompressBound(n)-1)
		z2, err := comp.Compress(small, src)
		require.NoError(t, err)
		require.Equal(t, z, z2)
		require.True(t, bytes.Equal(bytes.Repeat([]byte{canary}, cap(small)-len(small)), small[len(small):cap(small)]),
			"wrote into a dst too small for the bound")
		require.True(t, CanaryIntact(small))

		out := WithCanary(prefix, n)
		got, err := dec.Decompress(out, z[len(prefix):])
		require.NoError(t, err)
		require.Equal(t, prefix, got[:len(prefix)])
		require.True(t, bytes.Equal(src, got[len(prefix):]))
		require.Same(t, unsafe.SliceData(out), unsafe.SliceData(got))
		require.True(t, CanaryIntact(out))

		// More spare capacity than needed is fine too.
		big := WithCanary(prefix, n+100)
		got, err = dec.Decompress(big, z[len(prefix):])
		require.NoError(t, err)
		require.True(t, bytes.Equal(src, got[len(prefix):]))
		require.True(t, CanaryIntact(big))
	}
}

func testDstTooSmall(t *testing.T, c Codec) {
	comp, dec := newPair(t, c)
	for _, n := range []int{1, 31, 64 << 10, 1 << 20} {
		for _, kind := range Kinds {
			src := Gen(kind, n, 11)
			z, err := comp.Compress(nil, src)
			require.NoError(t, err)
			for _, spare := range []int{0, 1, n / 2, n - 1} {
				if spare >= n {
					continue
				}
				dst := WithCanary([]byte{1, 2, 3}, spare)
				got, err := dec.Decompress(dst, z)
				require.ErrorIs(t, err, c.ErrDstTooSmall, "%s n=%d spare=%d", kind, n, spare)
				require.NotErrorIs(t, err, c.ErrCorrupt)
				require.Nil(t, got)
				require.True(t, CanaryIntact(dst))
			}
			// The decompressor still works after the failure.
			got, err := dec.Decompress(make([]byte, 0, n), z)
			require.NoError(t, err)
			require.True(t, bytes.Equal(src, got))
		}
	}
}

func testEmpty(t *testing.T, c Codec) {
	comp, dec := newPair(t, c)
	for _, src := range [][]byte{nil, {}} {
		z, err := comp.Compress(nil, src)
		require.NoError(t, err)
		require.NotEmpty(t, z)
		for _, dst := range [][]byte{nil, {}, make([]byte, 0, 8)} {
			got, err := dec.Decompress(dst, z)
			require.NoError(t, err)
			require.Empty(t, got)
		}
	}
	for _, src := range [][]byte{nil, {}} {
		for _, dst := range [][]byte{nil, make([]byte, 0, 8)} {
			_, err := dec.Decompress(dst, src)
			require.ErrorIs(t, err, c.ErrCorrupt, "empty input is not a valid stream")
		}
	}
}

// Truncations returns prefixes of z worth testing: all of them for short
// streams, a spread for long ones.
func Truncations(z []byte) [][]byte {
	var out [][]byte
	for i := 0; i < len(z); i++ {
		if len(z) > 300 && i > 64 && i < len(z)-64 && i%97 != 0 {
			continue
		}
		out = append(out, z[:i])
	}
	return out
}

func testCorrupt(t *testing.T, c Codec) {
	comp, dec := newPair(t, c)
	for name, in := range c.Invalid {
		dst := WithCanary(nil, 1<<20)
		_, err := dec.Decompress(dst, in)
		require.ErrorIs(t, err, c.ErrCorrupt, name)
		require.True(t, CanaryIntact(dst), name)
	}
	for _, n := range []int{0, 1, 31, 4096, 64 << 10} {
		src := ParquetPage(n, 5)
		z, err := comp.Compress(nil, src)
		require.NoError(t, err)
		dst := WithCanary(nil, n+1024)
		for _, tr := range Truncations(z) {
			_, err := dec.Decompress(dst, tr)
			if c.TruncationsDetected {
				require.ErrorIs(t, err, c.ErrCorrupt, "n=%d truncated to %d of %d", n, len(tr), len(z))
			}
			require.True(t, CanaryIntact(dst))
		}
		// Trailing garbage after a valid stream.
		_, err = dec.Decompress(dst, append(bytes.Clone(z), 0xde, 0xad, 0xbe, 0xef, 0x00))
		require.ErrorIs(t, err, c.ErrCorrupt, "trailing garbage, n=%d", n)
		// Flipped bits must not crash or overrun; most are detected.
		for i := 0; i < len(z); i += 1 + len(z)/200 {
			bad := bytes.Clone(z)
			bad[i] ^= 1 << (i % 8)
			got, err := dec.Decompress(dst, bad)
			if err == nil {
				require.LessOrEqual(t, len(got), cap(dst))
			} else {
				require.True(t, errors.Is(err, c.ErrCorrupt) || errors.Is(err, c.ErrDstTooSmall), "%v", err)
			}
			require.True(t, CanaryIntact(dst))
		}
	}
	for seed := range uint64(64) {
		junk := RandomBytes(int(seed*37%2000), seed)
		dst := WithCanary(nil, 4096)
		_, err := dec.Decompress(dst, junk)
		if err != nil {
			require.True(t, errors.Is(err, c.ErrCorrupt) || errors.Is(err, c.ErrDstTooSmall), "%v", err)
		}
		require.True(t, CanaryIntact(dst))
	}
	// The decompressor is still usable after all that.
	roundTrip(t, c, comp, dec, ParquetPage(1000, 1))
}

// testConcurrent runs 16 goroutines with their own contexts and 16 more
// sharing pooled ones; run it under -race.
func testConcurrent(t *testing.T, c Codec) {
	const workers = 16
	var compPool, decPool sync.Pool
	var wg sync.WaitGroup
	errs := make(chan error, 2*workers)
	work := func(id int, get func() (Compressor, Decompressor, error), put func(Compressor, Decompressor)) {
		defer wg.Done()
		for i := range 8 {
			src := ParquetPage(1000+id*4096+i*512, uint64(id*100+i))
			comp, dec, err := get()
			if err != nil {
				errs <- err
				return
			}
			z, err := comp.Compress(nil, src)
			if err != nil {
				errs <- err
				return
			}
			got, err := dec.Decompress(make([]byte, 0, len(src)), z)
			if err != nil {
				errs <- err
				return
			}
			if !bytes.Equal(got, src) {
				errs <- fmt.Errorf("worker %d: round trip mismatch", id)
				return
			}
			put(comp, dec)
		}
	}
	for id := range workers {
		comp, dec := newPair(t, c)
		wg.Add(2)
		go work(id, func() (Compressor, Decompressor, error) { return comp, dec, nil },
			func(Compressor, Decompressor) {})
		go work(id+workers, func() (Compressor, Decompressor, error) {
			comp, _ := compPool.Get().(Compressor)
			dec, _ := decPool.Get().(Decompressor)
			var err error
			if comp == nil {
				if comp, err = c.NewCompressor(); err != nil {
					return nil, nil, err
				}
			}
			if dec == nil {
				if dec, err = c.NewDecompressor(); err != nil {
					return nil, nil, err
				}
			}
			return comp, dec, nil
		}, func(comp Compressor, dec Decompressor) {
			compPool.Put(comp)
			decPool.Put(dec)
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
}

func testAllocs(t *testing.T, c Codec) {
	comp, dec := newPair(t, c)
	for _, n := range []int{0, 31, 64 << 10} {
		src := ParquetPage(n, 9)
		zbuf := make([]byte, 0, c.CompressBound(n))
		z, err := comp.Compress(zbuf, src)
		require.NoError(t, err)
		out := make([]byte, 0, n)
		allocs := testing.AllocsPerRun(20, func() {
			if _, err := comp.Compress(zbuf, src); err != nil {
				panic(err)
			}
		})
		assert.Zero(t, allocs, "Compress allocs, n=%d", n)
		allocs = testing.AllocsPerRun(20, func() {
			if _, err := dec.Decompress(out, z); err != nil {
				panic(err)
			}
		})
		assert.Zero(t, allocs, "Decompress allocs, n=%d", n)
	}
}

func testClosed(t *testing.T, c Codec) {
	comp, err := c.NewCompressor()
	require.NoError(t, err)
	z, err := comp.Compress(nil, []byte("hello"))
	require.NoError(t, err)
	require.NoError(t, comp.Close())
	require.NoError(t, comp.Close(), "Close is idempotent")
	_, err = comp.Compress(nil, []byte("hello"))
	require.ErrorIs(t, err, c.ErrClosed)

	dec, err := c.NewDecompressor()
	require.NoError(t, err)
	require.NoError(t, dec.Close())
	require.NoError(t, dec.Close())
	_, err = dec.Decompress(nil, z)
	require.ErrorIs(t, err, c.ErrClosed)
}
