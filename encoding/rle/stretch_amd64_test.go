//go:build !purego

package rle

import (
	"fmt"
	"math"
	"testing"
)

// TestInt16Stretch runs the encoder tests with the int16 assembly's loop
// for bit-packed stretches (scanv) from the first packed groups, from 64
// values and never, whatever the CPU chose.
func TestInt16Stretch(t *testing.T) {
	defer func(s int) { int16Stretch = s }(int16Stretch)
	for _, s := range []int{0, 64, math.MaxInt} {
		int16Stretch = s
		t.Run(fmt.Sprint(s), func(t *testing.T) {
			TestEncodePathsAgree(t)
			TestEncodeTooWide(t)
			TestEncodeLongRuns(t)
		})
	}
}
