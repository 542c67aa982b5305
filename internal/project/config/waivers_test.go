package config

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

// TestWaivedPrintedPaths checks that a waiver path copied from a finding ("^.spec.x") works as
// well as the bare form, whichever form the finding's path has.
func TestWaivedPrintedPaths(t *testing.T) {
	tests := []struct {
		waiver, finding string
		want            bool
	}{
		{"^.spec.containerPort", "spec.containerPort", true},
		{"^.spec.containerPort", "^.spec.containerPort", true},
		{"spec.containerPort", "^.spec.containerPort", true},
		{"^.spec", "^.spec.containerPort", true},
		{"^.spec.template", "^.spec.containers[0]", false},
		{"^.spec.containerPrt", "^.spec.containerPort", false},
		{"^", "^.spec.containerPort", true},
	}
	for _, tt := range tests {
		t.Run(tt.waiver+" "+tt.finding, func(t *testing.T) {
			p := &Project{Waivers: []Waiver{{Rule: "crd/field-removed", Path: tt.waiver, Reason: "r"}}}
			_, got := p.Waived("crd/field-removed", "a.example.com", tt.finding)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Error(diff)
			}
		})
	}
}
