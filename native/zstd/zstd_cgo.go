//go:build cgo

package zstd

import (
	"errors"
	"fmt"
	"runtime"

	datadog "github.com/DataDog/zstd"

	"github.com/pqcodec/pqcodec/native/internal/cbuf"
)

// Available reports whether the package was built with cgo and binds
// libzstd. When false every constructor returns [ErrUnavailable].
const Available = true

// libzstd error codes (zstd_errors.h, stable since v1.3) that the binding
// tells apart.
const (
	zstdErrMemoryAllocation = 64
	zstdErrDstSizeTooSmall  = 70
)

// Compressor compresses whole frames at a fixed level with one reused
// compression context. It is not safe for concurrent use.
type Compressor struct {
	ctx   datadog.Ctx
	level int
}

// NewCompressor returns a Compressor at level, which must lie in
// [MinLevel, MaxLevel]; 0 means libzstd's default level.
func NewCompressor(level int) (*Compressor, error) {
	if err := checkLevel(level); err != nil {
		return nil, err
	}
	return &Compressor{ctx: datadog.NewCtx(), level: level}, nil
}

// Compress appends one zstd frame holding src to dst and returns the
// extended slice. The frame is written straight into dst's spare capacity
// when that is at least [CompressBound](len(src)); otherwise dst is first
// grown (a new backing array: dst's own spare capacity is left untouched).
// dst may be nil; src may be empty; dst's spare capacity must not overlap
// src. The frame header records len(src) as the content size.
func (c *Compressor) Compress(dst, src []byte) ([]byte, error) {
	if c.ctx == nil {
		return nil, ErrClosed
	}
	dst = cbuf.Grow(dst, CompressBound(len(src)))
	n := len(dst)
	out, err := c.ctx.CompressLevel(dst[n:cap(dst)], src, c.level)
	runtime.KeepAlive(c)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInternal, err)
	}
	// CompressLevel writes in place when given at least the bound.
	if len(out) > 0 && &out[0] != &dst[n:cap(dst)][0] {
		return nil, fmt.Errorf("%w: compressed out of place", ErrInternal)
	}
	return dst[:n+len(out)], nil
}

// Close drops the compression context. libzstd's memory for it is freed by
// the finalizer of github.com/DataDog/zstd's context, at a later garbage
// collection; github.com/DataDog/zstd offers no explicit free. Close is
// idempotent; any later Compress returns [ErrClosed].
func (c *Compressor) Close() error {
	c.ctx = nil
	return nil
}

// Decompressor decompresses whole frames with one reused decompression
// context. It is not safe for concurrent use.
type Decompressor struct {
	ctx datadog.Ctx
	// scratch stands in for an empty dst, which libzstd is never given.
	scratch [1]byte
}

// NewDecompressor returns a Decompressor.
func NewDecompressor() (*Decompressor, error) {
	return &Decompressor{ctx: datadog.NewCtx()}, nil
}

// Decompress decompresses src, one or more concatenated zstd frames (and
// skippable frames), into dst's spare capacity dst[len(dst):cap(dst)] and
// returns dst extended by the content. It never allocates and never writes
// past cap(dst): content that does not fit returns an error wrapping
// [ErrDstTooSmall] (size the buffer with [FrameContentSize]). Input that is
// not a valid sequence of frames, including trailing garbage, returns an
// error wrapping [ErrCorrupt], with libzstd's error name in the message. On
// error the result is nil and the spare capacity of dst holds unspecified
// bytes. dst may be nil; src must not overlap dst's spare capacity.
func (d *Decompressor) Decompress(dst, src []byte) ([]byte, error) {
	if err := cbuf.CheckInput(d.ctx == nil, src, ErrClosed, ErrCorrupt); err != nil {
		return nil, err
	}
	n := len(dst)
	// cbuf.Spare's rule for DataDog's slice API: scratch for an empty dst.
	spare := dst[n:cap(dst)]
	if len(spare) == 0 {
		spare = d.scratch[:]
	}
	written, err := d.ctx.DecompressInto(spare, src)
	runtime.KeepAlive(d)
	if err != nil {
		return nil, decompressError(err)
	}
	if n+written > cap(dst) {
		// Only possible when the content went to scratch.
		return nil, fmt.Errorf("%w: content needs %d bytes, dst has 0 spare", ErrDstTooSmall, written)
	}
	return dst[:n+written], nil
}

func decompressError(err error) error {
	var code datadog.ErrorCode
	if !errors.As(err, &code) {
		return fmt.Errorf("%w: %w", ErrInternal, err)
	}
	switch -int(code) {
	case zstdErrDstSizeTooSmall:
		return fmt.Errorf("%w: %s (libzstd error %d)", ErrDstTooSmall, code.Error(), -int(code))
	case zstdErrMemoryAllocation:
		return fmt.Errorf("%w: %s (libzstd error %d)", ErrInternal, code.Error(), -int(code))
	default:
		return fmt.Errorf("%w: %s (libzstd error %d)", ErrCorrupt, code.Error(), -int(code))
	}
}

// Close drops the decompression context; as for [Compressor.Close], its
// memory is freed at a later garbage collection. Close is idempotent; any
// later Decompress returns [ErrClosed].
func (d *Decompressor) Close() error {
	d.ctx = nil
	return nil
}
