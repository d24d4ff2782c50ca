package writer_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/writer"
)

// pageCounts returns the number of dictionary-encoded and of other data
// pages of the only chunk of b, the size of its dictionary page (0 when
// none) and the file's size.
func pageCounts(t *testing.T, b []byte) (dictPages, otherPages, dictSize int) {
	t.Helper()
	f, err := column.Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	md := f.MetaData().RowGroups[0].Columns[0].MetaData
	for _, s := range md.EncodingStats {
		switch {
		case s.PageType == format.DictionaryPage:
		case s.Encoding == format.RLEDictionary:
			dictPages += int(s.Count)
		default:
			otherPages += int(s.Count)
		}
	}
	if md.DictionaryPageOffset != nil {
		dictSize = int(md.DataPageOffset - *md.DictionaryPageOffset)
	}
	return dictPages, otherPages, dictSize
}

func writeInt32s(t *testing.T, xs []int32, opts ...writer.Option) []byte {
	t.Helper()
	s, err := writer.Message("m", writer.Leaf("v", format.Required, format.Int32))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := writer.New(&buf, s, append([]writer.Option{writer.WithCodec(codecfactory.Snappy)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(0, &column.Values{Type: format.Int32, Int32s: xs}, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestDictionaryFallbackPays checks the rule of dictionary fallback before
// the limit: a random walk, whose values keep coming new and whose first
// page the dictionary still shrinks before compression, falls back after a
// few pages to PLAIN, which compresses better, and makes a smaller file
// than with the dictionary kept up to its limit; a column of few distinct
// values keeps its dictionary on every page.
func TestDictionaryFallbackPays(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	walk := make([]int32, 400_000)
	x := int32(1_000_000)
	for i := range walk {
		x += int32(r.IntN(64)) - 32
		walk[i] = x
	}
	b := writeInt32s(t, walk)
	dictPages, plainPages, dictSize := pageCounts(t, b)
	if dictPages == 0 || dictPages > 5 || plainPages == 0 || dictSize > 64<<10 {
		t.Errorf("random walk: %d dictionary pages, %d PLAIN pages, dictionary page of %d bytes; want a fallback after at most 5 pages",
			dictPages, plainPages, dictSize)
	}
	// Without the rule the dictionary would grow to its 1 MiB limit (about
	// 20 pages here): the file would be larger.
	plain := writeInt32s(t, walk, writer.WithDictionary(false))
	if len(b) > len(plain)+len(plain)/50 {
		t.Errorf("random walk: %d bytes with the fallback, %d with PLAIN only", len(b), len(plain))
	}

	// Ids, every value new: the first page is cut once the trial's 64 KiB
	// of values are in, and the chunk falls back after it, with a
	// dictionary of those values only.
	ids := make([]int32, 400_000)
	for i := range ids {
		ids[i] = int32(i*3 + r.IntN(3))
	}
	b = writeInt32s(t, ids)
	if dictPages, plainPages, dictSize := pageCounts(t, b); dictPages != 1 || plainPages == 0 || dictSize > 72<<10 {
		t.Errorf("ids: %d dictionary pages, %d PLAIN pages, dictionary page of %d bytes; want 1, some, at most 72 KiB",
			dictPages, plainPages, dictSize)
	}

	few := make([]int32, 400_000)
	for i := range few {
		few[i] = int32(r.IntN(1000)) * 7919
	}
	b = writeInt32s(t, few)
	if dictPages, plainPages, _ := pageCounts(t, b); dictPages != 20 || plainPages != 0 {
		t.Errorf("1000 distinct values: %d dictionary pages, %d PLAIN pages; want 20 and 0", dictPages, plainPages)
	}
	plain = writeInt32s(t, few, writer.WithDictionary(false))
	if len(b) >= len(plain) {
		t.Errorf("1000 distinct values: %d bytes with the dictionary, %d without", len(b), len(plain))
	}
}
