package kustomize

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/openapi"
)

// TestBuildSchemaState: whatever ran before it in the process, a build gives what a kustomize
// process of its own gives (the reference: kustomize run from the reset schema state, no
// warm-up): a strategic merge patch of a Deployment (the default schema's merge keys), and one of
// a custom resource under a kustomization naming its own schema (openapi: path: the default
// schema then does not apply, so the Service's ports do not merge by port), in turns.
func TestBuildSchemaState(t *testing.T) {
	schema, err := os.ReadFile(filepath.Join("testdata", "openapi", "mycrd_schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	files := map[string]string{
		"go.mod": "module x\n",
		"plain/kustomization.yaml": `resources:
- deployment.yaml
patches:
- patch: |-
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: web
    spec:
      template:
        spec:
          containers:
          - name: server
            image: nginx
`,
		"plain/deployment.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: server
        image: server
        ports:
        - containerPort: 8080
      - name: sidecar
        image: sidecar
`,
		"custom/kustomization.yaml": `resources:
- mycrd.yaml
- service.yaml
openapi:
  path: mycrd_schema.json
patches:
- patch: |-
    apiVersion: example.com/v1alpha1
    kind: MyCRD
    metadata:
      name: service
    spec:
      template:
        spec:
          containers:
          - name: server
            image: nginx
- patch: |-
    apiVersion: v1
    kind: Service
    metadata:
      name: svc
    spec:
      ports:
      - port: 443
        name: https-renamed
`,
		"custom/service.yaml": `apiVersion: v1
kind: Service
metadata:
  name: svc
spec:
  ports:
  - port: 443
    name: https
    protocol: TCP
  - port: 80
    name: http
`,
		"custom/mycrd.yaml": `apiVersion: example.com/v1alpha1
kind: MyCRD
metadata:
  name: service
spec:
  template:
    spec:
      containers:
      - name: server
        image: server
        command: example
      - name: other
        image: other
`,
		"custom/mycrd_schema.json": string(schema),
	}
	for rel, data := range files {
		write(rel, data)(t, root)
	}
	reference := func(dir string) string {
		t.Helper()
		openapi.ResetOpenAPI()
		defer openapi.ResetOpenAPI()
		sb, err := newSandbox(context.Background(), filesys.MakeFsOnDisk(), root, true, false)
		if err != nil {
			t.Fatal(err)
		}
		m, err := run(kustomizeOptions(), sb, dir)
		if err != nil {
			t.Fatal(err)
		}
		out, err := asYAML(m)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	want := map[string]string{}
	for _, d := range []string{"plain", "custom"} {
		want[d] = reference(filepath.Join(root, d))
	}
	if want["plain"] == want["custom"] {
		t.Fatal("the two builds give the same output: the test compares nothing")
	}
	for i, d := range []string{"plain", "custom", "plain", "custom", "custom", "plain"} {
		got, err := Build(context.Background(), filepath.Join(root, d), WithRoot(root))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want[d], string(got)); diff != "" {
			t.Errorf("build %d (%s) differs from a fresh kustomize (-want +got):\n%s", i, d, diff)
		}
	}
}
