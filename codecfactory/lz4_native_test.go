package codecfactory

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	nlz4 "github.com/pqcodec/pqcodec/native/lz4"
)

// TestLz4NativeOracle cross-checks liblz4 (the default Factory in cgo
// builds) against pierrec/lz4 (the pure-Go Factory, the CGO_ENABLED=0 path)
// for LZ4_RAW and Hadoop-framed LZ4 at every level: each decodes the other's
// pages to the same bytes.
func TestLz4NativeOracle(t *testing.T) {
	if !nlz4.Available {
		t.Skip("built without liblz4 (no cgo)")
	}
	for _, level := range []int{0, 1, 5, MaxLz4Level} {
		nfs := testFactories(t, WithLz4Level(level))
		native, pure := nfs[0].f, nfs[1].f
		for _, c := range []Codec{Lz4Raw, Lz4} {
			_, lib := native.Implementation(c)
			require.Contains(t, lib, "liblz4")
			for _, d := range datasets {
				for _, n := range []int{0, 1, 100, 64 << 10, 1 << 20} {
					t.Run(fmt.Sprintf("%d/%v/%s/%d", level, c, d.name, n), func(t *testing.T) {
						src := genData(d, n, uint64(n+level))
						for _, dir := range [][2]*Factory{{native, pure}, {pure, native}} {
							comp, err := dir[0].Compress(c, nil, src)
							require.NoError(t, err)
							out, err := dir[1].Decompress(c, nil, comp, n)
							require.NoError(t, err)
							require.True(t, bytes.Equal(src, out))
						}
					})
				}
			}
		}
	}
}

// lz4LiteralsBlock returns an LZ4 block of 64 literals, a 4-byte match at
// offset off and 64 literals: 132 bytes from 134, which liblz4 decodes.
func lz4LiteralsBlock(off byte) []byte {
	lits := bytes.Repeat([]byte("0123456789abcdef"), 4)
	b := append([]byte{0xf0, 64 - 15}, lits...)
	b = append(b, off, 0, 0xf0, 64-15)
	return append(b, lits...)
}

// lz4LastToken returns the index of the last sequence's token in the LZ4
// block src, or -1 if src is not a well-formed block.
func lz4LastToken(src []byte) int {
	pos := 0
	length := func(v int) int {
		for pos < len(src) {
			b := src[pos]
			pos++
			if v += int(b); b != 255 {
				return v
			}
		}
		return -1
	}
	for pos < len(src) {
		tok := pos
		pos++
		lit := int(src[tok] >> 4)
		if lit == 15 {
			if lit = length(lit); lit < 0 {
				return -1
			}
		}
		if pos += lit; pos == len(src) {
			return tok
		}
		if pos += 2; pos > len(src) {
			return -1
		}
		if src[tok]&15 == 15 && length(0) < 0 {
			return -1
		}
	}
	return -1
}

// FuzzLz4NativeOracle decodes arbitrary bytes as one LZ4 block with the
// default Factory's block decoder (liblz4 for blocks of mostly literals,
// pierrec/lz4 for the rest) and with pierrec/lz4 alone (the pure-Go
// Factory's), into a destination holding an earlier page's bytes: both must
// fail, or both return the same bytes. Hadoop framing is parsed above the
// block decoder, so what holds for one block holds for it. The one
// difference allowed is liblz4 accepting a last token whose match-length
// nibble is not 0 (pierrec rejects it): with the nibble cleared pierrec must
// then decode the same bytes.
func FuzzLz4NativeOracle(f *testing.F) {
	if !nlz4.Available {
		f.Skip("built without liblz4 (no cgo)")
	}
	for _, off := range []byte{0, 1, 7, 64, 65} {
		f.Add(uint16(132), lz4LiteralsBlock(off))
	}
	f.Add(uint16(5), []byte{0x51, 'a', 'b', 'c', 'd', 'e'})
	d, err := newNativeLz4Decoder()
	if err != nil {
		f.Fatal(err)
	}
	pure := newLz4Block(0)
	f.Fuzz(func(t *testing.T, size uint16, src []byte) {
		n := int(size)
		got := bytes.Repeat([]byte("secret!!"), n/8+1)[:n]
		k, err := d.DecodeBlock(got, src)
		want := make([]byte, n)
		pk, perr := pure.DecodeBlock(want, src)
		switch {
		case err == nil && perr == nil:
			if !bytes.Equal(got[:k], want[:pk]) {
				t.Fatalf("liblz4 decoded %q, pierrec %q", got[:k], want[:pk])
			}
		case err == nil:
			last := lz4LastToken(src)
			if last < 0 || src[last]&15 == 0 {
				t.Fatalf("liblz4 decoded %q, pierrec failed: %v", got[:k], perr)
			}
			fixed := bytes.Clone(src)
			fixed[last] &^= 15
			pk, perr = pure.DecodeBlock(want, fixed)
			if perr != nil || !bytes.Equal(got[:k], want[:pk]) {
				t.Fatalf("liblz4 decoded %q, pierrec with the last nibble cleared %q, %v", got[:k], want[:pk], perr)
			}
		case perr == nil:
			t.Fatalf("pierrec decoded %q, the default decoder failed: %v", want[:pk], err)
		}
	})
}

// TestLz4NativeDecodes checks the choice of decoder by the block's
// expansion: a block of mostly literals whose last token has a match-length
// nibble of 1 is decoded (by liblz4, which ignores the nibble), a
// compressible one is not (by pierrec/lz4, which rejects it).
func TestLz4NativeDecodes(t *testing.T) {
	require.True(t, lz4NativeDecodes(100, 100))
	require.True(t, lz4NativeDecodes(900, 800))
	require.False(t, lz4NativeDecodes(901, 800))
	require.False(t, lz4NativeDecodes(2000, 800))
	if !nlz4.Available {
		t.Skip("built without liblz4 (no cgo)")
	}
	d, err := newNativeLz4Decoder()
	require.NoError(t, err)
	defer d.Close()
	lits := lz4LiteralsBlock(16)
	lits[len(lits)-66] |= 1 // the last token
	k, err := d.DecodeBlock(make([]byte, 132), lits)
	require.NoError(t, err)
	require.Equal(t, 132, k)
	_, err = newLz4Block(0).DecodeBlock(make([]byte, 132), lits)
	require.Error(t, err)
	// 5 literals, a 400-byte match at offset 5, 5 literals; nibble 1 last.
	rep := []byte{0x5f, 'a', 'b', 'c', 'd', 'e', 5, 0, 255, 126, 0x51, 'v', 'w', 'x', 'y', 'z'}
	_, err = d.DecodeBlock(make([]byte, 410), rep)
	require.Error(t, err)
	rep[10] = 0x50
	k, err = d.DecodeBlock(make([]byte, 410), rep)
	require.NoError(t, err)
	require.Equal(t, 410, k)
}
