package project

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/crd"
	"github.com/opack/opack/internal/project/config"
)

// waiverProject decodes the go/v4 sample's minimal opack.yaml with the given waivers section.
func waiverProject(t *testing.T, waivers string) *config.Project {
	t.Helper()
	p, err := config.Decode([]byte(`apiVersion: opack.dev/v1alpha1
kind: Project
package: memcached-operator
bundle:
  image: quay.io/example/memcached-operator-bundle
catalogs:
- image: quay.io/example/memcached-operator-catalog:latest
`+waivers), "opack.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestUnusedWaivers checks that waivers which matched no finding are named with their line.
func TestUnusedWaivers(t *testing.T) {
	p := waiverProject(t, `waivers:
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
	want := []string{p.File + ":" + fmt.Sprint(p.Line("waivers", 1)) + ": waivers[1] (rule crd/field-removed, crd memcacheds.cache.example.com, path ^.spec.sise) " +
		"matches no finding: check its rule, crd and path against the findings (a path as printed, ^.spec.size, or bare, spec.size), or remove it"}
	if diff := cmp.Diff(want, p.UnusedWaivers(r.usedWaivers)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if p.Line("waivers", 1) == 0 {
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
			p := waiverProject(t, "waivers:\n- rule: "+tt.rule+"\n  crd: memcacheds.cache.example.com\n  reason: reviewed\n")
			r := &run{p: p, o: &buildOptions{}, res: &BuildResult{}}
			_, got := r.waived(f, "spec.size")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("waived (-want +got):\n%s", diff)
			}
		})
	}
}
