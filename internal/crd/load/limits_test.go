package load

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/benchutil"
	"github.com/opack/opack/internal/leakcheck"
)

// chainSchema returns an object schema nesting depth levels of the property name, ending in leaf.
func chainSchema(depth int, name string, leaf apiextv1.JSONSchemaProps) *apiextv1.JSONSchemaProps {
	s := leaf
	for i := 0; i < depth; i++ {
		s = apiextv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextv1.JSONSchemaProps{name: s}}
	}
	return &s
}

// TestDeepSchemaRefused: a CRD whose schema nests 4,000 levels of 500-byte property names (a 2 MB
// file; comparing it used to need gigabytes for the paths) is refused when loaded, naming the file,
// the CRD, the version and where the limit was crossed, with little memory.
func TestDeepSchemaRefused(t *testing.T) {
	leakcheck.Check(t)
	c := testCRD(apiextv1.JSONSchemaProps{})
	c.APIVersion, c.Kind = "apiextensions.k8s.io/v1", "CustomResourceDefinition"
	c.Spec.Versions[0].Schema.OpenAPIV3Schema = chainSchema(4000, strings.Repeat("n", 500), apiextv1.JSONSchemaProps{Type: "string"})
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "deep.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	c = nil
	benchutil.ResetPeak()
	_, err = CRDs(context.Background(), file)
	if err == nil {
		t.Fatal("CRDs() accepted a schema nested 4000 levels deep")
	}
	for _, want := range []string{file, "CustomResourceDefinition widgets.example.com", "version v1", "nests deeper than 64 levels", "(at ^['nnnn"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	if peak := benchutil.PeakRSS(); peak > 100<<20 && !raceEnabled {
		t.Errorf("peak resident memory %d MB while refusing a deep schema, want under 100 MB", peak>>20)
	} else {
		t.Logf("peak resident memory %.1f MB", float64(peak)/(1<<20))
	}
}

// TestSchemaDepthLimit: the limit refuses MaxSchemaDepth+1 levels and accepts MaxSchemaDepth.
func TestSchemaDepthLimit(t *testing.T) {
	for _, tc := range []struct {
		depth   int
		wantErr bool
	}{{MaxSchemaDepth, false}, {MaxSchemaDepth + 1, true}} {
		c := testCRD(apiextv1.JSONSchemaProps{})
		// testCRD's root and spec are two levels; the chain adds depth more below spec.
		c.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"] = *chainSchema(tc.depth-2, "a", apiextv1.JSONSchemaProps{Type: "string"})
		err := checkDepth(c)
		if (err != nil) != tc.wantErr {
			t.Errorf("depth %d: checkDepth() = %v, want error: %v", tc.depth, err, tc.wantErr)
		}
		if err != nil && len(err.Error()) > 400 {
			t.Errorf("error of %d bytes; the path is not shortened", len(err.Error()))
		}
	}
}

// TestDeeperThanAgreesWithTooDeep: the fast depth test and the one that names the path decide alike
// through every kind of child a schema has, at the limit and one past it.
func TestDeeperThanAgreesWithTooDeep(t *testing.T) {
	leaf := apiextv1.JSONSchemaProps{Type: "string"}
	wrap := map[string]func(apiextv1.JSONSchemaProps) apiextv1.JSONSchemaProps{
		"properties": func(c apiextv1.JSONSchemaProps) apiextv1.JSONSchemaProps {
			return apiextv1.JSONSchemaProps{Properties: map[string]apiextv1.JSONSchemaProps{"a": c}}
		},
		"patternProperties": func(c apiextv1.JSONSchemaProps) apiextv1.JSONSchemaProps {
			return apiextv1.JSONSchemaProps{PatternProperties: map[string]apiextv1.JSONSchemaProps{"^a": c}}
		},
		"definitions": func(c apiextv1.JSONSchemaProps) apiextv1.JSONSchemaProps {
			return apiextv1.JSONSchemaProps{Definitions: map[string]apiextv1.JSONSchemaProps{"a": c}}
		},
		"dependencies": func(c apiextv1.JSONSchemaProps) apiextv1.JSONSchemaProps {
			return apiextv1.JSONSchemaProps{Dependencies: apiextv1.JSONSchemaDependencies{"a": {Schema: &c}}}
		},
		"items": func(c apiextv1.JSONSchemaProps) apiextv1.JSONSchemaProps {
			return apiextv1.JSONSchemaProps{Items: &apiextv1.JSONSchemaPropsOrArray{Schema: &c}}
		},
		"items array": func(c apiextv1.JSONSchemaProps) apiextv1.JSONSchemaProps {
			return apiextv1.JSONSchemaProps{Items: &apiextv1.JSONSchemaPropsOrArray{JSONSchemas: []apiextv1.JSONSchemaProps{leaf, c}}}
		},
		"additional": func(c apiextv1.JSONSchemaProps) apiextv1.JSONSchemaProps {
			return apiextv1.JSONSchemaProps{AdditionalProperties: &apiextv1.JSONSchemaPropsOrBool{Schema: &c}}
		},
		"additionalIt": func(c apiextv1.JSONSchemaProps) apiextv1.JSONSchemaProps {
			return apiextv1.JSONSchemaProps{AdditionalItems: &apiextv1.JSONSchemaPropsOrBool{Schema: &c}}
		},
		"allOf": func(c apiextv1.JSONSchemaProps) apiextv1.JSONSchemaProps {
			return apiextv1.JSONSchemaProps{AllOf: []apiextv1.JSONSchemaProps{leaf, c}}
		},
		"anyOf": func(c apiextv1.JSONSchemaProps) apiextv1.JSONSchemaProps {
			return apiextv1.JSONSchemaProps{AnyOf: []apiextv1.JSONSchemaProps{c}}
		},
		"oneOf": func(c apiextv1.JSONSchemaProps) apiextv1.JSONSchemaProps {
			return apiextv1.JSONSchemaProps{OneOf: []apiextv1.JSONSchemaProps{c}}
		},
		"not": func(c apiextv1.JSONSchemaProps) apiextv1.JSONSchemaProps { return apiextv1.JSONSchemaProps{Not: &c} },
	}
	for name, w := range wrap {
		for _, depth := range []int{2, 3, 4} {
			t.Run(fmt.Sprintf("%s/%d", name, depth), func(t *testing.T) {
				s := leaf
				for range depth {
					s = w(s)
				}
				for _, left := range []int{depth - 1, depth, depth + 1} {
					_, want := tooDeep(&s, "^", left)
					if got := deeperThan(&s, left); got != want {
						t.Errorf("deeperThan(left %d) = %v, tooDeep says %v", left, got, want)
					}
				}
			})
		}
	}
}
