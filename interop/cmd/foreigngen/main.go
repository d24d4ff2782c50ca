// Command foreigngen writes the Go writers' part of testdata/foreign: files
// by parquet-go and by arrow-go (pqarrow), one per writer option that
// changes the bytes, each with the rows the writer's own reader gives back,
// rendered with the rules of `pqcodec cat` (NAME.jsonl), and a one-line
// description of its options (NAME.txt). scripts/foreign/gen.mjs then
// cross-checks the rows with DuckDB and writes the manifests.
//
// Usage: go run ./cmd/foreigngen OUTDIR (make foreign-corpus). The data
// comes from a fixed seed, so two runs write the same bytes.
//
// With -compat CORPUS DOC it instead reads every file of the finished
// corpus with pqcodec, pqarrow and parquet-go and rewrites the foreign-writer
// section of DOC (cgo_test/COMPATIBILITY.md).
package main

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// rows is the number of rows of the main files: several pages with small
// page sizes, a few KiB of expected rows per column.
const rows = 1000

func main() {
	if len(os.Args) == 4 && os.Args[1] == "-compat" {
		if err := compat(os.Args[2], os.Args[3]); err != nil {
			fmt.Fprintln(os.Stderr, "foreigngen -compat:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: foreigngen OUTDIR | foreigngen -compat CORPUS DOC")
		os.Exit(2)
	}
	out := os.Args[1]
	if err := writeParquetGo(filepath.Join(out, "parquet-go")); err != nil {
		fmt.Fprintln(os.Stderr, "foreigngen: parquet-go:", err)
		os.Exit(1)
	}
	if err := writeArrowGo(filepath.Join(out, "arrow-go")); err != nil {
		fmt.Fprintln(os.Stderr, "foreigngen: arrow-go:", err)
		os.Exit(1)
	}
}

// save writes name.parquet, name.jsonl (unless rows is nil: the writer
// cannot read the file back) and name.txt under dir.
func save(dir, name string, file []byte, rows [][]byte, desc string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var jsonl []byte
	for _, r := range rows {
		jsonl = append(append(jsonl, r...), '\n')
	}
	base := filepath.Join(dir, name)
	if err := os.WriteFile(base+".parquet", file, 0o644); err != nil {
		return err
	}
	if rows != nil {
		if err := os.WriteFile(base+".jsonl", jsonl, 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(base+".txt", []byte(desc+"\n"), 0o644)
}

// Value generators shared by both writers. Each takes the row number and a
// random source seeded once per file set.

var (
	specialF64 = []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 5e-324,
		2.2250738585072014e-308, math.MaxFloat64, -math.MaxFloat64, 1e21, 1e-7, 0.1}
	specialF32 = []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.Copysign(0, -1)), math.SmallestNonzeroFloat32, 1.1754942e-38, math.MaxFloat32, 0.1, 16777217}
	unicode = "héllo wörld ✓ 日本語 🎉"
)

func genI32(i int, r *rand.Rand) int32 {
	switch i % 4 {
	case 0:
		return math.MinInt32
	case 1:
		return math.MaxInt32
	case 2:
		return 0
	}
	return int32(r.Uint32())
}

func genI64(i int, r *rand.Rand) int64 {
	switch i % 4 {
	case 0:
		return math.MinInt64
	case 1:
		return math.MaxInt64
	case 2:
		return int64(i)
	}
	return int64(r.Uint64())
}

func genF64(i int, r *rand.Rand) float64 {
	if i%3 == 0 {
		return specialF64[(i/3)%len(specialF64)]
	}
	return r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20))
}

func genF32(i int, r *rand.Rand) float32 {
	if i%3 == 0 {
		return specialF32[(i/3)%len(specialF32)]
	}
	return float32(r.NormFloat64() * 1000)
}

func genString(i int, r *rand.Rand) string {
	switch i % 9 {
	case 0:
		return ""
	case 1:
		return unicode
	case 2:
		if i%45 == 2 {
			return strings.Repeat("long-", 205+i%7)
		}
		return "mid " + strings.Repeat("ab", i%40)
	case 3:
		return "tab\tquote\"back\\slash\n\x01\x7f"
	}
	return "row " + strconv.Itoa(i) + " " + strconv.FormatUint(r.Uint64()%1000, 10)
}

func genBytes(i int, r *rand.Rand) []byte {
	b := make([]byte, i%17)
	for k := range b {
		b[k] = byte(r.Uint32())
	}
	return b
}

// JSON rendering with the rules of `pqcodec cat`, written independently of
// package rows.

func appendFloat(dst []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(dst, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(dst, `"-Infinity"`...)
	}
	return strconv.AppendFloat(dst, f, 'g', -1, bits)
}

func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, `\n`...)
			case c == '\r':
				dst = append(dst, `\r`...)
			case c == '\t':
				dst = append(dst, `\t`...)
			case c < 0x20:
				dst = append(dst, fmt.Sprintf(`\u%04x`, c)...)
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			dst = append(dst, `\ufffd`...)
		} else {
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return append(dst, '"')
}

func appendHex(dst, b []byte) []byte {
	return append(append(append(dst, '"'), fmt.Sprintf("%x", b)...), '"')
}

// beBytes returns v in two's complement, big-endian, in n bytes (n <= 0:
// the fewest bytes that hold it).
func beBytes(v *big.Int, n int) []byte {
	if n <= 0 {
		n = 1
		for {
			lim := new(big.Int).Lsh(big.NewInt(1), uint(8*n-1))
			if v.Cmp(lim) < 0 && v.Cmp(new(big.Int).Neg(lim)) >= 0 {
				break
			}
			n++
		}
	}
	u := new(big.Int).Set(v)
	if u.Sign() < 0 {
		u.Add(u, new(big.Int).Lsh(big.NewInt(1), uint(8*n)))
	}
	b := u.Bytes()
	out := make([]byte, n)
	copy(out[n-len(b):], b)
	return out
}

// int96Hex returns the INT96 of a time in nanoseconds since the epoch:
// nanoseconds of the day then the Julian day, little-endian.
func int96Hex(dst []byte, ns int64) []byte {
	const day = 86400 * 1e9
	d, rem := ns/day, ns%day
	if rem < 0 {
		rem += day
		d--
	}
	var b [12]byte
	for k := 0; k < 8; k++ {
		b[k] = byte(uint64(rem) >> (8 * k))
	}
	jd := uint32(d + 2440588)
	for k := 0; k < 4; k++ {
		b[8+k] = byte(jd >> (8 * k))
	}
	return appendHex(dst, b[:])
}

// object writes the fields of one row in the order of names.
func object(names []string, vals map[string][]byte) ([]byte, error) {
	dst := []byte{'{'}
	for i, n := range names {
		v, ok := vals[n]
		if !ok {
			return nil, fmt.Errorf("no value for field %q", n)
		}
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, n)
		dst = append(append(dst, ':'), v...)
	}
	if len(vals) != len(names) {
		return nil, fmt.Errorf("%d values for %d fields", len(vals), len(names))
	}
	return append(dst, '}'), nil
}
