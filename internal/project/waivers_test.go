package project

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/crd"
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

// TestUnusedWaivers checks that waivers which matched no finding are named with their line.
func TestUnusedWaivers(t *testing.T) {
	p := mustDecode(t, minimal+`waivers:
- rule: crd/field-removed
  path: ^.spec.size
  reason: reviewed
- rule: crd/field-removed
  crd: memcacheds.cache.example.com
  path: ^.spec.sise
  reason: typo
`)
	r := &run{p: p, o: &buildOptions{}, res: &BuildResult{}}
	if _, ok := r.waived(crd.Finding{Rule: crd.RuleFieldRemoved, CRD: "memcacheds.cache.example.com", Path: "^.spec.size"}, "spec.size"); !ok {
		t.Fatal("the first waiver does not match")
	}
	want := []string{p.File + ":" + fmt.Sprint(p.line("waivers", 1)) + ": waivers[1] (rule crd/field-removed, crd memcacheds.cache.example.com, path ^.spec.sise) " +
		"matches no finding: check its rule, crd and path against the findings (a path as printed, ^.spec.size, or bare, spec.size), or remove it"}
	if diff := cmp.Diff(want, p.unusedWaivers(r.usedWaivers)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if p.line("waivers", 1) == 0 {
		t.Error("no line for waivers[1]")
	}
}

// TestWaiverRuleIDs checks that a waiver names a CRD upgrade finding by its id crd-upgrade/<rule>
// and by the ids earlier releases reported, and by no other rule.
func TestWaiverRuleIDs(t *testing.T) {
	f := crd.Finding{Rule: crd.RuleFieldRemoved, CRD: "memcacheds.cache.example.com", Path: "^.spec.size"}
	tests := []struct {
		rule string
		want bool
	}{
		{"crd-upgrade/field-removed", true},
		{"field-removed", true},
		{"crd/field-removed", true},
		{"crd/upgrade", true},
		{"catalog/crd-upgrade", true},
		{"crd-upgrade/type-changed", false},
		{"crd-upgrade/upgrade", false},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			p := mustDecode(t, minimal+"waivers:\n- rule: "+tt.rule+"\n  crd: memcacheds.cache.example.com\n  reason: reviewed\n")
			r := &run{p: p, o: &buildOptions{}, res: &BuildResult{}}
			_, got := r.waived(f, "spec.size")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("waived (-want +got):\n%s", diff)
			}
		})
	}
}
