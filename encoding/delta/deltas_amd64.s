//go:build amd64 && !purego

#include "textflag.h"

// One miniblock of 8 deltas at byte offset off: Y0 = src[i+1:i+9] - src[i:i+8],
// stored to d, folded into the running minimum Y15 and miniblock maximum Y13.
#define DELTAS32(off) \
	VMOVDQU off+4(SI), Y0 \
	VPSUBD  off(SI), Y0, Y0 \
	VMOVDQU Y0, off(DI) \
	VPMINSD Y0, Y15, Y15 \
	VPMAXSD Y0, Y13, Y13

// func deltas32AVX2(d *[128]uint32, src *[129]int32, hi *[4]int32) int32
TEXT ·deltas32AVX2(SB), NOSPLIT, $0-28
	MOVQ d+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ hi+16(FP), DX
	MOVL $0x7fffffff, AX
	VMOVD AX, X15
	VPBROADCASTD X15, Y15 // minimum so far
	MOVL $0x80000000, AX
	VMOVD AX, X14
	VPBROADCASTD X14, Y14 // the smallest int32
	XORQ CX, CX

mini32:
	VMOVDQA Y14, Y13
	DELTAS32(0)
	DELTAS32(32)
	DELTAS32(64)
	DELTAS32(96)
	VEXTRACTI128 $1, Y13, X1
	VPMAXSD      X1, X13, X13
	VPSHUFD      $0x4e, X13, X1
	VPMAXSD      X1, X13, X13
	VPSHUFD      $0xb1, X13, X1
	VPMAXSD      X1, X13, X13
	VMOVD        X13, AX
	MOVL         AX, (DX)(CX*4)
	ADDQ         $128, SI
	ADDQ         $128, DI
	INCQ         CX
	CMPQ         CX, $4
	JB           mini32

	VEXTRACTI128 $1, Y15, X1
	VPMINSD      X1, X15, X15
	VPSHUFD      $0x4e, X15, X1
	VPMINSD      X1, X15, X15
	VPSHUFD      $0xb1, X15, X1
	VPMINSD      X1, X15, X15 // every lane holds the minimum
	VMOVD        X15, AX
	VINSERTI128  $1, X15, Y15, Y15
	SUBQ         $512, DI
	MOVQ         $4, CX

sub32:
	VMOVDQU (DI), Y0
	VMOVDQU 32(DI), Y1
	VMOVDQU 64(DI), Y2
	VMOVDQU 96(DI), Y3
	VPSUBD  Y15, Y0, Y0
	VPSUBD  Y15, Y1, Y1
	VPSUBD  Y15, Y2, Y2
	VPSUBD  Y15, Y3, Y3
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	ADDQ    $128, DI
	DECQ    CX
	JNZ     sub32

	VZEROUPPER
	MOVL AX, ret+24(FP)
	RET

// Signed 64-bit minimum and maximum of 4 lanes, which AVX2 lacks, by
// comparison and blend: min(Y15, Y0) into Y15, max(Y13, Y0) into Y13.
#define MINMAX64 \
	VPCMPGTQ  Y0, Y15, Y2 \
	VPBLENDVB Y2, Y0, Y15, Y15 \
	VPCMPGTQ  Y13, Y0, Y2 \
	VPBLENDVB Y2, Y0, Y13, Y13

#define DELTAS64(off) \
	VMOVDQU off+8(SI), Y0 \
	VPSUBQ  off(SI), Y0, Y0 \
	VMOVDQU Y0, off(DI) \
	MINMAX64

// func deltas64AVX2(d *[128]uint64, src *[129]int64, hi *[4]int64) int64
TEXT ·deltas64AVX2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ hi+16(FP), DX
	MOVQ $0x7fffffffffffffff, AX
	VMOVQ AX, X15
	VPBROADCASTQ X15, Y15 // minimum so far
	MOVQ $0x8000000000000000, AX
	VMOVQ AX, X14
	VPBROADCASTQ X14, Y14 // the smallest int64
	XORQ CX, CX

mini64:
	VMOVDQA Y14, Y13
	DELTAS64(0)
	DELTAS64(32)
	DELTAS64(64)
	DELTAS64(96)
	DELTAS64(128)
	DELTAS64(160)
	DELTAS64(192)
	DELTAS64(224)
	VEXTRACTI128 $1, Y13, X0
	VPCMPGTQ     X13, X0, X2
	VPBLENDVB    X2, X0, X13, X13
	VPSHUFD      $0x4e, X13, X0
	VPCMPGTQ     X13, X0, X2
	VPBLENDVB    X2, X0, X13, X13
	VMOVQ        X13, AX
	MOVQ         AX, (DX)(CX*8)
	ADDQ         $256, SI
	ADDQ         $256, DI
	INCQ         CX
	CMPQ         CX, $4
	JB           mini64

	VEXTRACTI128 $1, Y15, X0
	VPCMPGTQ     X0, X15, X2
	VPBLENDVB    X2, X0, X15, X15
	VPSHUFD      $0x4e, X15, X0
	VPCMPGTQ     X0, X15, X2
	VPBLENDVB    X2, X0, X15, X15 // both lanes hold the minimum
	VMOVQ        X15, AX
	VINSERTI128  $1, X15, Y15, Y15
	SUBQ         $1024, DI
	MOVQ         $8, CX

sub64:
	VMOVDQU (DI), Y0
	VMOVDQU 32(DI), Y1
	VMOVDQU 64(DI), Y2
	VMOVDQU 96(DI), Y3
	VPSUBQ  Y15, Y0, Y0
	VPSUBQ  Y15, Y1, Y1
	VPSUBQ  Y15, Y2, Y2
	VPSUBQ  Y15, Y3, Y3
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	ADDQ    $128, DI
	DECQ    CX
	JNZ     sub64

	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET

// 8 deltas of lengths at byte offset off: Y1 = lengths o[i+1:i+9] - o[i:i+8],
// Y2 = the next lengths, Y0 = Y2 - Y1, with the offsets and lengths folded
// into Y12 by bitwise or.
#define LENGTHS32(off) \
	VMOVDQU off+4(SI), Y1 \
	VMOVDQU off+8(SI), Y2 \
	VPOR    Y1, Y12, Y12 \
	VPOR    Y2, Y12, Y12 \
	VPSUBD  Y1, Y2, Y2 \
	VPSUBD  off(SI), Y1, Y1 \
	VPOR    Y1, Y12, Y12 \
	VPOR    Y2, Y12, Y12 \
	VPSUBD  Y1, Y2, Y0 \
	VMOVDQU Y0, off(DI) \
	VPMINSD Y0, Y15, Y15 \
	VPMAXSD Y0, Y13, Y13

// func lengthDeltasAVX2(d *[128]uint32, o *[130]int32, hi *[4]int32) (lo, bad int32)
TEXT ·lengthDeltasAVX2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ o+8(FP), SI
	MOVQ hi+16(FP), DX
	MOVL $0x7fffffff, AX
	VMOVD AX, X15
	VPBROADCASTD X15, Y15 // minimum so far
	MOVL $0x80000000, AX
	VMOVD AX, X14
	VPBROADCASTD X14, Y14 // the smallest int32
	VPXOR Y12, Y12, Y12   // or of offsets and lengths
	XORQ CX, CX

miniL:
	VMOVDQA Y14, Y13
	LENGTHS32(0)
	LENGTHS32(32)
	LENGTHS32(64)
	LENGTHS32(96)
	VEXTRACTI128 $1, Y13, X1
	VPMAXSD      X1, X13, X13
	VPSHUFD      $0x4e, X13, X1
	VPMAXSD      X1, X13, X13
	VPSHUFD      $0xb1, X13, X1
	VPMAXSD      X1, X13, X13
	VMOVD        X13, AX
	MOVL         AX, (DX)(CX*4)
	ADDQ         $128, SI
	ADDQ         $128, DI
	INCQ         CX
	CMPQ         CX, $4
	JB           miniL

	// From here on, the twin of the end of deltas32AVX2 (minimum over the
	// lanes, then subtracted): a macro cannot hold the loop's label.

	VMOVMSKPS Y12, BX // the sign bits of the or
	NEGL      BX      // negative when any is set

	VEXTRACTI128 $1, Y15, X1
	VPMINSD      X1, X15, X15
	VPSHUFD      $0x4e, X15, X1
	VPMINSD      X1, X15, X15
	VPSHUFD      $0xb1, X15, X1
	VPMINSD      X1, X15, X15 // every lane holds the minimum
	VMOVD        X15, AX
	VINSERTI128  $1, X15, Y15, Y15
	SUBQ         $512, DI
	MOVQ         $4, CX

subL:
	VMOVDQU (DI), Y0
	VMOVDQU 32(DI), Y1
	VMOVDQU 64(DI), Y2
	VMOVDQU 96(DI), Y3
	VPSUBD  Y15, Y0, Y0
	VPSUBD  Y15, Y1, Y1
	VPSUBD  Y15, Y2, Y2
	VPSUBD  Y15, Y3, Y3
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	ADDQ    $128, DI
	DECQ    CX
	JNZ     subL

	VZEROUPPER
	MOVL AX, lo+24(FP)
	MOVL BX, bad+28(FP)
	RET
