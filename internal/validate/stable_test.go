package validate

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "github.com/operator-framework/api/pkg/validation/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/opack/opack/internal/finding"
)

func TestStableResult(t *testing.T) {
	gvk := func(k string) schema.GroupVersionKind {
		return schema.GroupVersionKind{Group: "x.io", Version: "v1", Kind: k}
	}
	example := func(k string) apierrors.Error {
		return apierrors.WarnInvalidOperation("provided API should have an example annotation", gvk(k))
	}
	other := apierrors.WarnInvalidCSV("csv.Spec.minKubeVersion is not informed", "x.v1")
	tests := []struct {
		name string
		in   []apierrors.Error
		want []string
	}{
		{"a run of map-ordered warnings is sorted",
			[]apierrors.Error{example("C"), example("A"), example("B")},
			[]string{example("A").Error(), example("B").Error(), example("C").Error()}},
		{"other findings keep their place; only the run is sorted",
			[]apierrors.Error{other, example("B"), example("A"), other},
			[]string{other.Error(), example("A").Error(), example("B").Error(), other.Error()}},
		{"runs of different checks are not mixed",
			[]apierrors.Error{
				apierrors.ErrInvalidBundle(`CRD "z" is present in bundle "b" but not defined in CSV`, gvk("Z")),
				apierrors.ErrInvalidBundle(`CRD "y" is present in bundle "b" but not defined in CSV`, gvk("Y")),
				apierrors.ErrFailedValidation("provided annotation OLM.SKIPRANGE uses wrong case and should be olm.skipRange instead", "x.v1"),
				apierrors.ErrFailedValidation("provided annotation olm.providedapis uses wrong case and should be olm.providedAPIs instead", "x.v1"),
			},
			[]string{
				`Error: Value x.io/v1, Kind=Y: CRD "y" is present in bundle "b" but not defined in CSV`,
				`Error: Value x.io/v1, Kind=Z: CRD "z" is present in bundle "b" but not defined in CSV`,
				"Error: Value x.v1: provided annotation OLM.SKIPRANGE uses wrong case and should be olm.skipRange instead",
				"Error: Value x.v1: provided annotation olm.providedapis uses wrong case and should be olm.providedAPIs instead",
			}},
		{"the kinds of a removed-APIs message are sorted",
			[]apierrors.Error{apierrors.WarnFailedValidation(`this bundle is using APIs which were deprecated and removed in v1.22. More info: https://kubernetes.io/docs/reference/using-api/deprecation-guide/#v1-22. Migrate the API(s) for Role: (["r"]),CRD: (["a.x.io" "b.x.io"]),ClusterRole: (["c[0]" "d"]),`, "x.v1")},
			[]string{`Warning: Value x.v1: this bundle is using APIs which were deprecated and removed in v1.22. More info: https://kubernetes.io/docs/reference/using-api/deprecation-guide/#v1-22. Migrate the API(s) for CRD: (["a.x.io" "b.x.io"]),ClusterRole: (["c[0]" "d"]),Role: (["r"]),`}},
		{"a lone removed API is left as is",
			[]apierrors.Error{apierrors.WarnFailedValidation(`this bundle is using APIs which were deprecated and removed in v1.25. More info: https://kubernetes.io/docs/reference/using-api/deprecation-guide/#v1-25. Migrate the API(s) for PodDisruptionBudget: (["p"])`, "x.v1")},
			[]string{`Warning: Value x.v1: this bundle is using APIs which were deprecated and removed in v1.25. More info: https://kubernetes.io/docs/reference/using-api/deprecation-guide/#v1-25. Migrate the API(s) for PodDisruptionBudget: (["p"])`}},
		{"the channels of the naming-convention message are sorted",
			[]apierrors.Error{apierrors.WarnFailedValidation(`channel(s) ["gamma" "alpha" "beta"] are not following the recommended naming convention: https://olm.operatorframework.io/docs/best-practices/channel-naming`, "x.v1")},
			[]string{`Warning: Value x.v1: channel(s) ["alpha" "beta" "gamma"] are not following the recommended naming convention: https://olm.operatorframework.io/docs/best-practices/channel-naming`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := stableResult(apierrors.ManifestResult{Warnings: tt.in, Errors: tt.in})
			for _, es := range [][]apierrors.Error{r.Warnings, r.Errors} {
				var got []string
				for _, e := range es {
					got = append(got, e.Error())
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
			}
		})
	}
}

// shuffleBundle writes a bundle for which operator-framework/api and the API server report several findings
// in map order: provided APIs without examples, examples without a provided API, annotations in the wrong
// case, CRDs the CSV does not define, schema errors in several properties, channels off the naming
// convention and several kinds of removed APIs.
func shuffleBundle(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	kinds := []string{"Alpha", "Bravo", "Charlie", "Delta", "Echo"}
	var owned, examples strings.Builder
	files := map[string]string{
		"metadata/annotations.yaml": `annotations:
  operators.operatorframework.io.bundle.mediatype.v1: registry+v1
  operators.operatorframework.io.bundle.manifests.v1: manifests/
  operators.operatorframework.io.bundle.metadata.v1: metadata/
  operators.operatorframework.io.bundle.package.v1: shuffle
  operators.operatorframework.io.bundle.channels.v1: zulu,yankee,xray,whiskey
`,
	}
	for i, k := range kinds {
		plural := strings.ToLower(k) + "s"
		fmt.Fprintf(&owned, "    - {name: %s.shuffle.io, version: v1, kind: %s, displayName: %s, description: d}\n", plural, k, k)
		fmt.Fprintf(&examples, `{"apiVersion": "other.io/v1", "kind": "Example%d", "metadata": {"name": "e"}},`, i)
		files["manifests/"+plural+".yaml"] = crdYAML(plural, k, "shuffle.io")
		files["manifests/extra-"+plural+".yaml"] = crdYAML(plural, k, "extra.io")
	}
	files["manifests/csv.yaml"] = fmt.Sprintf(`apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: shuffle.v0.0.1
  annotations:
    alm-examples: '[%s {"apiVersion": "x.io/v1", "kind": "Last", "metadata": {"name": "e"}}]'
    OLM.SKIPRANGE: '<0.0.1'
    olm.providedapis: x
    olm.targetnamespaces: x
    olm.operatornamespace: x
    olm.operatorgroup: x
spec:
  displayName: Shuffle
  description: d
  version: 0.0.1
  minKubeVersion: 1.20.0
  provider: {name: p}
  maintainers: [{name: m, email: m@example.com}]
  links: [{name: l, url: https://example.com}]
  keywords: [k]
  maturity: alpha
  icon: [{base64data: iVBORw0KGgo=, mediatype: image/png}]
  installModes: [{type: AllNamespaces, supported: true}]
  customresourcedefinitions:
    owned:
%s  install:
    strategy: deployment
    spec:
      deployments:
      - name: manager
        spec:
          selector: {matchLabels: {app: m}}
          template:
            metadata: {labels: {app: m}}
            spec:
              containers:
              - {name: manager, image: example.com/m:v1, resources: {requests: {cpu: 10m, memory: 10Mi}}}
`, examples.String(), owned.String())
	for i, kind := range []string{"ClusterRole", "Role", "RoleBinding", "ClusterRoleBinding"} {
		files[fmt.Sprintf("manifests/rbac%d.yaml", i)] = fmt.Sprintf("apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: %s\nmetadata: {name: r%d}\n", kind, i)
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// crdYAML is a v1 CRD whose schema has an invalid type in several properties.
func crdYAML(plural, kind, group string) string {
	return fmt.Sprintf(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: %[1]s.%[3]s}
spec:
  group: %[3]s
  names: {kind: %[2]s, plural: %[1]s}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          p1: {type: foo}
          p2: {type: bar}
          p3: {type: baz}
          p4: {type: qux}
`, plural, kind, group)
}

// TestValidateSameBundleTwice validates one bundle several times: every run gives the same output, and the
// findings operator-framework/api and the API server produce in map order come sorted.
func TestValidateSameBundleTwice(t *testing.T) {
	dir := shuffleBundle(t)
	var first string
	for i := 0; i < 8; i++ {
		report, err := Bundles(context.Background(), []string{dir}, WithSelector("suite=operatorframework"))
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := report.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = buf.String()
			checkSortedRuns(t, report)
			continue
		}
		if diff := cmp.Diff(first, buf.String()); diff != "" {
			t.Fatalf("run %d differs from run 0 (-first +this):\n%s", i, diff)
		}
	}
}

// checkSortedRuns checks that the map-ordered findings of the shuffle bundle come in sorted order (per rule
// and severity, and per CRD for the API server's), and that listed items inside a message are sorted.
func checkSortedRuns(t *testing.T, r *finding.Report) {
	t.Helper()
	for _, marker := range []string{"provided API should have an example annotation", "example must have a provided API",
		"uses wrong case", "but not defined in CSV", "the API server rejects this CRD", "Migrate the API(s) for"} {
		groups := map[string][]string{}
		var keys []string
		for _, f := range r.Findings {
			if !strings.Contains(f.Message, marker) {
				continue
			}
			if s := stableDetail(f.Message); s != f.Message {
				t.Errorf("items not sorted in %q", f.Message)
			}
			key := string(f.Severity) + " " + f.Rule
			if f.Rule == RuleAPIServerCRD {
				key += " " + f.File
			}
			if _, ok := groups[key]; !ok {
				keys = append(keys, key)
			}
			groups[key] = append(groups[key], f.Message)
		}
		if len(keys) == 0 {
			t.Errorf("no finding contains %q: the fixture no longer exercises it", marker)
		}
		for _, k := range keys {
			got := groups[k]
			want := append([]string(nil), got...)
			sort.Strings(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s findings with %q not sorted (-want +got):\n%s", k, marker, diff)
			}
		}
	}
}
