package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/recompress"
)

// writableCodecs are the codecs this build can write (the twin of
// recompress's allCodecs test helper).
func writableCodecs(t testing.TB) []codecfactory.Codec {
	f, err := codecfactory.New()
	require.NoError(t, err)
	var cs []codecfactory.Codec
	for c := codecfactory.Uncompressed; c <= codecfactory.Lz4Raw; c++ {
		if f.CanCompress(c) {
			cs = append(cs, c)
		}
	}
	return cs
}

// TestForeignRewrite rewrites every file of the foreign-writer corpus to
// ZSTD and to one more codec, chosen by rotation so that every codec this
// build can write is covered, and checks that each output passes
// recompress.Verify and reads back, through the code of `pqcodec cat`, to
// the rows the file's writer gave.
func TestForeignRewrite(t *testing.T) {
	codecs := writableCodecs(t)
	writers, err := os.ReadDir(foreignDir)
	require.NoError(t, err, "the foreign-writer corpus is part of the repository")
	dir := t.TempDir()
	n := 0
	covered := make(map[codecfactory.Codec]bool)
	for _, w := range writers {
		if !w.IsDir() {
			continue
		}
		wdir := filepath.Join(foreignDir, w.Name())
		entries, err := readManifest(wdir)
		require.NoError(t, err, w.Name())
		for _, e := range entries {
			name := w.Name() + "/" + e.file
			if _, known := knownForeignFailures[name]; known {
				continue
			}
			run := []codecfactory.Codec{codecfactory.Zstd, codecs[n%len(codecs)]}
			n++
			t.Run(name, func(t *testing.T) {
				want, err := os.ReadFile(filepath.Join(wdir, e.rows))
				require.NoError(t, err)
				src, err := os.ReadFile(filepath.Join(wdir, e.file))
				require.NoError(t, err)
				for _, c := range run {
					var out bytes.Buffer
					res, err := recompress.Rewrite(&out, bytes.NewReader(src), int64(len(src)),
						recompress.WithCodec(recompress.Target{Codec: c}))
					require.NoError(t, err, "%s to %v", name, c)
					require.EqualValues(t, out.Len(), res.BytesOut)
					require.NoError(t, recompress.Verify(bytes.NewReader(src), int64(len(src)),
						bytes.NewReader(out.Bytes()), int64(out.Len()), nil), "%s to %v", name, c)
					path := filepath.Join(dir, c.String()+".parquet")
					require.NoError(t, os.WriteFile(path, out.Bytes(), 0o644))
					got, err := catFile(path)
					require.NoError(t, err, "%s to %v (%s)", name, c, e.options)
					if msg := firstDifference(got, want); msg != "" {
						t.Fatalf("%s to %v (%s): %s", name, c, e.options, msg)
					}
					covered[c] = true
				}
			})
		}
	}
	require.NotZero(t, n, "no files in the foreign-writer corpus")
	for _, c := range codecs {
		require.True(t, covered[c], "no file rewritten to %v", c)
	}
	t.Logf("%d foreign files rewritten to ZSTD and one of %v", n, codecs)
}
