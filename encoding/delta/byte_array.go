package delta

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// DecodeByteArray decodes the DELTA_BYTE_ARRAY page src of a BYTE_ARRAY
// column, appending the bytes of its values to values and their end offsets
// to offsets exactly as [DecodeLengthByteArray] does, and returns both
// extended slices.
//
// The first prefix length of a page must be 0 and every later one at most
// the previous value's length (state does not carry over between pages).
// Nothing is retained from src; on error both slices are returned with their
// original lengths. Up to 32 bytes of the spare capacity of values past the
// returned length may be overwritten.
func DecodeByteArray(values []byte, offsets []int32, src []byte) ([]byte, []int32, error) {
	v0, o0 := len(values), len(offsets)
	if len(offsets) == 0 {
		if len(values) > math.MaxInt32 {
			return values, offsets, fmt.Errorf("%w: %d bytes of values", ErrTooLarge, len(values))
		}
		offsets = append(offsets, int32(len(values)))
	}
	values, offsets, err := decodeByteArray(values, offsets, src, -1)
	if err != nil {
		return values[:v0], offsets[:o0], err
	}
	return values, offsets, nil
}

// DecodeFixedLenByteArray decodes the DELTA_BYTE_ARRAY page src of a
// FIXED_LEN_BYTE_ARRAY column of size-byte values, appending the values back
// to back to dst, and returns the extended slice. Every value must be size
// bytes long. dst may be nil; on error it is returned with its original
// length. Up to 32 bytes of the spare capacity of dst past the returned length
// may be overwritten.
func DecodeFixedLenByteArray(dst, src []byte, size int) ([]byte, error) {
	if size < 0 {
		return dst, fmt.Errorf("%w: negative size %d", ErrInvalidArgument, size)
	}
	d0 := len(dst)
	dst, _, err := decodeByteArray(dst, nil, src, size)
	if err != nil {
		return dst[:d0], err
	}
	return dst, nil
}

// decodeByteArray implements the DELTA_BYTE_ARRAY decoders: offsets are
// appended when size < 0, and every value must be size bytes otherwise.
func decodeByteArray(values []byte, offsets []int32, src []byte, size int) ([]byte, []int32, error) {
	var pd, sd Decoder[int32]
	if err := pd.Reset(src); err != nil {
		return values, offsets, fmt.Errorf("prefix lengths: %w", err)
	}
	walk := pd
	if err := walk.skip(); err != nil {
		return values, offsets, fmt.Errorf("prefix lengths: %w", err)
	}
	suffixes := src[walk.End():]
	if err := sd.Reset(suffixes); err != nil {
		return values, offsets, fmt.Errorf("suffix lengths: %w", err)
	}
	walk = sd
	if err := walk.skip(); err != nil {
		return values, offsets, fmt.Errorf("suffix lengths: %w", err)
	}
	data := suffixes[walk.End():]
	n := pd.Remaining()
	if sd.Remaining() != n {
		return values, offsets, fmt.Errorf("%w: %d prefix lengths but %d suffix lengths", ErrCorrupt, n, sd.Remaining())
	}
	if size < 0 {
		offsets = slices.Grow(offsets, n)
	}
	// Shared prefixes may make the output much larger than the input; only
	// the suffix bytes are reserved up front, the rest grows as it decodes.
	values = slices.Grow(values, len(data))
	var pre, suf [dbaPiece + 1]int32
	st := copyState{prevLen: 0}
	// The first piece holds the page's first value besides whole 32-value
	// chunks, so that both length decoders end every piece but the last on
	// a chunk boundary.
	for k, c := 0, min(n, dbaPiece+1); k < n; k, c = k+c, min(n-k-c, dbaPiece) {
		if m, err := pd.Decode(pre[:c]); err != nil || m != c {
			return values, offsets, fmt.Errorf("prefix lengths: %w", cmp.Or(err, ErrCorrupt))
		}
		if m, err := sd.Decode(suf[:c]); err != nil || m != c {
			return values, offsets, fmt.Errorf("suffix lengths: %w", cmp.Or(err, ErrCorrupt))
		}
		// Check the piece first, so that the copying loop needs no checks.
		total, sufBytes, err := checkPiece(pre[:c], suf[:c], st.prevLen, len(data)-st.dpos, size, k)
		if err != nil {
			return values, offsets, err
		}
		if size < 0 && len(values)+total > math.MaxInt32 {
			return values, offsets, fmt.Errorf("%w: %d bytes of values", ErrTooLarge, len(values)+total)
		}
		values = slices.Grow(values, total+spare)
		if size < 0 {
			offsets = slices.Grow(offsets, c)
		}
		values, offsets = st.copyChunkFast(values, offsets, data, pre[:c], suf[:c], size < 0, sufBytes)
	}
	return values, offsets, nil
}

// dbaPiece is how many values decodeByteArray decodes, checks and copies at
// a time: a multiple of 32.
const dbaPiece = 512

// checkPiece checks a piece of DELTA_BYTE_ARRAY prefix and suffix lengths,
// of values from index k on, given the length of the value before the piece
// and the suffix bytes left; every value must have size bytes when size >= 0.
// It returns the total length of the piece's values and that of their
// suffixes.
func checkPiece(pre, suf []int32, prevLen, left, size, k int) (total, sufBytes int, err error) {
	suf = suf[:len(pre)]
	var neg int32
	for j, p32 := range pre {
		s := suf[j]
		neg |= s
		// A negative p32 fails the unsigned comparison too.
		if uint(int(p32)) > uint(prevLen) {
			return 0, 0, fmt.Errorf("%w: prefix length %d of value %d exceeds previous length %d",
				ErrCorrupt, p32, k+j, prevLen)
		}
		sufBytes += int(s)
		prevLen = int(p32) + int(s)
		total += prevLen
	}
	if neg < 0 {
		j := slices.IndexFunc(suf, func(s int32) bool { return s < 0 })
		return 0, 0, fmt.Errorf("%w: negative suffix length %d of value %d", ErrCorrupt, suf[j], k+j)
	}
	if sufBytes > left {
		return 0, 0, fmt.Errorf("%w: suffix lengths of values %d to %d need %d bytes, %d left",
			ErrCorrupt, k, k+len(pre)-1, sufBytes, left)
	}
	if size >= 0 {
		for j, p := range pre {
			if int(p)+int(suf[j]) != size {
				return 0, 0, fmt.Errorf("%w: value %d has %d bytes, want %d", ErrCorrupt, k+j, int(p)+int(suf[j]), size)
			}
		}
	}
	return total, sufBytes, nil
}

// copyState carries the previous value from one chunk of DELTA_BYTE_ARRAY
// values to the next.
type copyState struct {
	prevStart, prevLen int
	prevLo, prevHi     uint64 // the first 16 bytes of the previous value
	dpos               int    // next unread suffix byte
}

// copyChunk appends the values of a checked chunk of prefix and suffix
// lengths to values, and their end offsets to offsets when withOffsets.
// values has spare capacity for them plus [spare] bytes, offsets for len(pre)
// more entries.
func (st *copyState) copyChunk(values []byte, offsets []int32, data []byte, pre, suf []int32, withOffsets bool) ([]byte, []int32) {
	prevStart, prevLo, prevHi, dpos := st.prevStart, st.prevLo, st.prevHi, st.dpos
	start := len(values)
	buf := values[:cap(values)]
	suf = suf[:len(pre)]
	for j, p32 := range pre {
		p, s := int(p32), int(suf[j])
		rest := len(data) - dpos
		if p+s <= 16 && rest >= 16 {
			// The whole value is built in registers: reading back the
			// previous value from memory would stall on its fresh,
			// misaligned stores.
			d := data[dpos : dpos+16]
			prevLo, prevHi = merge(prevLo, prevHi, p, binary.LittleEndian.Uint64(d), binary.LittleEndian.Uint64(d[8:]))
			b := buf[start : start+16]
			binary.LittleEndian.PutUint64(b, prevLo)
			binary.LittleEndian.PutUint64(b[8:], prevHi)
		} else {
			// Bytes written beyond p are garbage that the suffix or the
			// next value overwrites.
			switch {
			case p <= 16:
				binary.LittleEndian.PutUint64(buf[start:], prevLo)
				binary.LittleEndian.PutUint64(buf[start+8:], prevHi)
			case p <= 32:
				copy32(buf[start:], buf[prevStart:])
			default:
				copy(buf[start:], buf[prevStart:prevStart+p])
			}
			if s <= 64 && rest >= s+16 {
				// At most 15 bytes past the suffix are read and written.
				for i := 0; i < s; i += 16 {
					copy16(buf[start+p+i:], data[dpos+i:])
				}
			} else {
				copy(buf[start+p:], data[dpos:dpos+s])
			}
			if rest >= 16 {
				d := data[dpos : dpos+16]
				prevLo, prevHi = merge(prevLo, prevHi, p, binary.LittleEndian.Uint64(d), binary.LittleEndian.Uint64(d[8:]))
			} else {
				prevLo = binary.LittleEndian.Uint64(buf[start:])
				prevHi = binary.LittleEndian.Uint64(buf[start+8:])
			}
		}
		dpos += s
		prevStart = start
		start += p + s
		if withOffsets {
			offsets = append(offsets, int32(start))
		}
	}
	st.prevStart, st.prevLo, st.prevHi, st.dpos = prevStart, prevLo, prevHi, dpos
	if len(pre) > 0 {
		st.prevLen = start - prevStart
	}
	return buf[:start], offsets
}

// spare is the capacity kept past the output by the short copies, which
// write up to 16 (suffixes) or 32 (prefixes) bytes past a value's end.
const spare = 32

// merge returns the first 16 bytes of the value made of the first p bytes
// of the previous value, whose first 16 bytes are prevLo and prevHi,
// followed by the suffix whose first 16 bytes are sLo and sHi. Bytes past
// the value's length are garbage. Go shifts of 64 bits or more give 0, which
// makes p >= 16 keep the previous bytes.
func merge(prevLo, prevHi uint64, p int, sLo, sHi uint64) (lo, hi uint64) {
	if p < 8 {
		sh := uint(8 * p)
		return prevLo&(1<<sh-1) | sLo<<sh, sHi<<sh | sLo>>(64-sh)
	}
	sh := uint(8*p - 64)
	return prevLo, prevHi&(1<<sh-1) | sLo<<sh
}

// copy16 copies the first 16 bytes of src to dst.
func copy16(dst, src []byte) {
	_, _ = dst[15], src[15]
	binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(src))
	binary.LittleEndian.PutUint64(dst[8:], binary.LittleEndian.Uint64(src[8:]))
}

// copy32 copies the first 32 bytes of src to dst.
func copy32(dst, src []byte) {
	_, _ = dst[31], src[31]
	copy16(dst, src)
	copy16(dst[16:], src[16:])
}

// byteArrays gives access to the values an encoder encodes: either
// variable-length values delimited by offsets, or fixed-size values.
type byteArrays struct {
	values  []byte
	offsets []int32 // variable length when size < 0
	size    int
	n       int
}

// EncodeByteArray appends the DELTA_BYTE_ARRAY encoding of the values held as
// in [DecodeByteArray] — value k is values[offsets[k]:offsets[k+1]] — to dst
// and returns the extended slice. dst may be nil and must not overlap values.
// It returns an error wrapping [ErrInvalidArgument] when offsets decrease or
// point outside values.
// On error dst is returned unchanged, though its spare capacity may have
// been written.
func EncodeByteArray(dst, values []byte, offsets []int32) ([]byte, error) {
	a := byteArrays{values: values, offsets: offsets, size: -1, n: max(len(offsets)-1, 0)}
	size := 0
	if n := a.n; n > 0 {
		if offsets[0] < 0 || offsets[n] < offsets[0] || int(offsets[n]) > len(values) {
			return dst, checkOffsets(values, offsets)
		}
		size = int(offsets[n] - offsets[0])
	}
	out, ok := encodeByteArray(dst, &a, size)
	if !ok {
		return dst, checkOffsets(values, offsets)
	}
	return out, nil
}

// EncodeFixedLenByteArray appends the DELTA_BYTE_ARRAY encoding of the
// size-byte values held back to back in src to dst and returns the extended
// slice. dst may be nil and must not overlap src. It returns an error
// wrapping [ErrInvalidArgument] when size is not positive or len(src) is not
// a multiple of it.
func EncodeFixedLenByteArray(dst, src []byte, size int) ([]byte, error) {
	if size <= 0 || len(src)%size != 0 {
		return dst, fmt.Errorf("%w: %d bytes are not a whole number of %d-byte values", ErrInvalidArgument, len(src), size)
	}
	a := byteArrays{values: src, size: size, n: len(src) / size}
	out, _ := encodeByteArray(dst, &a, len(src)) // fixed sizes are valid
	return out, nil
}

// encodeByteArray encodes the values of a, whose bytes total size, a block
// of 128 values at a time: each value's prefix is computed once, and the
// suffix lengths and the suffixes go to the spare capacity of dst, past the
// largest possible sections before them, until they are moved down behind
// the prefix lengths. It returns false, and dst, when the offsets of a
// decrease or point past its values.
func encodeByteArray(dst []byte, a *byteArrays, size int) ([]byte, bool) {
	n0, n := len(dst), a.n
	bound := maxEncodedLen[int32](n)
	// 16 bytes of slack for the short suffix copies.
	dst = slices.Grow(dst, 2*bound+size+16)
	buf := dst[:cap(dst)]
	sufStart, dataStart := n0+bound, n0+2*bound
	// bounds[j] is the start of value i+j-1 of the current block, so
	// bounds[j+1] is the end of value i+j-1 and the start of value i+j.
	var pre, suf [encBlockSize + 1]int32
	var bounds [encBlockSize + 2]int
	data := dataStart
	if n > 0 {
		lo, hi := 0, a.size
		if a.size < 0 {
			lo, hi = int(a.offsets[0]), int(a.offsets[1])
			if lo < 0 || hi < lo || hi > len(a.values) {
				return dst[:n0], false
			}
		}
		bounds[0], bounds[1] = lo, hi
		suf[0] = int32(hi - lo)
		data += copy(buf[data:], a.values[lo:hi])
	}
	posP := encodeHeader(buf, n0, n, 0)
	posS := encodeHeader(buf, sufStart, n, int64(suf[0]))
	for i := 1; i < n; i += encBlockSize {
		k := min(encBlockSize, n-i)
		if a.size < 0 {
			// Offsets are checked before they are used: with none
			// negative, no difference overflows and one sign bit tells
			// whether they decrease.
			prev, bad := a.offsets[i], int32(0)
			for j, o := range a.offsets[i+1 : i+1+k] {
				bounds[j+2] = int(o)
				bad |= o | (o - prev)
				prev = o
			}
			if bad < 0 || int(prev) > len(a.values) {
				return dst[:n0], false
			}
		} else {
			for j := range k {
				bounds[j+2] = bounds[j+1] + a.size
			}
		}
		prefixes(&pre, &suf, &bounds, k, a.values)
		data = copySuffixes(buf, data, a.values, &pre, &bounds, k)
		posP = encodeBlock(buf, posP, pre[:k+1])
		posS = encodeBlock(buf, posS, suf[:k+1])
		pre[0], suf[0] = pre[k], suf[k]
		bounds[0], bounds[1] = bounds[k], bounds[k+1]
	}
	pos := posP + copy(buf[posP:], buf[sufStart:posS])
	pos += copy(buf[pos:], buf[dataStart:data])
	return dst[:pos], true
}

// prefixes stores in pre[1:k+1] and suf[1:k+1] the prefix and suffix lengths
// of the k values after the one at values[bounds[0]:bounds[1]], value j
// spanning values[bounds[j]:bounds[j+1]].
func prefixes(pre, suf *[encBlockSize + 1]int32, bounds *[encBlockSize + 2]int, k int, values []byte) {
	for j := 1; j <= k && j <= encBlockSize; j++ {
		prevLo, lo, hi := bounds[j-1], bounds[j], bounds[j+1]
		n := hi - lo
		m := min(n, lo-prevLo)
		p := 0
		if hi+8 <= len(values) {
			// The 8-byte loads stay within values; bytes past m may
			// match but do not count.
			for {
				x := binary.LittleEndian.Uint64(values[prevLo+p:prevLo+p+8]) ^ binary.LittleEndian.Uint64(values[lo+p:lo+p+8])
				if x != 0 {
					p += bits.TrailingZeros64(x) / 8
					break
				}
				if p += 8; p >= m {
					break
				}
			}
			p = min(p, m)
		} else {
			for p < m && values[prevLo+p] == values[lo+p] {
				p++
			}
		}
		pre[j], suf[j] = int32(p), int32(n-p)
	}
}

// copySuffixes appends the suffixes of the k values of [prefixes] at
// buf[data:], which has 16 bytes of slack past them, and returns the new
// data position.
func copySuffixes(buf []byte, data int, values []byte, pre *[encBlockSize + 1]int32, bounds *[encBlockSize + 2]int, k int) int {
	for j := 1; j <= k && j <= encBlockSize; j++ {
		s, hi := bounds[j]+int(pre[j]), bounds[j+1]
		if hi-s <= 64 && hi+16 <= len(values) {
			// Whole 16-byte moves, reading and writing at most 15 bytes
			// past the suffix.
			for q := 0; q < hi-s; q += 16 {
				copy16(buf[data+q:data+q+16], values[s+q:s+q+16])
			}
		} else {
			copy(buf[data:], values[s:hi])
		}
		data += hi - s
	}
	return data
}
