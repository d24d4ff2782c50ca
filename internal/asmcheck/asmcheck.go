// Package asmcheck reads Go assembly for amd64 and reports the two mistakes
// that make an AVX2 kernel slow on Intel cores while it runs at full speed on
// AMD ones, where benchmarks on the latter cannot show them:
//
//   - a legacy (non-VEX) SSE instruction in a function that uses Y or Z
//     registers, such as `MOVQ AX, X0` (Go assembles it as the SSE2 MOVQ;
//     `VMOVQ AX, X0` is the VEX one): with the upper halves of the vector
//     registers dirty, Intel cores pay a state transition or a false
//     dependency and blend on every such instruction (one made an RLE kernel
//     47x slower on a Sapphire Rapids Xeon);
//   - an exit (RET, a CALL, a JMP to another symbol, or falling off the end)
//     reachable after an instruction that touched a Y or Z register without a
//     VZEROUPPER (or VZEROALL) on that path, which hands the dirty state to Go
//     code that uses legacy SSE.
//
// The scan knows the assembler's syntax as far as the module's files use it:
// statements split by newlines and semicolons, labels, #define macros with and
// without parameters (expanded where they are used, bodies continued by a
// backslash), branches to labels and to n(PC). It follows the control flow of
// each TEXT symbol instruction by instruction, so a kernel's exits must be
// explicit branches and RETs, not computed jumps (an indirect JMP counts as an
// exit).
package asmcheck

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// A Problem is one finding: the file, the line of the instruction (of the
// macro's use for an instruction of a macro body), the TEXT symbol and what
// is wrong.
type Problem struct {
	File string
	Line int
	Func string
	Msg  string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s:%d: %s: %s", p.File, p.Line, p.Func, p.Msg)
}

// A Func is one TEXT symbol of a file as the checker saw it.
type Func struct {
	Name  string
	Line  int
	Insts []Inst
	// Wide reports whether an instruction of the function names a Y or Z
	// register.
	Wide bool
}

// An Inst is one instruction after macro expansion.
type Inst struct {
	Line   int
	Macro  string // the outermost macro it comes from, if any
	Op     string
	Args   []string
	Labels []string // the labels that name it
}

type macro struct {
	params []string
	hasPar bool
	body   string // statements separated by newlines or semicolons
}

// Parse reads the TEXT symbols of one assembly file.
func Parse(name string, src []byte) ([]Func, error) {
	lines, err := logicalLines(string(src))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	macros := map[string]*macro{}
	var funcs []Func
	var cur *Func
	var pending []string // labels waiting for their instruction
	for _, ln := range lines {
		text := strings.TrimSpace(ln.text)
		if text == "" {
			continue
		}
		if strings.HasPrefix(text, "#") {
			if err := directive(text, macros); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, ln.num, err)
			}
			continue
		}
		stmts, outer, err := expand(text, macros)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, ln.num, err)
		}
		for _, s := range stmts {
			for {
				l, rest, ok := cutLabel(s)
				if !ok {
					break
				}
				if cur == nil {
					return nil, fmt.Errorf("%s:%d: label %s outside a TEXT symbol", name, ln.num, l)
				}
				pending = append(pending, l)
				s = rest
			}
			if s == "" {
				continue
			}
			op, args := splitInst(s)
			switch op {
			case "TEXT":
				if cur != nil {
					funcs = append(funcs, *cur)
				}
				fn := "?"
				if len(args) > 0 {
					fn = strings.TrimSuffix(args[0], "(SB)")
				}
				cur = &Func{Name: fn, Line: ln.num}
				pending = nil
				continue
			case "DATA", "GLOBL", "PCDATA", "FUNCDATA", "NO_LOCAL_POINTERS":
				continue
			}
			if cur == nil {
				return nil, fmt.Errorf("%s:%d: instruction %s outside a TEXT symbol", name, ln.num, op)
			}
			in := Inst{Line: ln.num, Macro: outer, Op: op, Args: args, Labels: pending}
			pending = nil
			for _, a := range args {
				if hasWideReg(a) {
					cur.Wide = true
				}
			}
			cur.Insts = append(cur.Insts, in)
		}
	}
	if cur != nil {
		if len(pending) > 0 {
			// Labels at the very end name the fall-off point.
			cur.Insts = append(cur.Insts, Inst{Line: lines[len(lines)-1].num, Op: "", Labels: pending})
		}
		funcs = append(funcs, *cur)
	}
	return funcs, nil
}

// Check parses one file and returns its problems, sorted by line.
func Check(name string, src []byte) ([]Problem, []Func, error) {
	funcs, err := Parse(name, src)
	if err != nil {
		return nil, nil, err
	}
	var probs []Problem
	for i := range funcs {
		probs = append(probs, checkFunc(name, &funcs[i])...)
	}
	sort.SliceStable(probs, func(i, j int) bool { return probs[i].Line < probs[j].Line })
	return probs, funcs, nil
}

func checkFunc(file string, f *Func) []Problem {
	var probs []Problem
	add := func(in *Inst, msg string) {
		if in.Macro != "" {
			msg += " (in macro " + in.Macro + ")"
		}
		probs = append(probs, Problem{File: file, Line: in.Line, Func: f.Name, Msg: msg})
	}
	if f.Wide {
		for i := range f.Insts {
			in := &f.Insts[i]
			if in.Op == "" || strings.HasPrefix(in.Op, "V") {
				continue
			}
			for _, a := range in.Args {
				if hasXReg(a) {
					add(in, fmt.Sprintf("legacy SSE %s %s in a function that uses Y/Z registers: use its VEX form", in.Op, strings.Join(in.Args, ", ")))
					break
				}
			}
		}
	}

	// Dirty upper state at the entry of each instruction, by a forward
	// fixpoint over the control flow (the state only goes from clean to
	// dirty, so a worklist ends).
	labels := map[string]int{}
	for i, in := range f.Insts {
		for _, l := range in.Labels {
			labels[l] = i
		}
	}
	n := len(f.Insts)
	dirty := make([]bool, n+1) // n is the point past the last instruction
	seen := make([]bool, n+1)
	reported := make([]bool, n+1)
	work := []int{0}
	seen[0] = true
	push := func(i int, d bool) {
		if i < 0 || i > n {
			return
		}
		if !seen[i] || (d && !dirty[i]) {
			seen[i] = true
			dirty[i] = dirty[i] || d
			work = append(work, i)
		}
	}
	exit := func(i int, d bool, what string) {
		if d && !reported[i] {
			reported[i] = true
			add(&f.Insts[i], what+" reachable after Y/Z register use without VZEROUPPER")
		}
	}
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		d := dirty[i]
		if i == n {
			if d && n > 0 && !reported[n] {
				reported[n] = true
				last := f.Insts[n-1]
				probs = append(probs, Problem{File: file, Line: last.Line, Func: f.Name,
					Msg: "end of function (falls through) reachable after Y/Z register use without VZEROUPPER"})
			}
			continue
		}
		in := &f.Insts[i]
		switch in.Op {
		case "VZEROUPPER", "VZEROALL":
			d = false
		default:
			for _, a := range in.Args {
				if hasWideReg(a) {
					d = true
				}
			}
		}
		op := in.Op
		switch {
		case op == "":
			push(i+1, d)
		case op == "RET":
			exit(i, d, "RET")
		case op == "UNDEF" || op == "INT" && len(in.Args) == 1 && in.Args[0] == "$3":
		case op == "CALL":
			exit(i, d, "CALL "+strings.Join(in.Args, ", "))
			push(i+1, d)
		case op == "JMP" || isCondJump(op):
			cond := op != "JMP"
			if len(in.Args) != 1 {
				exit(i, d, op+" with unknown target")
			} else if t, ok := branchTarget(in.Args[0], i, labels); ok {
				push(t, d)
			} else if strings.Contains(in.Args[0], "(SB)") {
				exit(i, d, op+" "+in.Args[0]+" (leaves the function)")
			} else if isLabelName(in.Args[0]) {
				probs = append(probs, Problem{File: file, Line: in.Line, Func: f.Name, Msg: "branch to undefined label " + in.Args[0]})
			} else {
				exit(i, d, "indirect "+op+" "+in.Args[0])
			}
			if cond {
				push(i+1, d)
			}
		default:
			push(i+1, d)
		}
	}
	return probs
}

// isCondJump reports whether op is a conditional branch of the Go assembler
// (JEQ, JNE, JCS, JLT, JHI, ... and the Intel spellings it accepts).
func isCondJump(op string) bool {
	switch op {
	case "JCXZL", "JCXZQ", "LOOP", "LOOPEQ", "LOOPNE", "JRCXZ", "JECXZ":
		return true
	}
	return len(op) >= 2 && op[0] == 'J' && op != "JMP"
}

// branchTarget resolves a branch operand to an instruction index: a label of
// the function or n(PC).
func branchTarget(arg string, i int, labels map[string]int) (int, bool) {
	if t, ok := labels[arg]; ok {
		return t, true
	}
	if strings.HasSuffix(arg, "(PC)") {
		v, err := strconv.Atoi(strings.TrimSuffix(arg, "(PC)"))
		if err == nil {
			return i + v, true
		}
	}
	return 0, false
}

func isLabelName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// hasWideReg reports whether an operand names a Y or Z register.
func hasWideReg(arg string) bool {
	for _, t := range idents(arg) {
		if isReg(t, 'Y') || isReg(t, 'Z') {
			return true
		}
	}
	return false
}

func hasXReg(arg string) bool {
	for _, t := range idents(arg) {
		if isReg(t, 'X') {
			return true
		}
	}
	return false
}

func isReg(t string, c byte) bool {
	if len(t) < 2 || len(t) > 3 || t[0] != c {
		return false
	}
	v, err := strconv.Atoi(t[1:])
	return err == nil && v >= 0 && v <= 31 && strconv.Itoa(v) == t[1:]
}

// idents returns the identifier tokens of s (· counts as a letter, so a
// symbol is one token).
func idents(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		j := identEnd(s, i)
		if j > i {
			out = append(out, s[i:j])
			i = j
			continue
		}
		i++
	}
	return out
}

// identEnd returns the end of the identifier starting at i, or i.
func identEnd(s string, i int) int {
	if i > 0 && isIdentByte(s[i-1]) {
		return i
	}
	if i >= len(s) || !(isIdentStart(s[i])) {
		return i
	}
	j := i
	for j < len(s) && isIdentByte(s[j]) {
		j++
	}
	return j
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentByte(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9'
}

// cutLabel splits "name:" off the front of a statement.
func cutLabel(s string) (label, rest string, ok bool) {
	j := identEnd(s, 0)
	if j == 0 || j >= len(s) || s[j] != ':' {
		return "", s, false
	}
	return s[:j], strings.TrimSpace(s[j+1:]), true
}

// splitInst splits a statement into its opcode and its operands.
func splitInst(s string) (string, []string) {
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, nil
	}
	return s[:i], splitTop(s[i+1:])
}

// splitTop splits s at the commas outside parentheses.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" || len(out) > 0 {
		out = append(out, t)
	}
	return out
}

type line struct {
	num  int
	text string
}

// logicalLines strips comments and joins the lines a backslash continues (in
// macro bodies, where the continuation is a statement separator, kept as
// "\n").
func logicalLines(src string) ([]line, error) {
	var out []line
	var b strings.Builder
	start, num := 1, 1
	inBlock := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inBlock {
			if c == '*' && i+1 < len(src) && src[i+1] == '/' {
				inBlock = false
				i++
			} else if c == '\n' {
				num++
			}
			continue
		}
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			inBlock = true
			i++
		case c == '"':
			b.WriteByte(c)
			for i++; i < len(src) && src[i] != '"' && src[i] != '\n'; i++ {
				if src[i] == '\\' && i+1 < len(src) {
					b.WriteByte(src[i])
					i++
				}
				b.WriteByte(src[i])
			}
			if i < len(src) && src[i] == '"' {
				b.WriteByte('"')
			} else {
				return nil, fmt.Errorf("line %d: unterminated string", num)
			}
		case c == '\\' && continues(src, i+1) > 0:
			// A backslash before the end of the line, spaces and a //
			// comment allowed between them, continues a macro body.
			i = continues(src, i+1)
			num++
			b.WriteByte('\n')
		case c == '\n':
			out = append(out, line{start, b.String()})
			b.Reset()
			num++
			start = num
		default:
			b.WriteByte(c)
		}
	}
	if inBlock {
		return nil, fmt.Errorf("unterminated /* comment")
	}
	out = append(out, line{start, b.String()})
	return out, nil
}

// continues returns the index of the newline that ends the line at src[i:]
// if nothing but spaces, tabs, a carriage return and a // comment come
// before it, and 0 otherwise.
func continues(src string, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r') {
		i++
	}
	if strings.HasPrefix(src[i:], "//") {
		for i < len(src) && src[i] != '\n' {
			i++
		}
	}
	if i < len(src) && src[i] == '\n' {
		return i
	}
	return 0
}

// directive handles a # line: #define and #undef are kept, #include of the
// assembler's headers is ignored, conditionals are refused (the checker
// would have to pick a branch).
func directive(text string, macros map[string]*macro) error {
	text = strings.TrimSpace(strings.TrimPrefix(text, "#"))
	k := identEnd(text, 0)
	word, rest := text[:k], strings.TrimLeft(text[k:], " \t")
	switch word {
	case "include":
		switch strings.TrimSpace(rest) {
		case `"textflag.h"`, `"funcdata.h"`, `"go_asm.h"`, `"go_tls.h"`:
			return nil
		}
		return fmt.Errorf("#include %s: the checker does not read headers", strings.TrimSpace(rest))
	case "undef":
		delete(macros, strings.TrimSpace(rest))
		return nil
	case "define":
		j := identEnd(rest, 0)
		if j == 0 {
			return fmt.Errorf("#define without a name")
		}
		m := &macro{}
		name := rest[:j]
		body := rest[j:]
		if strings.HasPrefix(body, "(") {
			end := strings.IndexByte(body, ')')
			if end < 0 {
				return fmt.Errorf("#define %s: unterminated parameter list", name)
			}
			m.hasPar = true
			for _, p := range strings.Split(body[1:end], ",") {
				if p = strings.TrimSpace(p); p != "" {
					m.params = append(m.params, p)
				}
			}
			body = body[end+1:]
		}
		m.body = body
		macros[name] = m
		return nil
	}
	return fmt.Errorf("#%s is not supported by the checker", word)
}

// expand expands the macros of a line and returns its statements and the
// outermost macro used, if any.
func expand(text string, macros map[string]*macro) ([]string, string, error) {
	outer := ""
	for depth := 0; ; depth++ {
		if depth > 1000 {
			return nil, "", fmt.Errorf("macro expansion too deep")
		}
		out, name, changed, err := expandOnce(text, macros)
		if err != nil {
			return nil, "", err
		}
		if !changed {
			break
		}
		if outer == "" {
			outer = name
		}
		text = out
	}
	var stmts []string
	for _, part := range strings.FieldsFunc(text, func(r rune) bool { return r == ';' || r == '\n' }) {
		if part = strings.TrimSpace(part); part != "" {
			stmts = append(stmts, part)
		}
	}
	return stmts, outer, nil
}

// expandOnce replaces the first macro use in text by its body.
func expandOnce(text string, macros map[string]*macro) (string, string, bool, error) {
	for i := 0; i < len(text); i++ {
		if text[i] == '"' {
			for i++; i < len(text) && text[i] != '"'; i++ {
			}
			continue
		}
		j := identEnd(text, i)
		if j == i {
			continue
		}
		name := text[i:j]
		m, ok := macros[name]
		if !ok {
			i = j - 1
			continue
		}
		body, end := m.body, j
		if m.hasPar {
			k := j
			for k < len(text) && (text[k] == ' ' || text[k] == '\t') {
				k++
			}
			if k >= len(text) || text[k] != '(' {
				i = j - 1
				continue // the name alone is not a use of a function-like macro
			}
			depth, close := 0, -1
			for q := k; q < len(text); q++ {
				if text[q] == '(' {
					depth++
				} else if text[q] == ')' {
					depth--
					if depth == 0 {
						close = q
						break
					}
				}
			}
			if close < 0 {
				return "", "", false, fmt.Errorf("%s: unterminated arguments", name)
			}
			args := splitTop(text[k+1 : close])
			if len(args) != len(m.params) {
				return "", "", false, fmt.Errorf("%s: %d arguments for %d parameters", name, len(args), len(m.params))
			}
			body = substitute(body, m.params, args)
			end = close + 1
		}
		return text[:i] + " " + body + " " + text[end:], name, true, nil
	}
	return text, "", false, nil
}

// substitute replaces the parameters of a macro body by its arguments, token
// by token.
func substitute(body string, params, args []string) string {
	var b strings.Builder
	for i := 0; i < len(body); {
		j := identEnd(body, i)
		if j == i {
			b.WriteByte(body[i])
			i++
			continue
		}
		tok := body[i:j]
		for k, p := range params {
			if tok == p {
				tok = args[k]
				break
			}
		}
		b.WriteString(tok)
		i = j
	}
	return b.String()
}
