// Package genlib holds what the generators of unrolled bit-unpacking code
// share: the word loads and the field extraction of 32 values of w bits
// packed LSB first. Its users are internal/bitpack/gen (Unpack32/Unpack64
// and the pack routines) and encoding/delta/internal/gen (the fused
// unpack-and-add deltas routines), so both emit the same code for the same
// field.
package genlib

import (
	"bytes"
	"fmt"
)

// LoadWords emits loads of the 4*w bytes of src as 64-bit little-endian
// words w0, w1, ...; a trailing half word (odd w) is loaded as a uint32. It
// begins with a bounds-check hint.
func LoadWords(b *bytes.Buffer, w int) {
	n := 4 * w
	fmt.Fprintf(b, "\t_ = src[%d]\n", n-1)
	for k := 0; k*8 < n; k++ {
		if k*8+8 <= n {
			fmt.Fprintf(b, "\tw%d := binary.LittleEndian.Uint64(src[%d:])\n", k, 8*k)
		} else {
			fmt.Fprintf(b, "\tw%d := uint64(binary.LittleEndian.Uint32(src[%d:]))\n", k, 8*k)
		}
	}
}

// Field returns the uint64 expression of value i of width w (1..bits) in
// the words LoadWords emits. The mask is left out where the caller's
// conversion to a bits-wide type truncates anyway (w == bits) or where the
// field ends on the top bit of its word.
func Field(w, i, bits int) string {
	bit := i * w
	k, s := bit/64, bit%64
	expr := fmt.Sprintf("w%d", k)
	if s != 0 {
		expr = fmt.Sprintf("w%d>>%d", k, s)
	}
	if s+w > 64 {
		expr = fmt.Sprintf("(%s | w%d<<%d)", expr, k+1, 64-s)
	}
	if w < bits && s+w != 64 {
		expr = fmt.Sprintf("(%s) & 0x%x", expr, uint64(1)<<w-1)
	}
	return expr
}
