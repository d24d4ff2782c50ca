//go:build !purego

package dictionary

import (
	"math"

	"github.com/klauspost/cpuid/v2"
)

func init() {
	if onePassAlways(cpuid.CPU.VendorID) {
		cached = math.MaxInt
	}
}

// onePassAlways reports whether gather copies each value as it looks it up
// whatever the size of the dictionary. On Intel cores (measured on a Xeon of
// the Sapphire Rapids class, family 6 model 167) the one pass overlaps the
// cache misses of a large dictionary as well as the two passes do, since
// each index's slot load depends only on the index, and saves the pass
// that sums the lengths: on index pages of width 20 into 786,432 byte
// arrays (24 MiB of slots) it took 17-33% less CPU time. AMD keeps the two
// passes above 4 MiB of slots until it is measured there.
func onePassAlways(vendor cpuid.Vendor) bool {
	return vendor == cpuid.Intel
}
