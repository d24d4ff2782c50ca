//go:build !purego

package levelscan

import "golang.org/x/sys/cpu"

var hasAVX2 = cpu.X86.HasAVX2

// countEqualFast counts the levels equal to v among the leading multiple
// of 32 of levels (at most chunk), and returns the count and how many
// levels it scanned, 0 without AVX2.
func countEqualFast(levels []int16, v int16) (n, done int) {
	done = len(levels) &^ 31
	if !hasAVX2 || done == 0 {
		return 0, 0
	}
	return countEqualAVX2(&levels[0], done, v), done
}

// scanFast is [countEqualFast] for Scan: it also returns the highest of
// the levels it scanned.
func scanFast(levels []int16, m int16) (atMax int, hi int16, done int) {
	done = len(levels) &^ 31
	if !hasAVX2 || done == 0 {
		return 0, 0, 0
	}
	atMax, hi = scanAVX2(&levels[0], done, m)
	return atMax, hi, done
}

//go:noescape
func countEqualAVX2(levels *int16, n int, v int16) int

//go:noescape
func scanAVX2(levels *int16, n int, m int16) (atMax int, hi int16)
