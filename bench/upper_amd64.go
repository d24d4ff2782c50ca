//go:build amd64

package bench

import "golang.org/x/sys/cpu"

var hasAVX = cpu.X86.HasAVX

// cleanUpper clears the upper halves of the vector registers (VZEROUPPER)
// where the CPU has AVX. The implementations of a row run in one process,
// and a peer's AVX code that returns without VZEROUPPER (parquet-go's
// DELTA_BYTE_ARRAY length check, for one) would otherwise tax the legacy SSE
// code that runs after it on Intel cores, Go's own included, as it would not
// in a program using one library; each implementation starts clean.
func cleanUpper() {
	if hasAVX {
		zeroUpper()
	}
}

func zeroUpper()
