//go:build cgo

package deflate

import (
	"encoding/binary"
	"hash/crc32"
)

// copyStored decodes src into dst's spare capacity without libdeflate when
// src is one or more gzip members made only of stored deflate blocks (RFC
// 1951 section 3.2.4), as written for incompressible pages by pqcodec's
// codecfactory and by other encoders at level 0. libdeflate 1.14 copies
// such blocks and checks the CRC at about 8.6 GB/s on this project's
// machine, Go's copy and hash/crc32 at about 20.
//
// It returns dst extended by the content and true only for input that
// libdeflate would decode to the same bytes: members with no header flags,
// stored blocks whose padding bits are zero and whose lengths match their
// complements (the last may instead be the empty fixed-Huffman block that
// klauspost/compress and compress/flate end with), a CRC-32 and size
// trailer that match, content that fits.
// For anything else (a compressed block, a flag, a mismatch, a truncation)
// it returns false and leaves the whole input to libdeflate, which decodes
// it or reports the error; dst's spare capacity may then hold partial
// content. Like Decompress it never writes past cap(dst).
func copyStored(dst, src []byte) ([]byte, bool) {
	// The common case, a compressed page, costs these few loads: the first
	// member has no flags and its first block is stored.
	const header = 10
	if len(src) < header+2+8 || src[3] != 0 || src[header]&^1 != 0 && src[header] != 3 {
		return nil, false
	}
	out := dst[len(dst):cap(dst)]
	n := 0
	for len(src) > 0 {
		if len(src) < header+2+8 || src[0] != 0x1f || src[1] != 0x8b || src[2] != 8 || src[3] != 0 {
			return nil, false
		}
		src = src[header:]
		start := n
		crc := uint32(0)
		for final := false; !final; {
			if len(src) >= 2 && src[0] == 3 && src[1] == 0 {
				// The empty final block compress/flate's writers end
				// with: fixed Huffman codes, then at once the 7 zero
				// bits of end-of-block, then zero padding.
				src = src[2:]
				break
			}
			if len(src) < 5 || src[0]&^1 != 0 {
				return nil, false
			}
			final = src[0] == 1
			size := int(binary.LittleEndian.Uint16(src[1:]))
			if binary.LittleEndian.Uint16(src[3:]) != ^uint16(size) || len(src)-5 < size || len(out)-n < size {
				return nil, false
			}
			copy(out[n:n+size], src[5:5+size])
			crc = crc32.Update(crc, crc32.IEEETable, out[n:n+size])
			n += size
			src = src[5+size:]
		}
		if len(src) < 8 || binary.LittleEndian.Uint32(src) != crc || binary.LittleEndian.Uint32(src[4:]) != uint32(n-start) {
			return nil, false
		}
		src = src[8:]
	}
	return dst[:len(dst)+n], true
}
