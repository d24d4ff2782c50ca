package codecfactory

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/pqcodec/pqcodec/internal/unsafecast"
)

// A compressor compresses whole pages for one codec. It is owned by one
// goroutine at a time (the Factory pools it).
type compressor interface {
	// compress appends the compressed form of src to dst.
	compress(dst, src []byte) ([]byte, error)
}

// A decompressor decompresses whole pages for one codec. It is owned by one
// goroutine at a time (the Factory pools it).
type decompressor interface {
	// decompress writes the n bytes src decodes to into
	// dst[len(dst):len(dst)+n], where cap(dst) == len(dst)+n, and returns
	// dst[:len(dst)+n]. Output of any other length is an error wrapping
	// ErrSizeMismatch; undecodable input one wrapping ErrCorrupt.
	decompress(dst, src []byte, n int) ([]byte, error)
}

// A sizer is a decompressor that can measure what src decodes to without
// keeping the output, stopping once more than limit bytes came out (and
// then returning a number above limit). Decompress uses it, when the
// declared size is more than the compressed bytes have evidence for, to
// allocate exactly what the stream produces.
type sizer interface {
	decodedSize(src []byte, limit int) (int, error)
}

// codecImpl is how a Factory handles one codec.
type codecImpl struct {
	newCompressor   func() (compressor, error)
	newDecompressor func() (decompressor, error)
	// check rejects, before any allocation, a non-empty src that cannot
	// decode to n bytes, from what the format states up front.
	check func(src []byte, n int) error
	// trust, when set, returns how many of the n declared bytes src has
	// evidence for (at most n, at least 1): Decompress allocates that much
	// and grows geometrically only when the stream really produces more.
	// Without it the declared size, once check accepts it, is trusted
	// whole (check then enforces the format's real maximum expansion).
	trust func(src []byte, n int) int
	// bound is the most compress appends for n input bytes.
	bound func(n int) int
	// compressLib and decompressLib name the implementations used.
	compressLib, decompressLib string
}

// Factory compresses and decompresses Parquet pages with every codec. It
// keeps, per codec, a bounded list of idle compression and decompression
// contexts (native library contexts, or pure-Go encoders and decoders),
// which survive garbage collection, so the steady state allocates nothing.
// A Factory is safe for concurrent use by any number of goroutines; create
// one per process (or per set of options) and share it. [Factory.Close]
// frees the native memory of its idle contexts.
type Factory struct {
	cfg    config
	impl   [numCodecs]codecImpl
	comp   [numCodecs]idleList[compressor]
	decomp [numCodecs]idleList[decompressor]
	// huffman holds Huffman-only GZIP compressors for the incompressible
	// pages of levels >= huffmanMinGzipLevel (stored.go), made on first use.
	huffman idleList[compressor]
}

// New returns a Factory configured by opts. It uses the native (cgo)
// implementation of a codec where the native package reports it
// Available, unless [WithPureGo] is given, and the pure-Go one otherwise.
// It returns an error wrapping [ErrOption] for an invalid option, or the
// error of creating a first context of a codec (a Factory that cannot
// compress LZO in this build is not an error: Compress then returns
// [ErrUnavailable]).
func New(opts ...Option) (*Factory, error) {
	f := &Factory{cfg: defaultConfig()}
	for _, o := range opts {
		if err := o(&f.cfg); err != nil {
			return nil, err
		}
	}
	native := !f.cfg.pureGo
	f.impl[Uncompressed] = uncompressedImpl()
	f.impl[Snappy] = snappyImpl(&f.cfg)
	f.impl[Gzip] = gzipImpl(&f.cfg, native)
	f.impl[Lzo] = lzoImpl(&f.cfg, native)
	f.impl[Brotli] = brotliImpl(&f.cfg, native)
	f.impl[Lz4] = lz4HadoopImpl(&f.cfg, native)
	f.impl[Zstd] = zstdImpl(&f.cfg, native)
	f.impl[Lz4Raw] = lz4RawImpl(&f.cfg, native)
	// Create one context of each kind now, so configuration errors surface
	// here and the lists start warm.
	idle := idleCapacity()
	if f.cfg.maxIdle >= 0 {
		idle = f.cfg.maxIdle
	}
	f.huffman.init(idle)
	for c := range Codec(numCodecs) {
		f.comp[c].init(idle)
		f.decomp[c].init(idle)
		d, err := f.impl[c].newDecompressor()
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("codecfactory: %v decompressor: %w", c, err)
		}
		f.decomp[c].put(d)
		if e, err := f.impl[c].newCompressor(); err == nil {
			f.comp[c].put(e)
		} else if c != Lzo {
			f.Close()
			return nil, fmt.Errorf("codecfactory: %v compressor: %w", c, err)
		}
	}
	return f, nil
}

// Close frees the native memory of the Factory's idle contexts now, instead
// of when the garbage collector finds them. Calls in progress finish
// normally. A Factory stays usable after Close, but then creates and frees a
// context per call: close it only when done with it. Close always returns
// nil.
func (f *Factory) Close() error {
	for c := range Codec(numCodecs) {
		f.comp[c].close()
		f.decomp[c].close()
	}
	f.huffman.close()
	return nil
}

// Implementation returns the names of the libraries the Factory uses to
// compress and to decompress c, such as "libzstd" or
// "github.com/klauspost/compress/zstd"; compress is "unavailable" when c
// cannot be compressed in this build (test that with [Factory.CanCompress]).
func (f *Factory) Implementation(c Codec) (compress, decompress string) {
	if !c.Valid() {
		return "", ""
	}
	return f.impl[c].compressLib, f.impl[c].decompressLib
}

// CanCompress reports whether the Factory can compress c in this build:
// every valid codec but LZO without liblzo2 (see [ErrUnavailable]). It is
// the one availability check; Compress fails with ErrUnavailable exactly
// where it reports false for a valid codec.
func (f *Factory) CanCompress(c Codec) bool {
	return c.Valid() && f.impl[c].compressLib != unavailableLib
}

// MaxPageSize returns the largest uncompressed page size Decompress accepts.
func (f *Factory) MaxPageSize() int { return f.cfg.maxPageSize }

// CompressBound returns the most bytes [Factory.Compress] appends when
// compressing n bytes with c: a dst with that much spare capacity is never
// reallocated. It returns -1 for an unknown codec.
func (f *Factory) CompressBound(c Codec, n int) int {
	if !c.Valid() || n < 0 {
		return -1
	}
	return f.impl[c].bound(n)
}

// Compress appends the compressed form of the page src to dst with codec c
// and returns the extended slice. It writes straight into dst's spare
// capacity when that is at least [Factory.CompressBound](c, len(src)), and
// otherwise grows dst once. dst may be nil; dst's spare capacity must not
// overlap src. On error the returned slice is dst unchanged (its spare
// capacity may have been written). It returns an error wrapping
// [ErrOverlap] when dst's spare capacity overlaps src,
// [ErrUnknownCodec] for an invalid c and [ErrUnavailable] for LZO in a
// build that cannot compress it. ZSTD and GZIP pages of 8 KiB or more that
// a sample shows to be incompressible are stored (raw zstd blocks, stored
// deflate blocks) without a compression attempt, or Huffman-coded at GZIP
// levels 7 and above. Compress is safe for
// concurrent use.
func (f *Factory) Compress(c Codec, dst, src []byte) ([]byte, error) {
	if !c.Valid() {
		return dst, fmt.Errorf("%w: %d", ErrUnknownCodec, int32(c))
	}
	if spare := dst[len(dst):cap(dst)]; unsafecast.Overlap(spare, src) {
		return dst, fmt.Errorf("compress %v page: %w: dst's spare capacity overlaps src", c, ErrOverlap)
	}
	if out, ok, err := f.compressIncompressible(c, dst, src); ok {
		return out, err
	}
	e, ok := f.comp[c].get()
	if !ok {
		var err error
		if e, err = f.impl[c].newCompressor(); err != nil {
			return dst, fmt.Errorf("compress %v page: %w", c, err)
		}
	}
	out, err := e.compress(dst, src)
	f.comp[c].put(e)
	if err != nil {
		return dst, fmt.Errorf("compress %v page of %d bytes: %w", c, len(src), err)
	}
	return out, nil
}

// Decompress decompresses the page src, compressed with c, whose header
// declares uncompressedSize bytes, appends them to dst and returns the
// extended slice. The bytes are written into dst's spare capacity when it
// holds uncompressedSize bytes; otherwise dst is grown once, to
// len(dst)+uncompressedSize, before decompressing, except for BROTLI and
// GZIP pages whose declared size is more than 16 times their compressed
// size (and above 1 MiB): those are measured first, or grown geometrically
// as the stream really produces bytes, up to the declared size (see the
// package documentation).
// dst may be nil; dst's spare capacity must not overlap src (an error
// wrapping [ErrOverlap] otherwise, checked before anything is written).
//
// Decompress checks the untrusted uncompressedSize before allocating: a
// negative one returns [ErrCorrupt], one above
// [Factory.MaxPageSize] it returns [ErrPageTooLarge]; where the format
// states the real size up front (the zstd frame header, the snappy
// preamble, Hadoop chunk lengths, the gzip trailer) or bounds it (the
// largest expansion deflate, LZ4 and LZO allow per input byte), a
// disagreement returns [ErrSizeMismatch]. Output longer or shorter than
// uncompressedSize returns [ErrSizeMismatch] too: the output is never
// truncated and never longer than declared. Undecodable input returns
// [ErrCorrupt], wrapping the library's error. An empty src with
// uncompressedSize 0 is an empty page for every codec (data pages v2 with
// only levels have one). On error the returned slice has dst's length and
// its spare capacity holds unspecified bytes.
//
// For [Lz4], Decompress reads Hadoop framing (any number of chunks and of
// pieces per chunk), and when that fails the LZ4 frame format and then a
// single raw LZ4 block, which other writers have stored under this codec.
//
// Decompress is safe for concurrent use.
func (f *Factory) Decompress(c Codec, dst, src []byte, uncompressedSize int) ([]byte, error) {
	n := uncompressedSize
	if !c.Valid() {
		return dst, fmt.Errorf("%w: %d", ErrUnknownCodec, int32(c))
	}
	if n < 0 {
		return dst, fmt.Errorf("decompress %v page: %w: negative uncompressed size %d", c, ErrCorrupt, n)
	}
	if spare := dst[len(dst):cap(dst)]; unsafecast.Overlap(spare, src) {
		return dst, fmt.Errorf("decompress %v page: %w: dst's spare capacity overlaps src", c, ErrOverlap)
	}
	if n > f.cfg.maxPageSize {
		return dst, fmt.Errorf("decompress %v page: %w: %d bytes declared, maximum %d",
			c, ErrPageTooLarge, n, f.cfg.maxPageSize)
	}
	if len(src) == 0 {
		if n == 0 {
			return dst, nil
		}
		return dst, fmt.Errorf("decompress %v page: %w: empty input, %d bytes declared", c, ErrSizeMismatch, n)
	}
	if err := f.impl[c].check(src, n); err != nil {
		return dst, fmt.Errorf("decompress %v page of %d bytes: %w", c, len(src), err)
	}
	d, ok := f.decomp[c].get()
	if !ok {
		var err error
		if d, err = f.impl[c].newDecompressor(); err != nil {
			return dst, fmt.Errorf("decompress %v page: %w", c, err)
		}
	}
	out, err := f.decompress(c, d, dst, src, n)
	f.decomp[c].put(d)
	if err != nil {
		return dst, fmt.Errorf("decompress %v page of %d bytes to %d: %w", c, len(src), n, err)
	}
	return out, nil
}

// decompress is Decompress once the arguments are checked and d is taken.
func (f *Factory) decompress(c Codec, d decompressor, dst, src []byte, n int) ([]byte, error) {
	base := len(dst)
	room := n // the spare capacity the first attempt gets
	if cap(dst)-base < n {
		if trust := f.impl[c].trust; trust != nil {
			room = trust(src, n)
		}
		if s, ok := d.(sizer); ok && room < n {
			// Measure what src really decodes to, then allocate exactly.
			size, err := s.decodedSize(src, n)
			switch {
			case err != nil:
				return dst, err
			case size > n:
				return dst, longer(n, nil)
			case size < n:
				return dst, mismatch(size, n)
			}
			room = n
		}
		grown := make([]byte, base, base+room)
		copy(grown, dst)
		dst = grown
	}
	if dst == nil {
		// A page declaring 0 bytes with a nil dst: hand the library an empty
		// destination that is not nil. pierrec/lz4's assembly computes its
		// fast-path end as &dst[0]+len(dst)-32, which wraps for a nil
		// pointer and lets it store through address 0 (SIGSEGV on a Hadoop
		// LZ4 or LZ4_RAW page with uncompressed_page_size 0); C libraries
		// are not promised anything about NULL either. The caller still
		// gets its nil back.
		if _, err := d.decompress(noBytes[:0:0], src, 0); err != nil {
			return nil, err
		}
		return nil, nil
	}
	out, err := d.decompress(dst[:base:base+room], src, room)
	for room < n {
		// The declared size is larger than src has evidence for: accept
		// output of exactly room bytes as a mismatch, and give a stream
		// that really produces more twice the room, up to n.
		var se *sizeError
		if err == nil {
			return dst[:base], mismatch(room, n)
		}
		if !errors.As(err, &se) {
			break
		}
		if !se.longer {
			return dst[:base], mismatch(se.got, n)
		}
		room = min(n, 2*room)
		grown := make([]byte, base, base+room)
		copy(grown, dst[:base])
		dst = grown
		out, err = d.decompress(dst[:base:base+room], src, room)
	}
	if err != nil {
		return dst[:base], err
	}
	return out, nil
}

// DecompressShared is [Factory.Decompress] with a zero-copy path: when c is
// [Uncompressed], dst is empty and len(src) == uncompressedSize, it returns
// src itself, without copying, so the result aliases src and is valid only
// as long as src is. Otherwise it behaves exactly as Decompress. Use it when
// the page buffer outlives the decoded values.
func (f *Factory) DecompressShared(c Codec, dst, src []byte, uncompressedSize int) ([]byte, error) {
	if c == Uncompressed && len(dst) == 0 && len(src) == uncompressedSize && uncompressedSize <= f.cfg.maxPageSize {
		return src[:len(src):len(src)], nil
	}
	return f.Decompress(c, dst, src, uncompressedSize)
}

// noBytes backs the empty, non-nil destination of a page declaring 0 bytes.
var noBytes [1]byte

// growFloor and growRatio set what a Decompress whose codec cannot bound
// the output up front allocates before the stream proves it needs more:
// growRatio times the compressed size, at least growFloor bytes, at most
// the declared size. Honest pages with a higher ratio are decoded again
// into twice the room until they fit, up to the declared size.
const (
	growFloor = 1 << 20
	growRatio = 16
)

// growTrust is the trust function of codecs with no useful bound on their
// expansion.
func growTrust(src []byte, n int) int { return min(n, max(growFloor, growRatio*len(src))) }

// corrupt wraps a library error as ErrCorrupt.
func corrupt(err error) error { return fmt.Errorf("%w: %w", ErrCorrupt, err) }

// sizeError is an error wrapping ErrSizeMismatch (and the library's error,
// if any) with the lengths involved.
type sizeError struct {
	got, want int   // got is -1 when longer is set
	longer    bool  // the output did not fit in want bytes
	err       error // the library's error, or nil
}

func (e *sizeError) Error() string {
	var msg string
	if e.longer {
		msg = ErrSizeMismatch.Error() + ": output longer than the " + strconv.Itoa(e.want) + " bytes declared"
	} else {
		msg = ErrSizeMismatch.Error() + ": got " + strconv.Itoa(e.got) + " bytes, header declares " + strconv.Itoa(e.want)
	}
	if e.err != nil {
		msg += ": " + e.err.Error()
	}
	return msg
}

func (e *sizeError) Unwrap() []error {
	if e.err == nil {
		return []error{ErrSizeMismatch}
	}
	return []error{ErrSizeMismatch, e.err}
}

// mismatch reports output of got bytes where want were declared.
func mismatch(got, want int) error { return &sizeError{got: got, want: want} }

// longer reports output longer than the declared want bytes, with the
// library's error (nil when there is none).
func longer(want int, err error) error {
	return &sizeError{got: -1, want: want, longer: true, err: err}
}

// appendWriter is an io.Writer appending to a byte slice, for the pure-Go
// stream encoders.
type appendWriter struct{ b []byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// streamWriter is a pure-Go stream encoder (brotli.Writer, gzip.Writer).
type streamWriter interface {
	Reset(io.Writer)
	Write([]byte) (int, error)
	Close() error
}

// streamCompressor compresses whole pages with a reused stream encoder,
// appending to dst after growing it to bound: the one compressor of the
// pure-Go BROTLI and GZIP codecs.
type streamCompressor[W streamWriter] struct {
	w     W
	aw    appendWriter
	bound func(int) int
}

func (s *streamCompressor[W]) compress(dst, src []byte) ([]byte, error) {
	s.aw.b = spare(dst, s.bound(len(src)))
	s.w.Reset(&s.aw)
	_, err := s.w.Write(src)
	if err == nil {
		err = s.w.Close()
	}
	out := s.aw.b
	s.aw.b = nil
	if err != nil {
		return dst, err
	}
	return out, nil
}

// spare returns dst with at least n bytes of spare capacity, growing it once
// if needed.
func spare(dst []byte, n int) []byte {
	if cap(dst)-len(dst) >= n {
		return dst
	}
	grown := make([]byte, len(dst), len(dst)+n)
	copy(grown, dst)
	return grown
}
