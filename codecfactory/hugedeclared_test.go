package codecfactory

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/testalloc"
	"github.com/pqcodec/pqcodec/internal/testexec"
)

// hugeDeclared is the uncompressed size the hostile pages below declare:
// 1.4 GiB, under DefaultMaxPageSize.
const hugeDeclared = 14 << 30 / 10

// hostilePage is a tiny page whose header declares hugeDeclared bytes.
type hostilePage struct {
	name  string
	codec Codec
	src   []byte
	limit uint64 // bytes Decompress may allocate; 0 for the default 16 MiB
}

// hostilePages returns, per codec, tiny pages that declare hugeDeclared bytes
// and cannot produce them: the cases that made Decompress reserve the
// declared size before decoding.
func hostilePages(t testing.TB) []hostilePage {
	t.Helper()
	f, err := New()
	require.NoError(t, err)
	brotliHello, err := f.Compress(Brotli, nil, []byte("hello, world"))
	require.NoError(t, err)
	// A brotli stream that really produces 4 MiB from a few dozen bytes.
	brotliBomb, err := f.Compress(Brotli, nil, make([]byte, 4<<20))
	require.NoError(t, err)
	snappyPreamble := binary.AppendUvarint(nil, hugeDeclared)
	// A zstd frame without content size (FHD 0, window descriptor) and
	// last RLE block of the 21-bit maximum, 2 MiB (the format allows 128
	// KiB).
	zstdFrame := []byte{0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x58}
	rleHuge := append(bytes.Clone(zstdFrame), blockHeader(1, (1<<21)-1, true)...)
	rleHuge = append(rleHuge, 'x')
	// Many RLE blocks of the 128 KiB maximum: 40 bytes that really expand to
	// 1.25 MiB.
	rleMany := bytes.Clone(zstdFrame)
	for i := range 10 {
		rleMany = append(rleMany, blockHeader(1, zstdBlockMax, i == 9)...)
		rleMany = append(rleMany, 'x')
	}
	// A raw block header claiming 128 KiB with 3 bytes behind it.
	rawShort := append(bytes.Clone(zstdFrame), blockHeader(0, zstdBlockMax, true)...)
	rawShort = append(rawShort, "abc"...)
	gzipHeader := []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 3, 0, 0, 0, 0, 0, 0, 0}
	binary.LittleEndian.PutUint32(gzipHeader[14:], hugeDeclared)
	// A gzip member of garbage deflate just long enough to pass the 1032:1
	// bound, whose trailer repeats the declared size.
	gzipGarbage := append([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}, bytes.Repeat([]byte{0x5a, 0xa5}, hugeDeclared/1032/2)...)
	gzipGarbage = binary.LittleEndian.AppendUint32(gzipGarbage, 0)
	gzipGarbage = binary.LittleEndian.AppendUint32(gzipGarbage, hugeDeclared)
	hadoopHeader := binary.BigEndian.AppendUint32(nil, hugeDeclared)
	hadoopHeader = binary.BigEndian.AppendUint32(hadoopHeader, 2)
	hadoopHeader = append(hadoopHeader, 0x10, 'x')
	return []hostilePage{
		{"brotli 1 byte", Brotli, []byte{0x06}, 0},
		{"brotli 1 garbage byte", Brotli, []byte{0xff}, 0},
		{"brotli hello", Brotli, brotliHello, 0},
		{"brotli 4 MiB of zeros", Brotli, brotliBomb, 0},
		{"snappy preamble", Snappy, append(snappyPreamble, 0), 0},
		{"snappy preamble and literal", Snappy, append(snappyPreamble, 0, 'x'), 0},
		{"zstd RLE block of 2 MiB", Zstd, rleHuge, 0},
		{"zstd RLE blocks", Zstd, rleMany, 0},
		{"zstd raw block past the end", Zstd, rawShort, 0},
		{"gzip header", Gzip, gzipHeader, 0},
		{"gzip garbage", Gzip, gzipGarbage, growRatio*uint64(len(gzipGarbage)) + 1<<20},
		{"lz4 hadoop", Lz4, hadoopHeader, 0},
		{"lz4raw", Lz4Raw, []byte{0x10, 'x'}, 0},
		{"lzo", Lzo, hadoopHeader, 0},
		{"uncompressed", Uncompressed, []byte("x"), 0},
	}
}

// blockHeader is a zstd block header of type typ (0 raw, 1 RLE, 2
// compressed).
func blockHeader(typ, size int, last bool) []byte {
	h := uint32(size)<<3 | uint32(typ)<<1
	if last {
		h |= 1
	}
	return []byte{byte(h), byte(h >> 8), byte(h >> 16)}
}

// TestHugeDeclaredSize checks that a tiny page declaring 1.4 GiB fails, for
// every codec in both modes, having allocated a few MiB at most: what its
// bytes can produce, not what its header declares.
func TestHugeDeclaredSize(t *testing.T) {
	for _, nf := range testFactories(t) {
		for _, p := range hostilePages(t) {
			t.Run(nf.name+"/"+p.name, func(t *testing.T) {
				var err error
				// A 4 MiB brotli stream grows 1, 2, 4 MiB and fails at 8.
				limit := uint64(16 << 20)
				if p.limit != 0 {
					limit = p.limit
				}
				// Averaged over calls (testalloc): one call's MemStats delta
				// also holds what the runtime allocated meanwhile.
				got := testalloc.BytesPerRun(4, func() { _, err = nf.f.Decompress(p.codec, nil, p.src, hugeDeclared) })
				require.LessOrEqual(t, got, float64(limit), "bytes allocated per call")
				require.Error(t, err)
				require.True(t, errors.Is(err, ErrSizeMismatch) || errors.Is(err, ErrCorrupt), "%v", err)
				t.Logf("%.0f bytes allocated per call: %v", got, err)
			})
		}
	}
}

// TestGrowHonestPages checks that pages whose codec cannot bound their
// expansion, decompressed without room in dst, decode right whatever their
// ratio: in one allocation when the ratio is low, growing when it is not.
func TestGrowHonestPages(t *testing.T) {
	// The pages are compressed fast: the ratio matters, not the quality.
	fast, err := New(WithBrotli(1, 22), WithGzipLevel(1))
	require.NoError(t, err)
	for _, nf := range testFactories(t) {
		for _, c := range []Codec{Brotli, Gzip} {
			for _, n := range []int{0, 100, growFloor + 1, 2*growFloor + 7} {
				for _, zeros := range []bool{false, true} {
					t.Run(fmt.Sprintf("%s/%v/%d/zeros=%v", nf.name, c, n, zeros), func(t *testing.T) {
						src := genData(datasets[1], n, uint64(n))
						if zeros {
							src = make([]byte, n)
						}
						comp, err := fast.Compress(c, nil, src)
						require.NoError(t, err)
						if c == Gzip {
							// Two members, so the trailer does not state the size.
							comp = append(comp, comp...)
							src = append(src, src...)
						}
						prefix := []byte("prefix")
						out, err := nf.f.Decompress(c, prefix[:len(prefix):len(prefix)], comp, len(src))
						require.NoError(t, err)
						require.Equal(t, append(prefix, src...), out)
						_, err = nf.f.Decompress(c, nil, comp, len(src)+1)
						require.ErrorIs(t, err, ErrSizeMismatch)
						if len(src) > 0 {
							_, err = nf.f.Decompress(c, nil, comp, len(src)-1)
							require.ErrorIs(t, err, ErrSizeMismatch)
						}
					})
				}
			}
		}
	}
}

// hugeChildEnv makes the test binary run the hostile pages as the child of
// TestHugeDeclaredUlimit.
const hugeChildEnv = "PQCODEC_HUGE_CHILD"

// TestHugeDeclaredUlimit runs the hostile pages six in a row and four at
// at once per page in a child process limited to 2 GiB of address space
// (ulimit -v, as in a container), which must end with errors, not Go's
// unrecoverable "fatal error: out of memory".
func TestHugeDeclaredUlimit(t *testing.T) {
	if os.Getenv(hugeChildEnv) != "" {
		hugeChild(t)
		return
	}
	if runtime.GOOS != "linux" || raceEnabled {
		t.Skip("needs linux bash ulimit; the race detector reserves too much address space")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	exe := testexec.Executable(t)
	cmd := exec.Command(bash, "-c", `ulimit -v 2097152 && exec "$0" -test.run='^TestHugeDeclaredUlimit$' -test.v`, exe)
	cmd.Env = append(os.Environ(), hugeChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.NotContains(t, string(out), "fatal error")
	require.Contains(t, string(out), "hostile pages failed cleanly")
}

func hugeChild(t *testing.T) {
	for _, nf := range testFactories(t) {
		pages := hostilePages(t)
		for _, p := range pages {
			for range 6 {
				_, err := nf.f.Decompress(p.codec, nil, p.src, hugeDeclared)
				require.Error(t, err, p.name)
			}
		}
		var msgs []string
		for _, p := range pages {
			var wg sync.WaitGroup
			errs := make(chan error, 4)
			for range 4 {
				wg.Go(func() {
					_, err := nf.f.Decompress(p.codec, nil, p.src, hugeDeclared)
					if err == nil {
						err = errors.New(p.name + ": no error")
					} else if !errors.Is(err, ErrSizeMismatch) && !errors.Is(err, ErrCorrupt) {
						err = fmt.Errorf("%s: unexpected error: %w", p.name, err)
					} else {
						err = nil
					}
					errs <- err
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					msgs = append(msgs, err.Error())
				}
			}
		}
		require.Empty(t, msgs, strings.Join(msgs, "\n"))
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("hostile pages failed cleanly; %d bytes allocated in total, %d from the OS", ms.TotalAlloc, ms.Sys)
}
