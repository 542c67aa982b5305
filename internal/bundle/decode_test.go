package bundle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	admissionv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/benchutil"
	"github.com/opack/opack/internal/manifest"
)

// typedTargets are the types collect decodes documents into, by kind.
var typedTargets = map[string]func() interface{}{
	"ClusterServiceVersion":          func() interface{} { return &v1alpha1.ClusterServiceVersion{} },
	"Role":                           func() interface{} { return &rbacv1.Role{} },
	"ClusterRole":                    func() interface{} { return &rbacv1.ClusterRole{} },
	"ServiceAccount":                 func() interface{} { return &corev1.ServiceAccount{} },
	"Service":                        func() interface{} { return &corev1.Service{} },
	"Deployment":                     func() interface{} { return &appsv1.Deployment{} },
	"CustomResourceDefinition":       func() interface{} { return &apiextv1.CustomResourceDefinition{} },
	"ValidatingWebhookConfiguration": func() interface{} { return &admissionv1.ValidatingWebhookConfiguration{} },
}

// sameAsSigsYAML fails t when decode reads doc into a different value than sigs.k8s.io/yaml does.
func sameAsSigsYAML(t *testing.T, d manifest.Doc) {
	t.Helper()
	mk, ok := typedTargets[d.Object.GetKind()]
	if !ok {
		return
	}
	want, got := mk(), mk()
	wantErr := yaml.Unmarshal(d.Raw, want)
	err := decode(d, got)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%s: decode error %v, sigs.k8s.io/yaml error %v", d, err, wantErr)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%s: decode differs from sigs.k8s.io/yaml (-sigs.k8s.io/yaml +decode):\n%s", d, diff)
	}
}

func TestDecodeSameAsSigsYAML(t *testing.T) {
	tests := []struct{ name, doc string }{
		{"number into a string field", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        env:\n        - name: N\n          value: 1.0\n        - name: B\n          value: yes\n"},
		{"int or string", "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports:\n  - port: 443\n    targetPort: 9443\n  - port: 80\n    targetPort: http\n"},
		{"quantities and unknown fields", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n  unknown: x\nspec:\n  replicas: 2\n  template:\n    spec:\n      containers:\n      - name: c\n        resources:\n          limits:\n            cpu: 500m\n            memory: 1Gi\n"},
		{"field names in another case", "apiVersion: v1\nkind: ServiceAccount\nMetadata:\n  Name: sa\n"},
		{"wrong type", "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports: 3\n"},
		{"numbers the object writes differently", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: as.x.io\nspec:\n  group: x.io\n  names: {kind: A, plural: as}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          a:\n            type: integer\n            default: 18446744073709551615\n            example: -0.0\n            enum: [9223372036854775809, 0xFFFFFFFFFFFFFFFF]\n            minimum: -0.0\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := manifest.Decode(strings.NewReader(tt.doc), "test.yaml")
			if err != nil || len(docs) != 1 {
				t.Fatalf("decoding the test document: %v, %d documents", err, len(docs))
			}
			sameAsSigsYAML(t, docs[0])
		})
	}
}

// TestCorpusDecodeSameAsSigsYAML decodes every object of a kind collect types in ../shared (the
// certified-operators bundles, the operator-sdk goldens) both ways.
func TestCorpusDecodeSameAsSigsYAML(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus test skipped with -short")
	}
	shared := filepath.Dir(benchutil.CorpusDir(t))
	n := 0
	for _, sub := range []string{"corpus/certified-operators", "golden"} {
		err := filepath.WalkDir(filepath.Join(shared, sub), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
				return err
			}
			docs, err := manifest.ReadFile(p)
			if err != nil {
				return nil // not a manifest stream
			}
			for _, doc := range docs {
				if _, ok := typedTargets[doc.Object.GetKind()]; ok {
					n++
					sameAsSigsYAML(t, doc)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d objects decoded both ways", n)
	if n < 1000 {
		t.Errorf("only %d objects: want ≥ 1000", n)
	}
}
