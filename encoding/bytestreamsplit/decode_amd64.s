//go:build amd64 && !purego

#include "textflag.h"

// Typed entry points that jump to the shared kernels: the twins of the
// encode entry points in encode_amd64.s (the assembly is typed per element).
TEXT ·decodeFloat32SSE2(SB), NOSPLIT, $0-56
	JMP ·decode4SSE2(SB)

TEXT ·decodeInt32SSE2(SB), NOSPLIT, $0-56
	JMP ·decode4SSE2(SB)

TEXT ·decodeFloat64SSE2(SB), NOSPLIT, $0-56
	JMP ·decode8SSE2(SB)

TEXT ·decodeInt64SSE2(SB), NOSPLIT, $0-56
	JMP ·decode8SSE2(SB)

// func decode4SSE2(dst []uint32, src []byte, stride int)
// Interleaves 4 streams 16 bytes at a time: bytes, then 16-bit pairs.
TEXT ·decode4SSE2(SB), NOSPLIT, $0-56
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ src_base+24(FP), SI
	MOVQ stride+48(FP), R8
	LEAQ (R8)(R8*2), R9 // 3*stride
	SHRQ $4, CX
	JZ   done4

loop4:
	MOVOU (SI), X0
	MOVOU (SI)(R8*1), X1
	MOVOU (SI)(R8*2), X2
	MOVOU (SI)(R9*1), X3
	MOVO  X0, X4
	PUNPCKLBW X1, X0 // byte pairs 0-1 of values 0-7
	PUNPCKHBW X1, X4 // byte pairs 0-1 of values 8-15
	MOVO  X2, X5
	PUNPCKLBW X3, X2 // byte pairs 2-3 of values 0-7
	PUNPCKHBW X3, X5 // byte pairs 2-3 of values 8-15
	MOVO  X0, X6
	PUNPCKLWL X2, X0 // values 0-3
	PUNPCKHWL X2, X6 // values 4-7
	MOVO  X4, X7
	PUNPCKLWL X5, X4 // values 8-11
	PUNPCKHWL X5, X7 // values 12-15
	MOVOU X0, 0(DI)
	MOVOU X6, 16(DI)
	MOVOU X4, 32(DI)
	MOVOU X7, 48(DI)
	ADDQ  $16, SI
	ADDQ  $64, DI
	DECQ  CX
	JNZ   loop4

done4:
	RET

// func decode8SSE2(dst []uint64, src []byte, stride int)
// Interleaves 8 streams 16 bytes at a time: bytes, 16-bit pairs, then
// 32-bit halves.
TEXT ·decode8SSE2(SB), NOSPLIT, $0-56
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ src_base+24(FP), SI
	MOVQ stride+48(FP), R8
	LEAQ (R8)(R8*2), R9  // 3*stride
	LEAQ (R8)(R8*4), R10 // 5*stride
	LEAQ (R9)(R8*4), R11 // 7*stride
	SHRQ $4, CX
	JZ   done8

// The prologue is the twin of encode8SSE2's (encode_amd64.s); the three
// rounds below look alike but interleave bytes, then words, then dwords.
loop8:
	MOVOU (SI), X0
	MOVOU (SI)(R8*1), X1
	MOVOU (SI)(R8*2), X2
	MOVOU (SI)(R9*1), X3
	MOVOU (SI)(R8*4), X4
	MOVOU (SI)(R10*1), X5
	MOVOU (SI)(R9*2), X6
	MOVOU (SI)(R11*1), X7

	MOVO X0, X8
	PUNPCKLBW X1, X0 // bytes 0-1, values 0-7
	PUNPCKHBW X1, X8 // bytes 0-1, values 8-15
	MOVO X2, X9
	PUNPCKLBW X3, X2 // bytes 2-3, values 0-7
	PUNPCKHBW X3, X9 // bytes 2-3, values 8-15
	MOVO X4, X10
	PUNPCKLBW X5, X4 // bytes 4-5, values 0-7
	PUNPCKHBW X5, X10 // bytes 4-5, values 8-15
	MOVO X6, X11
	PUNPCKLBW X7, X6 // bytes 6-7, values 0-7
	PUNPCKHBW X7, X11 // bytes 6-7, values 8-15

	MOVO X0, X1
	PUNPCKLWL X2, X0 // bytes 0-3, values 0-3
	PUNPCKHWL X2, X1 // bytes 0-3, values 4-7
	MOVO X8, X3
	PUNPCKLWL X9, X8 // bytes 0-3, values 8-11
	PUNPCKHWL X9, X3 // bytes 0-3, values 12-15
	MOVO X4, X5
	PUNPCKLWL X6, X4 // bytes 4-7, values 0-3
	PUNPCKHWL X6, X5 // bytes 4-7, values 4-7
	MOVO X10, X7
	PUNPCKLWL X11, X10 // bytes 4-7, values 8-11
	PUNPCKHWL X11, X7  // bytes 4-7, values 12-15

	MOVO X0, X2
	PUNPCKLLQ X4, X0 // values 0-1
	PUNPCKHLQ X4, X2 // values 2-3
	MOVO X1, X6
	PUNPCKLLQ X5, X1 // values 4-5
	PUNPCKHLQ X5, X6 // values 6-7
	MOVO X8, X9
	PUNPCKLLQ X10, X8 // values 8-9
	PUNPCKHLQ X10, X9 // values 10-11
	MOVO X3, X11
	PUNPCKLLQ X7, X3  // values 12-13
	PUNPCKHLQ X7, X11 // values 14-15

	MOVOU X0, 0(DI)
	MOVOU X2, 16(DI)
	MOVOU X1, 32(DI)
	MOVOU X6, 48(DI)
	MOVOU X8, 64(DI)
	MOVOU X9, 80(DI)
	MOVOU X3, 96(DI)
	MOVOU X11, 112(DI)
	ADDQ $16, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  loop8

done8:
	RET

// The AVX2 decoders below are decode4SSE2 and decode8SSE2 on YMM registers:
// the interleaves work within each 16-byte lane, so a 32-byte load of each
// stream gives values 0-15 of a block of 32 in the low lanes and values 16-31
// in the high lanes, each lane the SSE2 rounds' result; the low lanes are
// stored as the first half of the block's output and the high lanes (by
// VEXTRACTI128, a plain store) as the second. Half the loads and shuffles of
// SSE2 per value, and no register copies (three-operand forms).

TEXT ·decodeFloat32AVX2(SB), NOSPLIT, $0-56
	JMP ·decode4AVX2(SB)

TEXT ·decodeInt32AVX2(SB), NOSPLIT, $0-56
	JMP ·decode4AVX2(SB)

TEXT ·decodeFloat64AVX2(SB), NOSPLIT, $0-56
	JMP ·decode8AVX2(SB)

TEXT ·decodeInt64AVX2(SB), NOSPLIT, $0-56
	JMP ·decode8AVX2(SB)

// func decode4AVX2(dst []uint32, src []byte, stride int)
// len(dst) is a multiple of 32.
TEXT ·decode4AVX2(SB), NOSPLIT, $0-56
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ src_base+24(FP), SI
	MOVQ stride+48(FP), R8
	LEAQ (R8)(R8*2), R9 // 3*stride
	SHRQ $5, CX
	JZ   done4

loop4:
	VMOVDQU      (SI), Y0
	VMOVDQU      (SI)(R8*1), Y1
	VMOVDQU      (SI)(R8*2), Y2
	VMOVDQU      (SI)(R9*1), Y3
	VPUNPCKLBW   Y1, Y0, Y4 // byte pairs 0-1 of values 0-7
	VPUNPCKHBW   Y1, Y0, Y5 // byte pairs 0-1 of values 8-15
	VPUNPCKLBW   Y3, Y2, Y6 // byte pairs 2-3 of values 0-7
	VPUNPCKHBW   Y3, Y2, Y7 // byte pairs 2-3 of values 8-15
	VPUNPCKLWD   Y6, Y4, Y0 // values 0-3
	VPUNPCKHWD   Y6, Y4, Y1 // values 4-7
	VPUNPCKLWD   Y7, Y5, Y2 // values 8-11
	VPUNPCKHWD   Y7, Y5, Y3 // values 12-15
	VMOVDQU      X0, 0(DI)
	VMOVDQU      X1, 16(DI)
	VMOVDQU      X2, 32(DI)
	VMOVDQU      X3, 48(DI)
	VEXTRACTI128 $1, Y0, 64(DI)
	VEXTRACTI128 $1, Y1, 80(DI)
	VEXTRACTI128 $1, Y2, 96(DI)
	VEXTRACTI128 $1, Y3, 112(DI)
	ADDQ         $32, SI
	ADDQ         $128, DI
	DECQ         CX
	JNZ          loop4
	VZEROUPPER

done4:
	RET

// func decode8AVX2(dst []uint64, src []byte, stride int)
// len(dst) is a multiple of 32.
TEXT ·decode8AVX2(SB), NOSPLIT, $0-56
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ src_base+24(FP), SI
	MOVQ stride+48(FP), R8
	LEAQ (R8)(R8*2), R9  // 3*stride
	LEAQ (R8)(R8*4), R10 // 5*stride
	LEAQ (R9)(R8*4), R11 // 7*stride
	SHRQ $5, CX
	JZ   done8

loop8:
	VMOVDQU (SI), Y0
	VMOVDQU (SI)(R8*1), Y1
	VMOVDQU (SI)(R8*2), Y2
	VMOVDQU (SI)(R9*1), Y3
	VMOVDQU (SI)(R8*4), Y4
	VMOVDQU (SI)(R10*1), Y5
	VMOVDQU (SI)(R9*2), Y6
	VMOVDQU (SI)(R11*1), Y7

	VPUNPCKLBW Y1, Y0, Y8  // bytes 0-1, values 0-7
	VPUNPCKHBW Y1, Y0, Y9  // bytes 0-1, values 8-15
	VPUNPCKLBW Y3, Y2, Y10 // bytes 2-3, values 0-7
	VPUNPCKHBW Y3, Y2, Y11 // bytes 2-3, values 8-15
	VPUNPCKLBW Y5, Y4, Y12 // bytes 4-5, values 0-7
	VPUNPCKHBW Y5, Y4, Y13 // bytes 4-5, values 8-15
	VPUNPCKLBW Y7, Y6, Y14 // bytes 6-7, values 0-7
	VPUNPCKHBW Y7, Y6, Y15 // bytes 6-7, values 8-15

	VPUNPCKLWD Y10, Y8, Y0  // bytes 0-3, values 0-3
	VPUNPCKHWD Y10, Y8, Y1  // bytes 0-3, values 4-7
	VPUNPCKLWD Y11, Y9, Y2  // bytes 0-3, values 8-11
	VPUNPCKHWD Y11, Y9, Y3  // bytes 0-3, values 12-15
	VPUNPCKLWD Y14, Y12, Y4 // bytes 4-7, values 0-3
	VPUNPCKHWD Y14, Y12, Y5 // bytes 4-7, values 4-7
	VPUNPCKLWD Y15, Y13, Y6 // bytes 4-7, values 8-11
	VPUNPCKHWD Y15, Y13, Y7 // bytes 4-7, values 12-15

	VPUNPCKLDQ Y4, Y0, Y8  // values 0-1
	VPUNPCKHDQ Y4, Y0, Y9  // values 2-3
	VPUNPCKLDQ Y5, Y1, Y10 // values 4-5
	VPUNPCKHDQ Y5, Y1, Y11 // values 6-7
	VPUNPCKLDQ Y6, Y2, Y12 // values 8-9
	VPUNPCKHDQ Y6, Y2, Y13 // values 10-11
	VPUNPCKLDQ Y7, Y3, Y14 // values 12-13
	VPUNPCKHDQ Y7, Y3, Y15 // values 14-15

	VMOVDQU      X8, 0(DI)
	VMOVDQU      X9, 16(DI)
	VMOVDQU      X10, 32(DI)
	VMOVDQU      X11, 48(DI)
	VMOVDQU      X12, 64(DI)
	VMOVDQU      X13, 80(DI)
	VMOVDQU      X14, 96(DI)
	VMOVDQU      X15, 112(DI)
	VEXTRACTI128 $1, Y8, 128(DI)
	VEXTRACTI128 $1, Y9, 144(DI)
	VEXTRACTI128 $1, Y10, 160(DI)
	VEXTRACTI128 $1, Y11, 176(DI)
	VEXTRACTI128 $1, Y12, 192(DI)
	VEXTRACTI128 $1, Y13, 208(DI)
	VEXTRACTI128 $1, Y14, 224(DI)
	VEXTRACTI128 $1, Y15, 240(DI)
	ADDQ         $32, SI
	ADDQ         $256, DI
	DECQ         CX
	JNZ          loop8
	VZEROUPPER

done8:
	RET
