package validate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/finding"
)

// TestCRDChecks edits the memcached sample's CRD and checks what operator-sdk reports (operator-sdk/crd) and
// what only the API server's validation finds (apiserver/*).
func TestCRDChecks(t *testing.T) {
	const crdFile = "cache.example.com_memcacheds.yaml"
	specType := "                format: int32\n                maximum: 3\n                minimum: 1\n                type: integer\n            type: object\n          status:"
	tests := []struct {
		name   string
		old    string
		new    string
		values map[string]string
		want   []string
	}{
		{"valid", "", "", nil, nil},
		{"not structural: spec without type", specType, strings.Replace(specType, "            type: object\n", "", 1), nil, []string{
			"error apiserver/crd: the API server rejects this CRD: spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields",
		}},
		{"CEL rule that does not compile", specType, strings.Replace(specType, "            type: object\n", "            type: object\n            x-kubernetes-validations:\n            - rule: self.size >\n", 1), nil, []string{
			"error apiserver/crd: the API server rejects this CRD: spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: {\"Rule\":\"self.size \\u003e\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}: compilation failed: ERROR: <input>:1:12: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.size >\n | ...........^",
		}},
		{"unknown format", "                format: int32\n                maximum: 3", "                format: int-thirty-two\n                maximum: 3", nil, []string{
			`warning apiserver/crd-format: unrecognized format "int-thirty-two": the API server warns and does not validate it; use a format Kubernetes knows or a pattern`,
		}},
		{"two storage versions (operator-sdk reports it)", "    served: true\n    storage: true\n", "    served: true\n    storage: true\n  - name: v1beta1\n    served: true\n    storage: true\n", nil, []string{
			"error operator-sdk/crd: Error: Field spec.versions: spec.versions: Invalid value: [{\"Name\":\"v1alpha1\"",
			"error apiserver/crd: the API server rejects this CRD: spec.versions[1].schema.openAPIV3Schema: Required value",
		}},
		{"name is not plural.group", "  name: memcacheds.cache.example.com\n", "  name: memcached.cache.example.com\n", nil, []string{
			`error operator-sdk/crd: Error: Field metadata.name, Value memcached.cache.example.com: metadata.name: Invalid value: "memcached.cache.example.com": must be spec.names.plural+"."+spec.group`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyTree(t, "../../testdata/validate/samples/memcached-operator/bundle")
			if tt.old != "" {
				editFile(t, filepath.Join(dir, "manifests", crdFile), tt.old, tt.new)
			}
			r, err := Bundles(context.Background(), []string{dir}, WithOptionalValues(tt.values))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range r.Findings {
				if f.Rule == RuleCSV {
					continue // the sample's minKubeVersion warning
				}
				msg := f.Message
				if f.Rule == RuleCRD {
					msg, _, _ = strings.Cut(msg, `,"Served"`) // the rest is a dump of the versions
				}
				got = append(got, string(f.Severity)+" "+f.Rule+": "+msg)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestCRDV1beta1(t *testing.T) {
	v1beta1 := `apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata:
  name: memcacheds.cache.example.com
spec:
  group: cache.example.com
  names:
    kind: Memcached
    listKind: MemcachedList
    plural: memcacheds
    singular: memcached
  scope: Namespaced
  version: v1alpha1
  versions:
  - name: v1alpha1
    served: true
    storage: true
`
	tests := []struct {
		k8sVersion string
		want       finding.Severity
	}{
		{"", finding.SeverityWarning},
		{"1.21", finding.SeverityWarning},
		{"1.22", finding.SeverityError},
		{"v1.30.2", finding.SeverityError},
	}
	for _, tt := range tests {
		t.Run("k8s-version="+tt.k8sVersion, func(t *testing.T) {
			dir := copyTree(t, "../../testdata/validate/samples/memcached-operator/bundle")
			if err := os.WriteFile(filepath.Join(dir, "manifests", "cache.example.com_memcacheds.yaml"), []byte(v1beta1), 0o644); err != nil {
				t.Fatal(err)
			}
			r, err := Bundles(context.Background(), []string{dir}, WithOptionalValues(map[string]string{"k8s-version": tt.k8sVersion}))
			if err != nil {
				t.Fatal(err)
			}
			var got []finding.Severity
			for _, f := range r.Findings {
				if strings.HasPrefix(f.Rule, "apiserver/") {
					got = append(got, f.Severity)
				}
			}
			// the v1beta1 finding, then the missing schema the API server requires from 1.22 on
			if diff := cmp.Diff([]finding.Severity{tt.want, tt.want}, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
