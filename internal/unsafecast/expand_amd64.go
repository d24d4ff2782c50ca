//go:build amd64 && !purego

package unsafecast

import "golang.org/x/sys/cpu"

var hasAVX2 = cpu.X86.HasAVX2

// expandBlocks expands the first len(dst)/32*32 bits of src into dst, 32
// at a time with AVX2 where the CPU has it, and returns how many bytes of
// dst it wrote (0 without AVX2). Per 32 values it executes 7 vector
// instructions where the table loop of ExpandBitsToBytes executes about 40:
// fewer instructions on every CPU with AVX2, so it needs no per-vendor
// choice (on the Intel Xeon of bench/INTEL.md the table loop took twice AMD
// EPYC's CPU time on PLAIN boolean pages).
func expandBlocks(dst, src []byte) int {
	blocks := len(dst) / 32
	if !hasAVX2 || blocks == 0 {
		return 0
	}
	_ = src[4*blocks-1]
	expandBitsAVX2(&dst[0], &src[0], blocks)
	return 32 * blocks
}

// expandBitsAVX2 writes blocks*32 bytes at dst, byte i bit i of the
// 4*blocks bytes at src, least significant bit first.
//
//go:noescape
func expandBitsAVX2(dst, src *byte, blocks int)
