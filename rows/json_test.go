package rows

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAppendFloat(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		bits int
		want string
	}{
		{0, 64, "0"},
		{math.Copysign(0, -1), 64, "-0"},
		{math.Copysign(0, -1), 32, "-0"},
		{math.NaN(), 64, `"NaN"`},
		{math.Inf(1), 32, `"Infinity"`},
		{math.Inf(-1), 64, `"-Infinity"`},
		{float64(float32(0.1)), 32, "0.1"},
		{float64(float32(0.1)), 64, "0.10000000149011612"},
		{1.1, 64, "1.1"},
		{1e21, 64, "1e+21"},
		{5e-324, 64, "5e-324"},
		{math.MaxFloat64, 64, "1.7976931348623157e+308"},
		{float64(math.MaxFloat32), 32, "3.4028235e+38"},
		{123456789, 64, "1.23456789e+08"},
		{-2.5, 32, "-2.5"},
	} {
		got := string(AppendFloat(nil, tc.f, tc.bits))
		assert.Equal(t, tc.want, got, "%v/%d", tc.f, tc.bits)
		assert.True(t, json.Valid([]byte(got)), got)
	}
}

func TestAppendHex(t *testing.T) {
	assert.Equal(t, `"00ff10ab"`, string(AppendHex([]byte("x"), []byte{0, 255, 16, 171})[1:]))
	assert.Equal(t, `""`, string(AppendHex(nil, nil)))
}

func TestAppendString(t *testing.T) {
	for _, s := range []string{"", "plain", `q"uo\te`, "tab\tnl\ncr\r\x00\x1f\x7f", "ünïcødé ✓ 🎉",
		"bad \xff byte", "\xc3", "trunc \xe2\x9c", "\u2028\u2029", "<&>"} {
		got := AppendString(nil, []byte(s))
		require.True(t, json.Valid(got), "%q -> %s", s, got)
		var back string
		require.NoError(t, json.Unmarshal(got, &back))
		assert.Equal(t, string([]rune(s)), back, "%q", s)
		want, err := json.Marshal(string([]rune(s)))
		require.NoError(t, err)
		var wantBack string
		require.NoError(t, json.Unmarshal(want, &wantBack))
		assert.Equal(t, wantBack, back)
	}
	assert.Equal(t, `"a\"b\\c\n\u0001"`, string(AppendString(nil, []byte("a\"b\\c\n\x01"))))
}
