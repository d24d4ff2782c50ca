//go:build !purego

#include "textflag.h"

// The level encoders' main loops (encodeBytesFast, encodeInt16Fast): same
// semantics as the loops of encodeBytes and encodeInt16. Groups of 8 values
// at i, i+8, ... are scanned while i+8 <= limit. A group that is not 8
// equal values is packed at once (PEXT with mask, width bytes stored as a
// whole word) into the pending bit-packed run, whose header byte is
// reserved at dst[hdr] (a pointer in R14 until the end) when the run opens
// (lit == i). A group is 8 equal values when its word equals itself rotated
// by one value: a short path to the group's branch, which short runs make
// unpredictable. A group of 8 equal
// values is extended as far as the value repeats (up to n; SSE2 32 bytes at
// a time after a first compare of 8 values). If the run is shorter than
// minrun values (see minRun), the group is packed like the others;
// otherwise the run ends the pending bit-packed run (its header written if
// under 64 groups; if not the functions return with i at the group, for the
// Go code to write the longer header, and run again from there) and is
// written as an RLE run. dst must hold (limit-i)/8*(width+2)+32 bytes past
// pos.
//
// func encodeBytesBMI2(dst *byte, src *byte, n int, width int, mask uint64, vb int, pos int, i int, lit int, hdr int, limit int, minrun int) (npos int, ni int, nlit int, nhdr int, or uint64)
TEXT ·encodeBytesBMI2(SB), NOSPLIT, $0-136
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ limit+80(FP), DX // n in the run loops, limit in the scan
	MOVQ width+24(FP), R8
	MOVQ mask+32(FP), R9
	ADDQ pos+48(FP), DI
	MOVQ i+56(FP), R10
	MOVQ lit+64(FP), R11
	MOVQ hdr+72(FP), R14
	ADDQ dst+0(FP), R14 // a pointer until done
	XORQ R12, R12

scan:
	// Two groups per iteration while they fit, then one.
	LEAQ    16(R10), AX
	CMPQ    AX, DX
	JA      scan1
	MOVQ    (SI)(R10*1), AX
	MOVQ    8(SI)(R10*1), CX
	ORQ     AX, R12
	ORQ     CX, R12
	MOVQ    AX, BX
	ROLQ    $8, BX
	CMPQ    AX, BX
	JEQ     run
	CMPQ    R10, R11
	JNE     open1
	MOVQ    DI, R14
	INCQ    DI

open1:
	PEXTQ   R9, AX, AX
	MOVQ    AX, (DI)
	ADDQ    R8, DI
	MOVQ    CX, BX
	ROLQ    $8, BX
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
	MOVQ    AX, BX
	ROLQ    $8, BX
	CMPQ    AX, BX
	JEQ     run
	CMPQ    R10, R11
	JNE     open2
	MOVQ    DI, R14
	INCQ    DI

open2:
	PEXTQ R9, AX, AX
	MOVQ  AX, (DI)
	ADDQ  R8, DI
	ADDQ  $8, R10
	JMP   scan1

run:
	// BX repeats the value of the group at R10; CX finds the run's end.
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
	// The run src[i:CX] of the value's byte BL: a run shorter than minrun
	// stays bit-packed (its first group is packed, the scan goes on after
	// it); a longer one ends the pending bit-packed run src[lit:i], which
	// gets its header byte (a run of 64 groups or more returns for the Go
	// code to write a longer one), and is written as header and value.
	MOVQ CX, AX
	SUBQ R10, AX
	CMPQ AX, minrun+88(FP)
	JB   rlepack
	MOVQ R10, AX
	SUBQ R11, AX
	JZ   rlehdr
	CMPQ AX, $512
	JAE  done
	SHRQ $2, AX
	ORQ  $1, AX
	MOVB AL, (R14)

rlehdr:
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

rlepack:
	MOVQ limit+80(FP), DX
	CMPQ    R10, R11
	JNE     open3
	MOVQ    DI, R14
	INCQ    DI

open3:
	// Every group inside the run is 8 equal values whose run is shorter
	// still: all are packed here, while they are under limit.
	MOVQ    BX, AX
	PEXTQ   R9, AX, AX

rlegroups:
	MOVQ AX, (DI)
	ADDQ R8, DI
	ADDQ $8, R10
	LEAQ 8(R10), R13
	CMPQ R13, CX
	JA   scan
	CMPQ R13, DX
	JBE  rlegroups
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
	SUBQ dst+0(FP), R14
	MOVQ R14, nhdr+120(FP)
	SUBQ dst+0(FP), DI
	MOVQ DI, npos+96(FP)
	MOVQ R10, ni+104(FP)
	MOVQ R11, nlit+112(FP)
	MOVQ R12, or+128(FP)
	RET

// func encodeInt16BMI2(dst *byte, src *int16, n int, width int, mask uint64, vb int, pos int, i int, lit int, hdr int, limit int, minrun int, vstretch int) (npos int, ni int, nlit int, nhdr int, or uint64)
// As encodeBytesBMI2 for int16 values of width up to 8. A group is tested
// on two 64-bit words of 4 values in general registers, with no vector
// register on the path to its branch (whose mispredictions dominate on
// short runs); a group that is not 8 equal values is then narrowed to bytes
// by PACKUSWB (values out of range saturate; the OR reports them) and
// packed. Once vstretch values in a row are packed, the groups are
// narrowed first and tested on their bytes (scanv) until the next run. Runs are extended
// on the int16 values. The OR is of the words.
TEXT ·encodeInt16BMI2(SB), NOSPLIT, $0-144
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ limit+80(FP), DX // n in the run loops, limit in the scan
	MOVQ width+24(FP), R8
	MOVQ mask+32(FP), R9
	ADDQ pos+48(FP), DI
	MOVQ i+56(FP), R10
	MOVQ lit+64(FP), R11
	MOVQ hdr+72(FP), R14
	ADDQ dst+0(FP), R14 // a pointer until done
	XORQ R12, R12
	PXOR X5, X5

scan:
	// Two groups per iteration while they fit, then one. BX is zero when
	// the group is 8 equal values: the first word (AX) equals itself
	// rotated by one value and the second word the first. A group that is
	// not is loaded again, ORed into X5, narrowed to bytes by PACKUSWB (off
	// the path to the branch) and packed; a run's value goes into R12.
	LEAQ    16(R10), AX
	CMPQ    AX, DX
	JA      scan1
	MOVQ    (SI)(R10*2), AX
	MOVQ    8(SI)(R10*2), CX
	MOVQ    AX, BX
	ROLQ    $16, BX
	XORQ    AX, BX
	XORQ    AX, CX
	ORQ     CX, BX
	JZ      run
	CMPQ    R10, R11
	JNE     open1
	MOVQ    DI, R14
	INCQ    DI

open1:
	MOVOU    (SI)(R10*2), X1
	MOVOU    16(SI)(R10*2), X2
	POR      X1, X5
	POR      X2, X5
	PACKUSWB X2, X1
	MOVQ     X1, AX
	PEXTQ    R9, AX, AX
	MOVQ     AX, (DI)
	ADDQ     R8, DI
	MOVQ     16(SI)(R10*2), AX
	MOVQ     24(SI)(R10*2), CX
	MOVQ     AX, BX
	ROLQ     $16, BX
	XORQ     AX, BX
	XORQ     AX, CX
	ORQ      CX, BX
	JZ       run2
	PSRLO    $8, X1
	MOVQ     X1, AX
	PEXTQ    R9, AX, AX
	MOVQ     AX, (DI)
	ADDQ     R8, DI
	ADDQ     $16, R10
	MOVQ     R10, AX
	SUBQ     R11, AX
	CMPQ     AX, vstretch+96(FP)
	JAE      scanv
	JMP      scan

run2:
	ADDQ $8, R10
	JMP  run

scanv:
	// A bit-packed stretch: once the pending bit-packed run holds vstretch
	// values or more, where the groups' branch is predictable, both groups are
	// narrowed first and tested on their words of bytes as in
	// encodeBytesBMI2, fewer instructions than the test on the int16
	// words but a longer path to the branch, which the short runs that
	// mispredict it would pay (on a Xeon Sapphire Rapids: 1.3-1.4x faster
	// on bit-packed pages, 1.5x slower on runs of 1-16 values if used
	// throughout). Runs go back to scan.
	LEAQ     16(R10), AX
	CMPQ     AX, DX
	JA       scan1
	MOVOU    (SI)(R10*2), X1
	MOVOU    16(SI)(R10*2), X2
	POR      X1, X5
	POR      X2, X5
	PACKUSWB X2, X1
	MOVQ     X1, AX
	MOVQ     AX, BX
	ROLQ     $8, BX
	CMPQ     AX, BX
	JEQ      runb
	PEXTQ    R9, AX, AX
	MOVQ     AX, (DI)
	ADDQ     R8, DI
	PSRLO    $8, X1
	MOVQ     X1, CX
	MOVQ     CX, BX
	ROLQ     $8, BX
	CMPQ     CX, BX
	JEQ      runb2
	PEXTQ    R9, CX, CX
	MOVQ     CX, (DI)
	ADDQ     R8, DI
	ADDQ     $16, R10
	JMP      scanv

runb2:
	ADDQ $8, R10

runb:
	// The group's value is in every byte of BX (values out of range
	// saturated, which the OR reports): in every 16-bit lane of AX for
	// run.
	MOVBQZX BL, AX
	MOVQ    $0x0001000100010001, BX
	IMULQ   BX, AX
	JMP     run

scan1:
	LEAQ    8(R10), AX
	CMPQ    AX, DX
	JA      done
	MOVQ    (SI)(R10*2), AX
	MOVQ    8(SI)(R10*2), CX
	MOVQ    AX, BX
	ROLQ    $16, BX
	XORQ    AX, BX
	XORQ    AX, CX
	ORQ     CX, BX
	JZ      run
	CMPQ    R10, R11
	JNE     open2
	MOVQ    DI, R14
	INCQ    DI

open2:
	MOVOU    (SI)(R10*2), X1
	POR      X1, X5
	PACKUSWB X1, X1
	MOVQ     X1, AX
	PEXTQ    R9, AX, AX
	MOVQ     AX, (DI)
	ADDQ     R8, DI
	ADDQ     $8, R10
	JMP      scan1

run:
	// AX repeats the value in each 16-bit lane, now in BX too; CX finds
	// the run's end: 8 values by two words, then 32 per iteration by SSE2.
	MOVQ AX, BX
	ORQ  AX, R12
	MOVQ n+16(FP), DX
	LEAQ 8(R10), CX
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
	// As in encodeBytesBMI2; BL is the value's byte.
	MOVQ CX, AX
	SUBQ R10, AX
	CMPQ AX, minrun+88(FP)
	JB   rlepack
	MOVQ R10, AX
	SUBQ R11, AX
	JZ   rlehdr
	CMPQ AX, $512
	JAE  done
	SHRQ $2, AX
	ORQ  $1, AX
	MOVB AL, (R14)

rlehdr:
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

rlepack:
	MOVQ limit+80(FP), DX
	CMPQ R10, R11
	JNE  open3
	MOVQ DI, R14
	INCQ DI

open3:
	// As in encodeBytesBMI2: every group inside the run is packed.
	MOVBQZX BL, AX
	MOVQ    $0x0101010101010101, R13
	IMULQ   R13, AX
	PEXTQ   R9, AX, AX

rlegroups:
	MOVQ AX, (DI)
	ADDQ R8, DI
	ADDQ $8, R10
	LEAQ 8(R10), R13
	CMPQ R13, CX
	JA   scan
	CMPQ R13, DX
	JBE  rlegroups
	JMP  scan

done:
	SUBQ dst+0(FP), R14
	MOVQ R14, nhdr+128(FP)
	SUBQ dst+0(FP), DI
	MOVQ DI, npos+104(FP)
	MOVQ R10, ni+112(FP)
	MOVQ  R11, nlit+120(FP)
	MOVQ  X5, AX
	PSRLO $8, X5
	MOVQ  X5, DX
	ORQ   AX, R12
	ORQ   DX, R12
	MOVQ  R12, or+136(FP)
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
