// Package levelscan counts and bounds repetition and definition levels: how
// many levels of a page equal a value (the non-null values, the records)
// and the highest level (the bound check of a page whose maximum level is
// not all ones). On amd64 with AVX2 it compares 32 levels per iteration;
// elsewhere, and under the purego build tag, it runs the loops of
// levelscan_generic.go, without branches on the data either way (a null is
// as likely as not: a branch per level mispredicts).
//
// The functions only read levels and are safe for concurrent use.
package levelscan

// chunk is the most levels one call of the kernel scans: each of its 16
// lanes counts at most chunk/16 equal levels in 16 bits.
const chunk = 1 << 18

// CountEqual returns how many levels equal v: [Scan]'s count (the maximum
// it also keeps costs two instructions per 32 levels).
func CountEqual(levels []int16, v int16) int {
	n, _ := Scan(levels, v)
	return n
}

// Scan returns how many levels equal m and the highest level (0 for no
// levels). Levels are never negative.
func Scan(levels []int16, m int16) (atMax int, hi int16) {
	for len(levels) > 0 {
		k := min(len(levels), chunk)
		c, h, done := scanFast(levels[:k], m)
		c2, h2 := scanGeneric(levels[done:k], m)
		atMax += c + c2
		hi = max(hi, h, h2)
		levels = levels[k:]
	}
	return atMax, hi
}
