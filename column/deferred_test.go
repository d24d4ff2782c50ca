package column

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/encoding/plain"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/enctable"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// canary fills the bytes of b past its capacity, up to the end of its
// backing array of len(b)+pad... as given by full, with 0xA5, and returns
// a check that they are untouched.
func canary(full []byte, c int) func() bool {
	for i := c; i < len(full); i++ {
		full[i] = 0xA5
	}
	return func() bool {
		for _, x := range full[c:] {
			if x != 0xA5 {
				return false
			}
		}
		return true
	}
}

// plainOf returns the PLAIN encoding of every value of v: a bitwise
// comparison of two Values of one type (NaNs included).
func plainOf(t *testing.T, v *Values) []byte {
	t.Helper()
	row := enctable.Lookup(format.Plain, v.Type)
	b, err := row.Encode(nil, (*enctable.Values)(v))
	require.NoError(t, err)
	return b
}

// compareDeferred reads column col of row group rg of f twice, page by
// page, with ReadPage and with ReadPageDeferred, the second taking each
// page's values with AppendValues in random steps into a Values that
// starts with a few values and whose byte arrays get random capacities
// with canaries past them; both must give the same levels and values. seek
// is a row SeekRow goes to first in both (-1: none); slice has SliceRows
// cut the first and last row of every page of both. It returns the number
// of pages whose values stayed encoded.
func compareDeferred(t *testing.T, f *File, rg, col int, seek int64, slice bool, rng *rand.Rand) (deferredPages int) {
	var want, got Page
	ra, err := f.Column(rg, col)
	require.NoError(t, err)
	rb, err := f.Column(rg, col)
	require.NoError(t, err)
	if seek >= 0 {
		errA, errB := ra.SeekRow(seek), rb.SeekRow(seek)
		require.Equal(t, errA == nil, errB == nil, "%v / %v", errA, errB)
		if errA != nil {
			return 0
		}
	}
	for page := 0; ; page++ {
		errA := ra.ReadPage(&want)
		errB := rb.ReadPageDeferred(&got)
		if errA != nil {
			require.Error(t, errB, "page %d: ReadPage: %v", page, errA)
			if errors.Is(errA, io.EOF) {
				require.ErrorIs(t, errB, io.EOF)
			}
			return deferredPages
		}
		if errB != nil {
			// Only a damaged byte array section is reported later
			// rather than sooner; the other way round is a bug.
			t.Fatalf("page %d: ReadPageDeferred: %v, ReadPage read it", page, errB)
		}
		if slice {
			ra.SliceRows(&want, 1, want.NumRows()-1)
			rb.SliceRows(&got, 1, got.NumRows()-1)
		}
		require.Equal(t, want.NumLevels, got.NumLevels)
		require.Equal(t, want.DefLevels, got.DefLevels)
		require.Equal(t, want.RepLevels, got.RepLevels)
		require.Equal(t, want.NumValues(), got.NumValues(), "page %d", page)
		if got.rawN > 0 {
			deferredPages++
			require.Zero(t, got.Values.Len())
		}
		if want.Dictionary != nil {
			continue
		}
		// dst starts with up to 3 of the page's values.
		pre := min(3, want.Values.Len())
		dst := Values{Type: want.Values.Type, TypeLength: want.Values.TypeLength}
		var backing []byte
		var check func() bool
		if dst.Type == format.ByteArray || dst.Type == format.FixedLenByteArray {
			var total int
			if dst.Type == format.ByteArray && want.Values.Len() > 0 {
				total = int(want.Values.Offsets[want.Values.Len()])
			} else {
				total = len(want.Values.Bytes)
			}
			c := []int{0, 5, total / 2, total + 40, 2*total + 64}[rng.IntN(5)]
			backing = make([]byte, c+64)
			check = canary(backing, c)
			dst.Bytes = backing[:0:c]
		}
		(*enctable.Values)(&dst).AppendRange((*enctable.Values)(&want.Values), 0, pre)
		expect := Values{Type: dst.Type, TypeLength: dst.TypeLength}
		(*enctable.Values)(&expect).AppendRange((*enctable.Values)(&want.Values), 0, pre)
		(*enctable.Values)(&expect).AppendRange((*enctable.Values)(&want.Values), 0, want.Values.Len())
		for got.ValuesLeft() > 0 {
			n := got.ValuesLeft()
			if rng.IntN(3) > 0 {
				n = rng.IntN(min(n, 100) + 1)
			}
			require.NoError(t, rb.AppendValues(&got, &dst, n))
		}
		require.Zero(t, got.ValuesLeft())
		require.Equal(t, expect.Len(), dst.Len())
		require.Equal(t, plainOf(t, &expect), plainOf(t, &dst), "page %d", page)
		if check != nil {
			require.True(t, check(), "page %d: bytes written past the capacity of dst", page)
		}
	}
}

// deferredFiles lists the corpus files and the foreign writers' files.
func deferredFiles(t *testing.T) []string {
	files := testcorpus.Files(t, "data", ".parquet")
	require.NoError(t, filepath.WalkDir("../testdata/foreign", func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".parquet") {
			files = append(files, p)
		}
		return err
	}))
	return files
}

// TestReadPageDeferred checks, on every corpus and foreign file, every
// column chunk, that ReadPageDeferred and AppendValues give the levels and
// values ReadPage gives, from the chunk's start, after a SeekRow into its
// middle (whose first page is trimmed) and with SliceRows cutting every
// page's first and last rows, into buffers of every
// capacity, never writing past them.
func TestReadPageDeferred(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	deferred, files := 0, 0
	for _, path := range deferredFiles(t) {
		name := filepath.Base(path)
		if name == "large_string_map.brotli.parquet" {
			continue // 2 GiB of values: TestLargeStringMap
		}
		f, err := openFile(t, path)
		if err != nil {
			continue
		}
		files++
		t.Run(name, func(t *testing.T) {
			for rg := range f.NumRowGroups() {
				for col := range f.NumColumns() {
					deferred += compareDeferred(t, f, rg, col, -1, false, rng)
					compareDeferred(t, f, rg, col, -1, true, rng)
					if n := f.MetaData().RowGroups[rg].NumRows; n > 2 {
						compareDeferred(t, f, rg, col, n/2+1, false, rng)
					}
				}
			}
		})
	}
	require.Greater(t, files, 150)
	require.Greater(t, deferred, 500)
}

// plainByteArrays returns the PLAIN encoding of values.
func plainByteArrays(values ...string) []byte {
	var b []byte
	for _, v := range values {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(v)))
		b = append(b, v...)
	}
	return b
}

// TestAppendByteArraysDamaged checks appendByteArrays on damaged sections:
// ErrCorrupt, dst as it was, nothing written past its capacity.
func TestAppendByteArraysDamaged(t *testing.T) {
	good := plainByteArrays("alpha", "", strings.Repeat("x", 40), "beta")
	for name, src := range map[string][]byte{
		"truncated length":  good[:len(good)-6],
		"length past end":   append(plainByteArrays("alpha"), 0xff, 0xff, 0xff, 0x7f, 'a'),
		"huge length":       append(plainByteArrays("alpha"), 0xff, 0xff, 0xff, 0xff),
		"short by one byte": good[:len(good)-1],
	} {
		t.Run(name, func(t *testing.T) {
			for _, c := range []int{0, 8, 64, 1 << 10} {
				backing := make([]byte, c+64)
				check := canary(backing, c)
				b := append(backing[:0:c], "pre"[:min(3, c)]...)
				offs := []int32{0, int32(len(b))}
				src := append([]byte(nil), src...)
				gb, goffs, _, err := appendByteArrays(b, offs, src, 4)
				require.ErrorIs(t, err, ErrCorrupt)
				require.Equal(t, b, gb)
				require.Equal(t, offs, goffs)
				require.True(t, check())
			}
		})
	}
	b, offs, used, err := appendByteArrays(nil, nil, good, 4)
	require.NoError(t, err)
	require.Equal(t, len(good), used)
	require.Equal(t, []int32{0, 5, 5, 45, 49}, offs)
	require.Equal(t, "alpha"+strings.Repeat("x", 40)+"beta", string(b))
}

// TestReadPageDeferredDamaged reads, with ReadPageDeferred, a file whose
// PLAIN BYTE_ARRAY page has a length past the end of the page (written by
// hand, uncompressed): the AppendValues that reaches it fails with
// ErrCorrupt naming the page, and so does every one after it.
func TestReadPageDeferredDamaged(t *testing.T) {
	data := plainByteArrays("a", "bb", "ccc")
	data = append(data, 0xff, 0, 0, 0, 'x') // value 3: 255 bytes of 1
	file := plainByteArrayFile(t, data, 4)
	f, err := Open(bytes.NewReader(file), int64(len(file)))
	require.NoError(t, err)
	r, err := f.Column(0, 0)
	require.NoError(t, err)
	var p Page
	require.NoError(t, r.ReadPageDeferred(&p))
	require.Equal(t, 4, p.NumValues())
	dst := Values{Type: format.ByteArray}
	require.NoError(t, r.AppendValues(&p, &dst, 2))
	err = r.AppendValues(&p, &dst, 2)
	require.ErrorIs(t, err, ErrCorrupt)
	var pe *PageError
	require.ErrorAs(t, err, &pe)
	require.Equal(t, 2, dst.Len())
	require.Equal(t, "abb", string(dst.Bytes))
	require.Zero(t, p.ValuesLeft())
	// ReadPage reports it at once.
	r, err = f.Column(0, 0)
	require.NoError(t, err)
	require.ErrorIs(t, r.ReadPage(&p), ErrCorrupt)
}

// plainByteArrayFile writes a file of one required BYTE_ARRAY column whose
// one uncompressed v1 page holds n values in PLAIN bytes data.
func plainByteArrayFile(t *testing.T, data []byte, n int) []byte {
	t.Helper()
	file := []byte("PAR1")
	dataAt := int64(len(file))
	file = format.AppendPageHeader(file, &format.PageHeader{
		Type: format.DataPage, UncompressedPageSize: int32(len(data)), CompressedPageSize: int32(len(data)),
		HasDataPageHeader: true, DataPageHeader: format.DataPageHeader{
			NumValues: int32(n), Encoding: format.Plain,
			DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE,
		},
	})
	file = append(file, data...)
	byteArray, required, one := format.ByteArray, format.Required, int32(1)
	meta := format.FileMetaData{
		Version: 1,
		Schema: []format.SchemaElement{
			{Name: "schema", NumChildren: &one},
			{Name: "s", Type: &byteArray, RepetitionType: &required},
		},
		NumRows: int64(n),
		RowGroups: []format.RowGroup{{
			NumRows: int64(n), TotalByteSize: int64(len(file)),
			Columns: []format.ColumnChunk{{FileOffset: dataAt, MetaData: &format.ColumnMetaData{
				Type: format.ByteArray, Encodings: []format.Encoding{format.Plain},
				PathInSchema: []string{"s"}, Codec: format.Uncompressed, NumValues: int64(n),
				TotalUncompressedSize: int64(len(file)) - dataAt, TotalCompressedSize: int64(len(file)) - dataAt,
				DataPageOffset: dataAt,
			}}},
		}},
	}
	footer := format.AppendFileMetaData(nil, &meta)
	file = append(file, footer...)
	file = binary.LittleEndian.AppendUint32(file, uint32(len(footer)))
	return append(file, "PAR1"...)
}

// FuzzAppendByteArrays decodes arbitrary bytes as n PLAIN byte arrays
// into buffers of a fuzzed capacity with canaries past it: the result, or
// the error, must be plain.DecodeByteArray's, and nothing is written past
// the capacity.
func FuzzAppendByteArrays(f *testing.F) {
	f.Add(plainByteArrays("a", "bb", strings.Repeat("z", 33)), uint8(3), uint16(10))
	f.Add(plainByteArrays("abc", "d"), uint8(5), uint16(0))
	f.Add([]byte{1, 0, 0}, uint8(1), uint16(64))
	f.Fuzz(func(t *testing.T, src []byte, n uint8, c uint16) {
		backing := make([]byte, int(c)+64)
		check := canary(backing, int(c))
		b := append(backing[:0:c], "x"[:min(1, int(c))]...)
		offs := []int32{0, int32(len(b))}
		gb, goffs, used, err := appendByteArrays(b, offs, src, int(n))
		require.True(t, check(), "written past the capacity")
		end, werr := plainByteArrayEnd(src, int(n))
		if werr != nil {
			require.ErrorIs(t, err, ErrCorrupt)
			require.Equal(t, b, gb)
			require.Equal(t, offs, goffs)
			return
		}
		require.NoError(t, err)
		require.Equal(t, end, used)
		wb, woffs, err := plain.DecodeByteArray(append([]byte(nil), b...), []int32{0, int32(len(b))}, src[:end])
		require.NoError(t, err)
		require.Equal(t, string(wb), string(gb))
		require.Equal(t, woffs, goffs)
	})
}

// BenchmarkReadChunksDeferred is BenchmarkReadChunks with ReadPageDeferred
// and AppendValues: each chunk's values decoded straight into one Values.
func BenchmarkReadChunksDeferred(b *testing.B) {
	benchReadChunks(b, func(r *Reader, p *Page, dst *Values) error {
		if err := r.ReadPageDeferred(p); err != nil {
			return err
		}
		return r.AppendValues(p, dst, p.ValuesLeft())
	})
}
