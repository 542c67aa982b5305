package kustomize

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestE2EKubectlKustomize uses `kubectl kustomize` as a second oracle where kubectl is installed.
func TestE2EKubectlKustomize(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test: needs kubectl")
	}
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl not installed")
	}
	for _, sample := range []string{"memcached-operator", "monitoring-memcached-operator", "helm-memcached-operator", "ansible-memcached-operator-v1.31"} {
		t.Run(sample, func(t *testing.T) {
			dir := filepath.Join("..", "..", "testdata", "operator-sdk", sample, "config", "manifests")
			var stdout, stderr bytes.Buffer
			cmd := exec.Command(kubectl, "kustomize", dir)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("kubectl kustomize: %v\n%s", err, stderr.String())
			}
			got, err := Build(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(stdout.String(), string(got)); diff != "" {
				t.Errorf("in-process build differs from kubectl kustomize (-kubectl +opack):\n%s", diff)
			}
		})
	}
}
