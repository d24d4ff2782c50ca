package main

import (
	"fmt"
	"strconv"
)

// sizeText formats a byte count for people: bytes below 1 kB ("812 B"),
// then kB, MB, GB and TB (powers of 1000) with three significant digits
// ("1.23 kB", "45.6 MB", "789 GB"). It never rounds a non-zero size to
// zero, as a fixed "0.0 MB" did.
func sizeText(n int64) string {
	if n < 1000 && n > -1000 {
		return strconv.FormatInt(n, 10) + " B"
	}
	v := float64(n)
	unit := ""
	for _, u := range []string{"kB", "MB", "GB", "TB", "PB", "EB"} {
		v /= 1000
		unit = u
		if v < 999.5 && v > -999.5 {
			break
		}
	}
	switch a := max(v, -v); {
	case a < 9.995:
		return fmt.Sprintf("%.2f %s", v, unit)
	case a < 99.95:
		return fmt.Sprintf("%.1f %s", v, unit)
	}
	return fmt.Sprintf("%.0f %s", v, unit)
}

// sizeAndBytes is sizeText followed by the exact count, "1.32 kB (1324
// bytes)", or only the count below 1 kB, "495 bytes".
func sizeAndBytes(n int64) string {
	if n < 1000 && n > -1000 {
		return strconv.FormatInt(n, 10) + " bytes"
	}
	return sizeText(n) + " (" + strconv.FormatInt(n, 10) + " bytes)"
}
