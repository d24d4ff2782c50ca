package codecfactory

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"slices"

	"github.com/klauspost/compress/gzip"
)

// Pages that do not compress (random int64s, doubles, hashes, encrypted or
// already compressed bytes) cost libzstd and libdeflate a full compression
// attempt for nothing. Before compressing a large ZSTD or GZIP page,
// Compress samples it: when the sample has almost no repeated 4-byte
// strings and its byte entropy leaves less than 1/16 to gain (the margin
// klauspost/compress asks of a Huffman block before it stores one), the
// page is written as raw zstd blocks or stored deflate blocks, which every
// reader decodes. At GZIP levels of [huffmanMinGzipLevel] and above such a
// page is Huffman-coded instead (klauspost/compress's Huffman-only deflate),
// which keeps the order-0 gain a full compression would find on it (about
// 6% on random doubles) at about eight times the speed. The sample sees
// repeats within its stretches only: a high-entropy page that repeats itself
// at long distances only (the same random block many kilobytes apart) is
// stored although it would compress.

const (
	// huffmanMinGzipLevel is the lowest GZIP level whose incompressible
	// pages are Huffman-coded rather than stored: klauspost/compress stores
	// them up to level 6 and compresses them fully from level 7 on.
	huffmanMinGzipLevel = 7

	storedMinPage = 8 << 10 // smaller pages are always compressed
	sampleChunks  = 8       // sampled stretches of a page
	sampleChunk   = 256     // bytes of each
	sampleBytes   = sampleChunks * sampleChunk
)

// sampleLog holds c*log2(c) for the byte counts of a sample.
var sampleLog = func() (t [sampleBytes + 1]float32) {
	for c := 2; c <= sampleBytes; c++ {
		t[c] = float32(float64(c) * math.Log2(float64(c)))
	}
	return t
}()

// incompressible reports whether the page src, of at least storedMinPage
// bytes, looks like it would not compress by 1/16: few 4-byte repeats
// and a high order-0 entropy in evenly spaced samples.
func incompressible(src []byte) bool {
	if len(src) < storedMinPage {
		return false
	}
	step := (len(src) - sampleChunk) / (sampleChunks - 1)
	// Order-0 entropy first: it rules out most compressible pages.
	var hist [256]uint32
	for i := range sampleChunks {
		for _, b := range src[i*step : i*step+sampleChunk] {
			hist[b]++
		}
	}
	sum := float32(0)
	for _, c := range hist {
		sum += sampleLog[c]
	}
	bits := sampleLog[sampleBytes] - sum // order-0 entropy of the sample, in bits
	if bits <= 8*sampleBytes*(1-1.0/16) {
		return false
	}
	// More than 1 in 32 sampled positions repeating a string seen before
	// means matches for the compressor: let it try.
	var seen [1 << 11]uint32
	repeats := 0
	for i := range sampleChunks {
		s := src[i*step : i*step+sampleChunk]
		for j := 0; j+4 <= len(s); j += 2 {
			v := binary.LittleEndian.Uint32(s[j:])
			h := v * 0x9E3779B1 >> 21
			if seen[h] == v {
				repeats++
			}
			seen[h] = v
		}
	}
	return repeats <= sampleBytes/2/32
}

// appendStoredZstd appends a zstd frame holding src in raw blocks to dst:
// a single-segment frame header with the content size, then blocks of at
// most 128 KiB (RFC 8878 sections 3.1.1.1 and 3.1.1.2).
func appendStoredZstd(dst, src []byte) []byte {
	n := uint64(len(src))
	dst = binary.LittleEndian.AppendUint32(dst, 0xFD2FB528)
	switch {
	case n < 256:
		dst = append(dst, 0<<6|1<<5, byte(n))
	case n < 65536+256:
		dst = append(dst, 1<<6|1<<5)
		dst = binary.LittleEndian.AppendUint16(dst, uint16(n-256))
	case n <= math.MaxUint32:
		dst = append(dst, 2<<6|1<<5)
		dst = binary.LittleEndian.AppendUint32(dst, uint32(n))
	default:
		dst = append(dst, 3<<6|1<<5)
		dst = binary.LittleEndian.AppendUint64(dst, n)
	}
	const maxBlock = 128 << 10
	for {
		k := min(len(src), maxBlock)
		last := uint32(0)
		if k == len(src) {
			last = 1
		}
		h := uint32(k)<<3 | 0<<1 | last // block type 0: raw
		dst = append(dst, byte(h), byte(h>>8), byte(h>>16))
		dst = append(dst, src[:k]...)
		src = src[k:]
		if last == 1 {
			return dst
		}
	}
}

// appendStoredGzip appends a gzip member holding src in stored deflate
// blocks of at most 65,535 bytes to dst (RFC 1952, RFC 1951 section 3.2.4).
func appendStoredGzip(dst, src []byte) []byte {
	// Header: magic, deflate, no flags, no time, no extra flags, OS unknown.
	dst = append(dst, 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff)
	crc := crc32.ChecksumIEEE(src)
	size := uint32(len(src))
	for {
		k := min(len(src), 65535)
		final := byte(0)
		if k == len(src) {
			final = 1
		}
		dst = append(dst, final, byte(k), byte(k>>8), ^byte(k), ^byte(k>>8))
		dst = append(dst, src[:k]...)
		src = src[k:]
		if final == 1 {
			break
		}
	}
	dst = binary.LittleEndian.AppendUint32(dst, crc)
	return binary.LittleEndian.AppendUint32(dst, size)
}

// compressIncompressible is the early test of Compress: for ZSTD and GZIP
// pages that look incompressible it appends the stored form of src to dst
// (its Huffman-coded form at GZIP levels of huffmanMinGzipLevel and above)
// and returns true. On error it returns dst unchanged, true and the error.
func (f *Factory) compressIncompressible(c Codec, dst, src []byte) ([]byte, bool, error) {
	if (c != Zstd && c != Gzip) || !incompressible(src) {
		return dst, false, nil
	}
	if c == Gzip && f.cfg.gzipLevel >= huffmanMinGzipLevel {
		e, ok := f.huffman.get()
		if !ok {
			w, err := gzip.NewWriterLevel(nil, gzip.HuffmanOnly)
			if err != nil {
				return dst, true, fmt.Errorf("compress %v page: %w", c, err)
			}
			e = &streamCompressor[*gzip.Writer]{w: w, bound: gzipBound}
		}
		out, err := e.compress(dst, src)
		f.huffman.put(e)
		if err != nil {
			return dst, true, fmt.Errorf("compress %v page of %d bytes: %w", c, len(src), err)
		}
		return out, true, nil
	}
	// Grow dst at most once, as Compress promises.
	blocks := len(src)/65535 + 1
	dst = slices.Grow(dst, len(src)+18+5*blocks)
	if c == Zstd {
		return appendStoredZstd(dst, src), true, nil
	}
	return appendStoredGzip(dst, src), true, nil
}
