package crd

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// TestCompareSameValuesWrittenDifferently: a CRD read from a bundle folder (re-encoded, "\u003c=")
// and the same CRD from a catalog's bundle object ("<=", 1.0) are the same CRD: no finding.
func TestCompareSameValuesWrittenDifferently(t *testing.T) {
	spec := func(enum []string, def string) apiextv1.JSONSchemaProps {
		p := apiextv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextv1.JSONSchemaProps{
			"op":    {Type: "string"},
			"limit": {Type: "number", Default: &apiextv1.JSON{Raw: []byte(def)}},
		}}
		op := p.Properties["op"]
		for _, e := range enum {
			op.Enum = append(op.Enum, apiextv1.JSON{Raw: []byte(e)})
		}
		p.Properties["op"] = op
		return p
	}
	old := testCRD(spec([]string{`"\u003c="`, `"\u003e="`, `"=="`}, `1`))
	new := testCRD(spec([]string{`"<="`, `">="`, `"=="`}, `1.0`))
	if diff := cmp.Diff([]ruleAt(nil), summarize(Compare([]*apiextv1.CustomResourceDefinition{old}, []*apiextv1.CustomResourceDefinition{new}, WithAPIServerValidation(false)))); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	changed := testCRD(spec([]string{`"<="`, `"=="`}, `2`))
	got := summarize(Compare([]*apiextv1.CustomResourceDefinition{old}, []*apiextv1.CustomResourceDefinition{changed}, WithAPIServerValidation(false)))
	if len(got) != 2 {
		t.Errorf("a removed enum value and a changed default gave %v; want 2 findings", got)
	}
}
