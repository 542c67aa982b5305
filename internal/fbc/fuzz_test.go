package fbc

import (
	"testing"

	"github.com/opack/opack/internal/fuzzseed"

	"github.com/opack/opack/internal/fbc/internal/codec"
)

// FuzzFastYAML: whenever the fast YAML path accepts a document, its JSON is exactly what
// sigs.k8s.io/yaml and opm's re-encoding produce (the fast path's contract).
func FuzzFastYAML(f *testing.F) {
	fuzzseed.Add(f, fuzzseed.FBC...)
	for _, s := range []string{"a: 'q''s'\nb: |\n  x\n\n", "a: 0x1F\nb: 1_000\nc: 2001-12-14\n", "z:\n- a: 1\n  b:\n  - c\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		got, err := codec.FastYAMLToJSON(doc)
		if err != nil {
			return
		}
		want, ok := slowCanonical(t, doc)
		if !ok {
			t.Fatalf("fast path accepted %q as %s; sigs.k8s.io/yaml refuses it", doc, got)
		}
		if want != string(got) {
			t.Fatalf("fast path on %q:\n got %s\nwant %s", doc, got, want)
		}
	})
}
