package cgotest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	pq "github.com/parquet-go/parquet-go"

	"github.com/pqcodec/pqcodec/format"
)

// readParquetGo decodes every column chunk of the parquet file in b with
// parquet-go/parquet-go's page reader (ColumnChunk.Pages, Page.Values),
// taking each value's levels as parquet-go reports them. A panic inside
// parquet-go is returned as an error.
func readParquetGo(b []byte) (out fileData, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("parquet-go panicked: %v", p)
		}
	}()
	f, err := pq.OpenFile(bytes.NewReader(b), int64(len(b)), pq.SkipPageIndex(true), pq.SkipBloomFilters(true))
	if err != nil {
		return nil, err
	}
	paths := f.Schema().Columns()
	groups := f.RowGroups()
	out = make(fileData, len(groups))
	buf := make([]pq.Value, 4096)
	for rg, g := range groups {
		chunks := g.ColumnChunks()
		if len(chunks) != len(paths) {
			return nil, fmt.Errorf("parquet-go: row group %d has %d chunks, schema %d columns", rg, len(chunks), len(paths))
		}
		out[rg] = make([]*chunkData, len(chunks))
		for col, cc := range chunks {
			leaf, ok := f.Schema().Lookup(paths[col]...)
			if !ok {
				return nil, fmt.Errorf("parquet-go: no leaf %v", paths[col])
			}
			// The physical type as the footer states it: cc.Type() is a logical view
			// (a NULL-annotated INT32 column reports no physical kind).
			t := format.Type(f.Metadata().RowGroups[rg].Columns[col].MetaData.Type)
			c := newChunkData(strings.Join(paths[col], "."), t,
				leaf.MaxDefinitionLevel, leaf.MaxRepetitionLevel)
			if err := readParquetGoChunk(cc, c, buf); err != nil {
				return nil, fmt.Errorf("row group %d column %d: %w", rg, col, err)
			}
			out[rg][col] = c
		}
	}
	return out, nil
}

// readParquetGoChunk's page loop is the twin of parquetGoBench.chunk
// (bench_test.go), which only checksums the values.
func readParquetGoChunk(cc pq.ColumnChunk, c *chunkData, buf []pq.Value) error {
	pages := cc.Pages()
	defer pages.Close()
	for {
		p, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		values := p.Values()
		for {
			n, err := values.ReadValues(buf)
			for _, v := range buf[:n] {
				c.NumLevels++
				if c.MaxDef > 0 {
					c.Def = append(c.Def, int16(v.DefinitionLevel()))
				}
				if c.MaxRep > 0 {
					c.Rep = append(c.Rep, int16(v.RepetitionLevel()))
				}
				if v.IsNull() {
					continue
				}
				switch c.Type {
				case format.Boolean:
					c.appendBool(v.Boolean())
				case format.Int32:
					c.appendInt32(v.Int32())
				case format.Int64:
					c.appendInt64(v.Int64())
				case format.Float:
					c.appendFloat(v.Float())
				case format.Double:
					c.appendDouble(v.Double())
				default: // INT96, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY: the bytes as stored
					c.appendBytes(v.Bytes())
				}
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				pq.Release(p)
				return err
			}
		}
		pq.Release(p)
	}
}
