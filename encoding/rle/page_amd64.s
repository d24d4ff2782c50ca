//go:build !purego

#include "textflag.h"

// ALIGN_FILL starts an RLE fill of DX bytes (a multiple of 32, over 128)
// of Y0 at AX in the page routines: it stores the last 32 bytes and the
// first 32 unaligned, then leaves AX at the next 32-byte boundary and DX
// at the whole 32-byte blocks from there, for the fill loops to store
// aligned (a store across two cache lines takes the store port twice:
// unaligned fills of 16 KiB ran at 0.55x the speed of aligned ones).
#define ALIGN_FILL \
	VMOVDQU Y0, -32(AX)(DX*1); \
	VMOVDQU Y0, (AX);          \
	ADDQ    AX, DX;            \
	ADDQ    $32, AX;           \
	ANDQ    $-32, AX;          \
	SUBQ    AX, DX;            \
	ANDQ    $-32, DX

// The page routines of this file decode the runs of a page as the loops of
// decodePage ([]uint32), decodeBytes and decodeInt16 do (same semantics),
// without a Go call per run. Each stops before the first run it cannot do
// entirely (a run header longer than 2 bytes; a bit-packed run cut by the
// values still expected, or whose loads would pass the end of src; an RLE
// value wider than the width, or whose load would pass the end of src; an
// and returns the values
// written and the bytes of src used: the Go loop does that run, which may
// be an error, and calls again. Registers: DI dst, R8 count, BX values
// written, SI src, R9 end of src, R12 start of the current run, R13 values
// still expected.

// func indexRunsAVX2(dst *uint32, count int, src *byte, size int, t *groupTable, w int, nb int, bmask uint64, inv uint64, max *[8]uint32) (n int, used int)
// Runs of dictionary indices (width 1..25 or 32): bit-packed groups as in
// unpackUint32AVX2, widened bytes and words for widths 8 and 16, plain
// copies for width 32; RLE values of nb bytes read
// by a 4-byte load masked by bmask, wider than the width if they have a bit
// of inv. The lane-wise maximum of the values written goes to *max.
TEXT ·indexRunsAVX2(SB), NOSPLIT, $0-96
	MOVQ         dst+0(FP), DI
	MOVQ         count+8(FP), R8
	MOVQ         src+16(FP), SI
	MOVQ         size+24(FP), R9
	ADDQ         SI, R9
	MOVQ         t+32(FP), R10
	MOVQ         w+40(FP), R11
	VMOVDQU      (R10), Y1   // t.shuf
	VMOVDQU      32(R10), Y2 // t.shift
	MOVQ         inv+64(FP), AX
	NOTQ         AX
	VMOVQ        AX, X3
	VPBROADCASTD X3, Y3 // the value mask
	VPXOR        Y4, Y4, Y4
	VPXOR        Y6, Y6, Y6
	XORQ         BX, BX

run:
	CMPQ    BX, R8
	JAE     done
	MOVQ    SI, R12
	CMPQ    SI, R9
	JAE     done
	MOVBQZX (SI), CX
	INCQ    SI
	TESTQ   $0x80, CX
	JZ      header
	CMPQ    SI, R9
	JAE     bail
	MOVBQZX (SI), DX
	TESTQ   $0x80, DX
	JNZ     bail
	INCQ    SI
	ANDQ    $0x7f, CX
	SHLQ    $7, DX
	ORQ     DX, CX

header:
	MOVQ R8, R13
	SUBQ BX, R13
	SHRQ $1, CX
	JCS  packed

	// An RLE run of CX values, cut to R13.
	CMPQ    CX, R13
	CMOVQHI R13, CX
	LEAQ    4(SI), AX
	CMPQ    AX, R9
	JA      bail
	MOVL    (SI), AX
	ANDQ    bmask+56(FP), AX
	TESTQ   inv+64(FP), AX
	JNZ     bail
	TESTQ   CX, CX
	JZ      skip
	ADDQ    nb+48(FP), SI
	LEAQ    7(CX), DX
	ANDQ    $-8, DX
	CMPQ    DX, R13
	JA      last
	VMOVQ   AX, X0
	VPBROADCASTD X0, Y0
	VPMAXUD Y0, Y4, Y4
	LEAQ    (DI)(BX*4), AX
	ADDQ    CX, BX
	SHLQ    $2, DX
	CMPQ    DX, $32
	JA      more
	VMOVDQU Y0, (AX)
	JMP     run

more:
	// Up to 128 bytes by 4 stores past the run when count allows: the
	// runs that follow overwrite them.
	CMPQ    DX, $128
	JA      big
	CMPQ    R13, $32
	JB      fill32
	VMOVDQU Y0, (AX)
	VMOVDQU Y0, 32(AX)
	VMOVDQU Y0, 64(AX)
	VMOVDQU Y0, 96(AX)
	JMP     run

big:
	ALIGN_FILL
	CMPQ    DX, $1024
	JB      fill512

fill1024:
	VMOVDQU Y0, (AX)
	VMOVDQU Y0, 32(AX)
	VMOVDQU Y0, 64(AX)
	VMOVDQU Y0, 96(AX)
	VMOVDQU Y0, 128(AX)
	VMOVDQU Y0, 160(AX)
	VMOVDQU Y0, 192(AX)
	VMOVDQU Y0, 224(AX)
	VMOVDQU Y0, 256(AX)
	VMOVDQU Y0, 288(AX)
	VMOVDQU Y0, 320(AX)
	VMOVDQU Y0, 352(AX)
	VMOVDQU Y0, 384(AX)
	VMOVDQU Y0, 416(AX)
	VMOVDQU Y0, 448(AX)
	VMOVDQU Y0, 480(AX)
	VMOVDQU Y0, 512(AX)
	VMOVDQU Y0, 544(AX)
	VMOVDQU Y0, 576(AX)
	VMOVDQU Y0, 608(AX)
	VMOVDQU Y0, 640(AX)
	VMOVDQU Y0, 672(AX)
	VMOVDQU Y0, 704(AX)
	VMOVDQU Y0, 736(AX)
	VMOVDQU Y0, 768(AX)
	VMOVDQU Y0, 800(AX)
	VMOVDQU Y0, 832(AX)
	VMOVDQU Y0, 864(AX)
	VMOVDQU Y0, 896(AX)
	VMOVDQU Y0, 928(AX)
	VMOVDQU Y0, 960(AX)
	VMOVDQU Y0, 992(AX)
	ADDQ    $1024, AX
	SUBQ    $1024, DX
	CMPQ    DX, $1024
	JAE     fill1024

fill512:
	CMPQ    DX, $512
	JB      fill128check
	VMOVDQU Y0, (AX)
	VMOVDQU Y0, 32(AX)
	VMOVDQU Y0, 64(AX)
	VMOVDQU Y0, 96(AX)
	VMOVDQU Y0, 128(AX)
	VMOVDQU Y0, 160(AX)
	VMOVDQU Y0, 192(AX)
	VMOVDQU Y0, 224(AX)
	VMOVDQU Y0, 256(AX)
	VMOVDQU Y0, 288(AX)
	VMOVDQU Y0, 320(AX)
	VMOVDQU Y0, 352(AX)
	VMOVDQU Y0, 384(AX)
	VMOVDQU Y0, 416(AX)
	VMOVDQU Y0, 448(AX)
	VMOVDQU Y0, 480(AX)
	ADDQ    $512, AX
	SUBQ    $512, DX

fill128check:
	CMPQ    DX, $128
	JB      fill32

fill128:
	VMOVDQU Y0, (AX)
	VMOVDQU Y0, 32(AX)
	VMOVDQU Y0, 64(AX)
	VMOVDQU Y0, 96(AX)
	ADDQ    $128, AX
	SUBQ    $128, DX
	CMPQ    DX, $128
	JAE     fill128

fill32:
	TESTQ   DX, DX
	JZ      run

fill32loop:
	VMOVDQU Y0, (AX)
	ADDQ    $32, AX
	SUBQ    $32, DX
	JNZ     fill32loop
	JMP     run

last:
	// The last run of the page: the values past its whole stores one at
	// a time, then the stores.
	MOVQ    CX, DX
	ANDQ    $-8, DX
	MOVQ    CX, R13
	SUBQ    DX, R13
	MOVQ    AX, R12
	VMOVQ   AX, X0
	VPBROADCASTD X0, Y0
	VPMAXUD Y0, Y4, Y4
	LEAQ    (DI)(BX*4), AX
	ADDQ    CX, BX
	SHLQ    $2, DX
	LEAQ    (AX)(DX*1), CX
	TESTQ   R13, R13
	JZ      any

rest:
	MOVL    R12, (CX)
	ADDQ    $4, CX
	DECQ    R13
	JNZ     rest

any:
	CMPQ    DX, $128
	JB      fill32
	JMP     big

skip:
	ADDQ nb+48(FP), SI
	JMP  run

packed:
	// A bit-packed run of CX groups, all expected, whose last group's
	// loads end at (CX-1)*w + t.hi + 16 bytes (t.hi is 16 for width 32).
	TESTQ CX, CX
	JZ    run
	LEAQ  (CX*8), DX
	CMPQ  DX, R13
	JA    bail
	LEAQ  -1(CX), AX
	IMULQ R11, AX
	ADDQ  64(R10), AX
	LEAQ  16(SI)(AX*1), AX
	CMPQ  AX, R9
	JA    bail
	LEAQ  (DI)(BX*4), AX
	ADDQ  DX, BX
	CMPQ  R11, $32
	JEQ   copy
	CMPQ  R11, $16
	JEQ   words
	CMPQ  R11, $8
	JEQ   bytes
	MOVQ  64(R10), DX // t.hi
	TESTQ DX, DX
	JZ    bcast
	SUBQ  $2, CX
	JB    unpack1

unpack2:
	// Widths 15 to 25: two groups per iteration.
	VMOVDQU     (SI), X0
	VINSERTI128 $1, (SI)(DX*1), Y0, Y0
	ADDQ        R11, SI
	VMOVDQU     (SI), X5
	VINSERTI128 $1, (SI)(DX*1), Y5, Y5
	ADDQ        R11, SI
	VPSHUFB     Y1, Y0, Y0
	VPSHUFB     Y1, Y5, Y5
	VPSRLVD     Y2, Y0, Y0
	VPSRLVD     Y2, Y5, Y5
	VPAND       Y3, Y0, Y0
	VPAND       Y3, Y5, Y5
	VMOVDQU     Y0, (AX)
	VMOVDQU     Y5, 32(AX)
	VPMAXUD     Y0, Y4, Y4
	VPMAXUD     Y5, Y6, Y6
	ADDQ        $64, AX
	SUBQ        $2, CX
	JAE         unpack2

unpack1:
	ADDQ        $2, CX
	JZ          run
	VMOVDQU     (SI), X0
	VINSERTI128 $1, (SI)(DX*1), Y0, Y0
	VPSHUFB     Y1, Y0, Y0
	VPSRLVD     Y2, Y0, Y0
	VPAND       Y3, Y0, Y0
	VMOVDQU     Y0, (AX)
	VPMAXUD     Y0, Y4, Y4
	ADDQ        R11, SI
	JMP         run

words:
	// Width 16: 8 words widened, two groups per iteration.
	SUBQ $2, CX
	JB   words1

words2:
	VPMOVZXWD (SI), Y0
	VPMOVZXWD 16(SI), Y5
	VMOVDQU   Y0, (AX)
	VMOVDQU   Y5, 32(AX)
	VPMAXUD   Y0, Y4, Y4
	VPMAXUD   Y5, Y6, Y6
	ADDQ      $32, SI
	ADDQ      $64, AX
	SUBQ      $2, CX
	JAE       words2

words1:
	ADDQ      $2, CX
	JZ        run
	VPMOVZXWD (SI), Y0
	VMOVDQU   Y0, (AX)
	VPMAXUD   Y0, Y4, Y4
	ADDQ      $16, SI
	JMP       run

bytes:
	// Width 8: 8 bytes widened, four groups per iteration.
	SUBQ $4, CX
	JB   bytes1

bytes4:
	VPMOVZXBD (SI), Y0
	VPMOVZXBD 8(SI), Y5
	VPMOVZXBD 16(SI), Y7
	VPMOVZXBD 24(SI), Y8
	VMOVDQU   Y0, (AX)
	VMOVDQU   Y5, 32(AX)
	VMOVDQU   Y7, 64(AX)
	VMOVDQU   Y8, 96(AX)
	VPMAXUD   Y0, Y4, Y4
	VPMAXUD   Y5, Y6, Y6
	VPMAXUD   Y7, Y4, Y4
	VPMAXUD   Y8, Y6, Y6
	ADDQ      $32, SI
	ADDQ      $128, AX
	SUBQ      $4, CX
	JAE       bytes4

bytes1:
	ADDQ      $4, CX
	JZ        run

bytesone:
	VPMOVZXBD (SI), Y0
	VMOVDQU   Y0, (AX)
	VPMAXUD   Y0, Y4, Y4
	ADDQ      $8, SI
	ADDQ      $32, AX
	DECQ      CX
	JNZ       bytesone
	JMP       run

bcast:
	// Widths up to 14: both lanes take the group's first 16 bytes, two
	// groups per iteration.
	SUBQ $2, CX
	JB   bcast1

bcast2:
	VBROADCASTI128 (SI), Y0
	VBROADCASTI128 (SI)(R11*1), Y5
	VPSHUFB        Y1, Y0, Y0
	VPSHUFB        Y1, Y5, Y5
	VPSRLVD        Y2, Y0, Y0
	VPSRLVD        Y2, Y5, Y5
	VPAND          Y3, Y0, Y0
	VPAND          Y3, Y5, Y5
	VMOVDQU        Y0, (AX)
	VMOVDQU        Y5, 32(AX)
	VPMAXUD        Y0, Y4, Y4
	VPMAXUD        Y5, Y6, Y6
	LEAQ           (SI)(R11*2), SI
	ADDQ           $64, AX
	SUBQ           $2, CX
	JAE            bcast2

bcast1:
	ADDQ           $2, CX
	JZ             run
	VBROADCASTI128 (SI), Y0
	VPSHUFB        Y1, Y0, Y0
	VPSRLVD        Y2, Y0, Y0
	VPAND          Y3, Y0, Y0
	VMOVDQU        Y0, (AX)
	VPMAXUD        Y0, Y4, Y4
	ADDQ           R11, SI
	JMP            run

copy:
	// Width 32: copies, four groups per iteration.
	SUBQ $4, CX
	JB   copy1

copy4:
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y5
	VMOVDQU 64(SI), Y7
	VMOVDQU 96(SI), Y8
	VMOVDQU Y0, (AX)
	VMOVDQU Y5, 32(AX)
	VMOVDQU Y7, 64(AX)
	VMOVDQU Y8, 96(AX)
	VPMAXUD Y0, Y4, Y4
	VPMAXUD Y5, Y6, Y6
	VPMAXUD Y7, Y4, Y4
	VPMAXUD Y8, Y6, Y6
	ADDQ    $128, SI
	ADDQ    $128, AX
	SUBQ    $4, CX
	JAE     copy4

copy1:
	ADDQ $4, CX
	JZ   run

copyone:
	VMOVDQU (SI), Y0
	VMOVDQU Y0, (AX)
	VPMAXUD Y0, Y4, Y4
	ADDQ    $32, SI
	ADDQ    $32, AX
	DECQ    CX
	JNZ     copyone
	JMP     run

bail:
	MOVQ R12, SI

done:
	MOVQ    max+72(FP), AX
	VPMAXUD Y6, Y4, Y4
	VMOVDQU Y4, (AX)
	VZEROUPPER
	MOVQ    BX, n+80(FP)
	SUBQ    src+16(FP), SI
	MOVQ    SI, used+88(FP)
	RET

// func levelBytesAVX2(dst *uint8, count int, src *byte, size int, w int, inv uint64, mask uint64) (n int, used int)
// Runs of levels of width 1..8 into bytes: bit-packed groups spread by PDEP
// (mask as in unpackBytesPDEP), RLE values of one byte, wider than the width
// if they have a bit of inv, stored 32 bytes at a time.
TEXT ·levelBytesAVX2(SB), NOSPLIT, $0-72
	MOVQ dst+0(FP), DI
	MOVQ count+8(FP), R8
	MOVQ src+16(FP), SI
	MOVQ size+24(FP), R9
	ADDQ SI, R9
	MOVQ w+32(FP), R11
	MOVQ inv+40(FP), R15
	MOVQ mask+48(FP), R10
	XORQ BX, BX

run:
	CMPQ    BX, R8
	JAE     done
	MOVQ    SI, R12
	CMPQ    SI, R9
	JAE     done
	MOVBQZX (SI), CX
	INCQ    SI
	TESTQ   $0x80, CX
	JZ      header
	CMPQ    SI, R9
	JAE     bail
	MOVBQZX (SI), DX
	TESTQ   $0x80, DX
	JNZ     bail
	INCQ    SI
	ANDQ    $0x7f, CX
	SHLQ    $7, DX
	ORQ     DX, CX

header:
	MOVQ R8, R13
	SUBQ BX, R13
	SHRQ $1, CX
	JCS  packed

	// An RLE run of CX values, cut to R13.
	CMPQ    CX, R13
	CMOVQHI R13, CX
	CMPQ    SI, R9
	JAE     bail
	MOVBQZX (SI), AX
	TESTQ   R15, AX
	JNZ     bail
	TESTQ   CX, CX
	JZ      skip
	INCQ    SI
	LEAQ    31(CX), DX
	ANDQ    $-32, DX
	CMPQ    DX, R13
	JA      last
	VMOVQ   AX, X0
	VPBROADCASTB X0, Y0
	LEAQ    (DI)(BX*1), AX
	ADDQ    CX, BX
	CMPQ    DX, $32
	JA      more
	VMOVDQU Y0, (AX)
	JMP     run

more:
	// Up to 128 bytes by 4 stores past the run when count allows: the
	// runs that follow overwrite them.
	CMPQ    DX, $128
	JA      big
	CMPQ    R13, $128
	JB      fill32
	VMOVDQU Y0, (AX)
	VMOVDQU Y0, 32(AX)
	VMOVDQU Y0, 64(AX)
	VMOVDQU Y0, 96(AX)
	JMP     run

big:
	ALIGN_FILL
	CMPQ    DX, $1024
	JB      fill512

fill1024:
	VMOVDQU Y0, (AX)
	VMOVDQU Y0, 32(AX)
	VMOVDQU Y0, 64(AX)
	VMOVDQU Y0, 96(AX)
	VMOVDQU Y0, 128(AX)
	VMOVDQU Y0, 160(AX)
	VMOVDQU Y0, 192(AX)
	VMOVDQU Y0, 224(AX)
	VMOVDQU Y0, 256(AX)
	VMOVDQU Y0, 288(AX)
	VMOVDQU Y0, 320(AX)
	VMOVDQU Y0, 352(AX)
	VMOVDQU Y0, 384(AX)
	VMOVDQU Y0, 416(AX)
	VMOVDQU Y0, 448(AX)
	VMOVDQU Y0, 480(AX)
	VMOVDQU Y0, 512(AX)
	VMOVDQU Y0, 544(AX)
	VMOVDQU Y0, 576(AX)
	VMOVDQU Y0, 608(AX)
	VMOVDQU Y0, 640(AX)
	VMOVDQU Y0, 672(AX)
	VMOVDQU Y0, 704(AX)
	VMOVDQU Y0, 736(AX)
	VMOVDQU Y0, 768(AX)
	VMOVDQU Y0, 800(AX)
	VMOVDQU Y0, 832(AX)
	VMOVDQU Y0, 864(AX)
	VMOVDQU Y0, 896(AX)
	VMOVDQU Y0, 928(AX)
	VMOVDQU Y0, 960(AX)
	VMOVDQU Y0, 992(AX)
	ADDQ    $1024, AX
	SUBQ    $1024, DX
	CMPQ    DX, $1024
	JAE     fill1024

fill512:
	CMPQ    DX, $512
	JB      fill128check
	VMOVDQU Y0, (AX)
	VMOVDQU Y0, 32(AX)
	VMOVDQU Y0, 64(AX)
	VMOVDQU Y0, 96(AX)
	VMOVDQU Y0, 128(AX)
	VMOVDQU Y0, 160(AX)
	VMOVDQU Y0, 192(AX)
	VMOVDQU Y0, 224(AX)
	VMOVDQU Y0, 256(AX)
	VMOVDQU Y0, 288(AX)
	VMOVDQU Y0, 320(AX)
	VMOVDQU Y0, 352(AX)
	VMOVDQU Y0, 384(AX)
	VMOVDQU Y0, 416(AX)
	VMOVDQU Y0, 448(AX)
	VMOVDQU Y0, 480(AX)
	ADDQ    $512, AX
	SUBQ    $512, DX

fill128check:
	CMPQ    DX, $128
	JB      fill32

fill128:
	VMOVDQU Y0, (AX)
	VMOVDQU Y0, 32(AX)
	VMOVDQU Y0, 64(AX)
	VMOVDQU Y0, 96(AX)
	ADDQ    $128, AX
	SUBQ    $128, DX
	CMPQ    DX, $128
	JAE     fill128

fill32:
	TESTQ   DX, DX
	JZ      run

fill32loop:
	VMOVDQU Y0, (AX)
	ADDQ    $32, AX
	SUBQ    $32, DX
	JNZ     fill32loop
	JMP     run

last:
	// The last run of the page: the values past its whole stores one at
	// a time, then the stores.
	MOVQ    CX, DX
	ANDQ    $-32, DX
	MOVQ    CX, R13
	SUBQ    DX, R13
	MOVQ    AX, R12
	VMOVQ   AX, X0
	VPBROADCASTB X0, Y0
	LEAQ    (DI)(BX*1), AX
	ADDQ    CX, BX
	LEAQ    (AX)(DX*1), CX
	TESTQ   R13, R13
	JZ      any

rest:
	MOVB    R12, (CX)
	ADDQ    $1, CX
	DECQ    R13
	JNZ     rest

any:
	CMPQ    DX, $128
	JB      fill32
	JMP     big

skip:
	INCQ SI
	JMP  run

packed:
	// A bit-packed run of CX groups, all expected, whose last group's
	// 8-byte load ends at (CX-1)*w + 8 bytes.
	TESTQ CX, CX
	JZ    run
	LEAQ  (CX*8), DX
	CMPQ  DX, R13
	JA    bail
	LEAQ  -1(CX), AX
	IMULQ R11, AX
	LEAQ  8(SI)(AX*1), AX
	CMPQ  AX, R9
	JA    bail
	LEAQ  (R11)(R11*2), R13
	SUBQ  $4, CX
	JB    tail

loop4:
	MOVQ  (SI), AX
	MOVQ  (SI)(R11*1), DX
	MOVQ  (SI)(R11*2), R12
	MOVQ  (SI)(R13*1), R14
	PDEPQ R10, AX, AX
	PDEPQ R10, DX, DX
	PDEPQ R10, R12, R12
	PDEPQ R10, R14, R14
	MOVQ  AX, (DI)(BX*1)
	MOVQ  DX, 8(DI)(BX*1)
	MOVQ  R12, 16(DI)(BX*1)
	MOVQ  R14, 24(DI)(BX*1)
	LEAQ  (SI)(R11*4), SI
	ADDQ  $32, BX
	SUBQ  $4, CX
	JAE   loop4

tail:
	ADDQ $4, CX
	JZ   run

loop1:
	MOVQ  (SI), AX
	PDEPQ R10, AX, AX
	MOVQ  AX, (DI)(BX*1)
	ADDQ  R11, SI
	ADDQ  $8, BX
	DECQ  CX
	JNZ   loop1
	JMP   run

bail:
	MOVQ R12, SI

done:
	VZEROUPPER
	MOVQ BX, n+56(FP)
	SUBQ src+16(FP), SI
	MOVQ SI, used+64(FP)
	RET

// func levelInt16AVX2(dst *int16, count int, src *byte, size int, w int, inv uint64, mask uint64) (n int, used int)
// levelBytesAVX2 into int16 (its twin: the same run parse, fills and hand-back
// to Go): bit-packed groups by pairs in vector registers (VPSHUFB, VPMULLW,
// VPSRLW; VPMOVZXBW at width 8), a last odd group by PDEP, RLE runs stored 16
// values at a time.
TEXT ·levelInt16AVX2(SB), NOSPLIT, $0-80
	MOVQ dst+0(FP), DI
	MOVQ count+8(FP), R8
	MOVQ src+16(FP), SI
	MOVQ size+24(FP), R9
	ADDQ SI, R9
	MOVQ w+32(FP), R11
	MOVQ inv+40(FP), R15
	MOVQ mask+48(FP), R10
	MOVQ t+56(FP), AX
	VMOVDQU (AX), Y1   // t.shuf
	VMOVDQU 32(AX), Y2 // t.mul
	MOVQ $16, DX
	SUBQ R11, DX
	VMOVQ DX, X3
	XORQ BX, BX

run:
	CMPQ    BX, R8
	JAE     done
	MOVQ    SI, R12
	CMPQ    SI, R9
	JAE     done
	MOVBQZX (SI), CX
	INCQ    SI
	TESTQ   $0x80, CX
	JZ      header
	CMPQ    SI, R9
	JAE     bail
	MOVBQZX (SI), DX
	TESTQ   $0x80, DX
	JNZ     bail
	INCQ    SI
	ANDQ    $0x7f, CX
	SHLQ    $7, DX
	ORQ     DX, CX

header:
	MOVQ R8, R13
	SUBQ BX, R13
	SHRQ $1, CX
	JCS  packed

	// An RLE run of CX values, cut to R13.
	CMPQ    CX, R13
	CMOVQHI R13, CX
	CMPQ    SI, R9
	JAE     bail
	MOVBQZX (SI), AX
	TESTQ   R15, AX
	JNZ     bail
	TESTQ   CX, CX
	JZ      skip
	INCQ    SI
	LEAQ    15(CX), DX
	ANDQ    $-16, DX
	CMPQ    DX, R13
	JA      last
	VMOVQ   AX, X0
	VPBROADCASTW X0, Y0
	LEAQ    (DI)(BX*2), AX
	ADDQ    CX, BX
	SHLQ    $1, DX
	CMPQ    DX, $32
	JA      more
	VMOVDQU Y0, (AX)
	JMP     run

more:
	// Up to 128 bytes by 4 stores past the run when count allows: the
	// runs that follow overwrite them.
	CMPQ    DX, $128
	JA      big
	CMPQ    R13, $64
	JB      fill32
	VMOVDQU Y0, (AX)
	VMOVDQU Y0, 32(AX)
	VMOVDQU Y0, 64(AX)
	VMOVDQU Y0, 96(AX)
	JMP     run

big:
	ALIGN_FILL
	CMPQ    DX, $1024
	JB      fill512

fill1024:
	VMOVDQU Y0, (AX)
	VMOVDQU Y0, 32(AX)
	VMOVDQU Y0, 64(AX)
	VMOVDQU Y0, 96(AX)
	VMOVDQU Y0, 128(AX)
	VMOVDQU Y0, 160(AX)
	VMOVDQU Y0, 192(AX)
	VMOVDQU Y0, 224(AX)
	VMOVDQU Y0, 256(AX)
	VMOVDQU Y0, 288(AX)
	VMOVDQU Y0, 320(AX)
	VMOVDQU Y0, 352(AX)
	VMOVDQU Y0, 384(AX)
	VMOVDQU Y0, 416(AX)
	VMOVDQU Y0, 448(AX)
	VMOVDQU Y0, 480(AX)
	VMOVDQU Y0, 512(AX)
	VMOVDQU Y0, 544(AX)
	VMOVDQU Y0, 576(AX)
	VMOVDQU Y0, 608(AX)
	VMOVDQU Y0, 640(AX)
	VMOVDQU Y0, 672(AX)
	VMOVDQU Y0, 704(AX)
	VMOVDQU Y0, 736(AX)
	VMOVDQU Y0, 768(AX)
	VMOVDQU Y0, 800(AX)
	VMOVDQU Y0, 832(AX)
	VMOVDQU Y0, 864(AX)
	VMOVDQU Y0, 896(AX)
	VMOVDQU Y0, 928(AX)
	VMOVDQU Y0, 960(AX)
	VMOVDQU Y0, 992(AX)
	ADDQ    $1024, AX
	SUBQ    $1024, DX
	CMPQ    DX, $1024
	JAE     fill1024

fill512:
	CMPQ    DX, $512
	JB      fill128check
	VMOVDQU Y0, (AX)
	VMOVDQU Y0, 32(AX)
	VMOVDQU Y0, 64(AX)
	VMOVDQU Y0, 96(AX)
	VMOVDQU Y0, 128(AX)
	VMOVDQU Y0, 160(AX)
	VMOVDQU Y0, 192(AX)
	VMOVDQU Y0, 224(AX)
	VMOVDQU Y0, 256(AX)
	VMOVDQU Y0, 288(AX)
	VMOVDQU Y0, 320(AX)
	VMOVDQU Y0, 352(AX)
	VMOVDQU Y0, 384(AX)
	VMOVDQU Y0, 416(AX)
	VMOVDQU Y0, 448(AX)
	VMOVDQU Y0, 480(AX)
	ADDQ    $512, AX
	SUBQ    $512, DX

fill128check:
	CMPQ    DX, $128
	JB      fill32

fill128:
	VMOVDQU Y0, (AX)
	VMOVDQU Y0, 32(AX)
	VMOVDQU Y0, 64(AX)
	VMOVDQU Y0, 96(AX)
	ADDQ    $128, AX
	SUBQ    $128, DX
	CMPQ    DX, $128
	JAE     fill128

fill32:
	TESTQ   DX, DX
	JZ      run

fill32loop:
	VMOVDQU Y0, (AX)
	ADDQ    $32, AX
	SUBQ    $32, DX
	JNZ     fill32loop
	JMP     run

last:
	// The last run of the page: the values past its whole stores one at
	// a time, then the stores.
	MOVQ    CX, DX
	ANDQ    $-16, DX
	MOVQ    CX, R13
	SUBQ    DX, R13
	MOVQ    AX, R12
	VMOVQ   AX, X0
	VPBROADCASTW X0, Y0
	LEAQ    (DI)(BX*2), AX
	ADDQ    CX, BX
	SHLQ    $1, DX
	LEAQ    (AX)(DX*1), CX
	TESTQ   R13, R13
	JZ      any

rest:
	MOVW    R12, (CX)
	ADDQ    $2, CX
	DECQ    R13
	JNZ     rest

any:
	CMPQ    DX, $128
	JB      fill32
	JMP     big

skip:
	INCQ SI
	JMP  run

packed:
	// A bit-packed run of CX groups, all expected, whose last group's
	// 8-byte load ends at (CX-1)*w + 8 bytes (16 for the pairs, else
	// each group goes as a single one). Pairs of groups: both
	// lanes take the pair's first 16 bytes, VPSHUFB puts each value's
	// 2-byte window in its word, VPMULLW by 2^(16-w-shift) moves the value
	// to the top, VPSRLW by 16-w brings it down (width 8: VPMOVZXBW).
	TESTQ CX, CX
	JZ    run
	LEAQ  (CX*8), DX
	CMPQ  DX, R13
	JA    bail
	LEAQ  -1(CX), AX
	IMULQ R11, AX
	LEAQ  8(SI)(AX*1), AX
	CMPQ  AX, R9
	JA    bail
	ADDQ  $8, AX
	CMPQ  AX, R9
	JA    single // the end of src is near: each group by PDEP
	CMPQ  R11, $8
	JEQ   bytes
	SUBQ  $4, CX
	JB    pair

quad:
	VBROADCASTI128 (SI), Y0
	VBROADCASTI128 (SI)(R11*2), Y5
	VPSHUFB        Y1, Y0, Y0
	VPSHUFB        Y1, Y5, Y5
	VPMULLW        Y2, Y0, Y0
	VPMULLW        Y2, Y5, Y5
	VPSRLW         X3, Y0, Y0
	VPSRLW         X3, Y5, Y5
	VMOVDQU        Y0, (DI)(BX*2)
	VMOVDQU        Y5, 32(DI)(BX*2)
	LEAQ           (SI)(R11*4), SI
	ADDQ           $32, BX
	SUBQ           $4, CX
	JAE            quad

pair:
	ADDQ           $4, CX
	CMPQ           CX, $2
	JB             single
	VBROADCASTI128 (SI), Y0
	VPSHUFB        Y1, Y0, Y0
	VPMULLW        Y2, Y0, Y0
	VPSRLW         X3, Y0, Y0
	VMOVDQU        Y0, (DI)(BX*2)
	LEAQ           (SI)(R11*2), SI
	ADDQ           $16, BX
	SUBQ           $2, CX

single:
	TESTQ     CX, CX
	JZ        run
	MOVQ      (SI), AX
	PDEPQ     R10, AX, AX
	VMOVQ     AX, X0
	VPMOVZXBW X0, X0
	VMOVDQU   X0, (DI)(BX*2)
	ADDQ      R11, SI
	ADDQ      $8, BX
	DECQ      CX
	JMP       single

bytes:
	SUBQ $2, CX
	JB   bytes1

bytes2:
	VPMOVZXBW (SI), Y0
	VMOVDQU   Y0, (DI)(BX*2)
	ADDQ      $16, SI
	ADDQ      $16, BX
	SUBQ      $2, CX
	JAE       bytes2

bytes1:
	ADDQ $2, CX
	JMP  single

bail:
	MOVQ R12, SI

done:
	VZEROUPPER
	MOVQ BX, n+64(FP)
	SUBQ src+16(FP), SI
	MOVQ SI, used+72(FP)
	RET
