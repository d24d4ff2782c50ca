package rle

// page_amd64.s, the assembly of the page loops, is generated from one run loop
// per value size:
//
//go:generate go run ./internal/gen -out .

import (
	"encoding/binary"
	"fmt"

	"github.com/pqcodec/pqcodec/internal/bitpack"
	"github.com/pqcodec/pqcodec/internal/unsafecast"
)

// decodePage decodes len(dst) values of the given bit width (at most 32,
// and at most the bits of T) from the bare stream src into dst: the
// whole-page path of [Decode], [DecodeLevels] and [DecodeIndices], with the
// checks of [Decoder.Decode]. A value above limit is an error (only
// checked when the width allows such values; levels pass the largest
// uint32). Bytes of src after the last run are ignored.
//
// An RLE run may write values past its own end, up to len(dst), when a
// wide store is cheaper than stopping at the end: the runs that follow
// overwrite them. A bit-packed run unpacks its groups of 8 values and no
// more. After an error dst holds garbage.
func decodePage[T Level](dst []T, src []byte, width uint, limit uint32) error {
	// Values above limit are an error; the width alone may rule them out.
	check := width > 0 && uint64(limit) < uint64(1)<<width-1
	if !check && width > 0 {
		// Levels: loops of their own type, without the conversions.
		switch d := any(dst).(type) {
		case []uint8:
			if pdep, _ := levelKernels(); width == 1 && !pdep {
				return decodeBitmap(d, src)
			}
			return decodeBytes(d, src, width)
		case []int16:
			if width <= 8 {
				return decodeInt16(d, src, width)
			}
		}
	}
	count, size := len(dst), len(src)
	nb := int(width+7) / 8 // bytes of an RLE value
	d32, fast := any(dst).([]uint32)
	fast = fast && indexKernel()
	for n := 0; n < count; {
		if fast {
			// The runs the assembly can do, then one run here.
			k, used, top := indexRuns(d32[n:], src, width)
			if check && top > limit {
				return rangeError(d32[n:n+k], n, limit)
			}
			n, src = n+k, src[used:]
			if n == count {
				break
			}
		}
		off := size - len(src) // of the run header, for errors
		// The run header, read inline for speed: the same parse stands in
		// decodePage, decodeBitmap (page.go), decodeBytes, decodeInt16
		// (levels.go) and, through binary.Uvarint, Decoder.nextRun.
		var header uint64
		switch {
		case len(src) > 0 && src[0] < 0x80:
			header, src = uint64(src[0]), src[1:]
		case len(src) > 1 && src[1] < 0x80:
			header, src = uint64(src[0]&0x7f)|uint64(src[1])<<7, src[2:]
		default:
			h, k := uvarint(src)
			if k <= 0 {
				return headerError(off, k, count-n)
			}
			header, src = h, src[k:]
		}
		left := count - n
		if header&1 == 0 {
			// A run longer than the values still expected is cut to them,
			// as every major reader does (see [Decoder.Decode]).
			c := min(header>>1, uint64(left))
			if len(src) < nb {
				return runError(off, header, src, size, left, width)
			}
			var v uint32
			if nb == 1 {
				v = uint32(src[0])
			} else {
				for i := nb - 1; i >= 0; i-- {
					v = v<<8 | uint32(src[i])
				}
			}
			if width < 32 && v>>width != 0 {
				return runError(off, header, src, size, left, width)
			}
			if check && v > limit && c > 0 {
				return rangeError([]uint32{v}, n, limit)
			}
			src = src[nb:]
			end := n + int(c)
			if c <= 16 && count-n >= 16 {
				// Short runs: one or two stores of 8 values.
				t := T(v)
				p := [8]T{t, t, t, t, t, t, t, t}
				*(*[8]T)(dst[n : n+8]) = p
				if c > 8 {
					*(*[8]T)(dst[n+8 : n+16]) = p
				}
				n = end
				continue
			}
			if fillFast(dst, n, int(c), v) {
				n = end
				continue
			}
			if c > 512 {
				fill(dst[n:end], T(v))
				n = end
				continue
			}
			// Stores of 16 values, the last one past end if dst has room,
			// from a pattern of 8: for uint32 indices this measured faster
			// than a store per value, despite reading back the pattern just
			// built.
			t, k := T(v), n
			p := [8]T{t, t, t, t, t, t, t, t}
			for ; k < end && count-k >= 16; k += 16 {
				a := (*[16]T)(dst[k : k+16])
				*(*[8]T)(a[:8]) = p
				*(*[8]T)(a[8:]) = p
			}
			for ; k < end; k++ {
				dst[k] = t
			}
			n = end
			continue
		}
		// A bit-packed run padded past the values still expected (whole
		// groups, or a writer's fixed 32-group block) is cut to them.
		groups := min(header>>1, uint64(left+7)/8)
		c := min(int(groups)*8, left)
		if len(src) < bitpack.ByteCount(c, width) {
			return runError(off, header, src, size, left, width)
		}
		end := n + c
		switch d := any(dst).(type) {
		case []uint8:
			// The assembly first, without the Go set-up when it does the
			// whole run.
			if k := unpackBytesFast(d[n:end], src, width); k < c {
				unpackBytes(d[n+k:end], src[k/8*int(width):], width)
			}
		case []int16:
			switch {
			case width == 1:
				expandBitsInt16(d[:end], n, end, src)
			case width <= 8:
				if k := unpackInt16Fast(d[n:end], src, width); k < c {
					unpackInt16(d[n+k:end], src[k/8*int(width):], width)
				}
			default:
				unpackConvert(dst[:end], n, end, src, width)
			}
		case []uint32:
			if m := unpackUint32(d[n:end], src, width, check); check && m > limit {
				return rangeError(d[n:end], n, limit)
			}
		default:
			unpackConvert(dst[:end], n, end, src, width)
		}
		src = src[min(int(groups)*int(width), len(src)):]
		n = end
	}
	return nil
}

// decodeBitmap is [decodePage] of levels of width 1 into bytes, with the
// runs written inline.
func decodeBitmap(dst []uint8, src []byte) error {
	count, size := len(dst), len(src)
	for n := 0; n < count; {
		off := size - len(src) // of the run header, for errors
		// The run header, read inline for speed: the same parse stands in
		// decodePage, decodeBitmap (page.go), decodeBytes, decodeInt16
		// (levels.go) and, through binary.Uvarint, Decoder.nextRun.
		var header uint64
		switch {
		case len(src) > 0 && src[0] < 0x80:
			header, src = uint64(src[0]), src[1:]
		case len(src) > 1 && src[1] < 0x80:
			header, src = uint64(src[0]&0x7f)|uint64(src[1])<<7, src[2:]
		default:
			h, k := uvarint(src)
			if k <= 0 {
				return headerError(off, k, count-n)
			}
			header, src = h, src[k:]
		}
		left := count - n
		if header&1 == 0 {
			c := min(header>>1, uint64(left))
			if len(src) < 1 || src[0] > 1 {
				return runError(off, header, src, size, left, 1)
			}
			end := n + int(c)
			x := uint64(src[0]) * lsb
			src = src[1:]
			if c > 512 {
				fill(dst[n:end], uint8(x))
				n = end
				continue
			}
			k := n
			for ; k < end && count-k >= 64; k += 64 {
				a := (*[64]byte)(dst[k : k+64])
				binary.LittleEndian.PutUint64(a[0:], x)
				binary.LittleEndian.PutUint64(a[8:], x)
				binary.LittleEndian.PutUint64(a[16:], x)
				binary.LittleEndian.PutUint64(a[24:], x)
				binary.LittleEndian.PutUint64(a[32:], x)
				binary.LittleEndian.PutUint64(a[40:], x)
				binary.LittleEndian.PutUint64(a[48:], x)
				binary.LittleEndian.PutUint64(a[56:], x)
			}
			for ; k < end; k++ {
				dst[k] = uint8(x)
			}
			n = end
			continue
		}
		groups := min(header>>1, uint64(left+7)/8)
		c := min(int(groups)*8, left)
		if len(src) < (c+7)/8 {
			return runError(off, header, src, size, left, 1)
		}
		unsafecast.ExpandBitsToBytes(dst[n:n+c], src)
		src = src[min(int(groups), len(src)):]
		n += c
	}
	return nil
}

// rangeError describes the first value of s, which starts at index n of
// the page, above limit.
func rangeError(s []uint32, n int, limit uint32) error {
	k := 0
	for k < len(s)-1 && s[k] <= limit {
		k++
	}
	return fmt.Errorf("%w: value %d at index %d above %d", ErrCorrupt, s[k], n+k, limit)
}

// runError describes the first check that the run with the given header,
// at offset off of a stream of size bytes and followed by src, fails when
// left values are still expected.
func runError(off int, header uint64, src []byte, size, left int, width uint) error {
	if header&1 == 0 {
		nb := int(width+7) / 8
		if len(src) < nb {
			return fmt.Errorf("%w: truncated run value at offset %d", ErrCorrupt, size-len(src))
		}
		var v uint32
		for i := nb - 1; i >= 0; i-- {
			v = v<<8 | uint32(src[i])
		}
		return fmt.Errorf("%w: run value %d at offset %d wider than %d bits", ErrCorrupt, v, size-len(src), width)
	}
	groups := min(header>>1, uint64(left+7)/8)
	need := bitpack.ByteCount(min(int(groups)*8, left), width)
	return fmt.Errorf("%w: bit-packed run at offset %d needs %d bytes, %d left", ErrCorrupt, off, need, len(src))
}

// uvarint is binary.Uvarint kept out of line, off the fast path of
// decodePage.
//
//go:noinline
func uvarint(src []byte) (uint64, int) { return binary.Uvarint(src) }

// unpackConvert sets dst[n:end] to the values of a bit-packed run at the
// start of src, which holds at least their bytes, through a buffer of 32
// values converted to T. It reads all of src.
func unpackConvert[T Level](dst []T, n, end int, src []byte, width uint) {
	var buf [32]uint32
	w := int(4 * width)
	for ; n < end; n += 32 {
		unpackPadded(&buf, src, width)
		src = src[min(w, len(src)):]
		if len(dst)-n >= 32 {
			o := (*[32]T)(dst[n : n+32])
			for k, v := range &buf {
				o[k] = T(v)
			}
		} else {
			for k, v := range buf[:end-n] {
				dst[n+k] = T(v)
			}
		}
	}
}

// bitsInt16[b] holds the eight bits of b, least significant first, one per
// int16: the levels of the column reader.
var bitsInt16 = func() (t [256][8]int16) {
	for b := range t {
		for k := range t[b] {
			t[b][k] = int16(b >> k & 1)
		}
	}
	return t
}()

// expandBitsInt16 sets dst[n:end] to the bits of src, least significant bit
// first. It may set values of dst past end, up to a multiple of 8.
func expandBitsInt16(dst []int16, n, end int, src []byte) {
	for k := 0; n < end; k, n = k+1, n+8 {
		if len(dst)-n >= 8 {
			*(*[8]int16)(dst[n : n+8]) = bitsInt16[src[k]]
		} else {
			copy(dst[n:end], bitsInt16[src[k]][:])
		}
	}
}

// unpackPadded unpacks the block of 32 values at the start of src into buf,
// reading a block truncated by the end of src as if padded with zero bytes.
func unpackPadded(buf *[32]uint32, src []byte, width uint) {
	if len(src) >= int(4*width) {
		bitpack.Unpack32(buf, src, width)
		return
	}
	var tmp [4 * MaxBitWidth]byte
	copy(tmp[:], src)
	bitpack.Unpack32(buf, tmp[:], width)
}

// headerError describes a run header binary.Uvarint could not read (k <= 0)
// at offset off, with missing values still expected.
func headerError(off, k, missing int) error {
	if k == 0 {
		return fmt.Errorf("%w: truncated run header at offset %d, %d values missing", ErrCorrupt, off, missing)
	}
	return fmt.Errorf("%w: run header overflows at offset %d", ErrCorrupt, off)
}
