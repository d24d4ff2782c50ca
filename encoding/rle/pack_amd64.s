//go:build !purego

#include "textflag.h"

// func packBytesPEXT(dst *byte, src *byte, groups int, w int, mask uint64)
// Same semantics as packWords: each group of 8 byte values of width w
// (an 8-byte load) is gathered into its w low bytes by one PEXT and
// stored as a whole word, four groups per iteration; dst must hold 8
// bytes past the packed size.
TEXT ·packBytesPEXT(SB), NOSPLIT, $0-40
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
	MOVQ  8(SI), BX
	MOVQ  16(SI), R10
	MOVQ  24(SI), R11
	PEXTQ R8, AX, AX
	PEXTQ R8, BX, BX
	PEXTQ R8, R10, R10
	PEXTQ R8, R11, R11
	MOVQ  AX, (DI)
	MOVQ  BX, (DI)(DX*1)
	MOVQ  R10, (DI)(DX*2)
	MOVQ  R11, (DI)(R9*1)
	LEAQ  (DI)(DX*4), DI
	ADDQ  $32, SI
	SUBQ  $4, CX
	JAE   loop4

tail:
	ADDQ $4, CX
	JZ   done

loop:
	MOVQ  (SI), AX
	PEXTQ R8, AX, AX
	MOVQ  AX, (DI)
	ADDQ  DX, DI
	ADDQ  $8, SI
	DECQ  CX
	JNZ   loop

done:
	RET

// func packInt16PEXT(dst *byte, src *int16, groups int, w int, mask uint64)
// Same semantics as packInt16Words: values 0-3 and 4-7 of a group of 8
// int16 values of width w (two 8-byte loads) are gathered by a PEXT each
// and joined into the group's w bytes, stored as a whole word; two groups
// per iteration. dst must hold 8 bytes past the packed size.
TEXT ·packInt16PEXT(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ groups+16(FP), CX
	MOVQ w+24(FP), DX
	MOVQ mask+32(FP), R8
	LEAQ (DX*4), R9 // shift of the second half
	SUBQ $2, CX
	JB   tail

loop2:
	MOVQ  (SI), AX
	MOVQ  8(SI), BX
	MOVQ  16(SI), R10
	MOVQ  24(SI), R11
	PEXTQ R8, AX, AX
	PEXTQ R8, BX, BX
	PEXTQ R8, R10, R10
	PEXTQ R8, R11, R11
	SHLXQ R9, BX, BX
	SHLXQ R9, R11, R11
	ORQ   BX, AX
	ORQ   R11, R10
	MOVQ  AX, (DI)
	MOVQ  R10, (DI)(DX*1)
	LEAQ  (DI)(DX*2), DI
	ADDQ  $32, SI
	SUBQ  $2, CX
	JAE   loop2

tail:
	ADDQ $2, CX
	JZ   done

	MOVQ  (SI), AX
	MOVQ  8(SI), BX
	PEXTQ R8, AX, AX
	PEXTQ R8, BX, BX
	SHLXQ R9, BX, BX
	ORQ   BX, AX
	MOVQ  AX, (DI)

done:
	RET
