package main

import (
	"encoding/csv"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var csvLinesSeeds = []string{
	"a,b,c\n1,x,true\n2,y,false\n", "a,b\r\n1,x\r\n\r\n2,y\r\n", "a,b\n\n1,2\n\n\n3,4\n", "a,b\n1,2\n3,4",
	"a,b\n1,2\n3,4\r", "a,b\n1,\"x,y\"\n2,\"multi\nline\"\n3,z\n4,\"q\"\"uote\"\n", "a,b\n1,x\ry\n2,z\n",
	"a,b\n1,2\n3\n", "a,b\n1,2\n3,\"open\n4,5\n6,7\n", "a,b\n1,2\n3,x\"y\n4,5\n", "a,b\n1,\"a\nb\nc\"\n2,z\n3,w\"\n",
	"a, b\n 1, 2\n3 ,4 \n", "", "a,b\n", "\n\na,b\n1,2\n", "ünï,b\nZürich,東京\n\"São, Paulo\",x\n",
	"a,b\n1," + strings.Repeat("x", 200000) + "\n2,\"" + strings.Repeat("y", 70000) + "\"\n3,z\n",
	"a\n\"\"\n\n,\n,,\n", "a,b\n\r\n\r\r\n1,2\n", "a,b\n1,2\n\"3\"\"\",4\n5,6",
}

// TestCSVLines: csvSource.read, which splits lines of unquoted fields
// itself, gives the records, lines and errors of csv.Reader alone.
func TestCSVLines(t *testing.T) {
	for _, in := range csvLinesSeeds {
		checkCSVLines(t, in, ",")
		checkCSVLines(t, strings.ReplaceAll(in, ",", ";"), ";")
	}
}

func FuzzCSVLines(f *testing.F) {
	for _, in := range csvLinesSeeds {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) { checkCSVLines(t, in, ",") })
}

func checkCSVLines(t *testing.T, in, delim string) {
	type rec struct {
		fields []string
		line   int
		err    string
	}
	ref := csv.NewReader(strings.NewReader(in))
	ref.Comma = rune(delim[0])
	ref.FieldsPerRecord = -1
	refSrc := &csvSource{r: ref, name: "in", lines: &csvLines{}}
	var want []rec
	for {
		r, err := ref.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			want = append(want, rec{err: refSrc.csvError(err).Error()})
			break
		}
		line, _ := ref.FieldPos(0)
		want = append(want, rec{fields: r, line: line})
	}
	c, err := newCSVSource(strings.NewReader(in), "in", &convertFlags{delimiter: delim, header: false})
	var got []rec
	if err != nil {
		if !strings.Contains(err.Error(), "empty CSV input") {
			got = append(got, rec{err: err.Error()})
		}
	} else {
		got = append(got, rec{fields: c.first, line: 1})
		if len(want) > 0 {
			got[0].line = want[0].line // newCSVSource reads the first record by csv.Reader
		}
		c.first = nil
		for {
			r, line, err := c.read()
			if err == io.EOF {
				break
			}
			if err != nil {
				got = append(got, rec{err: err.Error()})
				break
			}
			got = append(got, rec{fields: append([]string(nil), r...), line: line})
		}
	}
	require.Equal(t, want, got, "%q", in)
}
