package crd

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// TestFoldEchoes: a field removed from a struct copied to several places (with the description of
// the field holding each copy differing) is one group listing every path; a copy whose old struct
// differs, another field, or another rule is a group of its own.
func TestFoldEchoes(t *testing.T) {
	str := schemaOf("string")
	container := func(desc string, extra ...string) apiextv1.JSONSchemaProps {
		return schemaOf("object", func(p *apiextv1.JSONSchemaProps) {
			p.Description = desc
			p.Properties = map[string]apiextv1.JSONSchemaProps{"image": str, "vaultAddress": str, "vaultRole": str}
			for _, e := range extra {
				p.Properties[e] = str
			}
		})
	}
	without := func(s apiextv1.JSONSchemaProps, fields ...string) apiextv1.JSONSchemaProps {
		props := map[string]apiextv1.JSONSchemaProps{}
		for k, v := range s.Properties {
			props[k] = v
		}
		for _, f := range fields {
			delete(props, f)
		}
		s.Properties = props
		return s
	}
	array := func(items apiextv1.JSONSchemaProps) apiextv1.JSONSchemaProps {
		return schemaOf("array", func(p *apiextv1.JSONSchemaProps) {
			p.Description = "sidecars of the driver"
			p.Items = &apiextv1.JSONSchemaPropsOrArray{Schema: &items}
		})
	}
	spec := func(common, node, sidecar, other apiextv1.JSONSchemaProps) apiextv1.JSONSchemaProps {
		return schemaOf("object", func(p *apiextv1.JSONSchemaProps) {
			p.Properties = map[string]apiextv1.JSONSchemaProps{"common": common, "node": node, "sideCars": array(sidecar), "other": other}
		})
	}
	old := testCRD(spec(container("common settings"), container("node settings"), container(""), container("another struct", "port")))
	new := testCRD(spec(
		without(container("common settings"), "vaultAddress", "vaultRole"),
		without(container("node settings"), "vaultAddress", "vaultRole"),
		without(container(""), "vaultAddress", "vaultRole"),
		without(container("another struct", "port"), "vaultAddress")))
	var got [][]string
	for _, g := range FoldEchoes(Compare([]*apiextv1.CustomResourceDefinition{old}, []*apiextv1.CustomResourceDefinition{new}, WithAPIServerValidation(false))) {
		var paths []string
		for _, f := range g {
			paths = append(paths, string(f.Rule)+" "+f.Path)
		}
		got = append(got, paths)
	}
	want := [][]string{
		{"field-removed ^.spec.common.vaultAddress", "field-removed ^.spec.node.vaultAddress", "field-removed ^.spec.sideCars[*].vaultAddress"},
		{"field-removed ^.spec.common.vaultRole", "field-removed ^.spec.node.vaultRole", "field-removed ^.spec.sideCars[*].vaultRole"},
		{"field-removed ^.spec.other.vaultAddress"}, // its old struct has one more field: another struct
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("groups (-want +got):\n%s", diff)
	}
}

// TestFoldEchoesRealPair: dell-csm-operator-certified 1.6.1 -> 1.7.0 (testdata/real-pairs/reference-name-default)
// removes vaultAddress and vaultRole from the container struct the CRD copies into seven places;
// each removal is one group of the seven paths.
func TestFoldEchoesRealPair(t *testing.T) {
	old, new := loadPair(t, "reference-name-default")
	groups := map[string][]string{}
	for _, g := range FoldEchoes(Compare(old.CRDs, new.CRDs, WithAPIServerValidation(false))) {
		if g[0].Rule != RuleFieldRemoved {
			continue
		}
		for _, f := range g {
			groups[g[0].Path] = append(groups[g[0].Path], f.Path)
		}
	}
	places := []string{"^.spec.driver.common.", "^.spec.driver.controller.", "^.spec.driver.initContainers[*].", "^.spec.driver.node.",
		"^.spec.driver.sideCars[*].", "^.spec.modules[*].components[*].", "^.spec.modules[*].initContainer[*]."}
	want := map[string][]string{}
	for _, field := range []string{"vaultAddress", "vaultRole"} {
		for _, p := range places {
			want[places[0]+field] = append(want[places[0]+field], p+field)
		}
	}
	if diff := cmp.Diff(want, groups); diff != "" {
		t.Errorf("field-removed groups (-want +got):\n%s", diff)
	}
}
