package chrome

import (
	"slices"
	"testing"
)

func TestEnableFeaturesMergesIntoTheLastFlag(t *testing.T) {
	for _, tc := range []struct{ args, want []string }{
		{[]string{"--a"}, []string{"--a", "--enable-features=WebMCP"}},
		{[]string{"--enable-features=X", "--enable-features=Y"}, []string{"--enable-features=X", "--enable-features=Y,WebMCP"}},
		{[]string{"--enable-features="}, []string{"--enable-features=WebMCP"}},
	} {
		if got := enableFeatures(slices.Clone(tc.args), []string{"WebMCP"}); !slices.Equal(got, tc.want) {
			t.Errorf("enableFeatures(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
	if got := enableFeatures([]string{"--a"}, nil); !slices.Equal(got, []string{"--a"}) {
		t.Errorf("no features: %q", got)
	}
}
