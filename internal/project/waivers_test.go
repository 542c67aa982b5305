package project

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWaived(t *testing.T) {
	p := mustDecode(t, minimal+`waivers:
- rule: crd/field-removed
  crd: memcacheds.cache.example.com
  path: spec.size
  reason: size was never read by the controller
- rule: graph/skip-range
  reason: reviewed for every release
`)
	tests := []struct {
		rule, crd, path string
		want            bool
	}{
		{"crd/field-removed", "memcacheds.cache.example.com", "spec.size", true},
		{"crd/field-removed", "memcacheds.cache.example.com", "spec.size.minimum", true},
		{"crd/field-removed", "memcacheds.cache.example.com", "spec.sizes", false},
		{"crd/field-removed", "other.cache.example.com", "spec.size", false},
		{"crd/enum-narrowed", "memcacheds.cache.example.com", "spec.size", false},
		{"graph/skip-range", "", "", true},
		{"graph/skip-range", "any.example.com", "spec.x", true},
	}
	for _, tt := range tests {
		w, ok := p.Waived(tt.rule, tt.crd, tt.path)
		if ok != tt.want || (ok && w.Reason == "") {
			t.Errorf("Waived(%q, %q, %q) = %+v, %v; want %v", tt.rule, tt.crd, tt.path, w, ok, tt.want)
		}
	}
}

func TestMigratedVersions(t *testing.T) {
	p := mustDecode(t, minimal+`migrations:
- {crd: memcacheds.cache.example.com, version: v1alpha1, reason: StorageVersionMigration run on all clusters}
- {crd: other.example.com, version: v1}
- {crd: memcacheds.cache.example.com, version: v1beta1}
- {crd: memcacheds.cache.example.com, version: v1alpha1}
`)
	if diff := cmp.Diff([]string{"v1alpha1", "v1beta1"}, p.MigratedVersions("memcacheds.cache.example.com")); diff != "" {
		t.Error(diff)
	}
	if got := p.MigratedVersions("none.example.com"); got != nil {
		t.Errorf("got %v", got)
	}
}
