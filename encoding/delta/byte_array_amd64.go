//go:build amd64 && !purego

package delta

import (
	"encoding/binary"

	"github.com/klauspost/cpuid/v2"
)

// copyChunkFast is copyChunk (same semantics) with the copying loop in
// SSE2 assembly, used for the values after which data holds 16 readable
// bytes; suffixBytes is the total length of the chunk's suffixes.
func (st *copyState) copyChunkFast(values []byte, offsets []int32, data []byte, pre, suf []int32, withOffsets bool, suffixBytes int) ([]byte, []int32) {
	suf = suf[:len(pre)]
	// The last values, whose suffixes end within 16 bytes of the end of
	// data, go through copyChunk.
	k, tail := len(pre), len(data)-st.dpos-suffixBytes
	for k > 0 && tail < 16 {
		k--
		tail += int(suf[k])
	}
	if k == 0 {
		return st.copyChunk(values, offsets, data, pre, suf, withOffsets)
	}
	buf := values[:cap(values)]
	var scratch [dbaPiece + 1]int32
	var ends []int32
	if withOffsets {
		n := len(offsets)
		offsets = offsets[:n+k]
		ends = offsets[n:]
	} else {
		ends = scratch[:k]
	}
	var end, last, dpos int
	if useCopyAVX {
		end, last, dpos = copyValuesAVX(buf, len(values), st.prevStart, data, st.dpos, pre[:k], suf[:k], ends)
	} else {
		if hasAVX {
			zeroUpper() // the SSE2 loop, after a peer's AVX code
		}
		end, last, dpos = copyValuesSSE2(buf, len(values), st.prevStart, data, st.dpos, pre[:k], suf[:k], ends)
	}
	st.prevStart, st.prevLen, st.dpos = last, end-last, dpos
	// buf has spare capacity past end, so 16 bytes are readable at last.
	st.prevLo = binary.LittleEndian.Uint64(buf[last:])
	st.prevHi = binary.LittleEndian.Uint64(buf[last+8:])
	if k == len(pre) {
		return buf[:end], offsets
	}
	return st.copyChunk(buf[:end], offsets, data, pre[k:], suf[k:], withOffsets)
}

// copyValuesSSE2 appends the values of a checked chunk at buf[start:]: each
// is the first pre[j] bytes of the previous value followed by the next
// suf[j] bytes of data from dpos. It stores each value's end in ends and
// returns the end of the last value, its start and the new dpos. It moves
// 16 bytes at a time: buf must have [spare] bytes of capacity past the
// chunk and data 16 readable bytes past its suffixes.
//
//go:noescape
func copyValuesSSE2(buf []byte, start, prevStart int, data []byte, dpos int, pre, suf, ends []int32) (end, last, newDpos int)

// copyValuesAVX is copyValuesSSE2 building values of prefixes up to 16
// bytes in a register instead of reading the previous value back from buf.
//
//go:noescape
func copyValuesAVX(buf []byte, start, prevStart int, data []byte, dpos int, pre, suf, ends []int32) (end, last, newDpos int)

// useCopyAVX selects copyValuesAVX: on Intel CPUs with AVX only. It executes
// more instructions per value than copyValuesSSE2 (a table load, a shuffle
// and a blend in place of one load; callgrind over BenchmarkCopyKernels'
// 64 KiB pages: 18% more on lowcard, 24% on uuid, 36% on words), so it is
// no plain win. On the Intel
// Xeon (Sapphire Rapids class) reading back the previous value, just written
// by two overlapping stores, fails store forwarding on every value with a
// prefix: BenchmarkCopyKernels' values that share a 9-byte prefix decode in
// 0.46x the CPU time with it (64 KiB and 1 MiB pages), the other shapes
// unchanged within noise, and bench/'s 1 MiB lowcard page in 0.85x (at par
// with parquet-go). AMD is not measured with it: copyValuesSSE2 stays there.
var useCopyAVX = hasAVX && cpuid.CPU.VendorID == cpuid.Intel

// zeroUpper executes VZEROUPPER; only where the CPU has AVX (hasAVX).
//
//go:noescape
func zeroUpper()
