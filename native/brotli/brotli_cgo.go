//go:build cgo

package brotli

/*
#cgo pkg-config: libbrotlienc libbrotlidec
#include <stdint.h>
#include <brotli/encode.h>
#include <brotli/decode.h>

// pq_brotli_compress returns the stream size, or 0 when libbrotli fails.
static size_t pq_brotli_compress(int quality, int lgwin,
		const uint8_t *in, size_t in_n, uint8_t *out, size_t out_n) {
	size_t n = out_n;
	if (!BrotliEncoderCompress(quality, lgwin, BROTLI_MODE_GENERIC, in_n, in, &n, out)) {
		return 0;
	}
	return n;
}

typedef struct {
	int result;     // BrotliDecoderResult, or -1 when no state could be made
	int code;       // BrotliDecoderErrorCode
	size_t in_left; // input not consumed
	size_t out;     // bytes written
} pq_brotli_result;

// pq_brotli_decompress decodes in[0:in_n] into out[0:out_n] in one
// BrotliDecoderDecompressStream call; unlike BrotliDecoderDecompress it
// reports why decoding stopped.
static pq_brotli_result pq_brotli_decompress(const uint8_t *in, size_t in_n,
		uint8_t *out, size_t out_n) {
	pq_brotli_result r = {-1, 0, in_n, 0};
	BrotliDecoderState *s = BrotliDecoderCreateInstance(NULL, NULL, NULL);
	if (s == NULL) {
		return r;
	}
	size_t avail_in = in_n, avail_out = out_n;
	const uint8_t *next_in = in;
	uint8_t *next_out = out;
	r.result = BrotliDecoderDecompressStream(s, &avail_in, &next_in, &avail_out, &next_out, NULL);
	r.code = BrotliDecoderGetErrorCode(s);
	r.in_left = avail_in;
	r.out = out_n - avail_out;
	BrotliDecoderDestroyInstance(s);
	return r;
}

// pq_brotli_size decodes in[0:in_n] into scratch[0:scratch_n] over and
// over, counting the output, and stops once more than limit bytes came out.
static pq_brotli_result pq_brotli_size(const uint8_t *in, size_t in_n,
		uint8_t *scratch, size_t scratch_n, size_t limit) {
	pq_brotli_result r = {-1, 0, in_n, 0};
	BrotliDecoderState *s = BrotliDecoderCreateInstance(NULL, NULL, NULL);
	if (s == NULL) {
		return r;
	}
	size_t avail_in = in_n;
	const uint8_t *next_in = in;
	for (;;) {
		size_t avail_out = scratch_n;
		uint8_t *next_out = scratch;
		r.result = BrotliDecoderDecompressStream(s, &avail_in, &next_in, &avail_out, &next_out, NULL);
		r.out += scratch_n - avail_out;
		if (r.result != BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT || r.out > limit) {
			break;
		}
	}
	r.code = BrotliDecoderGetErrorCode(s);
	r.in_left = avail_in;
	BrotliDecoderDestroyInstance(s);
	return r;
}
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/pqcodec/pqcodec/native/internal/cbuf"
)

// Available reports whether the package was built with cgo and binds
// libbrotli. When false every constructor returns [ErrUnavailable].
const Available = true

// Compressor writes Brotli streams at a fixed quality and window. It holds
// no C memory between calls. It is not safe for concurrent use.
type Compressor struct {
	quality, window int
	closed          bool
	scratch         [1]byte // stands in for an empty src
}

// NewCompressor returns a Compressor at quality in [MinQuality, MaxQuality]
// with a window of 2^window bytes, window in [MinWindow, MaxWindow].
func NewCompressor(quality, window int) (*Compressor, error) {
	if err := checkOptions(quality, window); err != nil {
		return nil, err
	}
	return &Compressor{quality: quality, window: window}, nil
}

// Compress appends a Brotli stream holding src to dst and returns the
// extended slice. The stream is written straight into dst's spare capacity
// when that is at least [MaxCompressedSize](len(src)); otherwise dst is first
// grown (a new backing array: dst's own spare capacity is left untouched).
// dst may be nil; src may be empty; dst's spare capacity must not overlap
// src.
func (c *Compressor) Compress(dst, src []byte) ([]byte, error) {
	if c.closed {
		return nil, ErrClosed
	}
	dst = cbuf.Grow(dst, MaxCompressedSize(len(src)))
	out, room := cbuf.Spare(dst, nil)
	w := C.pq_brotli_compress(C.int(c.quality), C.int(c.window),
		(*C.uint8_t)(cbuf.In(src, &c.scratch)), C.size_t(len(src)), (*C.uint8_t)(out), C.size_t(room))
	if w == 0 {
		return nil, fmt.Errorf("%w: BrotliEncoderCompress failed", ErrInternal)
	}
	return dst[:len(dst)+int(w)], nil
}

// Close marks the Compressor closed; it holds no C memory. Close is
// idempotent; any later Compress returns [ErrClosed].
func (c *Compressor) Close() error {
	c.closed = true
	return nil
}

// Decompressor decodes Brotli streams. It holds no C memory between calls.
// It is not safe for concurrent use.
type Decompressor struct {
	closed  bool
	scratch []byte  // output discarded by DecodedSize
	empty   [1]byte // stands in for an empty dst
}

// NewDecompressor returns a Decompressor.
func NewDecompressor() (*Decompressor, error) { return &Decompressor{}, nil }

// Decompress decodes src, one complete Brotli stream, into dst's spare
// capacity dst[len(dst):cap(dst)] and returns dst extended by the content.
// It never writes past cap(dst): content that does not fit returns an error
// wrapping [ErrDstTooSmall]. A truncated or invalid stream, or bytes after
// its end, returns an error wrapping [ErrCorrupt] with libbrotli's error
// name. On error the result is nil and dst's spare capacity holds
// unspecified bytes. libbrotli's window buffer (at most 16 MiB, less for
// short streams) lives in C memory for the duration of the call. dst may be
// nil; src must not overlap dst's spare capacity.
func (d *Decompressor) Decompress(dst, src []byte) ([]byte, error) {
	if err := cbuf.CheckInput(d.closed, src, ErrClosed, ErrCorrupt); err != nil {
		return nil, err
	}
	out, room := cbuf.Spare(dst, &d.empty)
	r := C.pq_brotli_decompress((*C.uint8_t)(cbuf.In(src, nil)), C.size_t(len(src)), (*C.uint8_t)(out), C.size_t(room))
	switch r.result {
	case C.BROTLI_DECODER_RESULT_SUCCESS:
		if r.in_left != 0 {
			return nil, fmt.Errorf("%w: %d bytes after the end of the stream", ErrCorrupt, r.in_left)
		}
		return dst[:len(dst)+int(r.out)], nil
	case C.BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
		return nil, fmt.Errorf("%w: content exceeds %d bytes of room", ErrDstTooSmall, room)
	case C.BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
		return nil, fmt.Errorf("%w: truncated stream (%d bytes decoded)", ErrCorrupt, r.out)
	case C.BROTLI_DECODER_RESULT_ERROR:
		name := C.GoString(C.BrotliDecoderErrorString(C.BrotliDecoderErrorCode(r.code)))
		if r.code <= C.BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MODES && r.code >= C.BROTLI_DECODER_ERROR_ALLOC_BLOCK_TYPE_TREES {
			return nil, fmt.Errorf("%w: BROTLI_DECODER%s (%d)", ErrInternal, name, r.code)
		}
		return nil, fmt.Errorf("%w: BROTLI_DECODER%s (%d) after %d input bytes",
			ErrCorrupt, name, r.code, len(src)-int(r.in_left))
	default:
		return nil, fmt.Errorf("%w: BrotliDecoderCreateInstance failed", ErrInternal)
	}
}

// DecodedSize returns the number of bytes src, one complete Brotli stream,
// decodes to, decoding it into a scratch buffer of its own without keeping
// the output, and stopping as soon as more than limit bytes came out (it
// then returns a number above limit). A truncated or invalid stream, or
// bytes after its end, returns an error wrapping [ErrCorrupt]. It lets a
// caller allocate exactly what a stream of unknown expansion produces.
func (d *Decompressor) DecodedSize(src []byte, limit int) (int, error) {
	if err := cbuf.CheckInput(d.closed, src, ErrClosed, ErrCorrupt); err != nil {
		return 0, err
	}
	if d.scratch == nil {
		d.scratch = make([]byte, 64<<10)
	}
	r := C.pq_brotli_size((*C.uint8_t)(cbuf.In(src, nil)), C.size_t(len(src)),
		(*C.uint8_t)(unsafe.Pointer(&d.scratch[0])), C.size_t(len(d.scratch)), C.size_t(max(limit, 0)))
	switch {
	case r.result == C.BROTLI_DECODER_RESULT_SUCCESS && r.in_left != 0:
		return 0, fmt.Errorf("%w: %d bytes after the end of the stream", ErrCorrupt, r.in_left)
	case r.result == C.BROTLI_DECODER_RESULT_SUCCESS, r.result == C.BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
		return int(r.out), nil
	case r.result == C.BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
		return 0, fmt.Errorf("%w: truncated stream (%d bytes decoded)", ErrCorrupt, r.out)
	case r.result == C.BROTLI_DECODER_RESULT_ERROR:
		name := C.GoString(C.BrotliDecoderErrorString(C.BrotliDecoderErrorCode(r.code)))
		return 0, fmt.Errorf("%w: BROTLI_DECODER%s (%d) after %d input bytes",
			ErrCorrupt, name, r.code, len(src)-int(r.in_left))
	default:
		return 0, fmt.Errorf("%w: BrotliDecoderCreateInstance failed", ErrInternal)
	}
}

// Close marks the Decompressor closed; it holds no C memory. Close is
// idempotent; any later Decompress returns [ErrClosed].
func (d *Decompressor) Close() error {
	d.closed = true
	return nil
}
