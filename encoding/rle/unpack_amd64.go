//go:build !purego

package rle

import (
	"github.com/klauspost/cpuid/v2"
	"golang.org/x/sys/cpu"
)

var (
	// hasBMI2 chooses the PDEP/PEXT kernels: only where the CPU has BMI2
	// and runs those two instructions in hardware (see [fastPDEP]).
	hasBMI2 = cpu.X86.HasBMI2 && fastPDEP(cpuid.CPU.VendorID, cpuid.CPU.Family)
	hasAVX2 = cpu.X86.HasAVX2
	hasAVX  = cpu.X86.HasAVX
)

// fastPDEP reports whether a CPU with BMI2 runs PDEP and PEXT in hardware
// (3 cycles of latency, one per cycle): every Intel CPU since Haswell and AMD
// since Zen 3 (family 19h). AMD family 17h (Zen, Zen+, Zen 2) and Hygon's
// family 18h (Dhyana, built on Zen) run them in microcode, 18 cycles and more
// with a latency that grows with the mask's set bits, where the pure-Go
// loops they replace are faster: those CPUs take the pure-Go path.
func fastPDEP(vendor cpuid.Vendor, family int) bool {
	switch vendor {
	case cpuid.AMD:
		return family != 0x17
	case cpuid.Hygon:
		return family != 0x18
	}
	return true
}

// unpackBytesFast unpacks the leading whole groups of [unpackBytes] (width
// 1..7) that PDEP can do without reading past src, and returns the number
// of values written, a multiple of 8.
func unpackBytesFast(dst []uint8, src []byte, w uint) int {
	if w == 0 {
		return 0
	}
	g := groupsFor(len(dst), len(src), 8, int(w))
	if !hasBMI2 || g <= 0 {
		return 0
	}
	_ = dst[8*g-1]
	_ = src[(g-1)*int(w)+7] // the assembly reads up to here
	unpackBytesPDEP(&dst[0], &src[0], g, int(w), (uint64(1)<<w-1)*0x0101_0101_0101_0101)
	return 8 * g
}

// unpackInt16Fast is [unpackBytesFast] for [unpackInt16] (width 2..8), its
// twin kept per type, each calling its own assembly kernel.
func unpackInt16Fast(dst []int16, src []byte, w uint) int {
	if w == 0 {
		return 0
	}
	g := groupsFor(len(dst), len(src), 8, int(w))
	if !hasBMI2 || g <= 0 {
		return 0
	}
	_ = dst[8*g-1]
	_ = src[(g-1)*int(w)+7]
	unpackInt16PDEP(&dst[0], &src[0], g, int(w), (uint64(1)<<w-1)*0x0001_0001_0001_0001)
	return 8 * g
}

// unpackUint32Fast unpacks the leading whole groups of [unpackUint32]
// (width 1..25 and 32) that AVX2 can do without reading past src, and returns the
// number of values written, a multiple of 8, and their largest value.
func unpackUint32Fast(dst []uint32, src []byte, w uint) (int, uint32) {
	if !hasAVX2 || w == 0 || w > 25 && w < 32 {
		return 0, 0
	}
	t := &groupTables[w]
	g := groupsFor(len(dst), len(src), t.hi+16, int(w))
	if g <= 0 {
		return 0, 0
	}
	_ = dst[8*g-1]
	_ = src[(g-1)*int(w)+t.hi+15]
	var m [8]uint32
	unpackUint32AVX2(&dst[0], &src[0], g, t, uint32(uint64(1)<<w-1), &m)
	return 8 * g, max(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7])
}

// fastGroups returns how many groups of w bytes, each read by loads
// reaching read bytes past its start, n bytes hold.
func fastGroups(n, read, w int) int {
	if n < read {
		return 0
	}
	return (n-read)/w + 1
}

// groupsFor returns the number of whole groups of the values of dst that
// fastGroups allows, without a division when all of them are.
func groupsFor(values, n, read, w int) int {
	g := values / 8
	if g > 0 && (g-1)*w+read <= n {
		return g
	}
	return min(g, fastGroups(n, read, w))
}

// groupTable drives unpackUint32AVX2 for one width (valid for widths up
// to 25, whose values fit a 4-byte window at any bit offset, and 32, whose
// values are byte-aligned): per dword of a group
// of 8 values, the bytes of its 4-byte window (relative to the start of its
// 128-bit lane) and the shift that aligns the value; the high lane starts
// at byte hi of the group, 0 for widths up to 14, whose windows all lie in
// the group's first 16 bytes (indexRunsAVX2 then loads them once for both
// lanes). The assembly reads the fields at fixed offsets.
type groupTable struct {
	shuf  [32]byte
	shift [8]uint32
	hi    int
	step  int
}

var groupTables = func() (t [33]groupTable) {
	for w := 1; w <= 32; w++ {
		g := &t[w]
		g.hi, g.step = 4*w/8, w
		for k := range 8 {
			bit := k * w
			base := 0
			if k >= 4 {
				base = 8 * g.hi
			}
			rel := bit - base // bit offset within the lane's 16 bytes
			for j := range 4 {
				g.shuf[4*k+j] = byte(rel/8 + j)
			}
			g.shift[k] = uint32(rel % 8)
		}
		if w <= 14 {
			g.hi = 0
			for k := 4; k < 8; k++ {
				bit := k * w
				for j := range 4 {
					g.shuf[4*k+j] = byte(bit/8 + j)
				}
				g.shift[k] = uint32(bit % 8)
			}
		}
	}
	return t
}()

//go:noescape
func unpackBytesPDEP(dst *byte, src *byte, groups int, w int, mask uint64)

//go:noescape
func unpackInt16PDEP(dst *int16, src *byte, groups int, w int, mask uint64)

//go:noescape
func unpackInt16PDEPAVX2(dst *int16, src *byte, groups int, w int, mask8, mask16 uint64)

//go:noescape
func unpackUint32AVX2(dst *uint32, src *byte, groups int, t *groupTable, mask uint32, max *[8]uint32)

// fillFast sets dst[n:n+c] to the run value v, as decodePage's RLE branch,
// with 32-byte stores when dst has room for the last one; it reports
// whether it did. It may set values of dst past n+c.
func fillFast[T Level](dst []T, n, c int, v uint32) bool {
	if !hasAVX2 || c <= 0 {
		return false
	}
	switch d := any(dst).(type) {
	case []uint8:
		if b := (c + 31) &^ 31; len(d)-n >= b {
			_ = d[n+b-1]
			fillBytesAVX2(&d[n], c, uint64(uint8(v))*0x0101_0101_0101_0101)
			return true
		}
	case []int16:
		if b := (2*c + 31) &^ 31; 2*(len(d)-n) >= b {
			_ = d[n+b/2-1]
			fillInt16AVX2(&d[n], 2*c, uint64(uint16(v))*0x0001_0001_0001_0001)
			return true
		}
	case []uint32:
		if b := (4*c + 31) &^ 31; 4*(len(d)-n) >= b {
			_ = d[n+b/4-1]
			fillUint32AVX2(&d[n], 4*c, uint64(v)*(1|1<<32))
			return true
		}
	}
	return false
}

// levelKernels reports whether the loops of levels can use PDEP
// ([unpackBytesGroups], [unpackInt16Groups]) and AVX2 ([fillBytes32],
// [fillInt16x16]).
func levelKernels() (pdep, wide bool) { return hasBMI2, hasAVX2 }

// unpackBytesGroups sets dst (8g values) to the g groups of values of width
// w at the start of src, which holds (g-1)*w+8 bytes, mask being the
// PDEP mask of [unpackBytesPDEP].
func unpackBytesGroups(dst []uint8, src []byte, g, w int, mask uint64) {
	_ = src[(g-1)*w+7]
	unpackBytesPDEP(&dst[:8*g][0], &src[0], g, w, mask)
}

// unpackInt16Groups is [unpackBytesGroups] into int16.
func unpackInt16Groups(dst []int16, src []byte, g, w int, mask uint64) {
	_ = src[(g-1)*w+7]
	if hasAVX2 {
		unpackInt16PDEPAVX2(&dst[:8*g][0], &src[0], g, w, mask&0xff*lsb, mask)
		return
	}
	unpackInt16PDEP(&dst[:8*g][0], &src[0], g, w, mask)
}

// fillBytes32 sets the first c values of dst, which has room for c rounded
// up to 32, to the byte of x, and may set the rest.
func fillBytes32(dst []uint8, c int, x uint64) {
	_ = dst[(c+31)&^31-1]
	fillBytesAVX2(&dst[0], c, x)
}

// fillInt16x16 sets the first c values of dst, which has room for c
// rounded up to 16, to the value x holds 4 copies of, and may set the rest.
func fillInt16x16(dst []int16, c int, x uint64) {
	_ = dst[(c+15)&^15-1]
	fillInt16AVX2(&dst[0], 2*c, x)
}

// fillBytesFast is [fillFast] of bytes, x holding 8 copies of the value.
func fillBytesFast(dst []uint8, n, c int, x uint64) bool {
	if !hasAVX2 || c <= 0 {
		return false
	}
	if b := (c + 31) &^ 31; len(dst)-n >= b {
		_ = dst[n+b-1]
		fillBytesAVX2(&dst[n], c, x)
		return true
	}
	return false
}

// fillInt16Fast is [fillFast] of int16.
func fillInt16Fast(dst []int16, n, c int, t int16) bool {
	if !hasAVX2 || c <= 0 {
		return false
	}
	if b := (2*c + 31) &^ 31; 2*(len(dst)-n) >= b {
		_ = dst[n+b/2-1]
		fillInt16AVX2(&dst[n], 2*c, uint64(uint16(t))*0x0001_0001_0001_0001)
		return true
	}
	return false
}

//go:noescape
func fillBytesAVX2(dst *uint8, n int, pat uint64)

//go:noescape
func fillInt16AVX2(dst *int16, n int, pat uint64)

//go:noescape
func fillUint32AVX2(dst *uint32, n int, pat uint64)

// indexKernel reports whether decodePage can use [indexRuns].
func indexKernel() bool { return hasAVX2 }

// indexRuns decodes the leading runs of an index page (see
// [indexRunsAVX2]) into dst, which holds the values still expected, and
// returns the values written, the bytes of src used and the largest value
// written (0 if none).
func indexRuns(dst []uint32, src []byte, w uint) (n, used int, top uint32) {
	if !hasAVX2 || w == 0 || w > 25 && w < 32 || len(dst) == 0 || len(src) == 0 {
		return 0, 0, 0
	}
	nb := (w + 7) / 8
	inv := ^(uint64(1)<<w - 1) & 0xffff_ffff
	var m [8]uint32
	n, used = indexRunsAVX2(&dst[0], len(dst), &src[0], len(src), &groupTables[w], int(w), int(nb),
		uint64(1)<<(8*nb)-1, inv, &m)
	return n, used, max(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7])
}

//go:noescape
func indexRunsAVX2(dst *uint32, count int, src *byte, size int, t *groupTable, w int, nb int, bmask uint64, inv uint64, max *[8]uint32) (n int, used int)

// levelRunsBytes decodes the leading runs of a level page of width 1..8
// (see [levelBytesAVX2]) into dst, which holds the values still expected,
// and returns the values written and the bytes of src used.
func levelRunsBytes(dst []uint8, src []byte, w uint) (n, used int) {
	if !hasBMI2 || !hasAVX2 || len(dst) == 0 || len(src) == 0 {
		return 0, 0
	}
	m := uint64(1)<<w - 1
	return levelBytesAVX2(&dst[0], len(dst), &src[0], len(src), int(w), 0xff&^m, m*lsb)
}

// levelRunsInt16 is [levelRunsBytes] into int16.
func levelRunsInt16(dst []int16, src []byte, w uint) (n, used int) {
	if !hasBMI2 || !hasAVX2 || len(dst) == 0 || len(src) == 0 {
		return 0, 0
	}
	m := uint64(1)<<w - 1
	return levelInt16AVX2(&dst[0], len(dst), &src[0], len(src), int(w), 0xff&^m, m*lsb, &int16Tables[w])
}

// int16Table drives the pairs of groups of levelInt16AVX2 for one width
// (1..7): per word of two groups of 8 values (the second group in the high
// 128-bit lane, both lanes holding the first group's 16 bytes), the 2 bytes
// of its window and the multiplier that moves the value to the top of the
// word. The assembly reads the fields at fixed offsets.
type int16Table struct {
	shuf [32]byte
	mul  [16]uint16
}

var int16Tables = func() (t [9]int16Table) {
	for w := 1; w <= 7; w++ {
		for lane := range 2 {
			for k := range 8 {
				bit := lane*8*w + k*w
				t[w].shuf[16*lane+2*k] = byte(bit / 8)
				t[w].shuf[16*lane+2*k+1] = byte(bit/8 + 1)
				t[w].mul[8*lane+k] = uint16(1) << (16 - w - bit%8)
			}
		}
	}
	return t
}()

//go:noescape
func levelBytesAVX2(dst *uint8, count int, src *byte, size int, w int, inv uint64, mask uint64) (n int, used int)

//go:noescape
func levelInt16AVX2(dst *int16, count int, src *byte, size int, w int, inv uint64, mask uint64, t *int16Table) (n int, used int)
