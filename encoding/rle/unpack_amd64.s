//go:build !purego

#include "textflag.h"

// func unpackBytesPDEP(dst *byte, src *byte, groups int, w int, mask uint64)
// Same semantics as the main loop of unpackBytes: each group of 8 values of
// width w (its w bytes, read as the low bytes of an 8-byte load) is spread
// to 8 bytes by one PDEP, four groups per iteration.
TEXT ·unpackBytesPDEP(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ groups+16(FP), CX
	MOVQ w+24(FP), DX
	MOVQ mask+32(FP), R8
	LEAQ (DX)(DX*2), R9
	SUBQ $4, CX
	JB   tail

loop4:
	MOVQ  (SI), AX
	MOVQ  (SI)(DX*1), BX
	MOVQ  (SI)(DX*2), R10
	MOVQ  (SI)(R9*1), R11
	PDEPQ R8, AX, AX
	PDEPQ R8, BX, BX
	PDEPQ R8, R10, R10
	PDEPQ R8, R11, R11
	MOVQ  AX, (DI)
	MOVQ  BX, 8(DI)
	MOVQ  R10, 16(DI)
	MOVQ  R11, 24(DI)
	LEAQ  (SI)(DX*4), SI
	ADDQ  $32, DI
	SUBQ  $4, CX
	JAE   loop4

tail:
	ADDQ $4, CX
	JZ   done

loop:
	MOVQ  (SI), AX
	PDEPQ R8, AX, AX
	MOVQ  AX, (DI)
	ADDQ  DX, SI
	ADDQ  $8, DI
	DECQ  CX
	JNZ   loop

done:
	RET

// func unpackInt16PDEP(dst *int16, src *byte, groups int, w int, mask uint64)
// Same semantics as the main loop of unpackInt16: values 0-3 and 4-7 of a
// group are spread to 16-bit lanes by a PDEP each, two groups per
// iteration.
TEXT ·unpackInt16PDEP(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ groups+16(FP), CX
	MOVQ w+24(FP), DX
	MOVQ mask+32(FP), R8
	LEAQ (DX*4), R9
	SUBQ $2, CX
	JB   tail

loop2:
	MOVQ  (SI), AX
	MOVQ  (SI)(DX*1), R10
	PDEPQ R8, AX, BX
	SHRXQ R9, AX, AX
	PDEPQ R8, AX, AX
	PDEPQ R8, R10, R11
	SHRXQ R9, R10, R10
	PDEPQ R8, R10, R10
	MOVQ  BX, (DI)
	MOVQ  AX, 8(DI)
	MOVQ  R11, 16(DI)
	MOVQ  R10, 24(DI)
	LEAQ  (SI)(DX*2), SI
	ADDQ  $32, DI
	SUBQ  $2, CX
	JAE   loop2

tail:
	ADDQ $2, CX
	JZ   done

loop:
	MOVQ  (SI), AX
	PDEPQ R8, AX, BX
	SHRXQ R9, AX, AX
	PDEPQ R8, AX, AX
	MOVQ  BX, (DI)
	MOVQ  AX, 8(DI)
	ADDQ  DX, SI
	ADDQ  $16, DI
	DECQ  CX
	JNZ   loop

done:
	RET

// func unpackUint32AVX2(dst *uint32, src *byte, groups int, t *groupTable, mask uint32, max *[8]uint32)
// Same semantics as the group loop of unpackUint32 for widths up to 25 and 32,
// plus the lane-wise maximum of the values written, stored to *max: the low
// 128-bit lane takes 16 bytes at the group's start and the high lane 16
// bytes at byte t.hi; a byte shuffle puts each value's 4-byte window in its
// dword, a variable shift and a mask finish it.
TEXT ·unpackUint32AVX2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ groups+16(FP), CX
	MOVQ t+24(FP), R8
	MOVQ max+40(FP), R10
	MOVQ 64(R8), R9 // t.hi
	MOVQ 72(R8), DX // t.step
	VMOVDQU (R8), Y1   // t.shuf
	VMOVDQU 32(R8), Y2 // t.shift
	MOVL         mask+32(FP), AX
	VMOVQ        AX, X3
	VPBROADCASTD X3, Y3
	VPXOR Y4, Y4, Y4

loop:
	VMOVDQU     (SI), X0
	VINSERTI128 $1, (SI)(R9*1), Y0, Y0
	VPSHUFB     Y1, Y0, Y0
	VPSRLVD     Y2, Y0, Y0
	VPAND       Y3, Y0, Y0
	VMOVDQU     Y0, (DI)
	VPMAXUD     Y0, Y4, Y4
	ADDQ        DX, SI
	ADDQ        $32, DI
	DECQ        CX
	JNZ         loop
	VMOVDQU     Y4, (R10)
	VZEROUPPER
	RET

// The fill functions store the 8-byte pattern pat over the first n bytes
// (n > 0) of dst rounded up to a multiple of 32, 32 bytes per store, 128
// bytes per iteration while n allows; one body for the three element types.
// Over 256 bytes the stores between the first and the last 32 bytes are
// aligned to 32 bytes, as the page routines' fills (page_amd64.s, big).

// func fillBytesAVX2(dst *uint8, n int, pat uint64)
TEXT ·fillBytesAVX2(SB), NOSPLIT, $0-24
	MOVQ         dst+0(FP), DI
	MOVQ         n+8(FP), CX
	MOVQ         pat+16(FP), AX
	VMOVQ        AX, X0
	VPBROADCASTQ X0, Y0
	CMPQ         CX, $128
	JB           fill
	CMPQ         CX, $256
	JB           fill128
	ADDQ         $31, CX
	ANDQ         $-32, CX
	VMOVDQU      Y0, -32(DI)(CX*1)
	VMOVDQU      Y0, (DI)
	ADDQ         DI, CX
	ADDQ         $32, DI
	ANDQ         $-32, DI
	SUBQ         DI, CX
	ANDQ         $-32, CX

fill128:
	VMOVDQU Y0, (DI)
	VMOVDQU Y0, 32(DI)
	VMOVDQU Y0, 64(DI)
	VMOVDQU Y0, 96(DI)
	ADDQ    $128, DI
	SUBQ    $128, CX
	CMPQ    CX, $128
	JAE     fill128
	TESTQ   CX, CX
	JZ      done

fill:
	VMOVDQU Y0, (DI)
	ADDQ    $32, DI
	SUBQ    $32, CX
	JG      fill

done:
	VZEROUPPER
	RET

// func fillInt16AVX2(dst *int16, n int, pat uint64)
// fillBytesAVX2 itself: n counts bytes, pat holds four int16 values.
TEXT ·fillInt16AVX2(SB), NOSPLIT, $0-24
	JMP ·fillBytesAVX2(SB)

// func fillUint32AVX2(dst *uint32, n int, pat uint64)
// fillBytesAVX2 itself: n counts bytes, pat holds two uint32 values.
TEXT ·fillUint32AVX2(SB), NOSPLIT, $0-24
	JMP ·fillBytesAVX2(SB)

// func unpackInt16PDEPAVX2(dst *int16, src *byte, groups int, w int, mask8 uint64, mask16 uint64)
// unpackInt16PDEP by four groups per iteration: each group is spread to 8
// bytes by PDEP (mask8, as unpackBytesPDEP), two groups are widened to 16
// int16 by VPMOVZXBW; the last groups go as in unpackInt16PDEP (mask16).
TEXT ·unpackInt16PDEPAVX2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ groups+16(FP), CX
	MOVQ w+24(FP), DX
	MOVQ mask8+32(FP), R8
	LEAQ (DX)(DX*2), R9
	SUBQ $4, CX
	JB   tail

loop4:
	MOVQ      (SI), AX
	MOVQ      (SI)(DX*1), BX
	MOVQ      (SI)(DX*2), R10
	MOVQ      (SI)(R9*1), R11
	PDEPQ     R8, AX, AX
	PDEPQ     R8, BX, BX
	PDEPQ     R8, R10, R10
	PDEPQ     R8, R11, R11
	VMOVQ     AX, X0
	VPINSRQ   $1, BX, X0, X0
	VMOVQ     R10, X1
	VPINSRQ   $1, R11, X1, X1
	VPMOVZXBW X0, Y0
	VPMOVZXBW X1, Y1
	VMOVDQU   Y0, (DI)
	VMOVDQU   Y1, 32(DI)
	LEAQ      (SI)(DX*4), SI
	ADDQ      $64, DI
	SUBQ      $4, CX
	JAE       loop4
	VZEROUPPER

tail:
	ADDQ $4, CX
	JZ   done
	MOVQ mask16+40(FP), R8
	LEAQ (DX*4), R9

loop:
	MOVQ  (SI), AX
	PDEPQ R8, AX, BX
	SHRXQ R9, AX, AX
	PDEPQ R8, AX, AX
	MOVQ  BX, (DI)
	MOVQ  AX, 8(DI)
	ADDQ  DX, SI
	ADDQ  $16, DI
	DECQ  CX
	JNZ   loop

done:
	RET
