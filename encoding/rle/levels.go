package rle

import (
	"encoding/binary"

	"github.com/pqcodec/pqcodec/internal/unsafecast"
)

// decodeBytes is [decodePage] of levels of width 2..8 into bytes, without
// the bound check (levels have none): the loop of decodePage with the run
// value one byte, its stores of 8 bytes, and no conversion per run.
func decodeBytes(dst []uint8, src []byte, width uint) error {
	count, size := len(dst), len(src)
	pdep, wide := levelKernels()
	iw, mask := int(width), (uint64(1)<<width-1)*lsb
	for n := 0; n < count; {
		if pdep && wide {
			// The runs the assembly can do, then one run here.
			k, used := levelRunsBytes(dst[n:], src, width)
			if n, src = n+k, src[used:]; n == count {
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
			// A run longer than the values still expected is cut to them.
			c := int(min(header>>1, uint64(left)))
			if len(src) < 1 || src[0]>>width != 0 {
				return runError(off, header, src, size, left, width)
			}
			x := uint64(src[0]) * lsb
			src = src[1:]
			end := n + c
			if c <= 128 && left >= 128 {
				// Runs of up to 128 values by 8 or 16 stores, past end:
				// the runs that follow overwrite what is past it.
				a := (*[128]byte)(dst[n : n+128])
				binary.LittleEndian.PutUint64(a[0:], x)
				binary.LittleEndian.PutUint64(a[8:], x)
				binary.LittleEndian.PutUint64(a[16:], x)
				binary.LittleEndian.PutUint64(a[24:], x)
				binary.LittleEndian.PutUint64(a[32:], x)
				binary.LittleEndian.PutUint64(a[40:], x)
				binary.LittleEndian.PutUint64(a[48:], x)
				binary.LittleEndian.PutUint64(a[56:], x)
				if c > 64 {
					binary.LittleEndian.PutUint64(a[64:], x)
					binary.LittleEndian.PutUint64(a[72:], x)
					binary.LittleEndian.PutUint64(a[80:], x)
					binary.LittleEndian.PutUint64(a[88:], x)
					binary.LittleEndian.PutUint64(a[96:], x)
					binary.LittleEndian.PutUint64(a[104:], x)
					binary.LittleEndian.PutUint64(a[112:], x)
					binary.LittleEndian.PutUint64(a[120:], x)
				}
				n = end
				continue
			}
			if r := (c + 15) &^ 15; r <= 64 && left >= r {
				// Up to 64 values by stores of 16 past end, which the runs
				// that follow overwrite.
				for k := n; k < end; k += 16 {
					a := (*[16]byte)(dst[k : k+16])
					binary.LittleEndian.PutUint64(a[:8], x)
					binary.LittleEndian.PutUint64(a[8:], x)
				}
				n = end
				continue
			}
			if r := (c + 31) &^ 31; wide && left >= r {
				fillBytes32(dst[n:n+r], c, x)
				n = end
				continue
			}
			if r := c &^ 31; wide && r > 0 {
				// The last run of the page: whole stores, then the rest.
				fillBytes32(dst[n:n+r], r, x)
				n += r
			}
			fillBytes(dst[n:end], x)
			n = end
			continue
		}
		// A bit-packed run padded past the values still expected is cut
		// to them.
		groups := min(header>>1, uint64(left+7)/8)
		c := min(int(groups)*8, left)
		if len(src) < (c*int(width)+7)/8 {
			return runError(off, header, src, size, left, width)
		}
		end := n + c
		switch g := int(groups); {
		case pdep && g > 0 && 8*g == c && (g-1)*iw+8 <= len(src):
			unpackBytesGroups(dst[n:end], src, g, iw, mask)
		case width == 1:
			unsafecast.ExpandBitsToBytes(dst[n:end], src)
		default:
			unpackBytes(dst[n:end], src, width)
		}
		src = src[min(int(groups)*iw, len(src)):]
		n = end
	}
	return nil
}

// fillBytes sets dst to the byte of x (8 copies of it).
func fillBytes(dst []uint8, x uint64) {
	if len(dst) > 512 {
		fill(dst, uint8(x))
		return
	}
	k := 0
	for ; len(dst)-k >= 16; k += 16 {
		a := (*[16]byte)(dst[k : k+16])
		binary.LittleEndian.PutUint64(a[:8], x)
		binary.LittleEndian.PutUint64(a[8:], x)
	}
	for ; k < len(dst); k++ {
		dst[k] = uint8(x)
	}
}

// decodeInt16 is [decodeBytes] into int16 (width 1..8).
func decodeInt16(dst []int16, src []byte, width uint) error {
	count, size := len(dst), len(src)
	pdep, wide := levelKernels()
	iw, mask := int(width), (uint64(1)<<width-1)*0x0001_0001_0001_0001
	for n := 0; n < count; {
		if pdep && wide {
			// The runs the assembly can do, then one run here.
			k, used := levelRunsInt16(dst[n:], src, width)
			if n, src = n+k, src[used:]; n == count {
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
			// A run longer than the values still expected is cut to them.
			c := int(min(header>>1, uint64(left)))
			if len(src) < 1 || width < 8 && src[0]>>width != 0 {
				return runError(off, header, src, size, left, width)
			}
			t := int16(src[0])
			src = src[1:]
			end := n + c
			if c <= 64 && left >= 64 {
				// Runs of up to 64 values by 4 or 8 copies of 8, past end:
				// the runs that follow overwrite what is past it.
				p := &runsInt16[uint8(t)]
				a := (*[64]int16)(dst[n : n+64])
				*(*[8]int16)(a[0:]) = *p
				*(*[8]int16)(a[8:]) = *p
				*(*[8]int16)(a[16:]) = *p
				*(*[8]int16)(a[24:]) = *p
				if c > 32 {
					*(*[8]int16)(a[32:]) = *p
					*(*[8]int16)(a[40:]) = *p
					*(*[8]int16)(a[48:]) = *p
					*(*[8]int16)(a[56:]) = *p
				}
				n = end
				continue
			}
			if r := (c + 15) &^ 15; r <= 32 && left >= r {
				// Up to 32 values by stores of 16 past end, which the runs
				// that follow overwrite.
				p := [8]int16{t, t, t, t, t, t, t, t}
				for k := n; k < end; k += 16 {
					a := (*[16]int16)(dst[k : k+16])
					*(*[8]int16)(a[:8]) = p
					*(*[8]int16)(a[8:]) = p
				}
				n = end
				continue
			}
			if r := (c + 15) &^ 15; wide && left >= r {
				fillInt16x16(dst[n:n+r], c, uint64(uint16(t))*0x0001_0001_0001_0001)
				n = end
				continue
			}
			if r := c &^ 15; wide && r > 0 {
				// The last run of the page: whole stores, then the rest.
				fillInt16x16(dst[n:n+r], r, uint64(uint16(t))*0x0001_0001_0001_0001)
				n += r
			}
			fillInt16(dst[n:end], t)
			n = end
			continue
		}
		// A bit-packed run padded past the values still expected is cut
		// to them.
		groups := min(header>>1, uint64(left+7)/8)
		c := min(int(groups)*8, left)
		if len(src) < (c*int(width)+7)/8 {
			return runError(off, header, src, size, left, width)
		}
		end := n + c
		switch g := int(groups); {
		case pdep && g > 0 && 8*g == c && (g-1)*iw+8 <= len(src):
			unpackInt16Groups(dst[n:end], src, g, iw, mask)
		case width == 1:
			expandBitsInt16(dst[:end], n, end, src)
		default:
			unpackInt16(dst[n:end], src, width)
		}
		src = src[min(int(groups)*iw, len(src)):]
		n = end
	}
	return nil
}

// fillInt16 sets dst to the level t (0..255).
func fillInt16(dst []int16, t int16) {
	if len(dst) > 256 {
		fill(dst, t)
		return
	}
	p := &runsInt16[uint8(t)]
	k := 0
	for ; len(dst)-k >= 32; k += 32 {
		a := (*[32]int16)(dst[k : k+32])
		*(*[8]int16)(a[0:]) = *p
		*(*[8]int16)(a[8:]) = *p
		*(*[8]int16)(a[16:]) = *p
		*(*[8]int16)(a[24:]) = *p
	}
	for ; len(dst)-k >= 8; k += 8 {
		*(*[8]int16)(dst[k : k+8]) = *p
	}
	for ; k < len(dst); k++ {
		dst[k] = t
	}
}

// runsInt16[v] is 8 copies of the level v, the store unit of the short RLE
// runs of decodeInt16.
var runsInt16 = func() (t [256][8]int16) {
	for v := range t {
		for k := range t[v] {
			t[v][k] = int16(v)
		}
	}
	return t
}()
