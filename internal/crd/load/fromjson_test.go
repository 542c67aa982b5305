package load

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/manifest"
)

// viaUnstructured is the reference FromJSON must agree with: the JSON decoded into a map, then
// FromUnstructured.
func viaUnstructured(data []byte) (*apiextv1.CustomResourceDefinition, bool, error) {
	u := &unstructured.Unstructured{}
	if err := json.Unmarshal(data, &u.Object); err != nil {
		return nil, false, err
	}
	if !isCRD(u) {
		return nil, false, nil
	}
	c, err := FromUnstructured(u)
	return c, true, err
}

// TestFromJSONAgreesWithFromUnstructured decodes every CRD of the repository's testdata (v1 and
// v1beta1, from the CRD-upgrade checkers' fixtures and the operator-sdk samples) both ways.
func TestFromJSONAgreesWithFromUnstructured(t *testing.T) {
	root := filepath.Join("..", "..", "..", "testdata")
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		docs, err := manifest.ReadFile(path)
		if err != nil {
			return nil // fixtures of bad input
		}
		for i, doc := range docs {
			if doc.Object.GetKind() != kindCRD {
				continue
			}
			data, err := json.Marshal(doc.Object.Object)
			if err != nil {
				t.Fatal(err)
			}
			n++
			t.Run(fmt.Sprintf("%s#%d", filepath.ToSlash(strings.TrimPrefix(path, root)), i), func(t *testing.T) {
				want, wantCRD, wantErr := viaUnstructured(data)
				got, gotCRD, gotErr := FromJSON(data)
				if (wantErr != nil) != (gotErr != nil) || wantCRD != gotCRD {
					t.Fatalf("FromJSON = (crd %v, err %v), FromUnstructured = (crd %v, err %v)", gotCRD, gotErr, wantCRD, wantErr)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("FromJSON differs from FromUnstructured (-want +got):\n%s", diff)
				}
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("found %d CRDs in testdata, want at least 100", n)
	}
}

func TestFromJSON(t *testing.T) {
	deep := testCRD(apiextv1.JSONSchemaProps{})
	deep.APIVersion, deep.Kind = "apiextensions.k8s.io/v1", kindCRD
	deep.Spec.Versions[0].Schema.OpenAPIV3Schema = chainSchema(MaxSchemaDepth+1, "n", apiextv1.JSONSchemaProps{Type: "string"})
	deepJSON, err := json.Marshal(deep)
	if err != nil {
		t.Fatal(err)
	}
	const crdHead = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"ws.example.com"},`
	cases := []struct {
		name    string
		in      string
		isCRD   bool
		wantErr string
		check   func(t *testing.T, c *apiextv1.CustomResourceDefinition)
	}{
		{name: "not a CRD", in: `{"apiVersion":"v1","kind":"ConfigMap"}`},
		{name: "CRD kind of another group", in: `{"apiVersion":"example.com/v1","kind":"CustomResourceDefinition"}`},
		{name: "unknown apiextensions version", in: `{"apiVersion":"apiextensions.k8s.io/v2","kind":"CustomResourceDefinition"}`, isCRD: true, wantErr: "unsupported CustomResourceDefinition version"},
		{name: "not JSON", in: `kind: x`, wantErr: "decoding object"},
		{name: "wrong field type", in: crdHead + `"spec":{"versions":"v1"}}`, isCRD: true, wantErr: "decoding CustomResourceDefinition"},
		{name: "schema too deep", in: string(deepJSON), isCRD: true, wantErr: "deeper than"},
		{
			name: "field names are case-sensitive, as in the API server", isCRD: true,
			in: crdHead + `"spec":{"group":"example.com","Scope":"Cluster","names":{"plural":"ws","kind":"W"},"versions":[{"name":"v1","served":true,"storage":true}]}}`,
			check: func(t *testing.T, c *apiextv1.CustomResourceDefinition) {
				if c.Spec.Scope != "" {
					t.Errorf("Scope read into spec.scope: %q", c.Spec.Scope)
				}
			},
		},
		{
			name: "defaults applied", isCRD: true,
			in: crdHead + `"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"ws","kind":"W"},"versions":[{"name":"v1","served":true,"storage":true}]}}`,
			check: func(t *testing.T, c *apiextv1.CustomResourceDefinition) {
				if diff := cmp.Diff("w", c.Spec.Names.Singular); diff != "" {
					t.Errorf("defaulted singular (-want +got):\n%s", diff)
				}
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, isCRD, err := FromJSON([]byte(tc.in))
			if isCRD != tc.isCRD {
				t.Errorf("isCRD = %v, want %v", isCRD, tc.isCRD)
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.check != nil {
				tc.check(t, c)
			}
		})
	}
}

// FuzzFromJSON: for any JSON object, FromJSON and the map + FromUnstructured path agree.
func FuzzFromJSON(f *testing.F) {
	seeds, _ := filepath.Glob("../../testdata/operator-sdk/*/bundle/manifests/*.yaml")
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err != nil {
			continue
		}
		if j, err := yaml.YAMLToJSON(data); err == nil {
			f.Add(j)
		}
	}
	f.Add([]byte(`{"apiVersion":"apiextensions.k8s.io/v1beta1","kind":"CustomResourceDefinition","spec":{"validation":{"openAPIV3Schema":{"type":"object"}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		want, wantCRD, wantErr := viaUnstructured(data)
		got, gotCRD, gotErr := FromJSON(data)
		if wantErr != nil || gotErr != nil {
			return // both refuse bad JSON; messages differ
		}
		if wantCRD != gotCRD {
			t.Fatalf("isCRD: FromJSON %v, FromUnstructured %v", gotCRD, wantCRD)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("FromJSON differs from FromUnstructured (-want +got):\n%s", diff)
		}
	})
}
