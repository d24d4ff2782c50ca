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
