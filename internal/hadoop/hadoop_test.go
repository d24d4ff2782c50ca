package hadoop

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stored is a block codec that stores bytes as they are, so framing tests
// can spell pages out by hand.
type stored struct{}

var errTooLong = errors.New("stored: block longer than destination")

func (stored) DecodeBlock(dst, src []byte) (int, error) {
	if len(src) > len(dst) {
		return 0, errTooLong
	}
	return copy(dst, src), nil
}

func (stored) EncodeBlock(dst, src []byte) ([]byte, error) { return append(dst, src...), nil }

// frame builds a framed page: each element is either a chunk length (int)
// or a piece (string).
func frame(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch p := p.(type) {
		case int:
			b = binary.BigEndian.AppendUint32(b, uint32(p))
		case string:
			b = binary.BigEndian.AppendUint32(b, uint32(len(p)))
			b = append(b, p...)
		case []byte: // raw bytes
			b = append(b, p...)
		}
	}
	return b
}

func TestDecodeTable(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  []byte
		size int
		want string
		err  error
	}{
		{"single piece", frame(5, "hello"), 5, "hello", nil},
		{"multi-piece chunk", frame(11, "hello", " ", "world"), 11, "hello world", nil},
		{"multi-chunk page", frame(5, "hello", 6, " world"), 11, "hello world", nil},
		{"multi-chunk multi-piece", frame(3, "ab", "c", 2, "de", 1, "f"), 6, "abcdef", nil},
		{"empty page", nil, 0, "", nil},
		{"empty chunk without piece", frame(0), 0, "", nil},
		{"empty chunk with empty piece", frame(0, ""), 0, "", nil},
		{"empty piece inside chunk", frame(3, "", "abc"), 3, "abc", nil},
		{"truncated chunk header", []byte{0, 0}, 2, "", ErrCorrupt},
		{"truncated piece header", frame(5, []byte{0, 0}), 5, "", ErrCorrupt},
		{"missing piece", frame(5), 5, "", ErrCorrupt},
		{"piece past input", frame(5, []byte{0, 0, 0, 9}, []byte("hello")), 5, "", ErrCorrupt},
		{"chunk claiming more than the page", frame(6, "hello!"), 5, "", ErrSizeMismatch},
		{"second chunk past the page", frame(5, "hello", 1, "x"), 5, "", ErrSizeMismatch},
		{"page shorter than declared", frame(5, "hello"), 6, "", ErrSizeMismatch},
		{"empty input, non-empty page", nil, 1, "", ErrSizeMismatch},
		{"piece longer than chunk", frame(2, "abc", 1, "d"), 4, "", ErrCorrupt},
		{"huge chunk length", frame(0xFFFFFFFF, "abc"), 3, "", ErrSizeMismatch},
		{"huge piece length", frame(3, []byte{0xFF, 0xFF, 0xFF, 0xFF}, []byte("abc")), 3, "", ErrCorrupt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := make([]byte, tc.size)
			err := Decode(dst, tc.src, stored{})
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(dst))
		})
	}
}

func TestEncodeChunks(t *testing.T) {
	src := []byte(strings.Repeat("0123456789", 25))
	for _, chunk := range []int{1, 7, 100, 250, 1000} {
		b, err := Encode([]byte("pfx"), src, chunk, stored{})
		require.NoError(t, err)
		require.Equal(t, "pfx", string(b[:3]))
		// Walk the chunks: none longer than chunk, one piece each.
		p, total := 3, 0
		for p < len(b) {
			n := int(binary.BigEndian.Uint32(b[p:]))
			c := int(binary.BigEndian.Uint32(b[p+4:]))
			require.LessOrEqual(t, n, chunk)
			require.Equal(t, n, c)
			p += 8 + c
			total += n
		}
		require.Equal(t, len(src), total)
		got := make([]byte, len(src))
		require.NoError(t, Decode(got, b[3:], stored{}))
		require.Equal(t, src, got)
	}
	b, err := Encode(nil, nil, 10, stored{})
	require.NoError(t, err)
	require.Equal(t, frame(0, ""), b)
	require.NoError(t, Decode(nil, b, stored{}))
}

func TestFirstChunkLen(t *testing.T) {
	assert.Equal(t, int64(-1), FirstChunkLen([]byte{1, 2}))
	assert.Equal(t, int64(0xFFFFFFFF), FirstChunkLen(frame(0xFFFFFFFF)))
	assert.Equal(t, int64(5), FirstChunkLen(frame(5, "hello")))
}

func TestEncodePanicsOnBadChunk(t *testing.T) {
	assert.Panics(t, func() { _, _ = Encode(nil, []byte("x"), 0, stored{}) })
}
