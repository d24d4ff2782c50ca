//go:build !purego

#include "textflag.h"

// The level encoders' main loops (encodeBytesFast, encodeInt16Fast): same
// semantics as the loops of encodeBytes and encodeInt16. Groups of 8 values
// at i, i+8, ... are scanned while i+8 <= limit. A group that is not 8
// equal values is packed at once (PEXT with mask, width bytes stored as a
// whole word) into the pending bit-packed run, whose header byte is
// reserved at dst[hdr] when the run opens (lit == i). A group of 8 equal
// values ends that run (its header written if under 64 groups; if not the
// functions return with i at the group, for the Go code to write the longer
// header, and run again from there) and starts an RLE run, extended as far as the value repeats (up
// to n) by SSE2 32 bytes at a time after a scalar first word. dst must hold
// (limit-i)/8*(width+2)+32 bytes past pos.
//
// func encodeBytesBMI2(dst *byte, src *byte, n int, width int, mask uint64, vb int, pos int, i int, lit int, hdr int, limit int) (npos int, ni int, nlit int, nhdr int, or uint64)
TEXT ·encodeBytesBMI2(SB), NOSPLIT, $0-128
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ limit+80(FP), DX // n in the run loops, limit in the scan
	MOVQ width+24(FP), R8
	MOVQ mask+32(FP), R9
	ADDQ pos+48(FP), DI
	MOVQ i+56(FP), R10
	MOVQ lit+64(FP), R11
	MOVQ hdr+72(FP), AX
	ADDQ dst+0(FP), AX
	MOVQ AX, nhdr+112(FP) // a pointer until done
	XORQ R12, R12
	MOVQ $0x0101010101010101, R13

scan:
	// Two groups per iteration while they fit, then one.
	LEAQ    16(R10), AX
	CMPQ    AX, DX
	JA      scan1
	MOVQ    (SI)(R10*1), AX
	MOVQ    8(SI)(R10*1), CX
	ORQ     AX, R12
	ORQ     CX, R12
	MOVBQZX AL, BX
	IMULQ   R13, BX
	CMPQ    AX, BX
	JEQ     run
	CMPQ    R10, R11
	JNE     pack2
	MOVQ    DI, nhdr+112(FP)
	INCQ    DI

pack2:
	PEXTQ   R9, AX, AX
	MOVQ    AX, (DI)
	ADDQ    R8, DI
	MOVBQZX CL, BX
	IMULQ   R13, BX
	CMPQ    CX, BX
	JEQ     run2
	PEXTQ   R9, CX, CX
	MOVQ    CX, (DI)
	ADDQ    R8, DI
	ADDQ    $16, R10
	JMP     scan

run2:
	ADDQ $8, R10
	JMP  run

scan1:
	LEAQ    8(R10), AX
	CMPQ    AX, DX
	JA      done
	MOVQ    (SI)(R10*1), AX
	ORQ     AX, R12
	MOVBQZX AL, BX
	IMULQ   R13, BX
	CMPQ    AX, BX
	JEQ     run
	CMPQ    R10, R11
	JNE     pack1
	MOVQ    DI, nhdr+112(FP)
	INCQ    DI

pack1:
	PEXTQ R9, AX, AX
	MOVQ  AX, (DI)
	ADDQ  R8, DI
	ADDQ  $8, R10
	JMP   scan1

run:
	// BX repeats the value of the group at R10.
	// The pending bit-packed run src[lit:i] gets its header byte; a run
	// of 64 groups or more returns for the Go code to write a longer one.
	MOVQ R10, AX
	SUBQ R11, AX
	JZ   extend
	CMPQ AX, $512
	JAE  done
	SHRQ $2, AX
	ORQ  $1, AX
	MOVQ nhdr+112(FP), CX
	MOVB AL, (CX)

extend:
	// CX finds the run's end.
	MOVQ n+16(FP), DX
	LEAQ 8(R10), CX
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
	JMP  rle

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
	JMP  rle

runbytes:
	CMPQ    CX, DX
	JAE     rle
	MOVBQZX (SI)(CX*1), AX
	CMPB    AL, BL
	JNE     rle
	INCQ    CX
	JMP     runbytes

rle:
	// The RLE run src[i:CX]: header, then the value's byte (BL) if
	// width > 0.
	MOVQ CX, AX
	SUBQ R10, AX
	SHLQ $1, AX
	CMPQ AX, $0x80
	JAE  rlelong

rleshort:
	MOVB AL, (DI)
	MOVB BL, 1(DI)
	INCQ DI
	ADDQ vb+40(FP), DI
	MOVQ CX, R10
	MOVQ CX, R11
	MOVQ limit+80(FP), DX
	JMP  scan

rlelong:
	MOVB AL, (DI)
	ORB  $0x80, (DI)
	SHRQ $7, AX
	INCQ DI
	CMPQ AX, $0x80
	JAE  rlelong
	JMP  rleshort

done:
	MOVQ nhdr+112(FP), AX
	SUBQ dst+0(FP), AX
	MOVQ AX, nhdr+112(FP)
	SUBQ dst+0(FP), DI
	MOVQ DI, npos+88(FP)
	MOVQ R10, ni+96(FP)
	MOVQ R11, nlit+104(FP)
	MOVQ R12, or+120(FP)
	RET

// func encodeInt16BMI2(dst *byte, src *int16, n int, width int, mask uint64, vb int, pos int, i int, lit int, hdr int, limit int) (npos int, ni int, nlit int, nhdr int, or uint64)
// As encodeBytesBMI2 for int16 values of width up to 8: each group is one
// 16-byte load narrowed to bytes by PACKUSWB (values out of range, which
// the OR of the loads reports, may then look equal), runs are extended on
// the int16 values. The OR is of the 16-bit lanes of the loads.
TEXT ·encodeInt16BMI2(SB), NOSPLIT, $0-128
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ limit+80(FP), DX // n in the run loops, limit in the scan
	MOVQ width+24(FP), R8
	MOVQ mask+32(FP), R9
	ADDQ pos+48(FP), DI
	MOVQ i+56(FP), R10
	MOVQ lit+64(FP), R11
	MOVQ hdr+72(FP), AX
	ADDQ dst+0(FP), AX
	MOVQ AX, nhdr+112(FP) // a pointer until done
	PXOR X5, X5
	MOVQ $0x0101010101010101, R13

scan:
	// Two groups per iteration while they fit, then one.
	LEAQ     16(R10), AX
	CMPQ     AX, DX
	JA       scan1
	MOVOU    (SI)(R10*2), X1
	MOVOU    16(SI)(R10*2), X2
	POR      X1, X5
	POR      X2, X5
	PACKUSWB X2, X1
	MOVQ     X1, AX
	PSRLO    $8, X1
	MOVQ     X1, CX
	MOVBQZX  AL, BX
	IMULQ    R13, BX
	CMPQ     AX, BX
	JEQ      run
	CMPQ     R10, R11
	JNE      pack2
	MOVQ     DI, nhdr+112(FP)
	INCQ     DI

pack2:
	PEXTQ   R9, AX, AX
	MOVQ    AX, (DI)
	ADDQ    R8, DI
	MOVBQZX CL, BX
	IMULQ   R13, BX
	CMPQ    CX, BX
	JEQ     run2
	PEXTQ   R9, CX, CX
	MOVQ    CX, (DI)
	ADDQ    R8, DI
	ADDQ    $16, R10
	JMP     scan

run2:
	ADDQ $8, R10
	JMP  run

scan1:
	LEAQ     8(R10), AX
	CMPQ     AX, DX
	JA       done
	MOVOU    (SI)(R10*2), X1
	POR      X1, X5
	PACKUSWB X1, X1
	MOVQ     X1, AX
	MOVBQZX  AL, BX
	IMULQ    R13, BX
	CMPQ     AX, BX
	JEQ      run
	CMPQ     R10, R11
	JNE      pack1
	MOVQ     DI, nhdr+112(FP)
	INCQ     DI

pack1:
	PEXTQ R9, AX, AX
	MOVQ  AX, (DI)
	ADDQ  R8, DI
	ADDQ  $8, R10
	JMP   scan1

run:
	// BX repeats the value's byte; the run is extended on the int16
	// values, BX then repeating the value in each 16-bit lane.
	// The pending bit-packed run src[lit:i] gets its header byte; a run
	// of 64 groups or more returns for the Go code to write a longer one.
	MOVQ R10, AX
	SUBQ R11, AX
	JZ   extend
	CMPQ AX, $512
	JAE  done
	SHRQ $2, AX
	ORQ  $1, AX
	MOVQ nhdr+112(FP), CX
	MOVB AL, (CX)

extend:
	MOVQ    n+16(FP), DX
	MOVBQZX BL, BX
	MOVQ    $0x0001000100010001, AX
	IMULQ   AX, BX
	LEAQ    8(R10), CX
	LEAQ    8(CX), AX
	CMPQ    AX, DX
	JA      runwords
	MOVQ    (SI)(CX*2), AX
	XORQ    BX, AX
	JNZ     runend
	MOVQ    8(SI)(CX*2), AX
	ADDQ    $4, CX
	XORQ    BX, AX
	JNZ     runend
	ADDQ    $4, CX

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
	JMP  rle

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
	JMP  rle

runvals:
	CMPQ    CX, DX
	JAE     rle
	MOVWQZX (SI)(CX*2), AX
	CMPW    AX, BX
	JNE     rle
	INCQ    CX
	JMP     runvals

rle:
	// The RLE run src[i:CX]: header, then the value's byte (BL) if
	// width > 0.
	MOVQ CX, AX
	SUBQ R10, AX
	SHLQ $1, AX
	CMPQ AX, $0x80
	JAE  rlelong

rleshort:
	MOVB AL, (DI)
	MOVB BL, 1(DI)
	INCQ DI
	ADDQ vb+40(FP), DI
	MOVQ CX, R10
	MOVQ CX, R11
	MOVQ limit+80(FP), DX
	JMP  scan

rlelong:
	MOVB AL, (DI)
	ORB  $0x80, (DI)
	SHRQ $7, AX
	INCQ DI
	CMPQ AX, $0x80
	JAE  rlelong
	JMP  rleshort

done:
	MOVQ  nhdr+112(FP), AX
	SUBQ  dst+0(FP), AX
	MOVQ  AX, nhdr+112(FP)
	SUBQ  dst+0(FP), DI
	MOVQ  DI, npos+88(FP)
	MOVQ  R10, ni+96(FP)
	MOVQ  R11, nlit+104(FP)
	MOVQ  X5, AX
	PSRLO $8, X5
	MOVQ  X5, BX
	ORQ   BX, AX
	MOVQ  AX, or+120(FP)
	RET
