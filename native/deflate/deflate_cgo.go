//go:build cgo

package deflate

/*
#cgo LDFLAGS: -ldeflate
#include <stdint.h>
#include <libdeflate.h>

typedef struct {
	int result;      // enum libdeflate_result of the last call
	size_t in_used;  // input consumed by the members decoded so far
	size_t out_used; // output produced by the members decoded so far
	size_t members;  // members decoded
} pq_gunzip_result;

// pq_gunzip decodes every gzip member of in[0:in_n] into out[0:out_n],
// stopping at the first error. One cgo call per page, whatever the number of
// members.
static pq_gunzip_result pq_gunzip(struct libdeflate_decompressor *d,
		const uint8_t *in, size_t in_n, uint8_t *out, size_t out_n) {
	pq_gunzip_result r = {LIBDEFLATE_SUCCESS, 0, 0, 0};
	while (r.in_used < in_n) {
		size_t in_used = 0, out_used = 0;
		r.result = libdeflate_gzip_decompress_ex(d, in + r.in_used, in_n - r.in_used,
			out + r.out_used, out_n - r.out_used, &in_used, &out_used);
		if (r.result != LIBDEFLATE_SUCCESS) {
			break;
		}
		if (in_used == 0) { // cannot happen: a member is at least 18 bytes
			r.result = LIBDEFLATE_BAD_DATA;
			break;
		}
		r.in_used += in_used;
		r.out_used += out_used;
		r.members++;
	}
	return r;
}
*/
import "C"

import (
	"fmt"
	"runtime"

	"github.com/pqcodec/pqcodec/native/internal/cbuf"
)

// Available reports whether the package was built with cgo and binds
// libdeflate. When false every constructor returns [ErrUnavailable].
const Available = true

// Compressor writes gzip streams at a fixed level with one reused libdeflate
// compressor. It is not safe for concurrent use.
type Compressor struct {
	c       cbuf.Handle[*C.struct_libdeflate_compressor]
	scratch [1]byte // stands in for an empty src
}

// NewCompressor returns a Compressor at level, in [MinLevel, MaxLevel].
func NewCompressor(level int) (*Compressor, error) {
	if err := checkLevel(level); err != nil {
		return nil, err
	}
	p := C.libdeflate_alloc_compressor(C.int(level))
	if p == nil {
		return nil, fmt.Errorf("%w: libdeflate_alloc_compressor(%d) failed", ErrInternal, level)
	}
	c := &Compressor{}
	cbuf.Own(c, &c.c, p, func(p *C.struct_libdeflate_compressor) { C.libdeflate_free_compressor(p) })
	return c, nil
}

// Compress appends a single-member gzip stream holding src to dst and
// returns the extended slice. The stream is written straight into dst's
// spare capacity when that is at least [CompressBound](len(src)); otherwise
// dst is first grown (a new backing array: dst's own spare capacity is left
// untouched). dst may be nil; src may be empty; dst's spare capacity must not
// overlap src. The header carries no name and a zero modification time.
func (c *Compressor) Compress(dst, src []byte) ([]byte, error) {
	if c.c.Get() == nil {
		return nil, ErrClosed
	}
	dst = cbuf.Grow(dst, CompressBound(len(src)))
	out, room := cbuf.Spare(dst, nil)
	w := C.libdeflate_gzip_compress(c.c.Get(), cbuf.In(src, &c.scratch), C.size_t(len(src)), out, C.size_t(room))
	runtime.KeepAlive(c)
	if w == 0 {
		return nil, fmt.Errorf("%w: libdeflate_gzip_compress returned 0 with %d bytes of room", ErrInternal, room)
	}
	return dst[:len(dst)+int(w)], nil
}

// Close frees the libdeflate compressor. It is idempotent; any later
// Compress returns [ErrClosed].
func (c *Compressor) Close() error {
	c.c.Close()
	return nil
}

// Decompressor decodes gzip streams with one reused libdeflate decompressor.
// It is not safe for concurrent use.
type Decompressor struct {
	d       cbuf.Handle[*C.struct_libdeflate_decompressor]
	scratch [1]byte // stands in for an empty dst
}

// NewDecompressor returns a Decompressor.
func NewDecompressor() (*Decompressor, error) {
	p := C.libdeflate_alloc_decompressor()
	if p == nil {
		return nil, fmt.Errorf("%w: libdeflate_alloc_decompressor failed", ErrInternal)
	}
	d := &Decompressor{}
	cbuf.Own(d, &d.d, p, func(p *C.struct_libdeflate_decompressor) { C.libdeflate_free_decompressor(p) })
	return d, nil
}

// Decompress decodes src, one or more concatenated gzip members, into dst's
// spare capacity dst[len(dst):cap(dst)] and returns dst extended by the
// content. It never allocates and never writes past cap(dst): content that
// does not fit returns an error wrapping [ErrDstTooSmall]. Input that is not
// a sequence of valid members (bad header, CRC or size trailer, trailing
// garbage, empty input) returns an error wrapping [ErrCorrupt] naming
// libdeflate's result and the failing member. On error the result is nil and
// dst's spare capacity holds unspecified bytes. dst may be nil; src must not
// overlap dst's spare capacity. Members made only of stored blocks (pages
// stored because they do not compress) are copied and checked in Go, at
// about twice libdeflate's speed; everything else goes to libdeflate.
func (d *Decompressor) Decompress(dst, src []byte) ([]byte, error) {
	if err := cbuf.CheckInput(d.d.Get() == nil, src, ErrClosed, ErrCorrupt); err != nil {
		return nil, err
	}
	if out, ok := copyStored(dst, src); ok {
		return out, nil
	}
	return d.inflate(dst, src)
}

// inflate is Decompress by libdeflate alone, for non-empty src.
func (d *Decompressor) inflate(dst, src []byte) ([]byte, error) {
	out, room := cbuf.Spare(dst, &d.scratch)
	r := C.pq_gunzip(d.d.Get(), (*C.uint8_t)(cbuf.In(src, nil)), C.size_t(len(src)), (*C.uint8_t)(out), C.size_t(room))
	runtime.KeepAlive(d)
	switch r.result {
	case C.LIBDEFLATE_SUCCESS:
		return dst[:len(dst)+int(r.out_used)], nil
	case C.LIBDEFLATE_INSUFFICIENT_SPACE:
		return nil, fmt.Errorf("%w: LIBDEFLATE_INSUFFICIENT_SPACE in gzip member %d at offset %d (%d bytes of room)",
			ErrDstTooSmall, r.members, r.in_used, room)
	case C.LIBDEFLATE_BAD_DATA:
		return nil, fmt.Errorf("%w: LIBDEFLATE_BAD_DATA in gzip member %d at offset %d", ErrCorrupt, r.members, r.in_used)
	default:
		return nil, fmt.Errorf("%w: libdeflate result %d in gzip member %d at offset %d",
			ErrInternal, r.result, r.members, r.in_used)
	}
}

// Close frees the libdeflate decompressor. It is idempotent; any later
// Decompress returns [ErrClosed].
func (d *Decompressor) Close() error {
	d.d.Close()
	return nil
}
