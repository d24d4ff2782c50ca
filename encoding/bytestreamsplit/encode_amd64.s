//go:build amd64 && !purego

#include "textflag.h"

// The encoders transpose blocks of 16 values with byte interleaves only.
// Number the bytes of a block by (value v, byte b) and lay them out in
// registers of 16 bytes, so that each byte has a register number R and an
// offset O. One round pairs register r of the first half with register r of
// the second half and interleaves their low and their high 8 bytes
// (PUNPCKLBW, PUNPCKHBW) into two registers, in order: this rotates the bits
// of the index (R, O) left by one. Loaded, the index is (v, b); after four
// rounds it is (b, v): register b holds byte b of the 16 values, in order,
// ready to store into stream b.

// PAIR sets lo and hi to the interleaved low and high bytes of x and y.
#define PAIR(x, y, lo, hi) \
	MOVO x, lo; \
	PUNPCKLBW y, lo; \
	MOVO x, hi; \
	PUNPCKHBW y, hi

// ROUND4 is one round over 4 registers.
#define ROUND4(i0, i1, i2, i3, o0, o1, o2, o3) \
	PAIR(i0, i2, o0, o1); \
	PAIR(i1, i3, o2, o3)

// ROUND8 is one round over 8 registers.
#define ROUND8(i0, i1, i2, i3, i4, i5, i6, i7, o0, o1, o2, o3, o4, o5, o6, o7) \
	PAIR(i0, i4, o0, o1); \
	PAIR(i1, i5, o2, o3); \
	PAIR(i2, i6, o4, o5); \
	PAIR(i3, i7, o6, o7)

// Typed entry points: the twins of the decode ones (decode_amd64.s).
TEXT ·encodeFloat32SSE2(SB), NOSPLIT, $0-56
	JMP ·encode4SSE2(SB)

TEXT ·encodeInt32SSE2(SB), NOSPLIT, $0-56
	JMP ·encode4SSE2(SB)

TEXT ·encodeFloat64SSE2(SB), NOSPLIT, $0-56
	JMP ·encode8SSE2(SB)

TEXT ·encodeInt64SSE2(SB), NOSPLIT, $0-56
	JMP ·encode8SSE2(SB)

// func encode4SSE2(dst []byte, src []uint32, stride int)
TEXT ·encode4SSE2(SB), NOSPLIT, $0-56
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), CX
	MOVQ stride+48(FP), R8
	LEAQ (R8)(R8*2), R9 // 3*stride
	SHRQ $4, CX
	JZ   done4

loop4:
	MOVOU 0(SI), X0  // values 0-3
	MOVOU 16(SI), X1 // values 4-7
	MOVOU 32(SI), X2 // values 8-11
	MOVOU 48(SI), X3 // values 12-15
	ROUND4(X0, X1, X2, X3, X4, X5, X6, X7)
	ROUND4(X4, X5, X6, X7, X0, X1, X2, X3)
	ROUND4(X0, X1, X2, X3, X4, X5, X6, X7)
	ROUND4(X4, X5, X6, X7, X0, X1, X2, X3)
	MOVOU X0, (DI)
	MOVOU X1, (DI)(R8*1)
	MOVOU X2, (DI)(R8*2)
	MOVOU X3, (DI)(R9*1)
	ADDQ  $64, SI
	ADDQ  $16, DI
	DECQ  CX
	JNZ   loop4

done4:
	RET

// func encode8SSE2(dst []byte, src []uint64, stride int)
TEXT ·encode8SSE2(SB), NOSPLIT, $0-56
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), CX
	MOVQ stride+48(FP), R8
	LEAQ (R8)(R8*2), R9  // 3*stride
	LEAQ (R8)(R8*4), R10 // 5*stride
	LEAQ (R9)(R8*4), R11 // 7*stride
	SHRQ $4, CX
	JZ   done8

loop8:
	MOVOU 0(SI), X0   // values 0-1
	MOVOU 16(SI), X1  // values 2-3
	MOVOU 32(SI), X2  // values 4-5
	MOVOU 48(SI), X3  // values 6-7
	MOVOU 64(SI), X4  // values 8-9
	MOVOU 80(SI), X5  // values 10-11
	MOVOU 96(SI), X6  // values 12-13
	MOVOU 112(SI), X7 // values 14-15
	ROUND8(X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15)
	ROUND8(X8, X9, X10, X11, X12, X13, X14, X15, X0, X1, X2, X3, X4, X5, X6, X7)
	ROUND8(X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15)
	ROUND8(X8, X9, X10, X11, X12, X13, X14, X15, X0, X1, X2, X3, X4, X5, X6, X7)
	MOVOU X0, (DI)
	MOVOU X1, (DI)(R8*1)
	MOVOU X2, (DI)(R8*2)
	MOVOU X3, (DI)(R9*1)
	MOVOU X4, (DI)(R8*4)
	MOVOU X5, (DI)(R10*1)
	MOVOU X6, (DI)(R9*2)
	MOVOU X7, (DI)(R11*1)
	ADDQ  $128, SI
	ADDQ  $16, DI
	DECQ  CX
	JNZ   loop8

done8:
	RET

// VROUND8 is ROUND8 on YMM registers: the interleaves work within each
// 16-byte lane, so each lane transposes its own block of 16 values.
#define VROUND8(i0, i1, i2, i3, i4, i5, i6, i7, o0, o1, o2, o3, o4, o5, o6, o7) \
	VPUNPCKLBW i4, i0, o0; \
	VPUNPCKHBW i4, i0, o1; \
	VPUNPCKLBW i5, i1, o2; \
	VPUNPCKHBW i5, i1, o3; \
	VPUNPCKLBW i6, i2, o4; \
	VPUNPCKHBW i6, i2, o5; \
	VPUNPCKLBW i7, i3, o6; \
	VPUNPCKHBW i7, i3, o7

TEXT ·encodeFloat64AVX2(SB), NOSPLIT, $0-56
	JMP ·encode8AVX2(SB)

TEXT ·encodeInt64AVX2(SB), NOSPLIT, $0-56
	JMP ·encode8AVX2(SB)

// func encode8AVX2(dst []byte, src []uint64, stride int)
// The twin of encode8SSE2 on YMM registers, two blocks per round; kept
// apart because AVX2 is chosen at run time.
// The low lanes hold values 0-15 of a block of 32, the high lanes values
// 16-31, so that after the four rounds register b holds byte b of the 32
// values in order.
TEXT ·encode8AVX2(SB), NOSPLIT, $0-56
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), CX
	MOVQ stride+48(FP), R8
	LEAQ (R8)(R8*2), R9  // 3*stride
	LEAQ (R8)(R8*4), R10 // 5*stride
	LEAQ (R9)(R8*4), R11 // 7*stride
	SHRQ $5, CX
	JZ   doneAVX2

loopAVX2:
	VMOVDQU    0(SI), X0
	VINSERTI128 $1, 128(SI), Y0, Y0 // values 0-1 | 16-17
	VMOVDQU    16(SI), X1
	VINSERTI128 $1, 144(SI), Y1, Y1 // values 2-3 | 18-19
	VMOVDQU    32(SI), X2
	VINSERTI128 $1, 160(SI), Y2, Y2
	VMOVDQU    48(SI), X3
	VINSERTI128 $1, 176(SI), Y3, Y3
	VMOVDQU    64(SI), X4
	VINSERTI128 $1, 192(SI), Y4, Y4
	VMOVDQU    80(SI), X5
	VINSERTI128 $1, 208(SI), Y5, Y5
	VMOVDQU    96(SI), X6
	VINSERTI128 $1, 224(SI), Y6, Y6
	VMOVDQU    112(SI), X7
	VINSERTI128 $1, 240(SI), Y7, Y7 // values 14-15 | 30-31
	VROUND8(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15)
	VROUND8(Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15, Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7)
	VROUND8(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15)
	VROUND8(Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15, Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7)
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, (DI)(R8*1)
	VMOVDQU Y2, (DI)(R8*2)
	VMOVDQU Y3, (DI)(R9*1)
	VMOVDQU Y4, (DI)(R8*4)
	VMOVDQU Y5, (DI)(R10*1)
	VMOVDQU Y6, (DI)(R9*2)
	VMOVDQU Y7, (DI)(R11*1)
	ADDQ    $256, SI
	ADDQ    $32, DI
	DECQ    CX
	JNZ     loopAVX2
	VZEROUPPER

doneAVX2:
	RET

// func zeroUpper()
// VZEROUPPER alone, for CPUs with AVX: run before the SSE code of this file,
// it makes that code immune to upper register state left dirty by other code
// in the process (a peer library's AVX kernel without VZEROUPPER), which
// costs every legacy SSE instruction a merge or a state transition on Intel
// cores.
TEXT ·zeroUpper(SB), NOSPLIT, $0-0
	VZEROUPPER
	RET
