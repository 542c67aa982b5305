package crd

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/fuzzseed"
	"github.com/opack/opack/internal/manifest"

	"github.com/opack/opack/internal/crd/load"
)

// crdSeedPairs are old/new CRD pairs of the upstream upgrade-check suites.
var crdSeedPairs = [][2]string{
	{"testdata/crd-upgrade/kapp-e2e/*/old.yaml", "new.yaml"},
	{"testdata/crd-upgrade/crdify/test/*/a.yaml", "b.yaml"},
	{"testdata/crd-upgrade/crd-schema-checker/*/*/existing.yaml", "new.yaml"},
}

// fuzzLimits keep one fuzz input small and its alias expansion cheap.
var fuzzLimits = []manifest.Option{manifest.WithMaxFileSize(1 << 20), manifest.WithMaxAliasNodes(1 << 12)}

// FuzzCRDLoad: loading any file never panics; a loaded set compared with itself (and with a second
// load of the same bytes) has no findings, since identical CRDs always pass.
func FuzzCRDLoad(f *testing.F) {
	for _, p := range crdSeedPairs {
		fuzzseed.Add(f, p[0])
	}
	fuzzseed.Add(f, "testdata/crd-upgrade/operator-controller/*.json", "testdata/crd-upgrade/olm-v0/*/*.yaml")
	f.Add([]byte(v1beta1CRD + "---\n" + csv))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		file := filepath.Join(dir, "crd.yaml")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		s, err := load.CRDs(ctx, dir, fuzzLimits...)
		if err != nil {
			if !strings.Contains(err.Error(), file) {
				t.Fatalf("error %q does not name the file %s", err, file)
			}
			return
		}
		again, err := load.CRDs(ctx, file, fuzzLimits...)
		if err != nil {
			t.Fatalf("loading the folder worked, loading its one file failed: %v", err)
		}
		if fs := Compare(s.CRDs, s.CRDs); len(fs) > 0 {
			t.Fatalf("a CRD compared with itself has findings: %v", fs)
		}
		if fs := Compare(s.CRDs, again.CRDs); len(fs) > 0 {
			t.Fatalf("a CRD compared with a second load of itself has findings: %v", fs)
		}
		_ = CompareSets(s, again)
	})
}

// FuzzDiffSchemas: the schema comparator never panics on any pair of schemas, is deterministic,
// reports paths rooted at "^", and finds nothing between a schema and itself (or a deep copy).
// The pair is also compared as whole CRDs with the API server's update validation.
func FuzzDiffSchemas(f *testing.F) {
	for _, p := range crdSeedPairs {
		for _, old := range fuzzseed.Paths(f, p[0]) {
			a, b := seedSchema(f, old), seedSchema(f, filepath.Join(filepath.Dir(old), p[1]))
			if a != nil && b != nil {
				f.Add(a, b)
			}
		}
	}
	f.Add([]byte(`{"type":"object","properties":{"a":{"type":"string","enum":["x"]}},"required":["a","a"]}`),
		[]byte(`{"type":"object","additionalProperties":{"type":"integer"},"x-kubernetes-validations":[{"rule":"self.a"}]}`))
	f.Fuzz(func(t *testing.T, oldJSON, newJSON []byte) {
		var o, n apiextv1.JSONSchemaProps
		if json.Unmarshal(oldJSON, &o) != nil || json.Unmarshal(newJSON, &n) != nil {
			return
		}
		got := DiffSchemas(&o, &n)
		if again := DiffSchemas(&o, &n); !reflect.DeepEqual(got, again) {
			t.Fatalf("DiffSchemas is not deterministic:\n%v\n%v", got, again)
		}
		for _, fd := range got {
			if !strings.HasPrefix(fd.Path, "^") || fd.Rule == "" || fd.Message == "" {
				t.Fatalf("malformed finding %+v", fd)
			}
		}
		_ = DiffSchemas(nil, &n)
		_ = DiffSchemas(&o, nil)
		for _, s := range []*apiextv1.JSONSchemaProps{&o, &n} {
			if fs := DiffSchemas(s, s); len(fs) > 0 {
				t.Fatalf("a schema compared with itself has findings: %v", fs)
			}
			if fs := DiffSchemas(s, s.DeepCopy()); len(fs) > 0 {
				t.Fatalf("a schema compared with its copy has findings: %v", fs)
			}
		}
		oc, nc := schemaCRD(&o), schemaCRD(&n)
		_ = Compare([]*apiextv1.CustomResourceDefinition{oc}, []*apiextv1.CustomResourceDefinition{nc})
		if fs := Compare([]*apiextv1.CustomResourceDefinition{oc}, []*apiextv1.CustomResourceDefinition{oc.DeepCopy()}); len(fs) > 0 {
			t.Fatalf("a CRD compared with its copy has findings: %v", fs)
		}
	})
}

// seedSchema returns the JSON of the first version's schema of the CRD file, or nil.
func seedSchema(f *testing.F, path string) []byte {
	s, err := load.CRDs(context.Background(), path)
	if err != nil || len(s.CRDs) == 0 || len(s.CRDs[0].Spec.Versions) == 0 {
		return nil
	}
	v := s.CRDs[0].Spec.Versions[0]
	if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
		return nil
	}
	data, err := json.Marshal(v.Schema.OpenAPIV3Schema)
	if err != nil {
		f.Fatal(err)
	}
	return data
}

// schemaCRD wraps a schema into a one-version CRD.
func schemaCRD(s *apiextv1.JSONSchemaProps) *apiextv1.CustomResourceDefinition {
	c := testCRD(apiextv1.JSONSchemaProps{})
	c.Spec.Versions[0].Schema.OpenAPIV3Schema = s.DeepCopy()
	return c
}
