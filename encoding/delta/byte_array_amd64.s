//go:build amd64 && !purego

#include "textflag.h"

// func copyValuesSSE2(buf []byte, start, prevStart int, data []byte, dpos int, pre, suf, ends []int32) (end, last, newDpos int)
//
// Every value moves its first 16 prefix bytes (when it has a prefix) and its
// first 16 suffix bytes with one unconditional 16-byte copy each; only longer
// prefixes and suffixes loop.
TEXT ·copyValuesSSE2(SB), NOSPLIT, $0-168
	MOVQ buf_base+0(FP), DI
	MOVQ start+24(FP), R8
	ADDQ DI, R8 // where the next value goes
	MOVQ prevStart+32(FP), R9
	ADDQ DI, R9 // the previous value
	MOVQ data_base+40(FP), SI
	ADDQ dpos+64(FP), SI // the next suffix
	MOVQ pre_base+72(FP), R11
	MOVQ pre_len+80(FP), CX
	MOVQ suf_base+96(FP), R12
	MOVQ ends_base+120(FP), R13
	XORQ BX, BX
	TESTQ CX, CX
	JZ    done

loop:
	MOVLQSX (R11)(BX*4), AX // prefix length
	MOVLQSX (R12)(BX*4), DX // suffix length
	TESTQ   AX, AX
	JZ      prefixDone
	MOVOU   (R9), X0
	MOVOU   X0, (R8)
	CMPQ    AX, $16
	JA      prefixLong

prefixDone:
	MOVQ  R8, R9 // this value is the next one's previous
	ADDQ  AX, R8
	MOVOU (SI), X1
	MOVOU X1, (R8)
	CMPQ  DX, $16
	JA    suffixLong

suffixDone:
	ADDQ DX, R8
	ADDQ DX, SI
	MOVQ R8, R10
	SUBQ DI, R10
	MOVL R10, (R13)(BX*4)
	INCQ BX
	CMPQ BX, CX
	JB   loop

done:
	SUBQ DI, R8
	MOVQ R8, end+144(FP)
	SUBQ DI, R9
	MOVQ R9, last+152(FP)
	SUBQ data_base+40(FP), SI
	MOVQ SI, newDpos+160(FP)
	RET

prefixLong:
	MOVQ $16, R10

prefixLoop:
	MOVOU (R9)(R10*1), X0
	MOVOU X0, (R8)(R10*1)
	ADDQ  $16, R10
	CMPQ  R10, AX
	JB    prefixLoop
	JMP   prefixDone

suffixLong:
	MOVQ $16, R10
	CMPQ DX, $80
	JB   suffixLoop

suffix64:
	// 64 bytes at a time while they are all part of the suffix.
	MOVOU (SI)(R10*1), X1
	MOVOU 16(SI)(R10*1), X2
	MOVOU 32(SI)(R10*1), X3
	MOVOU 48(SI)(R10*1), X4
	MOVOU X1, (R8)(R10*1)
	MOVOU X2, 16(R8)(R10*1)
	MOVOU X3, 32(R8)(R10*1)
	MOVOU X4, 48(R8)(R10*1)
	ADDQ  $64, R10
	LEAQ  64(R10), AX // the prefix length is no longer needed
	CMPQ  AX, DX
	JBE   suffix64
	CMPQ  R10, DX
	JAE   suffixDone

suffixLoop: // twin of prefixLoop, over the suffix
	MOVOU (SI)(R10*1), X1
	MOVOU X1, (R8)(R10*1)
	ADDQ  $16, R10
	CMPQ  R10, DX
	JB    suffixLoop
	JMP   suffixDone

// func zeroUpper()
// VZEROUPPER alone, for CPUs with AVX: run before the SSE code of this file,
// it makes that code immune to upper register state left dirty by other code
// in the process (a peer library's AVX kernel without VZEROUPPER), which
// costs every legacy SSE instruction a merge or a state transition on Intel
// cores.
TEXT ·zeroUpper(SB), NOSPLIT, $0-0
	VZEROUPPER
	RET

// shiftWin holds 16 bytes of 0x80 then the byte indices 0 to 15: the 16
// bytes at shiftWin+16-p, for p from 0 to 16, are the VPSHUFB control that
// moves a register's bytes up by p places and zeroes the p bytes below,
// and their sign bits the VPBLENDVB mask that keeps the previous value's
// first p bytes.
DATA shiftWin<>+0(SB)/8, $0x8080808080808080
DATA shiftWin<>+8(SB)/8, $0x8080808080808080
DATA shiftWin<>+16(SB)/8, $0x0706050403020100
DATA shiftWin<>+24(SB)/8, $0x0f0e0d0c0b0a0908
GLOBL shiftWin<>(SB), RODATA|NOPTR, $32

// func copyValuesAVX(buf []byte, start, prevStart int, data []byte, dpos int, pre, suf, ends []int32) (end, last, newDpos int)
//
// copyValuesSSE2 with the first 16 bytes of the previous value kept in X0:
// a value with a prefix of at most 16 bytes is built in the register (the
// suffix's first 16 bytes shifted up by the prefix length, blended under
// the prefix) and stored, so nothing is read back from buf. On Intel cores
// reading back the previous value, which two overlapping stores of
// different addresses have just written, is a store-forwarding failure per
// value. Only prefixes over 16 bytes read buf. VEX-encoded 128-bit
// instructions only, so dirty upper register state costs nothing.
TEXT ·copyValuesAVX(SB), NOSPLIT, $0-168
	MOVQ buf_base+0(FP), DI
	MOVQ start+24(FP), R8
	ADDQ DI, R8 // where the next value goes
	MOVQ prevStart+32(FP), R9
	ADDQ DI, R9 // the previous value
	MOVQ data_base+40(FP), SI
	ADDQ dpos+64(FP), SI // the next suffix
	MOVQ pre_base+72(FP), R11
	MOVQ pre_len+80(FP), CX
	LEAQ (R11)(CX*4), CX // end of pre
	MOVQ suf_base+96(FP), R12
	MOVQ ends_base+120(FP), R13
	LEAQ shiftWin<>+16(SB), BX
	VMOVDQU (R9), X0 // buf has spare capacity past every value
	CMPQ R11, CX
	JAE  done

loop:
	MOVLQSX (R11), AX // prefix length
	MOVLQSX (R12), DX // suffix length
	VMOVDQU (SI), X1
	CMPQ    AX, $16
	JA      prefixLong
	MOVQ    BX, R10
	SUBQ    AX, R10
	VMOVDQU (R10), X3
	VPSHUFB X3, X1, X2
	VPBLENDVB X3, X0, X2, X0
	VMOVDQU X0, (R8)

prefixDone:
	MOVQ    R8, R9 // this value is the next one's previous
	ADDQ    AX, R8
	VMOVDQU X1, (R8)
	CMPQ    DX, $16
	JA      suffixLong

suffixDone:
	ADDQ DX, R8
	ADDQ DX, SI
	MOVQ R8, R10
	SUBQ DI, R10
	MOVL R10, (R13)
	ADDQ $4, R11
	ADDQ $4, R12
	ADDQ $4, R13
	CMPQ R11, CX
	JB   loop

done:
	SUBQ DI, R8
	MOVQ R8, end+144(FP)
	SUBQ DI, R9
	MOVQ R9, last+152(FP)
	SUBQ data_base+40(FP), SI
	MOVQ SI, newDpos+160(FP)
	RET

prefixLong:
	// The first 16 bytes are the previous value's, X0 already.
	VMOVDQU X0, (R8)
	MOVQ    $16, R10

prefixLoop:
	VMOVDQU (R9)(R10*1), X2
	VMOVDQU X2, (R8)(R10*1)
	ADDQ    $16, R10
	CMPQ    R10, AX
	JB      prefixLoop
	JMP     prefixDone

suffixLong:
	MOVQ $16, R10
	CMPQ DX, $80
	JB   suffixLoop

suffix64:
	// 64 bytes at a time while they are all part of the suffix.
	VMOVDQU (SI)(R10*1), X1
	VMOVDQU 16(SI)(R10*1), X2
	VMOVDQU 32(SI)(R10*1), X3
	VMOVDQU 48(SI)(R10*1), X4
	VMOVDQU X1, (R8)(R10*1)
	VMOVDQU X2, 16(R8)(R10*1)
	VMOVDQU X3, 32(R8)(R10*1)
	VMOVDQU X4, 48(R8)(R10*1)
	ADDQ    $64, R10
	LEAQ    64(R10), AX // the prefix length is no longer needed
	CMPQ    AX, DX
	JBE     suffix64
	CMPQ    R10, DX
	JAE     suffixDone

suffixLoop: // twin of prefixLoop, over the suffix
	VMOVDQU (SI)(R10*1), X1
	VMOVDQU X1, (R8)(R10*1)
	ADDQ    $16, R10
	CMPQ    R10, DX
	JB      suffixLoop
	JMP     suffixDone
