//go:build cgo

package lz4

/*
#cgo LDFLAGS: -llz4
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <lz4.h>
#include <lz4hc.h>

// pq_lz4_alloc returns the state of the compressor of level: LZ4_stream_t
// for the fast compressor, LZ4_streamHC_t for the HC levels. malloc's
// alignment is what both require.
static void *pq_lz4_alloc(int level) {
	return malloc(level == 0 ? (size_t)LZ4_sizeofState() : (size_t)LZ4_sizeofStateHC());
}

// pq_lz4_compress returns the block size, or 0 when out_n is too small (it
// never is: the caller gives the bound) or the input too large.
static int pq_lz4_compress(int level, void *state, const char *in, int in_n, char *out, int out_n) {
	if (level == 0) {
		return LZ4_compress_fast_extState(state, in, out, in_n, out_n, 1);
	}
	return LZ4_compress_HC_extStateHC(state, in, out, in_n, out_n, level);
}

// The results of pq_lz4_decompress besides liblz4's own: the block is not
// well formed, or it decodes to more than the room.
#define PQ_LZ4_BADSEQ (-(1LL << 40))
#define PQ_LZ4_SMALL (-(1LL << 41))

// pq_lz4_ext adds to *v the extension bytes of a length at *pp (bytes of
// 255 up to and including the first other byte), eight at a time through
// runs of 255 (a literal run of n bytes has n/255 of them), and moves *pp past
// them. It returns 0 when they run past e.
static inline int pq_lz4_ext(const unsigned char **pp, const unsigned char *e, size_t *v) {
	const unsigned char *p = *pp;
	while (e - p >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		if (w != ~(uint64_t)0) break;
		*v += 8 * 255;
		p += 8;
	}
	unsigned b;
	do {
		if (p >= e) return 0;
		b = *p++;
		*v += b;
	} while (b == 255);
	*pp = p;
	return 1;
}

// pq_lz4_scan returns the length the block src decodes to, walking its
// sequences without copying anything, or -1 when a literal run or a length
// runs past src, or a match offset is 0 or reaches before the output's
// start: the walk of DecodedLen, in C so that it costs a fraction of the
// decoding. out cannot overflow: it grows by at most 255 per byte read.
static long long pq_lz4_scan(const unsigned char *p, size_t n) {
	const unsigned char *const e = p + n;
	unsigned long long out = 0;
	for (;;) {
		if (p >= e) return -1;
		unsigned tok = *p++;
		size_t lit = tok >> 4;
		if (lit == 15 && !pq_lz4_ext(&p, e, &lit)) return -1;
		if (lit > (size_t)(e - p)) return -1;
		p += lit;
		out += lit;
		if (p == e) return (long long)out;
		if (e - p < 2) return -1;
		size_t off = (size_t)p[0] | (size_t)p[1] << 8;
		p += 2;
		size_t ml = tok & 15;
		if (ml == 15 && !pq_lz4_ext(&p, e, &ml)) return -1;
		if (off == 0 || off > out) return -1;
		out += ml + 4;
	}
}

// pq_lz4_decompress decodes the block src into dst, at most room bytes,
// with LZ4_decompress_safe once pq_lz4_scan has accepted it: the scan
// closes the one hole of liblz4 1.9.4's safe decoder, a match offset of 0,
// which it copies from the destination itself (what a reused buffer held
// before). It returns the content's length, PQ_LZ4_BADSEQ, PQ_LZ4_SMALL, or
// liblz4's negative result.
static long long pq_lz4_decompress(const char *src, int n, char *dst, int room) {
	long long m = pq_lz4_scan((const unsigned char *)src, (size_t)n);
	if (m < 0) return PQ_LZ4_BADSEQ;
	if (m > room) return PQ_LZ4_SMALL;
	return LZ4_decompress_safe(src, dst, n, room);
}
*/
import "C"

import (
	"fmt"
	"math"
	"runtime"
	"unsafe"

	"github.com/pqcodec/pqcodec/native/internal/cbuf"
)

// Available reports whether the package was built with cgo and binds
// liblz4. When false every constructor returns [ErrUnavailable].
const Available = true

// Compressor compresses LZ4 blocks at one level, reusing one liblz4 state
// in C. It is not safe for concurrent use.
type Compressor struct {
	state   cbuf.Handle[unsafe.Pointer]
	level   int
	scratch [1]byte // stands in for an empty src
}

// NewCompressor returns a Compressor for level [LevelFast] (0) to
// [MaxLevel].
func NewCompressor(level int) (*Compressor, error) {
	if err := checkLevel(level); err != nil {
		return nil, err
	}
	s := C.pq_lz4_alloc(C.int(level))
	if s == nil {
		return nil, fmt.Errorf("%w: cannot allocate the compression state", ErrInternal)
	}
	c := &Compressor{level: level}
	cbuf.Own(c, &c.state, s, func(s unsafe.Pointer) { C.free(s) })
	return c, nil
}

// Compress appends the LZ4 block of src to dst and returns the extended
// slice. The output is written straight into dst's spare capacity when that
// is at least [CompressBound](len(src)); otherwise dst is first grown (a new
// backing array: dst's own spare capacity is left untouched). dst may be
// nil; src may be empty (the block is then the single byte 0) and at most
// [MaxInputSize] bytes ([ErrTooLarge]); dst's spare capacity must not
// overlap src.
func (c *Compressor) Compress(dst, src []byte) ([]byte, error) {
	if c.state.Get() == nil {
		return nil, ErrClosed
	}
	if len(src) > MaxInputSize {
		return nil, fmt.Errorf("%w: %d bytes (at most %d)", ErrTooLarge, len(src), MaxInputSize)
	}
	bound := CompressBound(len(src))
	dst = cbuf.Grow(dst, bound)
	n := len(dst)
	out, _ := cbuf.Spare(dst, nil)
	k := C.pq_lz4_compress(C.int(c.level), c.state.Get(), (*C.char)(cbuf.In(src, &c.scratch)), C.int(len(src)),
		(*C.char)(out), C.int(bound))
	runtime.KeepAlive(c)
	if k <= 0 || int(k) > bound {
		return nil, fmt.Errorf("%w: LZ4 compression of %d bytes returned %d (bound %d)", ErrInternal, len(src), int(k), bound)
	}
	return dst[:n+int(k)], nil
}

// Close frees the compression state. It is idempotent; any later Compress
// returns [ErrClosed].
func (c *Compressor) Close() error {
	c.state.Close()
	return nil
}

// Decompressor decodes LZ4 blocks with LZ4_decompress_safe. It holds no C
// memory. It is not safe for concurrent use.
type Decompressor struct {
	closed  bool
	scratch [1]byte // stands in for an empty dst
}

// NewDecompressor returns a Decompressor.
func NewDecompressor() (*Decompressor, error) { return &Decompressor{}, nil }

// Decompress decodes src, one LZ4 block, into dst's spare capacity
// dst[len(dst):cap(dst)] and returns dst extended by the content. It never
// allocates and never writes past cap(dst): content that does not fit
// returns an error wrapping [ErrDstTooSmall]. An empty src, an invalid block
// or bytes after its last literal run return an error wrapping
// [ErrCorrupt]. LZ4 blocks carry no checksum: damage that keeps the block
// well-formed goes undetected. liblz4 accepts a match offset of 0, which the
// format forbids (pierrec/lz4 rejects it), and copies it from the bytes
// already in dst's spare capacity, which would put a reused buffer's
// earlier content into the output: Decompress first walks the block's
// sequences in C as [DecodedLen] does and rejects such a block. The walk
// costs nothing measurable on blocks of long literal runs (random doubles:
// within noise of liblz4 alone) and as much as the decoding itself on blocks
// of short sequences (small-delta ints, strings: 1.8-2.2x liblz4 alone; AMD
// EPYC, Zen 5), where pierrec/lz4 is the faster decoder anyway. The spare
// capacity handed to liblz4 is
// capped at [MaxExpansion] bytes per byte of src (what any block can decode
// to) and at [MaxInputSize]. On error the result is nil and dst's spare
// capacity holds unspecified bytes. dst may be nil; src must not overlap
// dst's spare capacity.
func (d *Decompressor) Decompress(dst, src []byte) ([]byte, error) {
	if err := cbuf.CheckInput(d.closed, src, ErrClosed, ErrCorrupt); err != nil {
		return nil, err
	}
	if len(src) > MaxInputSize {
		return nil, fmt.Errorf("%w: %d-byte block (liblz4 reads at most %d)", ErrTooLarge, len(src), MaxInputSize)
	}
	out, room := cbuf.Spare(dst, &d.scratch)
	room = min(room, math.MaxInt32)
	if len(src) < math.MaxInt32/MaxExpansion {
		room = min(room, MaxExpansion*len(src))
	}
	k := C.pq_lz4_decompress((*C.char)(cbuf.In(src, nil)), C.int(len(src)), (*C.char)(out), C.int(room))
	runtime.KeepAlive(d)
	switch {
	case k == C.PQ_LZ4_BADSEQ:
		return nil, fmt.Errorf("%w: a literal run or match runs past the block or before the output", ErrCorrupt)
	case k == C.PQ_LZ4_SMALL:
		m, _ := DecodedLen(src)
		return nil, fmt.Errorf("%w: the block decodes to %d bytes, %d of room", ErrDstTooSmall, m, room)
	case k < 0:
		return nil, fmt.Errorf("%w: LZ4_decompress_safe failed at byte %d of %d", ErrCorrupt, -int(k)-1, len(src))
	}
	if int(k) > room {
		return nil, fmt.Errorf("%w: LZ4_decompress_safe reported %d bytes for %d of room", ErrInternal, int(k), room)
	}
	return dst[:len(dst)+int(k)], nil
}

// Close marks the Decompressor closed. It is idempotent; any later
// Decompress returns [ErrClosed].
func (d *Decompressor) Close() error {
	d.closed = true
	return nil
}
