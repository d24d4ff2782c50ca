package enctable

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
)

// TestAppendDistinct checks AppendDistinct against the set of each page's
// values, with TrackDistinct on and off per page, for dictionaries smaller
// and larger than their pages, across Reset.
func TestAppendDistinct(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, typ := range []format.Type{format.Int32, format.Int64, format.Float, format.Double, format.ByteArray} {
		d := Lookup(format.RLEDictionary, typ).NewDictEncoder(0, 0)
		for round := range 60 {
			if round%20 == 0 {
				d.Reset()
			}
			track := round%3 != 0
			d.TrackDistinct(track)
			// Pages of 300 values drawn from 50 or from 5,000: the
			// dictionary ends up smaller or larger than the page.
			v := randomValues(r, typ, 300)
			if round%2 == 0 {
				for i := range 300 {
					k := i % 50
					switch typ {
					case format.Int32:
						v.Int32s[i] = v.Int32s[k]
					case format.Int64:
						v.Int64s[i] = v.Int64s[k]
					case format.Float:
						v.Floats[i] = v.Floats[k]
					case format.Double:
						v.Doubles[i] = v.Doubles[k]
					}
				}
			}
			want := map[string]bool{}
			for i := range 300 {
				want[valueKey(v, i)] = true
			}
			for from := 0; from < 300; from += 70 { // several Puts per page
				_, err := d.Put(v, from, min(300, from+70))
				require.NoError(t, err)
			}
			got := Values{Type: typ}
			d.AppendDistinct(&got)
			var keys []string
			for i := range got.Len() {
				keys = append(keys, valueKey(&got, i))
			}
			require.Len(t, keys, len(want), "%v round %d track %v", typ, round, track)
			slices.Sort(keys)
			require.Len(t, slices.Compact(keys), len(want), "%v round %d: a value twice", typ, round)
			for _, k := range keys {
				require.True(t, want[k], "%v round %d: %s not in the page", typ, round, k)
			}
			d.AppendIndexPage(nil)
		}
	}
}

func valueKey(v *Values, i int) string {
	switch v.Type {
	case format.Int32:
		return fmt.Sprint(v.Int32s[i])
	case format.Int64:
		return fmt.Sprint(v.Int64s[i])
	case format.Float:
		return fmt.Sprint(v.Floats[i])
	case format.Double:
		return fmt.Sprint(v.Doubles[i])
	}
	return string(v.Bytes[v.Offsets[i]:v.Offsets[i+1]])
}
