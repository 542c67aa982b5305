package crdserver

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Build builds (or finds in its cache) the apiextensions-apiserver binary with hack/build-apiserver.sh
// of the repository at root and returns its path. The first build takes minutes; later calls return at once.
func Build(ctx context.Context, root string) (string, error) {
	return BuildTool(ctx, root, "apiextensions-apiserver")
}

// BuildKube builds (or finds in its cache) kube-apiserver from k8s.io/kubernetes's module with
// `hack/build-apiserver.sh kube-apiserver` of the repository at root and returns its path.
func BuildKube(ctx context.Context, root string) (string, error) {
	return BuildTool(ctx, root, "kube-apiserver")
}

// BuildTool builds (or finds in its cache) the program name with `hack/build-apiserver.sh NAME` of the
// repository at root (any name the script takes) and returns its path.
func BuildTool(ctx context.Context, root, name string) (string, error) {
	script := filepath.Join(root, "hack", "build-apiserver.sh")
	cmd := exec.CommandContext(ctx, "bash", script, name)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building %s with %s: %w\n%s", name, script, err, stderr.String())
	}
	bin := strings.TrimSpace(stdout.String())
	if fi, err := os.Stat(bin); err != nil || fi.IsDir() {
		return "", fmt.Errorf("%s printed %q, which is not a binary", script, bin)
	}
	return bin, nil
}

// Etcd returns the path of the etcd binary (Debian's etcd-server package: /usr/bin/etcd).
func Etcd() (string, error) {
	if p, err := exec.LookPath("etcd"); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("etcd is not installed; `make test-deps` installs it (apt-get install etcd-server)")
}
