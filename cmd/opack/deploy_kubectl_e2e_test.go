package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/manifest"
)

// TestE2EDeployKubectl builds the go/v4 sample with opack build and runs Debian's kubectl on the
// deploy folders as `kubectl apply -k` reads them (kubectl kustomize: kubectl's own kustomize, client
// side). The objects must come out in an order a fresh cluster accepts: the Namespace before what
// lives in it. (apply --dry-run=client itself needs an API server serving the OLM kinds and the core
// ones: kubectl reads discovery and the live objects even in client dry-run.)
func TestE2EDeployKubectl(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test: builds the sample and runs kubectl; run without -short")
	}
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("SKIP: kubectl is not installed; `make test-deps` installs it (apt-get install kubectl)")
	}
	p := newPipelineProject(t, "quay.io/example/memcached-operator-bundle", "quay.io/example/memcached-operator-catalog")
	p.build(t, 0, "wrote catalog-template.yaml")
	kustomize(t, kubectl, p.dir, map[string][]string{
		"olmv0": {"Namespace memcached-operator-system", "OperatorGroup memcached-operator", "CatalogSource memcached-operator-catalog", "Subscription memcached-operator"},
		"olmv1": {"Namespace memcached-operator-system", "ClusterCatalog memcached-operator-catalog", "ClusterExtension memcached-operator"},
	})

	// An installer service account with RBAC derived from the bundle (OLM v1 releases that require one).
	cfg := filepath.Join(p.dir, "opack.yaml")
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), "\n  olmv1:\n", "\n  olmv1:\n    serviceAccount:\n      name: memcached-operator-installer\n", 1)
	if edited == string(data) {
		t.Fatalf("%s has no deploy.olmv1 section", cfg)
	}
	if err := os.WriteFile(cfg, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	p.expect(t, 0, "", "emit", "-f", cfg)
	kustomize(t, kubectl, p.dir, map[string][]string{"olmv1": {
		"Namespace memcached-operator-system", "ServiceAccount memcached-operator-installer",
		"Role memcached-operator-installer-installer", "ClusterRole memcached-operator-installer-installer",
		"RoleBinding memcached-operator-installer", "ClusterRoleBinding memcached-operator-installer",
		"ClusterCatalog memcached-operator-catalog", "ClusterExtension memcached-operator",
	}})
}

// kustomize runs kubectl kustomize on each deploy folder and compares the objects it gives, in order.
func kustomize(t *testing.T, kubectl, project string, folders map[string][]string) {
	t.Helper()
	for dir, want := range folders {
		t.Run(dir, func(t *testing.T) {
			cmd := exec.Command(kubectl, "kustomize", filepath.Join(project, "deploy", dir))
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("kubectl kustomize deploy/%s: %v\n%s", dir, err, exitStderr(err))
			}
			docs, err := manifest.Decode(bytes.NewReader(out), "kubectl kustomize deploy/"+dir)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range docs {
				got = append(got, d.Object.GetKind()+" "+d.Object.GetName())
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("kubectl kustomize deploy/%s objects (-want +got):\n%s", dir, d)
			}
		})
	}
}

func exitStderr(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}
