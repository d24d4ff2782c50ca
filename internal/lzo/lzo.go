// Package lzo decodes LZO1X compressed blocks in pure Go.
//
// It is the fallback that lets pqcodec read LZO-compressed Parquet pages
// without cgo (and under the nolzo build tag). It implements only
// decompression, written from the LZO1X bitstream description: a block is a
// sequence of literal runs and back-references, each introduced by an opcode
// byte whose range selects the instruction, ending with the marker 0x11 0x00
// 0x00. Every read from src and every write to dst is bounds-checked, so
// arbitrary input yields an error, never a panic or an out-of-range access.
// The same input decodes to the same bytes as liblzo2's
// lzo1x_decompress_safe.
package lzo

import (
	"errors"
	"fmt"

	"github.com/pqcodec/pqcodec/internal/errs"
)

var (
	// ErrCorrupt reports input that is not a valid LZO1X block: a truncated
	// instruction, a back-reference before the start of the output, a
	// missing end marker or bytes after it.
	ErrCorrupt = errs.Corrupt("lzo: corrupt input")
	// ErrDstTooSmall reports a block that decodes to more bytes than the
	// spare capacity of the destination.
	ErrDstTooSmall = errors.New("lzo: destination too small")
)

// Opcode ranges and distance offsets of the LZO1X format.
const (
	m2MaxOffset = 0x0800 // farthest distance of a 3-byte match after a long literal run
	m4Base      = 0x4000 // distance offset of the long-distance (M4) matches
)

// Decoder states, named after the points of the LZO1X instruction loop.
const (
	stTop       = iota // expect a literal run or a match
	stFirstLit         // after a literal run of 4 or more bytes
	stMatch            // an opcode has been read into t
	stMatchDone        // after a match: the low bits of the previous byte give trailing literals
)

// Decompress decodes the LZO1X block src into the spare capacity of dst and
// returns dst extended by the decoded bytes. Back-references may reach only
// bytes decoded from src, never the existing contents of dst. dst may be nil;
// dst and src must not overlap. If the block decodes to more than
// cap(dst)-len(dst) bytes, Decompress returns an error wrapping
// [ErrDstTooSmall] (the bytes past len(dst) are then unspecified); invalid
// input returns an error wrapping [ErrCorrupt]. Decompress is safe for
// concurrent use and never panics.
func Decompress(dst, src []byte) ([]byte, error) {
	base := len(dst)
	out := dst[:cap(dst)]
	op, ip, n := base, 0, len(src)
	var t int
	state := stTop

	if n == 0 {
		return dst, fmt.Errorf("%w: empty block", ErrCorrupt)
	}
	if src[0] > 17 {
		t = int(src[0]) - 17
		ip = 1
		if ip+t > n {
			return dst, fmt.Errorf("%w: literal run past end of input at offset 0", ErrCorrupt)
		}
		if op+t > len(out) {
			return dst, ErrDstTooSmall
		}
		op += copy(out[op:], src[ip:ip+t])
		ip += t
		if t < 4 {
			if ip >= n {
				return dst, fmt.Errorf("%w: truncated at offset %d", ErrCorrupt, ip)
			}
			t = int(src[ip])
			ip++
			state = stMatch
		} else {
			state = stFirstLit
		}
	}

	for {
		switch state {
		case stTop:
			if ip >= n {
				return dst, fmt.Errorf("%w: missing end marker", ErrCorrupt)
			}
			t = int(src[ip])
			ip++
			if t >= 16 {
				state = stMatch
				continue
			}
			if t == 0 {
				var err error
				if t, ip, err = extLen(src, ip, 15); err != nil {
					return dst, err
				}
			}
			t += 3
			if ip+t > n {
				return dst, fmt.Errorf("%w: literal run past end of input at offset %d", ErrCorrupt, ip)
			}
			if op+t > len(out) {
				return dst, ErrDstTooSmall
			}
			op += copy(out[op:], src[ip:ip+t])
			ip += t
			state = stFirstLit

		case stFirstLit:
			if ip >= n {
				return dst, fmt.Errorf("%w: missing end marker", ErrCorrupt)
			}
			t = int(src[ip])
			ip++
			if t >= 16 {
				state = stMatch
				continue
			}
			// A 3-byte match just past the M2 range.
			if ip >= n {
				return dst, fmt.Errorf("%w: truncated match at offset %d", ErrCorrupt, ip)
			}
			dist := 1 + m2MaxOffset + t>>2 + int(src[ip])<<2
			ip++
			if err := copyMatch(out, base, &op, dist, 3); err != nil {
				return dst, err
			}
			state = stMatchDone

		case stMatch:
			var dist, length int
			switch {
			case t >= 64: // M2: 3..8 bytes, distance up to 0x800
				if ip >= n {
					return dst, fmt.Errorf("%w: truncated match at offset %d", ErrCorrupt, ip)
				}
				dist = 1 + (t>>2)&7 + int(src[ip])<<3
				ip++
				length = t>>5 + 1
			case t >= 32: // M3: distance up to 0x4000
				length = t & 31
				if length == 0 {
					var err error
					if length, ip, err = extLen(src, ip, 31); err != nil {
						return dst, err
					}
				}
				length += 2
				if ip+2 > n {
					return dst, fmt.Errorf("%w: truncated match at offset %d", ErrCorrupt, ip)
				}
				dist = 1 + int(src[ip])>>2 + int(src[ip+1])<<6
				ip += 2
			case t >= 16: // M4: distance 0x4000..0xbfff, or the end marker
				// The length and distance reads are the M3 case's with
				// M4's masks, kept inline for speed: the twin is above.
				high := (t & 8) << 11
				length = t & 7
				if length == 0 {
					var err error
					if length, ip, err = extLen(src, ip, 7); err != nil {
						return dst, err
					}
				}
				length += 2
				if ip+2 > n {
					return dst, fmt.Errorf("%w: truncated match at offset %d", ErrCorrupt, ip)
				}
				dist = high + int(src[ip])>>2 + int(src[ip+1])<<6
				ip += 2
				if dist == 0 {
					if ip != n {
						return dst, fmt.Errorf("%w: %d bytes after end marker", ErrCorrupt, n-ip)
					}
					return out[:op], nil
				}
				dist += m4Base
			default: // M1: 2 bytes, distance up to 0x400
				if ip >= n {
					return dst, fmt.Errorf("%w: truncated match at offset %d", ErrCorrupt, ip)
				}
				dist = 1 + t>>2 + int(src[ip])<<2
				ip++
				length = 2
			}
			if err := copyMatch(out, base, &op, dist, length); err != nil {
				return dst, err
			}
			state = stMatchDone

		case stMatchDone:
			// Every match consumed at least two bytes, so ip >= 2.
			t = int(src[ip-2]) & 3
			if t == 0 {
				state = stTop
				continue
			}
			if ip+t > n {
				return dst, fmt.Errorf("%w: literals past end of input at offset %d", ErrCorrupt, ip)
			}
			if op+t > len(out) {
				return dst, ErrDstTooSmall
			}
			op += copy(out[op:], src[ip:ip+t])
			ip += t
			if ip >= n {
				return dst, fmt.Errorf("%w: missing end marker", ErrCorrupt)
			}
			t = int(src[ip])
			ip++
			state = stMatch
		}
	}
}

// extLen reads an extended length: each zero byte adds 255, then the first
// non-zero byte plus bias ends it. It returns the length and the new offset.
func extLen(src []byte, ip, bias int) (int, int, error) {
	t := 0
	for ip < len(src) && src[ip] == 0 {
		t += 255
		ip++
	}
	if ip >= len(src) {
		return 0, ip, fmt.Errorf("%w: truncated length at offset %d", ErrCorrupt, ip)
	}
	t += bias + int(src[ip])
	return t, ip + 1, nil
}

// copyMatch copies length bytes starting dist bytes back from *op, byte by
// byte where the ranges overlap (a run), and advances *op.
func copyMatch(out []byte, base int, op *int, dist, length int) error {
	o := *op
	from := o - dist
	if from < base {
		return fmt.Errorf("%w: match distance %d before start of output", ErrCorrupt, dist)
	}
	if o+length > len(out) {
		return ErrDstTooSmall
	}
	if dist >= length {
		copy(out[o:o+length], out[from:from+length])
	} else {
		// Overlapping: the copy repeats the last dist bytes. Doubling copies
		// keep this fast for long runs.
		end := o + length
		for o < end {
			c := copy(out[o:end], out[from:o])
			o += c
		}
	}
	*op += length
	return nil
}
