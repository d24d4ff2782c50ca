package writer_test

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/writer"
	"github.com/stretchr/testify/require"
)

// TestRecycledIdentical writes every corpus file from freshly allocated
// buffers, then again after other files have left their buffers and
// dictionaries in the pools of recycle.go: the bytes must be the same, so
// no state of one file reaches another.
func TestRecycledIdentical(t *testing.T) {
	f, err := codecfactory.New()
	require.NoError(t, err)
	sets := optionSets(f)
	var srcs []*fileData
	var names []string
	for _, path := range corpusInputs(t) {
		if strings.HasSuffix(path, "large_string_map.brotli.parquet") {
			continue
		}
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		if len(b) > 1<<20 {
			continue
		}
		src, err := readFile(b)
		if err != nil {
			continue
		}
		srcs, names = append(srcs, src), append(names, path)
	}
	require.Greater(t, len(srcs), 100)
	write := func(src *fileData, set optionSet) []byte {
		opts := append(slices.Clone(set.opts), writer.WithCodecs(f))
		for k, leaf := range src.schema.Leaves() {
			opts = append(opts, writer.WithColumn(strings.Join(leaf.Path(), "."), writer.WithEncoding(set.enc(*leaf.Element.Type, k))))
		}
		out, err := writeFile(src, set.window(src.numRows()), opts...)
		require.NoError(t, err)
		return out
	}
	checked := 0
	for i, src := range srcs {
		set := sets[i%len(sets)]
		writer.DrainRecyclePools()
		fresh := write(src, set)
		// Two other files of other schemas and values fill the pools.
		write(srcs[(i+1)%len(srcs)], sets[(i+1)%len(sets)])
		write(srcs[(i+7)%len(srcs)], sets[0])
		if again := write(src, set); !bytes.Equal(fresh, again) {
			t.Errorf("%s, %s: %d bytes fresh, %d after recycling: not identical", names[i], set.name, len(fresh), len(again))
		}
		checked++
	}
	t.Logf("%d files written identically from fresh and recycled buffers", checked)
}
