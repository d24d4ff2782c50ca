//go:build cgo && !nolzo

package lzo

/*
#cgo LDFLAGS: -llzo2
#include <stdlib.h>
#include <lzo/lzo1x.h>

static int pq_lzo_init(void) { return lzo_init(); }

// pq_lzo_alloc returns working memory for the compressor of level.
static void *pq_lzo_alloc(int level) {
	return malloc(level == 999 ? LZO1X_999_MEM_COMPRESS : LZO1X_1_MEM_COMPRESS);
}

typedef struct {
	int code;
	size_t n;
} pq_lzo_result;

// pq_lzo_compress needs out to hold the worst case for in_n bytes: the
// LZO1X compressors do not check the output size.
static pq_lzo_result pq_lzo_compress(int level, const unsigned char *in, size_t in_n,
		unsigned char *out, void *wrkmem) {
	pq_lzo_result r;
	lzo_uint n = 0;
	if (level == 999) {
		r.code = lzo1x_999_compress(in, in_n, out, &n, wrkmem);
	} else {
		r.code = lzo1x_1_compress(in, in_n, out, &n, wrkmem);
	}
	r.n = n;
	return r;
}

static pq_lzo_result pq_lzo_decompress(const unsigned char *in, size_t in_n,
		unsigned char *out, size_t out_n) {
	pq_lzo_result r;
	lzo_uint n = out_n;
	r.code = lzo1x_decompress_safe(in, in_n, out, &n, NULL);
	r.n = n;
	return r;
}
*/
import "C"

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/pqcodec/pqcodec/native/internal/cbuf"
)

// Available reports whether the package was built with cgo, without the
// nolzo tag, and binds liblzo2. When false every constructor returns
// [ErrUnavailable].
const Available = true

var initErr = sync.OnceValue(func() error {
	if code := C.pq_lzo_init(); code != C.LZO_E_OK {
		return fmt.Errorf("%w: lzo_init failed (%s)", ErrInternal, codeName(code))
	}
	return nil
})

// Compressor compresses with LZO1X-1 or LZO1X-999, reusing one block of
// working memory in C. It is not safe for concurrent use.
type Compressor struct {
	wrkmem  cbuf.Handle[unsafe.Pointer]
	level   int
	scratch [1]byte // stands in for an empty src
}

// NewCompressor returns a Compressor for level [Level1] or [Level999].
func NewCompressor(level int) (*Compressor, error) {
	if err := checkLevel(level); err != nil {
		return nil, err
	}
	if err := initErr(); err != nil {
		return nil, err
	}
	w := C.pq_lzo_alloc(C.int(level))
	if w == nil {
		return nil, fmt.Errorf("%w: cannot allocate working memory", ErrInternal)
	}
	c := &Compressor{level: level}
	cbuf.Own(c, &c.wrkmem, w, func(w unsafe.Pointer) { C.free(w) })
	return c, nil
}

// Compress appends the LZO1X compression of src to dst and returns the
// extended slice. The output is written straight into dst's spare capacity
// when that is at least [CompressBound](len(src)) (liblzo2 requires the
// worst case to be available); otherwise dst is first grown (a new backing
// array: dst's own spare capacity is left untouched). dst may be nil; src
// may be empty (the output is then the 3-byte end marker); dst's spare
// capacity must not overlap src.
func (c *Compressor) Compress(dst, src []byte) ([]byte, error) {
	if c.wrkmem.Get() == nil {
		return nil, ErrClosed
	}
	bound := CompressBound(len(src))
	dst = cbuf.Grow(dst, bound)
	n := len(dst)
	out, _ := cbuf.Spare(dst, nil)
	r := C.pq_lzo_compress(C.int(c.level), (*C.uchar)(cbuf.In(src, &c.scratch)), C.size_t(len(src)),
		(*C.uchar)(out), c.wrkmem.Get())
	runtime.KeepAlive(c)
	if r.code != C.LZO_E_OK {
		return nil, fmt.Errorf("%w: LZO1X compression failed (%s)", ErrInternal, codeName(r.code))
	}
	if int(r.n) > bound {
		return nil, fmt.Errorf("%w: LZO1X output of %d bytes exceeds the bound %d", ErrInternal, r.n, bound)
	}
	return dst[:n+int(r.n)], nil
}

// Close frees the working memory. It is idempotent; any later Compress
// returns [ErrClosed].
func (c *Compressor) Close() error {
	c.wrkmem.Close()
	return nil
}

// Decompressor decodes LZO1X streams with lzo1x_decompress_safe. It holds
// no C memory. It is not safe for concurrent use.
type Decompressor struct {
	closed  bool
	scratch [1]byte // stands in for an empty dst
}

// NewDecompressor returns a Decompressor.
func NewDecompressor() (*Decompressor, error) {
	if err := initErr(); err != nil {
		return nil, err
	}
	return &Decompressor{}, nil
}

// Decompress decodes src, one LZO1X stream (as written by any LZO1X
// compressor, ending with its end marker), into dst's spare capacity
// dst[len(dst):cap(dst)] and returns dst extended by the content. It never
// allocates and never writes past cap(dst): content that does not fit
// returns an error wrapping [ErrDstTooSmall]. Invalid input, a missing end
// marker or bytes after it return an error wrapping [ErrCorrupt] with
// liblzo2's error name. LZO1X carries no checksum: damage that keeps the
// stream well-formed goes undetected. On error the result is nil and dst's
// spare capacity holds unspecified bytes. dst may be nil; src must not
// overlap dst's spare capacity.
func (d *Decompressor) Decompress(dst, src []byte) ([]byte, error) {
	if err := cbuf.CheckInput(d.closed, src, ErrClosed, ErrCorrupt); err != nil {
		return nil, err
	}
	out, room := cbuf.Spare(dst, &d.scratch)
	r := C.pq_lzo_decompress((*C.uchar)(cbuf.In(src, nil)), C.size_t(len(src)), (*C.uchar)(out), C.size_t(room))
	runtime.KeepAlive(d)
	switch r.code {
	case C.LZO_E_OK:
		if int(r.n) > room {
			return nil, fmt.Errorf("%w: lzo1x_decompress_safe reported %d bytes for %d of room", ErrInternal, r.n, room)
		}
		return dst[:len(dst)+int(r.n)], nil
	case C.LZO_E_OUTPUT_OVERRUN:
		return nil, fmt.Errorf("%w: %s with %d bytes of room", ErrDstTooSmall, codeName(r.code), room)
	case C.LZO_E_OUT_OF_MEMORY, C.LZO_E_INTERNAL_ERROR, C.LZO_E_INVALID_ARGUMENT, C.LZO_E_INVALID_ALIGNMENT:
		return nil, fmt.Errorf("%w: lzo1x_decompress_safe: %s", ErrInternal, codeName(r.code))
	default:
		return nil, fmt.Errorf("%w: %s", ErrCorrupt, codeName(r.code))
	}
}

// Close marks the Decompressor closed. It is idempotent; any later
// Decompress returns [ErrClosed].
func (d *Decompressor) Close() error {
	d.closed = true
	return nil
}

// codeName names a liblzo2 result code as lzoconf.h does.
func codeName(code C.int) string {
	switch code {
	case C.LZO_E_OK:
		return "LZO_E_OK"
	case C.LZO_E_ERROR:
		return "LZO_E_ERROR"
	case C.LZO_E_OUT_OF_MEMORY:
		return "LZO_E_OUT_OF_MEMORY"
	case C.LZO_E_INPUT_OVERRUN:
		return "LZO_E_INPUT_OVERRUN"
	case C.LZO_E_OUTPUT_OVERRUN:
		return "LZO_E_OUTPUT_OVERRUN"
	case C.LZO_E_LOOKBEHIND_OVERRUN:
		return "LZO_E_LOOKBEHIND_OVERRUN"
	case C.LZO_E_EOF_NOT_FOUND:
		return "LZO_E_EOF_NOT_FOUND"
	case C.LZO_E_INPUT_NOT_CONSUMED:
		return "LZO_E_INPUT_NOT_CONSUMED"
	case C.LZO_E_INVALID_ARGUMENT:
		return "LZO_E_INVALID_ARGUMENT"
	case C.LZO_E_INTERNAL_ERROR:
		return "LZO_E_INTERNAL_ERROR"
	default:
		return fmt.Sprintf("LZO error %d", int(code))
	}
}
