//go:build cgo

package deflate

import (
	"bytes"
	stdgzip "compress/gzip"
	"encoding/binary"
	"testing"

	kgzip "github.com/klauspost/compress/gzip"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/native/internal/nativetest"
)

// storedMember is a gzip member of src in stored blocks of at most block
// bytes, written here by hand as RFC 1952 and RFC 1951 section 3.2.4 lay it
// out (the third writer beside libdeflate level 0 and klauspost/compress's
// and compress/gzip's NoCompression).
func storedMember(src []byte, block int) []byte {
	out := []byte{0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 0, 3}
	crc := crcOf(src)
	size := uint32(len(src))
	for {
		k := min(len(src), block)
		final := byte(0)
		if k == len(src) {
			final = 1
		}
		out = append(out, final, byte(k), byte(k>>8), ^byte(k), ^byte(k>>8))
		out = append(out, src[:k]...)
		src = src[k:]
		if final == 1 {
			break
		}
	}
	out = binary.LittleEndian.AppendUint32(out, crc)
	return binary.LittleEndian.AppendUint32(out, size)
}

func crcOf(b []byte) uint32 {
	var buf bytes.Buffer
	w := stdgzip.NewWriter(&buf)
	_, _ = w.Write(b)
	_ = w.Close()
	z := buf.Bytes()
	return binary.LittleEndian.Uint32(z[len(z)-8:])
}

// storedWriters write stored members the way each encoder does at level 0.
func storedWriters(t *testing.T) map[string]func([]byte) []byte {
	lib, err := NewCompressor(0)
	require.NoError(t, err)
	t.Cleanup(func() { lib.Close() })
	return map[string]func([]byte) []byte{
		"libdeflate-0": func(b []byte) []byte {
			z, err := lib.Compress(nil, b)
			require.NoError(t, err)
			return z
		},
		"klauspost-0": func(b []byte) []byte {
			var buf bytes.Buffer
			w, err := kgzip.NewWriterLevel(&buf, kgzip.NoCompression)
			require.NoError(t, err)
			_, err = w.Write(b)
			require.NoError(t, err)
			require.NoError(t, w.Close())
			return buf.Bytes()
		},
		"stdlib-0": func(b []byte) []byte {
			var buf bytes.Buffer
			w, err := stdgzip.NewWriterLevel(&buf, stdgzip.NoCompression)
			require.NoError(t, err)
			_, err = w.Write(b)
			require.NoError(t, err)
			require.NoError(t, w.Close())
			return buf.Bytes()
		},
		"hand-1000":  func(b []byte) []byte { return storedMember(b, 1000) },
		"hand-65535": func(b []byte) []byte { return storedMember(b, 65535) },
	}
}

// TestCopyStored: stored members of every writer and size take the Go path
// and decode to their content, alone and several per page; a member with a
// compressed block anywhere sends the whole page to libdeflate.
func TestCopyStored(t *testing.T) {
	skipUnlessAvailable(t)
	d, err := NewDecompressor()
	require.NoError(t, err)
	defer d.Close()
	writers := storedWriters(t)
	for name, write := range writers {
		for _, n := range []int{0, 1, 999, 1000, 65535, 65536, 200_000} {
			src := nativetest.Gen(nativetest.Random, n, 7)
			z := write(src)
			got, ok := copyStored(make([]byte, 3, 3+n), z)
			require.True(t, ok, "%s %d", name, n)
			require.True(t, bytes.Equal(src, got[3:]), "%s %d", name, n)
			got, err := d.Decompress(make([]byte, 0, n), z)
			require.NoError(t, err)
			require.True(t, bytes.Equal(src, got), "%s %d", name, n)

			// Too small a dst is libdeflate's to report.
			if n > 0 {
				_, ok = copyStored(make([]byte, 0, n-1), z)
				require.False(t, ok)
				_, err = d.Decompress(make([]byte, 0, n-1), z)
				require.ErrorIs(t, err, ErrDstTooSmall)
			}
		}
	}
	a, b := nativetest.Gen(nativetest.Random, 70_000, 1), nativetest.Gen(nativetest.Random, 300, 2)
	two := append(writers["klauspost-0"](a), writers["libdeflate-0"](b)...)
	got, ok := copyStored(nil, two)
	require.False(t, ok, "nil dst has no room")
	got, ok = copyStored(make([]byte, 0, len(a)+len(b)), two)
	require.True(t, ok)
	require.Equal(t, append(append([]byte{}, a...), b...), got)

	// A compressible second member: compressed blocks.
	b = nativetest.Gen(nativetest.Parquet, 3000, 3)
	mixed := append(writers["hand-1000"](a), gz(b)...)
	_, ok = copyStored(make([]byte, 0, len(a)+len(b)), mixed)
	require.False(t, ok)
	got, err = d.Decompress(make([]byte, 0, len(a)+len(b)), mixed)
	require.NoError(t, err)
	require.Equal(t, append(append([]byte{}, a...), b...), got)
}

// TestCopyStoredRejects: every byte of a two-member stored page changed,
// and every truncation, is either refused by the Go path or decoded by it
// exactly as libdeflate decodes it (never accepted where libdeflate errs).
func TestCopyStoredRejects(t *testing.T) {
	skipUnlessAvailable(t)
	d, err := NewDecompressor()
	require.NoError(t, err)
	defer d.Close()
	page := append(storedMember([]byte("stored page, first member"), 10), storedMember([]byte("second"), 4)...)
	check := func(z []byte) {
		got, ok := copyStored(make([]byte, 0, 64), z)
		if !ok {
			return
		}
		want, err := d.inflate(make([]byte, 0, 64), z)
		require.NoError(t, err, "Go path accepted what libdeflate rejects: %x", z)
		require.Equal(t, want, got)
	}
	accepted := 0
	for i := range page {
		for _, x := range []byte{1, 2, 4, 8, 0x10, 0x80, 0xff} {
			z := bytes.Clone(page)
			z[i] ^= x
			check(z)
			if _, ok := copyStored(make([]byte, 0, 64), z); ok {
				accepted++
			}
		}
	}
	for n := range len(page) + 1 {
		check(page[:n])
	}
	check(append(bytes.Clone(page), 0))
	// Only the header's MTIME, XFL and OS bytes (6 per member, 7 changes
	// each) may change without a refusal.
	require.Equal(t, 2*6*7, accepted)
}

func FuzzCopyStored(f *testing.F) {
	if !Available {
		f.Skip("built without cgo")
	}
	f.Add(storedMember([]byte("abc"), 2))
	f.Add(append(storedMember(nil, 1), storedMember([]byte("xyz"), 1)...))
	d, err := NewDecompressor()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, z []byte) {
		got, ok := copyStored(make([]byte, 0, 1<<12), z)
		if !ok {
			return
		}
		want, err := d.inflate(make([]byte, 0, 1<<12), z)
		if err != nil {
			t.Fatalf("Go path accepted what libdeflate rejects: %v", err)
		}
		if !bytes.Equal(got, want) {
			t.Fatal("Go path and libdeflate differ")
		}
	})
}
