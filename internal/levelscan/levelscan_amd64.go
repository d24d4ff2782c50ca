//go:build !purego

package levelscan

import "golang.org/x/sys/cpu"

var hasAVX2 = cpu.X86.HasAVX2

// scanFast counts the levels equal to m among the leading multiple of 32 of
// levels (at most chunk) and finds their highest, and returns both and how
// many levels it scanned, 0 without AVX2.
func scanFast(levels []int16, m int16) (atMax int, hi int16, done int) {
	done = len(levels) &^ 31
	if !hasAVX2 || done == 0 {
		return 0, 0, 0
	}
	atMax, hi = scanAVX2(&levels[0], done, m)
	return atMax, hi, done
}

//go:noescape
func scanAVX2(levels *int16, n int, m int16) (atMax int, hi int16)
