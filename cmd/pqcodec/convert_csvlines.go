package main

import (
	"bufio"
	"bytes"
	"strings"
)

// csvLines splits CSV input between encoding/csv and a fast path of its
// own. A line that ends in a newline and holds no quote and no carriage
// return but before that newline can only be a record of unquoted fields,
// which encoding/csv splits at the delimiter and nothing more: splitLine
// does the same at a fraction of the CPU. Any other line, and every line
// of a record that begins on one, goes to encoding/csv through feed, which
// hands it at most one line per Read, so that csv.Reader's own buffer
// never reads past the record it returns and the fast path can take the
// next line. fast counts the lines the fast path took, which csv.Reader's
// line numbers leave out.
type csvLines struct {
	r       *bufio.Reader
	comma   byte // 0: no fast path (a delimiter outside ASCII)
	pending []byte
	fast    int64 // lines taken by the fast path
	fed     int64 // newlines handed to csv.Reader
	err     error
	str     string // the last fast line, owned
}

// feed is the io.Reader csv.Reader reads from.
type csvFeed struct{ l *csvLines }

func (f csvFeed) Read(p []byte) (int, error) {
	l := f.l
	if len(l.pending) == 0 {
		if l.err != nil {
			return 0, l.err
		}
		l.pending, l.err = l.r.ReadSlice('\n')
		if l.err == bufio.ErrBufferFull {
			l.err = nil
		}
		if len(l.pending) == 0 && l.err != nil {
			return 0, l.err
		}
	}
	n := copy(p, l.pending)
	if n > 0 && p[n-1] == '\n' {
		l.fed++
	}
	l.pending = l.pending[n:]
	return n, nil
}

// next returns the fields of the next line and its number when the fast
// path can take it; ok false leaves the line for csv.Reader (the record
// beginning there, or the end of the input). fields is reused.
func (l *csvLines) next(fields []string) (_ []string, line int64, ok bool) {
	if l.comma == 0 || len(l.pending) > 0 || l.err != nil {
		return nil, 0, false
	}
	for {
		b, err := l.r.ReadSlice('\n')
		if err != nil || bytes.IndexByte(b, '"') >= 0 {
			// Leave it to csv.Reader.
			l.pending = b
			if err != bufio.ErrBufferFull {
				l.err = err
			}
			return nil, 0, false
		}
		body := b[:len(b)-1]
		if len(body) > 0 && body[len(body)-1] == '\r' {
			body = body[:len(body)-1]
		}
		if bytes.IndexByte(body, '\r') >= 0 {
			l.pending = b
			return nil, 0, false
		}
		l.fast++
		line = l.fast + l.fed
		if len(body) == 0 {
			continue // csv.Reader skips empty lines
		}
		l.str = string(body)
		return splitLine(fields[:0], l.str, l.comma), line, true
	}
}

// splitLine appends the fields of s, split at comma, to fields.
func splitLine(fields []string, s string, comma byte) []string {
	for {
		i := strings.IndexByte(s, comma)
		if i < 0 {
			return append(fields, s)
		}
		fields = append(fields, s[:i])
		s = s[i+1:]
	}
}
