package asmcheck

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestModuleAssembly checks every amd64 assembly file of the module (nested
// modules included: the walk starts at the root module's go.mod and takes
// every *_amd64.s file, and any other .s file whose build line names amd64).
func TestModuleAssembly(t *testing.T) {
	root := moduleRoot(t)
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") ||
				name == "testdata" || name == "vendor" || name == "node_modules" || name == "dist") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".s") {
			return nil
		}
		if strings.HasSuffix(path, "_amd64.s") {
			files = append(files, path)
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if forAMD64(src) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no amd64 assembly under %s", root)
	}
	funcs, wide := 0, 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, path)
		probs, fs, err := Check(rel, src)
		if err != nil {
			t.Error(err)
			continue
		}
		if bytes.Contains(src, []byte("TEXT")) && len(fs) == 0 {
			t.Errorf("%s: no TEXT symbol found", rel)
		}
		for _, f := range fs {
			funcs++
			if f.Wide {
				wide++
			}
		}
		for _, p := range probs {
			t.Error(p)
		}
	}
	t.Logf("%d files, %d TEXT symbols, %d of them use Y/Z registers", len(files), funcs, wide)
}

// forAMD64 reports whether a //go:build line names amd64 (not negated).
func forAMD64(src []byte) bool {
	for _, l := range strings.Split(string(src), "\n") {
		if after, ok := strings.CutPrefix(strings.TrimSpace(l), "//go:build"); ok {
			return strings.Contains(after, "amd64") && !strings.Contains(after, "!amd64")
		}
	}
	return false
}

func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(bytes.TrimSpace(b), []byte("module github.com/pqcodec/pqcodec\n")) {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("root go.mod of github.com/pqcodec/pqcodec not found")
		}
		dir = up
	}
}

// TestCheck runs the checker on small sources, each with the lines of the
// problems it must report.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name  string
		src   string
		lines []int // lines of the problems, in order
	}{
		{"legacy MOVQ in AVX2", `
TEXT ·f(SB), 0, $0
	MOVQ AX, X0
	VPBROADCASTB X0, Y0
	VZEROUPPER
	RET
`, []int{3}},
		{"legacy forms", `
TEXT ·f(SB), 0, $0
	VPXOR Y0, Y0, Y0
	MOVOU (SI), X1
	PINSRQ $1, BX, X0
	PEXTRQ $1, X0, BX
	PXOR X1, X1
	MOVD X1, AX
	MOVSD X1, X2
	PSHUFB X1, X2
	MOVQ AX, BX
	VZEROUPPER
	RET
`, []int{4, 5, 6, 7, 8, 9, 10}},
		{"SSE only function", `
TEXT ·f(SB), 0, $0
	MOVQ AX, X0
	PXOR X1, X1
	MOVOU X1, (DI)
	RET
`, nil},
		{"VEX forms", `
TEXT ·f(SB), 0, $0
	VMOVQ AX, X0
	VMOVD X1, AX
	VPINSRQ $1, BX, X0, X0
	VPBROADCASTQ X0, Y0
	VMOVDQU Y0, (DI)
	VZEROUPPER
	RET
`, nil},
		{"ZMM", `
TEXT ·f(SB), 0, $0
	VMOVDQU64 (SI), Z1
	MOVQ X1, AX
	RET
`, []int{4, 5}},
		{"RET without VZEROUPPER on one path", `
TEXT ·f(SB), 0, $0
	VMOVDQU (SI), Y0
	TESTQ CX, CX
	JZ short
	VZEROUPPER
	RET
short:
	RET
`, []int{9}},
		{"path around the vector loop", `
TEXT ·f(SB), 0, $0
	TESTQ CX, CX
	JZ done
loop:
	VMOVDQU (SI), Y0
	VMOVDQU Y0, (DI)
	DECQ CX
	JNZ loop
	VZEROUPPER
done:
	RET
`, nil},
		{"back edge dirties the loop head", `
TEXT ·f(SB), 0, $0
loop:
	CMPQ CX, $0
	JEQ out
	VMOVDQU (SI), Y0
	DECQ CX
	JMP loop
out:
	RET
`, []int{10}},
		{"tail jump and call", `
TEXT ·f(SB), 0, $0
	VPXOR Y0, Y0, Y0
	CALL ·g(SB)
	JMP ·h(SB)
`, []int{4, 5}},
		{"tail jump after VZEROUPPER", `
TEXT ·f(SB), 0, $0
	VPXOR Y0, Y0, Y0
	VZEROUPPER
	JMP ·h(SB)
TEXT ·g(SB), 0, $0
	JMP ·f(SB)
`, nil},
		{"falls off the end", `
TEXT ·f(SB), 0, $0
	VPXOR Y0, Y0, Y0
	ADDQ $1, AX
TEXT ·g(SB), 0, $0
	RET
`, []int{4}},
		{"relative branch", `
TEXT ·f(SB), 0, $0
	VPXOR Y0, Y0, Y0
	JZ 3(PC)
	VZEROUPPER
	RET
	RET
`, []int{7}},
		{"indirect jump", `
TEXT ·f(SB), 0, $0
	VPXOR Y0, Y0, Y0
	JMP AX
`, []int{4}},
		{"macro with parameters, continued without semicolons", `
#define LOAD(off, r) \
	VMOVDQU off(SI), r \
	MOVQ AX, X3

TEXT ·f(SB), 0, $0
	LOAD(32, Y1)
	VZEROUPPER
	RET
`, []int{7}},
		{"continuation after a comment", `
#define LOAD(r) \
	VMOVDQU (SI), r \ // comment, then the next line
	MOVQ AX, X3 \
	VZEROUPPER

TEXT ·f(SB), 0, $0
	LOAD(Y1)
	RET
`, []int{8}},
		{"nested macros with semicolons", `
#define PAIR(x, y) MOVO x, y; PUNPCKLBW x, y
#define ROUND(a, b, c, d) PAIR(a, b); PAIR(c, d)
#define EXIT RET

TEXT ·f(SB), 0, $0
	VPXOR Y2, Y2, Y2
	ROUND(X0, X1, X2, X3)
	EXIT
`, []int{8, 8, 8, 8, 9}},
		{"macro bringing Y registers into an SSE-looking function", `
#define WIDE VPXOR Y0, Y0, Y0
TEXT ·f(SB), 0, $0
	MOVQ AX, X0
	WIDE
	VZEROUPPER
	RET
`, []int{4}},
		{"labels on one line with an instruction and comments", `
TEXT ·f(SB), 0, $0 // comment MOVQ AX, X0
	VPXOR Y0, Y0, Y0 /* MOVQ AX, X1 */
a: b: JMP c
c:	VZEROUPPER; RET
`, nil},
		{"undefined label", `
TEXT ·f(SB), 0, $0
	JMP nowhere
`, []int{3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			probs, _, err := Check("x.s", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, p := range probs {
				got = append(got, p.Line)
			}
			if !equal(got, tc.lines) {
				t.Errorf("problems at lines %v, want %v:", got, tc.lines)
				for _, p := range probs {
					t.Log(p)
				}
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for _, src := range []string{
		"#ifdef GOAMD64_v3\n#endif\n",
		"#include \"other.h\"\n",
		"#define F(a, b) MOVQ a, b\nTEXT ·f(SB), 0, $0\n\tF(AX)\n",
		"\tMOVQ AX, BX\n",
		"/* unterminated\n",
	} {
		if _, err := Parse("x.s", []byte(src)); err == nil {
			t.Errorf("no error for %q", src)
		}
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
