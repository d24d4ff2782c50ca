//go:build amd64 && !purego

#include "textflag.h"

// func copyValuesSSE2(buf []byte, start, prevStart int, data []byte, dpos int, pre, suf, ends []int32) (end, last, newDpos int)
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

loop:
	CMPQ BX, CX
	JAE  done
	MOVLQSX (R11)(BX*4), AX // prefix length
	MOVLQSX (R12)(BX*4), DX // suffix length
	XORQ R10, R10

prefix:
	CMPQ  R10, AX
	JAE   prefixDone
	MOVOU (R9)(R10*1), X0
	MOVOU X0, (R8)(R10*1)
	ADDQ  $16, R10
	JMP   prefix

prefixDone:
	MOVQ R8, R9 // this value is the next one's previous
	ADDQ AX, R8
	XORQ R10, R10

suffix:
	CMPQ  R10, DX
	JAE   suffixDone
	MOVOU (SI)(R10*1), X0
	MOVOU X0, (R8)(R10*1)
	ADDQ  $16, R10
	JMP   suffix

suffixDone:
	ADDQ DX, R8
	ADDQ DX, SI
	MOVQ R8, R10
	SUBQ DI, R10
	MOVL R10, (R13)(BX*4)
	INCQ BX
	JMP  loop

done:
	SUBQ DI, R8
	MOVQ R8, end+144(FP)
	SUBQ DI, R9
	MOVQ R9, last+152(FP)
	SUBQ data_base+40(FP), SI
	MOVQ SI, newDpos+160(FP)
	RET
