package codecfactory

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// allCodecs lists the eight codecs in thrift order.
var allCodecs = []Codec{Uncompressed, Snappy, Gzip, Lzo, Brotli, Lz4, Zstd, Lz4Raw}

// namedFactory is a Factory under test with a name for subtests.
type namedFactory struct {
	name string
	f    *Factory
}

// testFactories returns the default Factory (native codecs where this build
// has them) and a pure-Go one; in a build without cgo both are pure Go.
func testFactories(t testing.TB, opts ...Option) []namedFactory {
	t.Helper()
	def, err := New(opts...)
	require.NoError(t, err)
	pure, err := New(append(opts[:len(opts):len(opts)], WithPureGo(true))...)
	require.NoError(t, err)
	return []namedFactory{{"default", def}, {"purego", pure}}
}

// canCompress reports whether f compresses c in this build.
func canCompress(f *Factory, c Codec) bool { return f.CanCompress(c) }

// dataset is a generator of Parquet-shaped page content.
type dataset struct {
	name string
	gen  func(r *rand.Rand, n int) []byte
}

// datasets are page contents shaped like what Parquet writers compress:
// PLAIN-encoded columns, dictionary indices, booleans.
var datasets = []dataset{
	{"int-small-deltas", func(r *rand.Rand, n int) []byte {
		b := make([]byte, 0, n+8)
		v := int64(r.Uint32())
		for len(b) < n {
			v += int64(r.IntN(9)) - 3
			b = binary.LittleEndian.AppendUint64(b, uint64(v))
		}
		return b[:n]
	}},
	{"timestamps", func(r *rand.Rand, n int) []byte {
		b := make([]byte, 0, n+8)
		v := int64(1_700_000_000_000_000) // microseconds
		for len(b) < n {
			v += 1_000_000 + int64(r.IntN(2000))
			b = binary.LittleEndian.AppendUint64(b, uint64(v))
		}
		return b[:n]
	}},
	{"random-doubles", func(r *rand.Rand, n int) []byte {
		b := make([]byte, 0, n+8)
		for len(b) < n {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(r.NormFloat64()*1e3))
		}
		return b[:n]
	}},
	{"smooth-doubles", func(r *rand.Rand, n int) []byte {
		b := make([]byte, 0, n+8)
		for i := 0; len(b) < n; i++ {
			v := math.Round(100*(20+5*math.Sin(float64(i)/500)+r.Float64()*0.1)) / 100
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
		return b[:n]
	}},
	{"booleans", func(r *rand.Rand, n int) []byte {
		b := make([]byte, n)
		for i := range b {
			var v byte
			for bit := range 8 {
				if r.IntN(10) < 2 { // 20% true
					v |= 1 << bit
				}
			}
			b[i] = v
		}
		return b
	}},
	{"strings-low-cardinality", func(r *rand.Rand, n int) []byte {
		words := []string{"pending", "shipped", "delivered", "returned", "cancelled", "on-hold", "lost"}
		b := make([]byte, 0, n+16)
		for len(b) < n {
			w := words[r.IntN(len(words))]
			b = binary.LittleEndian.AppendUint32(b, uint32(len(w)))
			b = append(b, w...)
		}
		return b[:n]
	}},
	{"strings-high-cardinality", func(r *rand.Rand, n int) []byte {
		b := make([]byte, 0, n+64)
		for len(b) < n {
			s := fmt.Sprintf("user-%08x@example.org", r.Uint32())
			b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
			b = append(b, s...)
		}
		return b[:n]
	}},
	{"bitpacked-indices", func(r *rand.Rand, n int) []byte {
		// 5-bit dictionary indices, skewed towards small values.
		b := make([]byte, 0, n+8)
		var acc uint64
		bits := 0
		for len(b) < n {
			v := uint64(min(r.ExpFloat64()*4, 31))
			acc |= v << bits
			bits += 5
			for bits >= 8 {
				b = append(b, byte(acc))
				acc >>= 8
				bits -= 8
			}
		}
		return b[:n]
	}},
}

// genData returns n bytes of the named dataset from a fixed seed.
func genData(d dataset, n int, seed uint64) []byte {
	return d.gen(rand.New(rand.NewPCG(seed, uint64(n))), n)
}
