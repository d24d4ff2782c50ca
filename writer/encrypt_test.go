package writer_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec"
	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/unsafecast"
	"github.com/pqcodec/pqcodec/writer"
)

// Keys of the encryption tests: AES-128 footer and column keys and an
// AES-256 column key.
var (
	encFooter = []byte("0123456789012345")
	encKeyA   = []byte("1234567890123450")
	encKeyB   = []byte("12345678901234567890123456789012")
	encPrefix = []byte("table-2026-12-02")
)

// encCase is one encryption configuration with the keys that read it.
type encCase struct {
	name string
	wp   encryption.WriteProperties
	rp   encryption.Properties
	// clear lists the columns left unencrypted.
	clear []string
}

func encCases() []encCase {
	colKeys := map[string]encryption.ColumnKey{
		"id":                {Key: encKeyA, KeyMetadata: []byte("kA")},
		"tags.list.element": {Key: encKeyB, KeyMetadata: []byte("kB")},
	}
	readKeys := map[string][]byte{"id": encKeyA, "tags.list.element": encKeyB}
	retriever := func(md []byte) ([]byte, error) {
		switch string(md) {
		case "kf":
			return encFooter, nil
		case "kA":
			return encKeyA, nil
		case "kB":
			return encKeyB, nil
		}
		return nil, fmt.Errorf("unknown key id %q", md)
	}
	return []encCase{
		{name: "uniform-gcm", wp: encryption.WriteProperties{FooterKey: encFooter, FooterKeyMetadata: []byte("kf")},
			rp: encryption.Properties{FooterKey: encFooter}},
		{name: "uniform-ctr", wp: encryption.WriteProperties{Algorithm: encryption.AesGcmCtrV1, FooterKey: encFooter},
			rp: encryption.Properties{FooterKey: encFooter}},
		{name: "columns-gcm-retriever", wp: encryption.WriteProperties{FooterKey: encFooter, FooterKeyMetadata: []byte("kf"), ColumnKeys: colKeys},
			rp: encryption.Properties{KeyRetriever: retriever}, clear: []string{"name"}},
		{name: "columns-ctr", wp: encryption.WriteProperties{Algorithm: encryption.AesGcmCtrV1, FooterKey: encFooter, ColumnKeys: colKeys},
			rp: encryption.Properties{FooterKey: encFooter, ColumnKeys: readKeys}, clear: []string{"name"}},
		{name: "plaintext-footer-gcm", wp: encryption.WriteProperties{FooterKey: encFooter, PlaintextFooter: true, ColumnKeys: colKeys},
			rp: encryption.Properties{FooterKey: encFooter, ColumnKeys: readKeys}, clear: []string{"name"}},
		{name: "plaintext-footer-ctr-footer-key-column", wp: encryption.WriteProperties{Algorithm: encryption.AesGcmCtrV1, FooterKey: encFooter,
			PlaintextFooter: true, ColumnKeys: map[string]encryption.ColumnKey{"name": {}, "id": {Key: encKeyA}}},
			rp: encryption.Properties{FooterKey: encFooter, ColumnKeys: readKeys}, clear: []string{"tags.list.element"}},
		{name: "aad-prefix-stored", wp: encryption.WriteProperties{FooterKey: encFooter, AADPrefix: encPrefix, ColumnKeys: colKeys},
			rp: encryption.Properties{FooterKey: encFooter, ColumnKeys: readKeys}, clear: []string{"name"}},
		{name: "aad-prefix-supplied", wp: encryption.WriteProperties{FooterKey: encFooter, AADPrefix: encPrefix, DisableAADPrefixStorage: true},
			rp: encryption.Properties{FooterKey: encFooter, AADPrefix: encPrefix}},
		{name: "aad-prefix-supplied-plaintext-footer-ctr", wp: encryption.WriteProperties{Algorithm: encryption.AesGcmCtrV1, FooterKey: encFooter,
			AADPrefix: encPrefix, DisableAADPrefixStorage: true, PlaintextFooter: true},
			rp: encryption.Properties{FooterKey: encFooter, AADPrefix: encPrefix}},
	}
}

// writeEncSample writes 3 row groups of sampleBatches with opts.
func writeEncSample(t testing.TB, opts ...writer.Option) []byte {
	var buf bytes.Buffer
	opts = append([]writer.Option{writer.WithPageSize(2 << 10), writer.WithPageRows(200),
		writer.WithBloomFilter(2000, 0.01), writer.WithCodec(codecfactory.Snappy)}, opts...)
	w, err := writer.New(&buf, sampleSchema(t), opts...)
	require.NoError(t, err)
	batches := sampleBatches(9, 300)
	for i := range batches {
		for c := range 3 {
			require.NoError(t, w.Write(c, &batches[i][c].v, batches[i][c].def, batches[i][c].rep))
		}
		if i%3 == 2 {
			require.NoError(t, w.Flush())
		}
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// checkSameFile checks that the encrypted file enc, read with opts, holds
// what the plaintext file plain holds: values and levels, statistics, page
// indexes and bloom filters.
func checkSameFile(t *testing.T, plain, enc []byte, opts ...column.Option) {
	want, err := readFile(plain)
	require.NoError(t, err)
	got, err := readFile(enc, opts...)
	require.NoError(t, err)
	require.NoError(t, compareFiles(want, got))
	fp, err := column.Open(bytes.NewReader(plain), int64(len(plain)))
	require.NoError(t, err)
	fe, err := column.Open(bytes.NewReader(enc), int64(len(enc)), opts...)
	require.NoError(t, err)
	require.Equal(t, fp.NumRowGroups(), fe.NumRowGroups())
	for rg := range fp.NumRowGroups() {
		for col := range fp.NumColumns() {
			sp, err := fp.Stats(rg, col)
			require.NoError(t, err)
			se, err := fe.Stats(rg, col)
			require.NoError(t, err)
			require.Equal(t, sp, se, "statistics of row group %d column %d", rg, col)
			cip, oip, err := fp.PageIndex(rg, col)
			require.NoError(t, err)
			cie, oie, err := fe.PageIndex(rg, col)
			require.NoError(t, err)
			require.Equal(t, cip, cie, "column index of row group %d column %d", rg, col)
			require.NotNil(t, oie)
			require.Equal(t, len(oip.PageLocations), len(oie.PageLocations))
			for k := range oip.PageLocations {
				require.Equal(t, oip.PageLocations[k].FirstRowIndex, oie.PageLocations[k].FirstRowIndex)
			}
			bp, err := fp.BloomFilter(rg, col)
			require.NoError(t, err)
			be, err := fe.BloomFilter(rg, col)
			require.NoError(t, err)
			require.NotNil(t, be, "bloom filter of row group %d column %d", rg, col)
			require.Equal(t, bp.MarshalTo(nil), be.MarshalTo(nil))
		}
	}
}

// TestEncryptRoundTrip writes the sample with every encryption
// configuration (page versions 1 and 2, dictionary on and off, workers)
// and reads it back with the keys: everything equals the plaintext file.
// The modules are really encrypted: no value of an encrypted column appears
// in the file.
func TestEncryptRoundTrip(t *testing.T) {
	variants := []struct {
		name string
		opts []writer.Option
	}{
		{"v1-dict", nil},
		{"v2-nodict-workers", []writer.Option{writer.WithPageVersion(2), writer.WithDictionary(false), writer.WithWorkers(2)}},
	}
	for _, v := range variants {
		plain := writeEncSample(t, v.opts...)
		for _, c := range encCases() {
			t.Run(v.name+"/"+c.name, func(t *testing.T) {
				wp := c.wp
				enc := writeEncSample(t, append(slices.Clone(v.opts), writer.WithEncryption(&wp))...)
				rp := c.rp
				checkSameFile(t, plain, enc, column.WithDecryption(&rp))
				plainFooter := c.wp.PlaintextFooter
				require.Equal(t, plainFooter, string(enc[:4]) == "PAR1")
				require.Equal(t, plainFooter, string(enc[len(enc)-4:]) == "PAR1")
				// A PLAIN tag and name, as the dictionary pages hold them
				// (snappy leaves them as they are), show only in the clear.
				for _, probe := range []struct{ col, s string }{{"name", "\x07\x00\x00\x00name-17"}, {"tags.list.element", "\x03\x00\x00\x00t13"}} {
					if slices.Contains(c.clear, probe.col) {
						continue
					}
					require.False(t, bytes.Contains(enc, []byte(probe.s)), "%s in the clear", probe.col)
				}
				require.Equal(t, c.wp.DisableAADPrefixStorage, !bytes.Contains(enc, encPrefix) && c.wp.AADPrefix != nil)
			})
		}
	}
}

// TestEncryptReadWithoutKeys: a file with an encrypted footer does not
// open without keys; one with a plaintext footer opens, its columns in
// the clear read, and the encrypted ones fail naming the column. A wrong
// key fails with ErrDecrypt and the message holds no key.
func TestEncryptReadWithoutKeys(t *testing.T) {
	plain := writeEncSample(t)
	for _, c := range encCases() {
		t.Run(c.name, func(t *testing.T) {
			wp := c.wp
			enc := writeEncSample(t, writer.WithEncryption(&wp))
			f, err := column.Open(bytes.NewReader(enc), int64(len(enc)))
			if !c.wp.PlaintextFooter {
				require.ErrorIs(t, err, column.ErrEncrypted)
			} else {
				require.NoError(t, err)
				want, err := readFile(plain)
				require.NoError(t, err)
				for col, leaf := range f.Schema().Leaves() {
					path := strings.Join(leaf.Path(), ".")
					_, err := readChunk(f, 1, col)
					if slices.Contains(c.clear, path) {
						require.NoError(t, err, path)
						_ = want
					} else {
						require.ErrorIs(t, err, column.ErrEncrypted, path)
						require.Contains(t, err.Error(), path)
					}
				}
			}
			// A wrong footer key, and wrong column keys.
			bad := c.rp
			bad.FooterKey, bad.KeyRetriever = []byte("0123456789012346"), nil
			bad.ColumnKeys = map[string][]byte{"id": encKeyB, "tags.list.element": encKeyA, "name": encKeyA}
			_, err = readFile(enc, column.WithDecryption(&bad))
			require.ErrorIs(t, err, pqcodec.ErrDecrypt)
			for _, k := range [][]byte{bad.FooterKey, encKeyA, encKeyB} {
				require.NotContains(t, err.Error(), string(k))
				require.NotContains(t, err.Error(), hex.EncodeToString(k))
			}
			// A wrong AAD prefix.
			bad = c.rp
			bad.AADPrefix = []byte("another-table")
			_, err = readFile(enc, column.WithDecryption(&bad))
			require.ErrorIs(t, err, pqcodec.ErrDecrypt)
		})
	}
}

// readIndexes reads every page index and bloom filter of the file in b.
func readIndexes(b []byte, opts ...column.Option) error {
	f, err := column.Open(bytes.NewReader(b), int64(len(b)), opts...)
	if err != nil {
		return err
	}
	for rg := range f.NumRowGroups() {
		for col := range f.NumColumns() {
			if _, _, err := f.PageIndex(rg, col); err != nil {
				return err
			}
			if _, err := f.BloomFilter(rg, col); err != nil {
				return err
			}
		}
	}
	return nil
}

func readChunk(f *column.File, rg, col int) (int, error) {
	r, err := f.Column(rg, col)
	if err != nil {
		return 0, err
	}
	var p column.Page
	n := 0
	for {
		err := r.ReadPage(&p)
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n += p.NumLevels
	}
}

// TestEncryptFlippedBytes flips bytes all over encrypted files: every byte
// of the last KiB (page indexes, footer), one in 61 before (one in 8 and
// one in 211 with -short). Each read with the keys, of the values, page
// indexes and bloom filters, fails with an error wrapping ErrDecrypt or
// ErrCorrupt (or ErrNotParquet, for the trailing magic; ErrUnsupported for
// an algorithm id of the clear footer flipped to an unknown one) and never panics,
// or reads the same values: a few bytes are in no module (the leading
// magic, the stop bytes of the clear FileCryptoMetaData, which the thrift
// decoder reads leniently). Under AES_GCM_V1 every module authenticates
// its bytes; under AES_GCM_CTR_V1 pages do not (the specification's
// choice), and the page CRCs, checked here, catch a flipped page byte.
func TestEncryptFlippedBytes(t *testing.T) {
	for _, tc := range []struct {
		name string
		wp   encryption.WriteProperties
		opts []column.Option
	}{
		{"gcm-footer-and-column-keys", encryption.WriteProperties{FooterKey: encFooter, ColumnKeys: map[string]encryption.ColumnKey{
			"id": {Key: encKeyA}, "name": {}, "tags.list.element": {Key: encKeyB}}}, nil},
		{"ctr-plaintext-footer-crc", encryption.WriteProperties{Algorithm: encryption.AesGcmCtrV1, FooterKey: encFooter, PlaintextFooter: true},
			[]column.Option{column.WithVerifyChecksums(true)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wp := tc.wp
			enc := writeEncSample(t, writer.WithEncryption(&wp), writer.WithPageSize(8<<10))
			rp := encryption.Properties{FooterKey: encFooter, ColumnKeys: map[string][]byte{"id": encKeyA, "tags.list.element": encKeyB}}
			opts := append([]column.Option{column.WithDecryption(&rp)}, tc.opts...)
			want, err := readFile(enc, opts...)
			require.NoError(t, err)
			tail, step, tailStep := len(enc)-1024, 61, 1
			if testing.Short() {
				step, tailStep = 211, 8
			}
			b := slices.Clone(enc)
			failed, same, tried := 0, 0, 0
			for i := 0; i < len(b); {
				tried++
				b[i] ^= 0x10
				got, err := readFile(b, opts...)
				if err == nil {
					err = readIndexes(b, opts...)
				}
				b[i] ^= 0x10
				switch {
				case err == nil:
					require.NoError(t, compareFiles(want, got), "byte %d flipped: no error, other values", i)
					same++
				case errors.Is(err, pqcodec.ErrDecrypt) || errors.Is(err, pqcodec.ErrCorrupt) || errors.Is(err, format.ErrNotParquet),
					errors.Is(err, encryption.ErrUnsupported): // the algorithm's id flipped to one from the future
					failed++
				default:
					t.Fatalf("byte %d of %d flipped: %v", i, len(b), err)
				}
				if i >= tail {
					i += tailStep
				} else {
					i += step
				}
			}
			t.Logf("%d flips: %d failed, %d read the same values", tried, failed, same)
			require.Less(t, same, 8)
		})
	}
}

// TestEncryptOptions: invalid keys and properties fail at New with
// ErrOption, without the key in the message.
func TestEncryptOptions(t *testing.T) {
	s := sampleSchema(t)
	for _, p := range []encryption.WriteProperties{
		{},
		{FooterKey: []byte("short-key")},
		{FooterKey: encFooter, ColumnKeys: map[string]encryption.ColumnKey{"id": {Key: []byte("another-short-key")}}},
		{FooterKey: encFooter, ColumnKeys: map[string]encryption.ColumnKey{"nope": {Key: encKeyA}}},
		{FooterKey: encFooter, DisableAADPrefixStorage: true},
		{FooterKey: encFooter, Algorithm: 3},
	} {
		_, err := writer.New(io.Discard, s, writer.WithEncryption(&p))
		require.ErrorIs(t, err, writer.ErrOption)
		require.NotContains(t, err.Error(), "short-key")
	}
}

// TestEncryptZeroAllocsPerPage is TestZeroAllocsPerPage with every column
// encrypted with AES-GCM: encrypting pages and headers allocates nothing
// once warm.
func TestEncryptZeroAllocsPerPage(t *testing.T) {
	s := sampleSchema(t)
	w, err := writer.New(io.Discard, s, writer.WithCodec(codecfactory.Snappy), writer.WithPageSize(4<<10), writer.WithPageRows(500),
		writer.WithEncryption(&encryption.WriteProperties{FooterKey: encFooter}))
	require.NoError(t, err)
	batches := sampleBatches(40, 250)
	writeGroup := func() {
		for i := range batches {
			for c := range 3 {
				require.NoError(t, w.Write(c, &batches[i][c].v, batches[i][c].def, batches[i][c].rep))
			}
		}
	}
	for range 2 {
		writeGroup()
		require.NoError(t, w.Flush())
	}
	if !unsafecast.Native {
		t.Skip("purego build: dictionary keys are copies of the values")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var m0, m1 runtime.MemStats
	least := uint64(1 << 62)
	for range 5 {
		runtime.ReadMemStats(&m0)
		writeGroup()
		runtime.ReadMemStats(&m1)
		least = min(least, m1.Mallocs-m0.Mallocs)
		require.NoError(t, w.Flush())
	}
	require.NoError(t, w.Close())
	require.Zero(t, least)
}
