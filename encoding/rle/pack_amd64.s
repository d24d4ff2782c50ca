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

// func encodeBytesBMI2(dst *byte, src *byte, n int, width int, mask uint64, vb int, i int, lit int, limit int) (end int, next int, nlit int, or uint64)
// Same semantics as the main loop of encodeBytes, from value i with the
// pending bit-packed values src[lit:i]: groups of 8 values starting at
// i, i+8, ... are scanned while i+8 <= limit (limit <= n); a group of 8
// equal values ends the pending values, written as one bit-packed run by
// PEXT, and starts an RLE run extended as far as the value repeats (up to
// n). It returns the bytes written to dst, the next i and lit, and the OR
// of the scanned words. dst must hold (limit-lit)/8*(width+2)+32 bytes.
TEXT ·encodeBytesBMI2(SB), NOSPLIT, $0-104
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), DX
	MOVQ width+24(FP), R8
	MOVQ mask+32(FP), R9
	MOVQ i+48(FP), R10
	MOVQ lit+56(FP), R11
	XORQ R12, R12
	MOVQ $0x0101010101010101, R13

scan:
	// Two groups per iteration while they fit, then one.
	LEAQ    16(R10), AX
	CMPQ    AX, limit+64(FP)
	JA      scan1
	MOVQ    (SI)(R10*1), AX
	MOVQ    8(SI)(R10*1), CX
	ORQ     AX, R12
	ORQ     CX, R12
	MOVBQZX AL, BX
	IMULQ   R13, BX
	CMPQ    AX, BX
	JEQ     run
	MOVBQZX CL, BX
	IMULQ   R13, BX
	ADDQ    $8, R10
	CMPQ    CX, BX
	JEQ     run
	ADDQ    $8, R10
	JMP     scan

scan1:
	LEAQ    8(R10), AX
	CMPQ    AX, limit+64(FP)
	JA      done
	MOVQ    (SI)(R10*1), AX
	ORQ     AX, R12
	MOVBQZX AL, BX
	IMULQ   R13, BX
	CMPQ    AX, BX
	JEQ     run
	ADDQ    $8, R10
	JMP     scan1

run:
	// BX repeats the value of the group at R10; CX finds the run's end,
	// 32 bytes per iteration by SSE2, then 8, then 1.
	MOVQ       BX, end+72(FP) // scratch until done
	LEAQ       8(R10), CX

	// Most runs are short: one word before the vector loop.
	LEAQ 8(CX), AX
	CMPQ AX, DX
	JA   runbytes
	MOVQ (SI)(CX*1), AX
	XORQ BX, AX
	JNZ  runend
	ADDQ $8, CX

	MOVQ       BX, X0
	PUNPCKLQDQ X0, X0

runvec:
	LEAQ     32(CX), AX
	CMPQ     AX, DX
	JA       runwords
	MOVOU    (SI)(CX*1), X1
	MOVOU    16(SI)(CX*1), X2
	PCMPEQB  X0, X1
	PCMPEQB  X0, X2
	PAND     X1, X2
	PMOVMSKB X2, AX
	CMPL     AX, $0xffff
	JNE      runvecend
	ADDQ     $32, CX
	JMP      runvec

runvecend:
	// The first unequal byte is in X1's 16 bytes, or else in X2's.
	PMOVMSKB X1, AX
	XORL     $0xffff, AX
	JNZ      runvecfound
	ADDQ     $16, CX
	PMOVMSKB X2, AX
	XORL     $0xffff, AX

runvecfound:
	BSFL AX, AX
	ADDQ AX, CX
	JMP  literal

runwords:
	LEAQ 8(CX), AX
	CMPQ AX, DX
	JA   runbytes
	MOVQ (SI)(CX*1), AX
	XORQ BX, AX
	JNZ  runend
	ADDQ $8, CX
	JMP  runwords

runend:
	BSFQ AX, AX
	SHRQ $3, AX
	ADDQ AX, CX
	JMP  literal

runbytes:
	CMPQ    CX, DX
	JAE     literal
	MOVBQZX (SI)(CX*1), AX
	CMPB    AL, BL
	JNE     literal
	INCQ    CX
	JMP     runbytes

literal:
	// The pending values src[lit:i], whole groups, as one bit-packed run.
	MOVQ R10, AX
	SUBQ R11, AX
	JZ   rle
	SHRQ $3, AX
	LEAQ 1(AX)(AX*1), BX

lithdr:
	CMPQ BX, $0x80
	JB   lithdrlast
	MOVB BL, (DI)
	ORB  $0x80, (DI)
	SHRQ $7, BX
	INCQ DI
	JMP  lithdr

lithdrlast:
	MOVB BL, (DI)
	INCQ DI
	LEAQ (SI)(R11*1), BX

pack:
	MOVQ  (BX), R13
	PEXTQ R9, R13, R13
	MOVQ  R13, (DI)
	ADDQ  R8, DI
	ADDQ  $8, BX
	DECQ  AX
	JNZ   pack

rle:
	// The RLE run src[i:CX]: header, then the value's byte if width > 0.
	MOVQ CX, BX
	SUBQ R10, BX
	SHLQ $1, BX

rlehdr:
	CMPQ BX, $0x80
	JB   rlehdrlast
	MOVB BL, (DI)
	ORB  $0x80, (DI)
	SHRQ $7, BX
	INCQ DI
	JMP  rlehdr

rlehdrlast:
	MOVB    BL, (DI)
	MOVBQZX end+72(FP), AX
	MOVB    AL, 1(DI)
	INCQ    DI
	ADDQ    vb+40(FP), DI
	MOVQ    CX, R10
	MOVQ    CX, R11
	MOVQ    $0x0101010101010101, R13
	JMP     scan

done:
	SUBQ dst+0(FP), DI
	MOVQ DI, end+72(FP)
	MOVQ R10, next+80(FP)
	MOVQ R11, nlit+88(FP)
	MOVQ R12, or+96(FP)
	RET

// func encodeInt16BMI2(dst *byte, src *int16, n int, width int, mask uint64, vb int, i int, lit int, limit int) (end int, next int, nlit int, or uint64)
// Same semantics as encodeBytesBMI2 for the int16 values of encodeInt16
// (width <= 8): a group is two 8-byte loads of 4 values, packed by a PEXT
// each (mask repeats 1<<width-1 in each 16-bit lane). The OR is of the
// 16-bit lanes of the scanned groups.
TEXT ·encodeInt16BMI2(SB), NOSPLIT, $0-104
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ width+24(FP), R8
	MOVQ mask+32(FP), R9
	MOVQ i+48(FP), R10
	MOVQ lit+56(FP), R11
	XORQ R12, R12
	MOVQ $0x0001000100010001, R13

scan:
	LEAQ    8(R10), AX
	CMPQ    AX, limit+64(FP)
	JA      done
	MOVQ    (SI)(R10*2), AX
	MOVQ    8(SI)(R10*2), BX
	ORQ     AX, R12
	ORQ     BX, R12
	MOVWQZX AX, CX
	IMULQ   R13, CX
	CMPQ    AX, CX
	JNE     next
	CMPQ    BX, CX
	JEQ     run

next:
	ADDQ $8, R10
	JMP  scan

run:
	// CX repeats the value of the group at R10 in each lane; BX keeps it
	// while CX finds the run's end, 16 values per iteration by SSE2, then
	// 4, then 1.
	MOVQ       CX, end+72(FP) // scratch until done
	MOVQ       CX, BX
	MOVQ       n+16(FP), DX
	LEAQ       8(R10), CX

	// Most runs are short: 8 values before the vector loop.
	LEAQ 8(CX), AX
	CMPQ AX, DX
	JA   runwords
	MOVQ (SI)(CX*2), AX
	XORQ BX, AX
	JNZ  runend
	MOVQ 8(SI)(CX*2), AX
	ADDQ $4, CX
	XORQ BX, AX
	JNZ  runend
	ADDQ $4, CX

	MOVQ       BX, X0
	PUNPCKLQDQ X0, X0

runvec4:
	// 32 values per iteration while they fit, then 16.
	LEAQ     32(CX), AX
	CMPQ     AX, DX
	JA       runvec
	MOVOU    (SI)(CX*2), X1
	MOVOU    16(SI)(CX*2), X2
	MOVOU    32(SI)(CX*2), X3
	MOVOU    48(SI)(CX*2), X4
	PCMPEQB  X0, X1
	PCMPEQB  X0, X2
	PCMPEQB  X0, X3
	PCMPEQB  X0, X4
	PAND     X1, X2
	PAND     X3, X4
	PAND     X2, X4
	PMOVMSKB X4, AX
	CMPL     AX, $0xffff
	JNE      runvec
	ADDQ     $32, CX
	JMP      runvec4

runvec:
	LEAQ     16(CX), AX
	CMPQ     AX, DX
	JA       runwords
	MOVOU    (SI)(CX*2), X1
	MOVOU    16(SI)(CX*2), X2
	PCMPEQB  X0, X1
	PCMPEQB  X0, X2
	PAND     X1, X2
	PMOVMSKB X2, AX
	CMPL     AX, $0xffff
	JNE      runvecend
	ADDQ     $16, CX
	JMP      runvec

runvecend:
	// The first unequal value is in X1's 8 values, or else in X2's.
	PMOVMSKB X1, AX
	XORL     $0xffff, AX
	JNZ      runvecfound
	ADDQ     $8, CX
	PMOVMSKB X2, AX
	XORL     $0xffff, AX

runvecfound:
	BSFL AX, AX
	SHRL $1, AX
	ADDQ AX, CX
	JMP  literal

runwords:
	LEAQ 4(CX), AX
	CMPQ AX, DX
	JA   runvals
	MOVQ (SI)(CX*2), AX
	XORQ BX, AX
	JNZ  runend
	ADDQ $4, CX
	JMP  runwords

runend:
	BSFQ AX, AX
	SHRQ $4, AX
	ADDQ AX, CX
	JMP  literal

runvals:
	CMPQ    CX, DX
	JAE     literal
	MOVWQZX (SI)(CX*2), AX
	CMPW    AX, BX
	JNE     literal
	INCQ    CX
	JMP     runvals

literal:
	// The pending values src[lit:i], whole groups, as one bit-packed run.
	MOVQ R10, AX
	SUBQ R11, AX
	JZ   rle
	SHRQ $3, AX
	LEAQ 1(AX)(AX*1), BX

lithdr:
	CMPQ BX, $0x80
	JB   lithdrlast
	MOVB BL, (DI)
	ORB  $0x80, (DI)
	SHRQ $7, BX
	INCQ DI
	JMP  lithdr

lithdrlast:
	MOVB BL, (DI)
	INCQ DI
	MOVQ CX, next+80(FP) // scratch: CX holds the shift while packing
	MOVQ R8, CX
	SHLQ $2, CX
	LEAQ (SI)(R10*2), AX
	LEAQ (SI)(R11*2), BX

pack:
	MOVQ  (BX), R13
	MOVQ  8(BX), DX
	PEXTQ R9, R13, R13
	PEXTQ R9, DX, DX
	SHLQ  CX, DX
	ORQ   DX, R13
	MOVQ  R13, (DI)
	ADDQ  R8, DI
	ADDQ  $16, BX
	CMPQ  BX, AX
	JB    pack
	MOVQ  next+80(FP), CX
	MOVQ  $0x0001000100010001, R13

rle:
	// The RLE run src[i:CX]: header, then the value's byte if width > 0.
	MOVQ CX, BX
	SUBQ R10, BX
	SHLQ $1, BX

rlehdr:
	CMPQ BX, $0x80
	JB   rlehdrlast
	MOVB BL, (DI)
	ORB  $0x80, (DI)
	SHRQ $7, BX
	INCQ DI
	JMP  rlehdr

rlehdrlast:
	MOVB    BL, (DI)
	MOVBQZX end+72(FP), AX
	MOVB    AL, 1(DI)
	INCQ    DI
	ADDQ    vb+40(FP), DI
	MOVQ    CX, R10
	MOVQ    CX, R11
	JMP     scan

done:
	SUBQ dst+0(FP), DI
	MOVQ DI, end+72(FP)
	MOVQ R10, next+80(FP)
	MOVQ R11, nlit+88(FP)
	MOVQ R12, or+96(FP)
	RET
