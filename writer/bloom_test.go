package writer_test

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/bloom"
	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/writer"
)

// valueHashes returns the bloom hash of each value of v, hashed through
// the typed functions of package bloom.
func valueHashes(v *column.Values) []uint64 {
	var h []uint64
	switch v.Type {
	case format.Int32:
		for _, x := range v.Int32s {
			h = append(h, bloom.HashInt32(x))
		}
	case format.Int64:
		for _, x := range v.Int64s {
			h = append(h, bloom.HashInt64(x))
		}
	case format.Int96:
		for _, x := range v.Int96s {
			h = append(h, bloom.HashInt96(x))
		}
	case format.Float:
		for _, x := range v.Floats {
			h = append(h, bloom.HashFloat32(x))
		}
	case format.Double:
		for _, x := range v.Doubles {
			h = append(h, bloom.HashFloat64(x))
		}
	case format.FixedLenByteArray:
		for i := 0; i < v.Len(); i++ {
			h = append(h, bloom.HashBytes(v.Bytes[i*v.TypeLength:(i+1)*v.TypeLength]))
		}
	case format.ByteArray:
		for i := 0; i+1 < len(v.Offsets); i++ {
			h = append(h, bloom.HashBytes(v.Bytes[v.Offsets[i]:v.Offsets[i+1]]))
		}
	}
	return h
}

// absentHash returns the hash of a random value of type t (PLAIN bytes of
// its size, 8 bytes for byte arrays).
func absentHash(r *rand.Rand, t format.Type, typeLen int) uint64 {
	n := map[format.Type]int{format.Int32: 4, format.Float: 4, format.Int64: 8, format.Double: 8,
		format.Int96: 12, format.FixedLenByteArray: typeLen, format.ByteArray: 8}[t]
	b := make([]byte, (n+15)/8*8)
	for i := 0; i < len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], r.Uint64())
	}
	return bloom.Hash(b[:n])
}

// TestBloomFilterCorpus writes every corpus file with bloom filters on,
// its row groups as they were, and checks with column.File.BloomFilter
// that every value of each chunk passes its chunk's filter, and that
// values absent from a chunk of ndv/8 to ndv distinct values pass at
// about the probability asked, or less.
func TestBloomFilterCorpus(t *testing.T) {
	const ndv, fpp = 1024, 0.01
	f, err := codecfactory.New()
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(1, 2))
	var files, chunks, checked, probes, falsePos int
	for _, path := range corpusInputs(t) {
		if strings.HasSuffix(path, "large_string_map.brotli.parquet") {
			continue
		}
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		if testing.Short() && len(b) > 1<<20 {
			continue
		}
		src, err := readFile(b)
		if err != nil {
			continue
		}
		out, err := writeFile(src, 0, writer.WithCodecs(f), writer.WithBloomFilter(ndv, fpp))
		require.NoError(t, err, path)
		back, err := readFile(out)
		require.NoError(t, err, path)
		cf, err := column.Open(bytes.NewReader(out), int64(len(out)))
		require.NoError(t, err)
		files++
		for i, leaf := range back.schema.Leaves() {
			row := 0
			for g, n := range back.rgRows {
				md := cf.MetaData().RowGroups[g].Columns[i].MetaData
				bf, err := cf.BloomFilter(g, i)
				require.NoError(t, err, path)
				v, _, _ := back.cols[i].window(row, row+int(n))
				row += int(n)
				if *leaf.Element.Type == format.Boolean {
					require.Nil(t, bf, "%s: filter for BOOLEAN column %v", path, leaf.Path())
					continue
				}
				require.NotNil(t, bf, "%s: no filter for column %v", path, leaf.Path())
				require.Equal(t, int(*md.BloomFilterLength), len(bf.MarshalTo(nil)))
				require.Equal(t, bloom.NumBytesFor(ndv, fpp), bf.NumBytes())
				chunks++
				seen := map[uint64]bool{}
				for k, h := range valueHashes(v) {
					require.True(t, bf.Check(h), "%s: column %v, row group %d: value %d rejected", path, leaf.Path(), g, k)
					seen[h] = true
					checked++
				}
				if len(seen) > ndv || len(seen) < ndv/8 {
					continue // too full for the fpp, or too empty to tell
				}
				for range 200 {
					h := absentHash(r, *leaf.Element.Type, v.TypeLength)
					if seen[h] {
						continue
					}
					probes++
					if bf.Check(h) {
						falsePos++
					}
				}
			}
		}
	}
	rate := float64(falsePos) / float64(probes)
	t.Logf("%d files, %d chunks, %d values found; %d of %d absent values passed (%.4f)", files, chunks, checked, falsePos, probes, rate)
	require.Greater(t, files, 100)
	require.Greater(t, probes, 5_000)
	require.Less(t, rate, 2*fpp)
}

func TestBloomFilterOption(t *testing.T) {
	s := testSchema(t)
	for _, o := range []writer.Option{writer.WithBloomFilter(-1, 0.1), writer.WithBloomFilter(10, 0), writer.WithBloomFilter(10, 1)} {
		_, err := writer.New(&bytes.Buffer{}, s, o)
		require.ErrorIs(t, err, writer.ErrOption)
	}
	// Off by default and with ndv 0; on for one column only.
	var buf bytes.Buffer
	w, err := writer.New(&buf, s, writer.WithBloomFilter(100, 0.1), writer.WithColumn("id", writer.WithBloomFilter(0, 0)))
	require.NoError(t, err)
	require.NoError(t, w.Write(0, int64s(1, 2, 3), nil, nil))
	require.NoError(t, w.Write(1, strs("x", "y"), []int16{1, 0, 1}, nil))
	require.NoError(t, w.Write(2, strs("a"), []int16{3, 2, 0, 1}, []int16{0, 1, 0, 0}))
	require.NoError(t, w.Write(3, &column.Values{Type: format.FixedLenByteArray, TypeLength: 2, Bytes: []byte{0, 0x3c, 0, 0xc0, 0xff, 0x7f}}, nil, nil))
	require.NoError(t, w.Close())
	cf, err := column.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	for i := range cf.NumColumns() {
		bf, err := cf.BloomFilter(0, i)
		require.NoError(t, err)
		require.Equal(t, i != 0, bf != nil, "column %d", i)
	}
}
