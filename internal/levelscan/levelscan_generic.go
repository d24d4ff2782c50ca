package levelscan

// scanGeneric is Scan by a plain loop, 4 levels per iteration.
func scanGeneric(levels []int16, m int16) (atMax int, hi int16) {
	n := 0
	for len(levels) >= 4 {
		a := (*[4]int16)(levels)
		hi = max(hi, a[0], a[1], a[2], a[3])
		n += eq(a[0], m) + eq(a[1], m) + eq(a[2], m) + eq(a[3], m)
		levels = levels[4:]
	}
	for _, l := range levels {
		hi = max(hi, l)
		n += eq(l, m)
	}
	return n, hi
}

// eq is 1 when a == b, else 0, without a branch.
func eq(a, b int16) int {
	return int((uint32(uint16(a^b)) - 1) >> 31)
}
