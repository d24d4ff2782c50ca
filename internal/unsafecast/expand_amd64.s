//go:build amd64 && !purego

#include "textflag.h"

// expandShuf repeats byte k of each lane's dword eight times: source bytes 0
// and 1 in the low lane, 2 and 3 in the high lane (VPBROADCASTD puts all
// four in both).
DATA expandShuf<>+0(SB)/8, $0x0000000000000000
DATA expandShuf<>+8(SB)/8, $0x0101010101010101
DATA expandShuf<>+16(SB)/8, $0x0202020202020202
DATA expandShuf<>+24(SB)/8, $0x0303030303030303
GLOBL expandShuf<>(SB), RODATA|NOPTR, $32

// expandBit holds bit k in byte k of every 8-byte group.
DATA expandBit<>+0(SB)/8, $0x8040201008040201
DATA expandBit<>+8(SB)/8, $0x8040201008040201
DATA expandBit<>+16(SB)/8, $0x8040201008040201
DATA expandBit<>+24(SB)/8, $0x8040201008040201
GLOBL expandBit<>(SB), RODATA|NOPTR, $32

DATA expandOne<>+0(SB)/8, $0x0101010101010101
DATA expandOne<>+8(SB)/8, $0x0101010101010101
DATA expandOne<>+16(SB)/8, $0x0101010101010101
DATA expandOne<>+24(SB)/8, $0x0101010101010101
GLOBL expandOne<>(SB), RODATA|NOPTR, $32

// func expandBitsAVX2(dst, src *byte, blocks int)
TEXT ·expandBitsAVX2(SB), NOSPLIT, $0-24
	MOVQ    dst+0(FP), DI
	MOVQ    src+8(FP), SI
	MOVQ    blocks+16(FP), CX
	VMOVDQU expandShuf<>(SB), Y3
	VMOVDQU expandBit<>(SB), Y4
	VMOVDQU expandOne<>(SB), Y5
	TESTQ   CX, CX
	JZ      done

loop:
	VPBROADCASTD (SI), Y0
	VPSHUFB      Y3, Y0, Y0
	VPAND        Y4, Y0, Y0
	VPCMPEQB     Y4, Y0, Y0
	VPAND        Y5, Y0, Y0
	VMOVDQU      Y0, (DI)
	ADDQ         $4, SI
	ADDQ         $32, DI
	DECQ         CX
	JNZ          loop

done:
	VZEROUPPER
	RET

// func packBitsAVX2(dst, src *byte, blocks int)
// Shifting each word left by 7 moves bit 0 of both its bytes to bit 7 (the
// other bits are 0), which VPMOVMSKB gathers.
TEXT ·packBitsAVX2(SB), NOSPLIT, $0-24
	MOVQ  dst+0(FP), DI
	MOVQ  src+8(FP), SI
	MOVQ  blocks+16(FP), CX
	TESTQ CX, CX
	JZ    pdone

ploop:
	VMOVDQU   (SI), Y0
	VPSLLW    $7, Y0, Y0
	VPMOVMSKB Y0, AX
	MOVL      AX, (DI)
	ADDQ      $32, SI
	ADDQ      $4, DI
	DECQ      CX
	JNZ       ploop

pdone:
	VZEROUPPER
	RET
