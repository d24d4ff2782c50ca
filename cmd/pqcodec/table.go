package main

import (
	"strings"
	"unicode/utf8"
)

// table lays out rows of cells in columns: text columns left-aligned,
// numeric columns (those whose alignment byte is 'r') right-aligned.
type table struct {
	align string // one byte per column: 'l' or 'r'
	rows  [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

// write appends the table to b, each line prefixed by indent, columns two
// spaces apart, without trailing spaces.
func (t *table) write(b *strings.Builder, indent string) {
	var width []int
	for _, r := range t.rows {
		for i, c := range r {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range t.rows {
		var line strings.Builder
		line.WriteString(indent)
		for i, c := range r {
			if i > 0 {
				line.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if i < len(t.align) && t.align[i] == 'r' {
				line.WriteString(pad + c)
			} else {
				line.WriteString(c + pad)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
}
