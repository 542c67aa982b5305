package manifest

import (
	"testing"

	yamlv3 "gopkg.in/yaml.v3"
)

func hasAliasNode(n *yamlv3.Node) bool {
	if n.Kind == yamlv3.AliasNode {
		return true
	}
	for _, c := range n.Content {
		if hasAliasNode(c) {
			return true
		}
	}
	return false
}

func TestMayHaveAlias(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		want bool
	}{
		{"a: &x 1\nb: *x\n", true},
		{"a: &x 1\nb: [*x]\n", true},
		{"a: &x 1\nb: {c: *x}\n", true},
		{"a: &x 1\nb:\n- *x\n", true},
		{"a: &x 1\n*x : b\n", true},
		{"description: a && b and 2 * 3, **bold**, *.example.com\n", false},
		{"description: a && b and 2 * 3\n", false},
		{"pattern: '^*foo'\n", false},
		{"s: \"x *y\"\n", true}, // a false positive: the document is parsed, nothing more
	} {
		if got := mayHaveAlias([]byte(tc.doc)); got != tc.want {
			t.Errorf("mayHaveAlias(%q) = %v, want %v", tc.doc, got, tc.want)
		}
	}
}

// FuzzMayHaveAlias: a document yaml.v3 parses with an alias in it is never skipped by the pre-check.
func FuzzMayHaveAlias(f *testing.F) {
	addFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) > 1<<16 {
			return
		}
		var n yamlv3.Node
		if yamlv3.Unmarshal(raw, &n) != nil {
			return
		}
		if hasAliasNode(&n) && !mayHaveAlias(raw) {
			t.Fatalf("an alias the pre-check misses in %q", raw)
		}
	})
}
