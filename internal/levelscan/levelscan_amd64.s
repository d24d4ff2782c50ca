//go:build !purego

#include "textflag.h"

// The kernel takes n > 0, a multiple of 32 of at most 1<<18 levels: two
// loads of 16 levels per iteration, each compared with the broadcast
// value (VPCMPEQW gives -1 per equal lane) and subtracted from a 16-bit
// counter per lane (at most n/32 <= 8192 each), the counters then summed
// as 32-bit pairs (VPMADDWD by 1) and across the register.

// func scanAVX2(levels *int16, n int, m int16) (atMax int, hi int16)
// It also keeps the lane-wise maximum (VPMAXSW; levels are never negative)
// and reduces it to hi.
TEXT ·scanAVX2(SB), NOSPLIT, $0-34
	MOVQ         levels+0(FP), SI
	MOVQ         n+8(FP), CX
	MOVWQZX      m+16(FP), AX
	LEAQ         (SI)(CX*2), DI
	VMOVQ        AX, X0
	VPBROADCASTW X0, Y0
	VPXOR        Y1, Y1, Y1
	VPXOR        Y2, Y2, Y2
	VPXOR        Y6, Y6, Y6
	VPXOR        Y7, Y7, Y7

loop:
	VMOVDQU  (SI), Y3
	VMOVDQU  32(SI), Y4
	VPMAXSW  Y3, Y6, Y6
	VPMAXSW  Y4, Y7, Y7
	VPCMPEQW Y3, Y0, Y3
	VPCMPEQW Y4, Y0, Y4
	VPSUBW   Y3, Y1, Y1
	VPSUBW   Y4, Y2, Y2
	ADDQ     $64, SI
	CMPQ     SI, DI
	JB       loop

	// The counters: Y1+Y2 as 32-bit pairs (VPMADDWD by 1), then across.
	VPADDW       Y2, Y1, Y1
	VPCMPEQW     Y5, Y5, Y5
	VPSRLW       $15, Y5, Y5
	VPMADDWD     Y5, Y1, Y1
	VEXTRACTI128 $1, Y1, X2
	VPADDD       X2, X1, X1
	VPSHUFD      $0x4e, X1, X2
	VPADDD       X2, X1, X1
	VPSHUFD      $0xb1, X1, X2
	VPADDD       X2, X1, X1
	VMOVD        X1, AX
	MOVQ         AX, atMax+24(FP)
	VPMAXSW      Y7, Y6, Y6
	VEXTRACTI128 $1, Y6, X7
	VPMAXSW      X7, X6, X6
	VPSHUFD      $0x4e, X6, X7
	VPMAXSW      X7, X6, X6
	VPSHUFD      $0xb1, X6, X7
	VPMAXSW      X7, X6, X6
	VPSRLD       $16, X6, X7
	VPMAXSW      X7, X6, X6
	VMOVD        X6, AX
	MOVW         AX, hi+32(FP)
	VZEROUPPER
	RET
