package rows

import (
	"math"
	"strconv"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// AppendHex appends b to dst as a JSON string of lowercase hexadecimal
// digits, two per byte.
func AppendHex(dst, b []byte) []byte {
	dst = append(dst, '"')
	for _, c := range b {
		dst = append(dst, hexDigits[c>>4], hexDigits[c&15])
	}
	return append(dst, '"')
}

// AppendFloat appends f as a JSON value: the shortest decimal that reads
// back as the same float of bitSize bits (32 or 64), -0 for negative zero,
// and the strings "NaN", "Infinity" and "-Infinity" for the values JSON
// numbers cannot hold.
func AppendFloat(dst []byte, f float64, bitSize int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(dst, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(dst, `"-Infinity"`...)
	}
	// 'g' with the shortest precision gives forms such as 1e+21 and 5e-324,
	// all of which are JSON numbers.
	return strconv.AppendFloat(dst, f, 'g', -1, bitSize)
}

// AppendString appends s as a JSON string. Control characters, '"' and '\'
// are escaped; bytes that are not valid UTF-8 become U+FFFD, as
// encoding/json does, so the output is always valid JSON text.
func AppendString(dst []byte, s []byte) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
