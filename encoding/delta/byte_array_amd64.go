//go:build amd64 && !purego

package delta

import "encoding/binary"

// copyChunkFast is copyChunk (same semantics) with the copying loop in
// SSE2 assembly, used when data holds 16 readable bytes past the chunk's
// suffixes; suffixBytes is their total length.
func (st *copyState) copyChunkFast(values []byte, offsets []int32, data []byte, pre, suf []int32, withOffsets bool, suffixBytes int) ([]byte, []int32) {
	if len(pre) == 0 || len(data)-st.dpos < suffixBytes+16 {
		return st.copyChunk(values, offsets, data, pre, suf, withOffsets)
	}
	buf := values[:cap(values)]
	var scratch [128]int32
	var ends []int32
	if withOffsets {
		n := len(offsets)
		offsets = offsets[:n+len(pre)]
		ends = offsets[n:]
	} else {
		ends = scratch[:len(pre)]
	}
	suf = suf[:len(pre)]
	end, last, dpos := copyValuesSSE2(buf, len(values), st.prevStart, data, st.dpos, pre, suf, ends)
	st.prevStart, st.prevLen, st.dpos = last, end-last, dpos
	// buf has spare capacity past end, so 16 bytes are readable at last.
	st.prevLo = binary.LittleEndian.Uint64(buf[last:])
	st.prevHi = binary.LittleEndian.Uint64(buf[last+8:])
	return buf[:end], offsets
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
