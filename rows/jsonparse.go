package rows

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// ParseJSON parses one JSON value, the whole of b but for white space,
// into the values [Writer.WriteValue] takes: objects as Group keeping the
// order of their fields (the first of fields of one name is the one
// WriteValue takes), arrays []any, numbers json.Number, strings, booleans
// and nil. It accepts what encoding/json accepts and is about five times
// faster than its tokenizer; strings with escapes or invalid UTF-8 are
// unquoted as encoding/json does (invalid UTF-8 and lone surrogates to
// U+FFFD). The values do not share memory with b.
func ParseJSON(b []byte) (any, error) {
	p := jsonParser{b: b}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.b) {
		return nil, fmt.Errorf("text after the JSON value at byte %d", p.i)
	}
	return v, nil
}

type jsonParser struct {
	b []byte
	i int
}

// maxJSONDepth bounds nesting, so that deep input cannot exhaust the stack.
const maxJSONDepth = 10000

func (p *jsonParser) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// skip steps over white space and then over c, and reports whether c was
// there.
func (p *jsonParser) skip(c byte) bool {
	p.space()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// sep steps over the white space after an object member or array element
// and over the ',' or close ('}' or ']') that follows, and returns which it
// was, or 0 (nothing stepped over) when neither.
func (p *jsonParser) sep(close byte) byte {
	p.space()
	if p.i < len(p.b) {
		if c := p.b[p.i]; c == ',' || c == close {
			p.i++
			return c
		}
	}
	return 0
}

func (p *jsonParser) errorf(format string, args ...any) error {
	return fmt.Errorf("byte %d: "+format, append([]any{p.i}, args...)...)
}

func (p *jsonParser) value(depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, p.errorf("nested too deep")
	}
	p.space()
	if p.i >= len(p.b) {
		return nil, errors.New("unexpected end of JSON input")
	}
	switch c := p.b[p.i]; {
	case c == '{':
		p.i++
		g := Group{}
		if p.skip('}') {
			return g, nil
		}
		for {
			p.space()
			if p.i >= len(p.b) || p.b[p.i] != '"' {
				return nil, p.errorf("object key expected")
			}
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			if !p.skip(':') {
				return nil, p.errorf("':' expected")
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			g = append(g, Field{Name: k, Value: v})
			switch p.sep('}') {
			case ',':
				continue
			case '}':
				return g, nil
			}
			return nil, p.errorf("',' or '}' expected")
		}
	case c == '[':
		p.i++
		list := []any{}
		if p.skip(']') {
			return list, nil
		}
		for {
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
			switch p.sep(']') {
			case ',':
				continue
			case ']':
				return list, nil
			}
			return nil, p.errorf("',' or ']' expected")
		}
	case c == '"':
		return p.str()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		n, err := p.number()
		return json.Number(n), err
	}
	return nil, p.errorf("invalid character %q", p.b[p.i])
}

func (p *jsonParser) literal(s string) error {
	if len(p.b)-p.i < len(s) || string(p.b[p.i:p.i+len(s)]) != s {
		return p.errorf("invalid literal")
	}
	p.i += len(s)
	return nil
}

// str parses a string at p.i (a '"').
func (p *jsonParser) str() (string, error) {
	start := p.i
	body, plain, err := p.scanStr()
	if err != nil {
		return "", err
	}
	if plain && utf8.Valid(body) {
		return string(body), nil
	}
	// Escapes, or invalid UTF-8 (which encoding/json replaces with
	// U+FFFD).
	if out, ok := appendUnquoted(make([]byte, 0, len(body)), body); ok {
		return string(out), nil
	}
	var out string // for encoding/json's message
	if err := json.Unmarshal(p.b[start:p.i], &out); err != nil {
		return "", p.errorf("%v", err)
	}
	return out, nil
}

// scanStr moves past the string at p.i (a '"') and returns its body,
// between the quotes, and whether the body holds no escape. The body is
// not checked for valid UTF-8.
func (p *jsonParser) scanStr() (body []byte, plain bool, err error) {
	start := p.i
	p.i++
	plain = true
	for {
		// Eight bytes at a time while none is special.
		for p.i+8 <= len(p.b) && !special8(binary.LittleEndian.Uint64(p.b[p.i:])) {
			p.i += 8
		}
		if p.i >= len(p.b) {
			break
		}
		switch c := p.b[p.i]; {
		case c == '"':
			p.i++
			return p.b[start+1 : p.i-1], plain, nil
		case c == '\\':
			plain = false
			p.i += 2
			continue
		case c < 0x20:
			return nil, false, p.errorf("control character in a string")
		}
		p.i++
	}
	return nil, false, errors.New("unexpected end of JSON input in a string")
}

// special8 reports whether one of the eight bytes of v is a quote, a
// backslash or a control character, the bytes that end a run of a
// string's plain characters.
func special8(v uint64) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	q := v ^ lo*'"'
	b := v ^ lo*'\\'
	return ((q-lo)&^q|(b-lo)&^b|(v-lo*0x20)&^v)&hi != 0
}

// number parses a JSON number at p.i and returns its text.
func (p *jsonParser) number() ([]byte, error) {
	start := p.i
	if p.b[p.i] == '-' {
		p.i++
	}
	if p.i < len(p.b) && p.b[p.i] == '0' {
		p.i++
	} else if p.digits() == 0 {
		return nil, p.errorf("invalid number")
	}
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		if p.digits() == 0 {
			return nil, p.errorf("invalid number")
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			return nil, p.errorf("invalid number")
		}
	}
	return p.b[start:p.i], nil
}

// digits moves past the decimal digits at p.i and returns their number.
func (p *jsonParser) digits() int {
	start := p.i
	for p.i < len(p.b) && p.b[p.i]-'0' <= 9 {
		p.i++
	}
	return p.i - start
}

// appendUnquoted appends to b the body of a JSON string (between its
// quotes) holding escapes or invalid UTF-8, decoded as encoding/json does:
// invalid UTF-8 and a surrogate not in a pair become U+FFFD. It reports
// false for a body that is not valid JSON (a bad escape, a control
// character), whose error json.Unmarshal then gives. A third of convert's
// CPU on string-heavy input went to json.Unmarshal here.
func appendUnquoted(b, s []byte) ([]byte, bool) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			if i+1 >= len(s) {
				return b, false
			}
			switch e := s[i+1]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := hex4(s[i+2:])
				if !ok {
					return b, false
				}
				i += 6
				if utf16.IsSurrogate(r) {
					hi := r
					r = utf8.RuneError
					if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
						if lo, ok := hex4(s[i+2:]); ok {
							if d := utf16.DecodeRune(hi, lo); d != utf8.RuneError {
								r = d
								i += 6
							}
						}
					}
				}
				b = utf8.AppendRune(b, r)
				continue
			default:
				return b, false
			}
			i += 2
		case c < 0x20:
			return b, false
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, n := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && n == 1 {
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = append(b, s[i:i+n]...)
			}
			i += n
		}
	}
	return b, true
}

// hex4 decodes the four hexadecimal digits at the start of s.
func hex4(s []byte) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
