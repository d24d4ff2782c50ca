package arrowgo

import (
	"testing"
	"unsafe"
)

func TestNoZeroAllocator(t *testing.T) {
	var a noZeroAllocator
	for _, n := range []int{1, 7, 64, 1000, 1 << 20} {
		b := a.Allocate(n)
		if len(b) != n || cap(b) != n {
			t.Fatalf("Allocate(%d): len %d cap %d", n, len(b), cap(b))
		}
		if p := uintptr(unsafe.Pointer(&b[0])); p%64 != 0 {
			t.Fatalf("Allocate(%d) at %#x, not 64-byte aligned", n, p)
		}
		for i := range b {
			b[i] = byte(i)
		}
		g := a.Reallocate(2*n+1, b)
		if len(g) != 2*n+1 {
			t.Fatalf("Reallocate: len %d", len(g))
		}
		for i := range n {
			if g[i] != byte(i) {
				t.Fatalf("Reallocate lost byte %d", i)
			}
		}
		if s := a.Reallocate(n/2+1, g); len(s) != n/2+1 || &s[0] != &g[0] {
			t.Fatalf("Reallocate to a smaller size moved the bytes")
		}
	}
	if b := a.Allocate(0); len(b) != 0 {
		t.Fatal("Allocate(0) not empty")
	}
}

// TestSpreadBackUninitialized checks that spreadBack leaves none of the
// bytes past the dense values in a null slot: a buffer of the
// noZeroAllocator may hold anything there.
func TestSpreadBackUninitialized(t *testing.T) {
	for _, w := range []int{1, 2, 4, 8, 3, 16} {
		for _, valid := range [][]bool{
			{false, false, false, true, true},
			{true, false, false, false, false, true, false, false},
			{false, true, false, true, false, false, false, false, false, true},
			{false, false, false},
		} {
			n := len(valid)
			vb := make([]byte, (n+7)/8)
			nv := 0
			for k, ok := range valid {
				if ok {
					vb[k>>3] |= 1 << (k & 7)
					nv++
				}
			}
			buf := make([]byte, n*w)
			for i := range buf {
				buf[i] = 0xee // what an uninitialized buffer may hold
			}
			for i := range nv * w {
				buf[i] = byte(i/w + 1)
			}
			spreadBack(buf, w, vb, nv, n)
			v := 0
			for k, ok := range valid {
				slot := buf[k*w : (k+1)*w]
				for _, x := range slot {
					if x == 0xee {
						t.Fatalf("w=%d valid=%v: slot %d holds uninitialized bytes % x", w, valid, k, slot)
					}
				}
				if ok {
					v++
					for _, x := range slot {
						if x != byte(v) {
							t.Fatalf("w=%d valid=%v: slot %d = % x, want value %d", w, valid, k, slot, v)
						}
					}
				}
			}
		}
	}
}
