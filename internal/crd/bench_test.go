package crd

import (
	"context"
	"testing"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/crd/load"
)

// benchCRDs loads a large real CRD (PGAdmin, ~4k schema nodes) and a copy whose leaves all changed
// (every maximum lowered) so that the comparator walks and reports everything.
func benchCRDs(b *testing.B) (old, same, changed []*apiextv1.CustomResourceDefinition) {
	s, err := load.CRDs(context.Background(), "../../testdata/crd-upgrade/olm-v0/postgrestolerations/crd.yaml")
	if err != nil {
		b.Fatal(err)
	}
	c := s.CRDs[0].DeepCopy()
	for i := range c.Spec.Versions {
		touch(c.Spec.Versions[i].Schema.OpenAPIV3Schema)
	}
	return s.CRDs, []*apiextv1.CustomResourceDefinition{s.CRDs[0].DeepCopy()}, []*apiextv1.CustomResourceDefinition{c}
}

func touch(s *apiextv1.JSONSchemaProps) {
	if s.Type == "integer" {
		s.Maximum = ptrF(1)
	}
	for k, p := range s.Properties {
		touch(&p)
		s.Properties[k] = p
	}
	if s.Items != nil && s.Items.Schema != nil {
		touch(s.Items.Schema)
	}
}

func BenchmarkCompareSchemasOnly(b *testing.B) {
	old, same, changed := benchCRDs(b)
	for _, bc := range []struct {
		name string
		new  []*apiextv1.CustomResourceDefinition
	}{{"identical", same}, {"changed", changed}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				Compare(old, bc.new, WithAPIServerValidation(false))
			}
		})
	}
}

func BenchmarkCompareWithAPIServer(b *testing.B) {
	old, _, changed := benchCRDs(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Compare(old, changed)
	}
}
