package crd

import (
	"strings"
	"testing"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/crd/load"
)

// chainSchema returns an object schema nesting depth levels of the property name, ending in leaf.
func chainSchema(depth int, name string, leaf apiextv1.JSONSchemaProps) *apiextv1.JSONSchemaProps {
	s := leaf
	for i := 0; i < depth; i++ {
		s = apiextv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextv1.JSONSchemaProps{name: s}}
	}
	return &s
}

// TestLongPropertyNamesInPaths: finding paths cut property names to a bounded length, keep different
// names apart, and leave ordinary names alone.
func TestLongPropertyNamesInPaths(t *testing.T) {
	long := strings.Repeat("x", 100000)
	leaf := apiextv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextv1.JSONSchemaProps{
		long + "a": {Type: "string"}, long + "b": {Type: "string"}, "ok": {Type: "string"}}}
	old := chainSchema(60, long, leaf)
	newLeaf := apiextv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextv1.JSONSchemaProps{"ok": {Type: "integer"}}}
	got := DiffSchemas(old, chainSchema(60, long, newLeaf))
	if len(got) != 3 {
		t.Fatalf("DiffSchemas() = %d findings, want 3 (two removals, one type change): %v", len(got), got)
	}
	seen := map[string]bool{}
	for _, f := range got {
		if len(f.Path) > 61*(64+8) {
			t.Errorf("path of %d bytes; names are not cut", len(f.Path))
		}
		seen[f.Path] = true
	}
	if len(seen) != 3 {
		t.Errorf("different property names share a path: %v", seen)
	}
	if p := load.ChildPath("^", "spec"); p != "^.spec" {
		t.Errorf("load.ChildPath(^, spec) = %q", p)
	}
}
