package rle

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/pqcodec/pqcodec/internal/bitpack"
	"github.com/pqcodec/pqcodec/internal/unsafecast"
)

// Decoder decodes a hybrid stream in pieces. The zero value has nothing to
// decode; [Decoder.Reset] gives it a stream. A Decoder retains its input
// until the next Reset, never modifies it, and is not safe for concurrent
// use.
type Decoder struct {
	src       []byte // input after the current run
	size      int    // original input length, for error offsets
	width     uint
	remaining int // values the stream has still to produce, after the current run

	packed  bool   // current run is bit-packed
	runLeft int    // values of the current run not produced yet
	value   uint32 // value of the current RLE run
	data    []byte // input from the next block of the current bit-packed run
	bufPos  int    // next value of buf to produce
	bufLen  int    // number of valid values in buf
	err     error  // sticky error of a corrupt stream
	boolean bool   // any non-zero RLE value reads as 1 (see DecodeBoolean)
	buf     [32]uint32
}

// Reset makes d decode count values of the given bit width from the bare
// stream src. It fails if width > 32 or count < 0, leaving d empty.
func (d *Decoder) Reset(src []byte, width uint, count int) error {
	*d = Decoder{}
	if width > MaxBitWidth {
		return fmt.Errorf("%w: bit width %d", ErrInvalidArgument, width)
	}
	if count < 0 {
		return fmt.Errorf("%w: negative value count %d", ErrInvalidArgument, count)
	}
	d.src, d.size, d.width, d.remaining = src, len(src), width, count
	return nil
}

// Remaining returns the number of values not decoded yet.
func (d *Decoder) Remaining() int { return d.remaining + d.runLeft + d.bufLen - d.bufPos }

// Decode writes the next min(len(dst), d.Remaining()) values into dst and
// returns how many it wrote. When every value has been decoded it returns
// 0, [io.EOF]. On corrupt input it returns the values decoded before the
// faulty run and an error wrapping [ErrCorrupt]; later calls return the same
// kind of error. Elements of dst past the returned count are not modified,
// except after an error, when they may hold garbage.
func (d *Decoder) Decode(dst []uint32) (int, error) {
	n := 0
	for n < len(dst) {
		if d.bufPos < d.bufLen {
			c := copy(dst[n:], d.buf[d.bufPos:d.bufLen])
			n += c
			d.bufPos += c
			continue
		}
		if d.runLeft == 0 {
			if d.err != nil {
				return n, d.err
			}
			if d.remaining == 0 {
				if n == 0 && len(dst) > 0 {
					return 0, io.EOF
				}
				return n, nil
			}
			if err := d.nextRun(); err != nil {
				return n, err
			}
			continue
		}
		if !d.packed {
			c := min(len(dst)-n, d.runLeft)
			fill(dst[n:n+c], d.value)
			n += c
			d.runLeft -= c
			continue
		}
		// Blocks of 32 go straight to dst. A block may run past the end of
		// the run when the values that follow will overwrite the excess
		// before this call returns.
		w := int(4 * d.width)
		for d.runLeft > 0 && len(dst)-n >= 32 && len(d.data) >= w &&
			(d.runLeft >= 32 || d.runLeft+d.remaining >= 32) {
			bitpack.Unpack32((*[32]uint32)(dst[n:n+32]), d.data, d.width)
			c := min(32, d.runLeft)
			d.data = d.data[w:]
			n += c
			d.runLeft -= c
		}
		if d.runLeft > 0 && n < len(dst) {
			d.refill()
		}
	}
	return n, nil
}

// refill unpacks the next block of the current bit-packed run into buf,
// padding a truncated last block with zero bytes.
func (d *Decoder) refill() {
	w := int(4 * d.width)
	c := min(32, d.runLeft)
	if len(d.data) >= w {
		bitpack.Unpack32(&d.buf, d.data, d.width)
		d.data = d.data[w:]
	} else {
		var tmp [4 * MaxBitWidth]byte
		copy(tmp[:], d.data)
		bitpack.Unpack32(&d.buf, tmp[:], d.width)
		d.data = nil
	}
	d.bufPos, d.bufLen = 0, c
	d.runLeft -= c
}

func fillBool(dst []bool, v bool) {
	if len(dst) <= 64 {
		for i := range dst {
			dst[i] = v
		}
		return
	}
	dst[0] = v
	for k := 1; k < len(dst); k *= 2 {
		copy(dst[k:], dst[:k])
	}
}

func fill[T Level](dst []T, v T) {
	if v == 0 {
		clear(dst)
		return
	}
	// A short seed, then doubling copies: a few memmove calls beat a
	// store per value on long runs.
	k := min(len(dst), 16)
	for i := range dst[:k] {
		dst[i] = v
	}
	for ; k < len(dst); k *= 2 {
		copy(dst[k:], dst[:k])
	}
}

// fail makes err sticky: the stream produces no more values.
func (d *Decoder) fail(err error) error {
	d.err = err
	d.remaining, d.runLeft, d.bufPos, d.bufLen = 0, 0, 0, 0
	return err
}

// nextRun reads the next run header and makes it current.
func (d *Decoder) nextRun() error {
	off := d.size - len(d.src)
	header, k := binary.Uvarint(d.src)
	if k <= 0 {
		if k == 0 {
			return d.fail(fmt.Errorf("%w: truncated run header at offset %d, %d values missing", ErrCorrupt, off, d.remaining))
		}
		return d.fail(fmt.Errorf("%w: run header overflows at offset %d", ErrCorrupt, off))
	}
	src := d.src[k:]
	if header&1 == 0 {
		// A run longer than the values still expected is cut to them, as
		// parquet-java, arrow-cpp, arrow-rs and DuckDB do.
		count := min(header>>1, uint64(d.remaining))
		nb := int(d.width+7) / 8
		if len(src) < nb {
			return d.fail(fmt.Errorf("%w: truncated run value at offset %d", ErrCorrupt, off+k))
		}
		var v uint32
		for i := nb - 1; i >= 0; i-- {
			v = v<<8 | uint32(src[i])
		}
		if d.boolean && v != 0 {
			v = 1
		}
		if d.width < 32 && v>>d.width != 0 {
			return d.fail(fmt.Errorf("%w: run value %d at offset %d wider than %d bits", ErrCorrupt, v, off+k, d.width))
		}
		d.src = src[nb:]
		d.packed, d.value, d.runLeft = false, v, int(count)
		d.remaining -= int(count)
		return nil
	}
	// A bit-packed run padded past the values still expected (DuckDB and
	// others write whole 32-value blocks) is cut to them: only the bytes of
	// the needed values must be present.
	groups := min(header>>1, uint64(d.remaining+7)/8)
	count := min(int(groups)*8, d.remaining)
	if need := bitpack.ByteCount(count, d.width); len(src) < need {
		return d.fail(fmt.Errorf("%w: bit-packed run at offset %d needs %d bytes, %d left", ErrCorrupt, off, need, len(src)))
	}
	nb := min(int(groups)*int(d.width), len(src))
	// The unpacking may read past the run into the rest of the input (the
	// values it decodes from there are discarded), never past the input.
	d.data = src
	d.src = src[nb:]
	d.packed, d.runLeft = true, count
	d.remaining -= count
	return nil
}

// Decode appends to dst the count values of the given bit width decoded
// from the bare stream src, and returns the extended slice. It grows dst at
// most once, by count values. On error dst is returned with its original
// length. Bytes of src after the last run are ignored.
func Decode(dst []uint32, src []byte, width uint, count int) ([]uint32, error) {
	return DecodeLevels(dst, src, width, count)
}

// Level is the set of value types [DecodeLevels] writes.
type Level interface {
	~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32
}

// DecodeLevels is [Decode] into a narrower type, as readers keep levels
// (uint8 or int16) or dictionary indices (int32). It fails with
// [ErrInvalidArgument] if width does not fit T.
func DecodeLevels[T Level](dst []T, src []byte, width uint, count int) ([]T, error) {
	// The width fits T if its largest value survives the conversion (a
	// signed T turns it negative when the width takes the sign bit).
	if top := uint64(1)<<min(width, 64) - 1; uint64(T(top)) != top {
		var zero T
		return dst, fmt.Errorf("%w: bit width %d does not fit %T", ErrInvalidArgument, width, zero)
	}
	if count < 0 {
		return dst, fmt.Errorf("%w: negative value count %d", ErrInvalidArgument, count)
	}
	return decodeAppend(dst, src, width, count, math.MaxUint32)
}

// DecodeIndices is [Decode] of dictionary indices checked against the
// dictionary: a value above limit (the dictionary size less one) is an
// error wrapping [ErrCorrupt], found in the same pass over the values.
func DecodeIndices(dst []uint32, src []byte, width uint, count int, limit uint32) ([]uint32, error) {
	if width > MaxBitWidth {
		return dst, fmt.Errorf("%w: bit width %d does not fit uint32", ErrInvalidArgument, width)
	}
	if count < 0 {
		return dst, fmt.Errorf("%w: negative value count %d", ErrInvalidArgument, count)
	}
	return decodeAppend(dst, src, width, count, limit)
}

// decodeAppend appends count values decoded by [decodePage] to dst, growing
// it at most once; on error dst keeps its length.
func decodeAppend[T Level](dst []T, src []byte, width uint, count int, limit uint32) ([]T, error) {
	dst = slices.Grow(dst, count)
	if err := decodePage(dst[len(dst):len(dst)+count], src, width, limit); err != nil {
		return dst, err
	}
	return dst[:len(dst)+count], nil
}

// DecodeBoolean appends to dst the count booleans of an RLE-encoded BOOLEAN
// page: a 4-byte length prefix followed by a stream of width 1. It returns
// the extended slice and the bytes after the stream. As other readers do, it
// reads any non-zero RLE run value as true: parquet-go writes runs of true
// with the value byte 0xFF.
func DecodeBoolean(dst []bool, src []byte, count int) ([]bool, []byte, error) {
	stream, rest, err := SplitPrefix(src)
	if err != nil {
		return dst, src, err
	}
	var d Decoder
	if err := d.Reset(stream, 1, count); err != nil {
		return dst, src, err
	}
	d.boolean = true
	dst = slices.Grow(dst, count)
	out := dst[len(dst) : len(dst)+count]
	// Runs go straight to out: a bit-packed run of width 1 is a bitmap.
	for i := 0; i < count; {
		if err := d.nextRun(); err != nil {
			return dst, src, err
		}
		c := d.runLeft
		if d.packed {
			unsafecast.ExpandBits(out[i:i+c], d.data)
		} else {
			fillBool(out[i:i+c], d.value != 0)
		}
		d.runLeft = 0
		i += c
	}
	return dst[:len(dst)+count], rest, nil
}
