package cgotest

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/pqcodec/pqcodec/format"
)

// arrowBatch is the number of levels asked of arrow-go per ReadBatch call.
const arrowBatch = 4096

// readArrow decodes every column chunk of the parquet file in b with
// apache/arrow-go's low-level column chunk readers (file.ColumnChunkReader
// ReadBatch, which returns values and levels as stored, without Arrow's
// schema conversion). A panic inside arrow-go is returned as an error.
func readArrow(b []byte) (out fileData, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("arrow-go panicked: %v", p)
		}
	}()
	// Lift arrow-go's 256 MiB page limits: large_string_map.brotli.parquet
	// holds two 1 GiB pages.
	props := parquet.NewReaderProperties(nil)
	props.MaxUncompressedPageSize = 1 << 31
	props.MaxCompressedPageSize = 1 << 31
	rdr, err := file.NewParquetReader(bytes.NewReader(b), file.WithReadProps(props))
	if err != nil {
		return nil, err
	}
	defer rdr.Close()
	schema := rdr.MetaData().Schema
	out = make(fileData, rdr.NumRowGroups())
	for rg := range out {
		rgr := rdr.RowGroup(rg)
		out[rg] = make([]*chunkData, rgr.NumColumns())
		for col := range out[rg] {
			descr := schema.Column(col)
			c := newChunkData(descr.ColumnPath().String(), format.Type(descr.PhysicalType()),
				int(descr.MaxDefinitionLevel()), int(descr.MaxRepetitionLevel()))
			cr, err := rgr.Column(col)
			if err != nil {
				return nil, fmt.Errorf("row group %d column %d: %w", rg, col, err)
			}
			if err := readArrowChunk(cr, c); err != nil {
				return nil, fmt.Errorf("row group %d column %d: %w", rg, col, err)
			}
			out[rg][col] = c
		}
	}
	return out, nil
}

func readArrowChunk(cr file.ColumnChunkReader, c *chunkData) error {
	switch cr := cr.(type) {
	case *file.BooleanColumnChunkReader:
		return arrowLoop(cr, c, cr.ReadBatch, c.appendBool)
	case *file.Int32ColumnChunkReader:
		return arrowLoop(cr, c, cr.ReadBatch, c.appendInt32)
	case *file.Int64ColumnChunkReader:
		return arrowLoop(cr, c, cr.ReadBatch, c.appendInt64)
	case *file.Int96ColumnChunkReader:
		return arrowLoop(cr, c, cr.ReadBatch, func(v parquet.Int96) { c.appendBytes(v[:]) })
	case *file.Float32ColumnChunkReader:
		return arrowLoop(cr, c, cr.ReadBatch, c.appendFloat)
	case *file.Float64ColumnChunkReader:
		return arrowLoop(cr, c, cr.ReadBatch, c.appendDouble)
	case *file.ByteArrayColumnChunkReader:
		return arrowLoop(cr, c, cr.ReadBatch, func(v parquet.ByteArray) { c.appendBytes(v) })
	case *file.FixedLenByteArrayColumnChunkReader:
		return arrowLoop(cr, c, cr.ReadBatch, func(v parquet.FixedLenByteArray) { c.appendBytes(v) })
	}
	return fmt.Errorf("arrow-go: unexpected column reader %T", cr)
}

// arrowLoop reads a whole chunk with read (a typed ReadBatch), appending
// levels and values to c.
func arrowLoop[T any](cr file.ColumnChunkReader, c *chunkData,
	read func(int64, []T, []int16, []int16) (int64, int, error), add func(T)) error {
	values := make([]T, arrowBatch)
	var def, rep []int16
	if c.MaxDef > 0 {
		def = make([]int16, arrowBatch)
	}
	if c.MaxRep > 0 {
		rep = make([]int16, arrowBatch)
	}
	for cr.HasNext() {
		total, n, err := read(arrowBatch, values, def, rep)
		if err != nil {
			return err
		}
		if total == 0 && n == 0 {
			return fmt.Errorf("arrow-go: ReadBatch made no progress")
		}
		c.NumLevels += int(total)
		if def != nil {
			c.Def = append(c.Def, def[:total]...)
		}
		if rep != nil {
			c.Rep = append(c.Rep, rep[:total]...)
		}
		for _, v := range values[:n] {
			add(v)
		}
	}
	return cr.Err()
}
