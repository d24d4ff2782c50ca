package rle

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/pqcodec/pqcodec/internal/bitpack"
	"github.com/pqcodec/pqcodec/internal/unsafecast"
)

// Value is the set of element types the encoder accepts. Every value must
// fit in the bit width, so negative values are rejected.
type Value interface {
	~uint8 | ~uint16 | ~uint32 | ~int8 | ~int16 | ~int32
}

// Encode appends the bare hybrid encoding of src with the given bit width to
// dst and returns the extended slice. Repetitions of at least 8 values
// (counted from a group boundary of the pending bit-packed values) become RLE
// runs, everything else bit-packed runs whose last group is padded with
// zeros. It fails, leaving dst unchanged, if width > 32 or a value does not
// fit in width bits. dst may be nil and must not overlap src.
func Encode[T Value](dst []byte, src []T, width uint) ([]byte, error) {
	if width > MaxBitWidth {
		return dst, fmt.Errorf("%w: bit width %d", ErrInvalidArgument, width)
	}
	start := len(dst)
	var or T // OR of every value, checked against the width at the end
	lit := 0 // start of the pending bit-packed values
	i := 0
	// Values go by groups of 8 from the start of the pending bit-packed
	// values, so that a bit-packed run always holds whole groups; a group of
	// 8 equal values starts an RLE run, which then extends as far as the
	// value repeats.
	for i+8 <= len(src) {
		g := src[i : i+8 : i+8]
		v := g[0]
		diff := (g[1] ^ v) | (g[2] ^ v) | (g[3] ^ v) | (g[4] ^ v) | (g[5] ^ v) | (g[6] ^ v) | (g[7] ^ v)
		if diff != 0 {
			or |= g[0] | g[1] | g[2] | g[3] | g[4] | g[5] | g[6] | g[7]
			i += 8
			continue
		}
		or |= v
		j := i + 8
		for j+8 <= len(src) {
			g := src[j : j+8 : j+8]
			if (g[0]^v)|(g[1]^v)|(g[2]^v)|(g[3]^v)|(g[4]^v)|(g[5]^v)|(g[6]^v)|(g[7]^v) != 0 {
				break
			}
			j += 8
		}
		for j < len(src) && src[j] == v {
			j++
		}
		dst = appendPacked(dst, src[lit:i], width)
		dst = appendRepeat(dst, uint32(v), j-i, width)
		i, lit = j, j
	}
	for _, v := range src[i:] {
		or |= v
	}
	if width < 32 && uint32(or)>>width != 0 || or < 0 {
		return dst[:start], fmt.Errorf("%w: value wider than %d bits", ErrInvalidArgument, width)
	}
	return appendPacked(dst, src[lit:], width), nil
}

// EncodeWithPrefix is [Encode] followed by patching in the 4-byte length
// prefix used by DataPage v1 levels and RLE-encoded booleans.
func EncodeWithPrefix[T Value](dst []byte, src []T, width uint) ([]byte, error) {
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	out, err := Encode(dst, src, width)
	if err != nil {
		return dst[:start], err
	}
	binary.LittleEndian.PutUint32(out[start:], uint32(len(out)-start-4))
	return out, nil
}

// EncodeBoolean appends an RLE-encoded BOOLEAN page (4-byte length prefix
// then a stream of width 1) holding src to dst.
func EncodeBoolean(dst []byte, src []bool) []byte {
	out, _ := EncodeWithPrefix(dst, unsafecast.BoolBytes(src), 1) // 0/1 always fit width 1
	return out
}

// appendRepeat appends an RLE run of count copies of v.
func appendRepeat(dst []byte, v uint32, count int, width uint) []byte {
	dst = binary.AppendUvarint(dst, uint64(count)<<1)
	for b := uint(0); b < width; b += 8 {
		dst = append(dst, byte(v>>b))
	}
	return dst
}

// appendPacked appends src as one bit-packed run, padding the last group of
// 8 with zeros.
func appendPacked[T Value](dst []byte, src []T, width uint) []byte {
	if len(src) == 0 {
		return dst
	}
	groups := (len(src) + 7) / 8
	dst = binary.AppendUvarint(dst, uint64(groups)<<1|1)
	size := groups * int(width)
	dst = slices.Grow(dst, size+4*MaxBitWidth)
	out := dst[len(dst) : len(dst)+size+4*MaxBitWidth]
	var block [32]uint32
	pos := 0
	if s, ok := any(src).([]uint8); ok && width == 1 {
		// Levels and booleans: eight values per byte by multiplication.
		unsafecast.PackBytesToBits(out, s)
		return dst[:len(dst)+size]
	}
	if s, ok := any(src).([]uint32); ok {
		// Whole blocks need no conversion.
		for len(s) >= 32 {
			bitpack.Pack32(out[pos:], (*[32]uint32)(s), width)
			pos += int(4 * width)
			s = s[32:]
		}
		src = src[len(src)-len(s):]
	}
	for len(src) > 0 {
		c := min(32, len(src))
		for k, v := range src[:c] {
			block[k] = uint32(v)
		}
		clear(block[c:])
		bitpack.Pack32(out[pos:], &block, width)
		pos += bitpack.ByteCount((c+7)/8*8, width)
		src = src[c:]
	}
	return dst[:len(dst)+size]
}
