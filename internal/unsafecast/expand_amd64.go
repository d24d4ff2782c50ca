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

// packBlocks packs the first len(src)/32*32 bytes of src (each 0 or 1) into
// bits of dst, 32 at a time with AVX2 where the CPU has it (a shift and a
// VPMOVMSKB per 32 values, against a load, a multiply and a store per 8 in
// PackBytesToBits' loop), and returns how many bytes of src it consumed (0
// without AVX2).
func packBlocks(dst, src []byte) int {
	blocks := len(src) / 32
	if !hasAVX2 || blocks == 0 {
		return 0
	}
	_ = dst[4*blocks-1]
	packBitsAVX2(&dst[0], &src[0], blocks)
	return 32 * blocks
}

// packBitsAVX2 writes 4*blocks bytes at dst, bit i the low bit of byte i of
// the blocks*32 bytes at src.
//
//go:noescape
func packBitsAVX2(dst, src *byte, blocks int)
