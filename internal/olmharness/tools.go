package olmharness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// buildTimeout bounds a cold build of one controller (Kubernetes-sized: minutes on two cores).
const buildTimeout = 45 * time.Minute

// Binary builds (or finds in its cache) the named program with hack/build-apiserver.sh of the repository
// at root ("olm-operator", "catalog-operator", "operator-controller", "catalogd", "kube-apiserver") and
// returns its path.
func Binary(ctx context.Context, root, name string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, buildTimeout)
	defer cancel()
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

// moduleDir returns the folder of module in the module cache, as the tools module hack/tools/<tools>
// requires it (downloaded by the build, so this needs no network).
func moduleDir(ctx context.Context, root, tools, module string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-m", "-json", module)
	cmd.Dir = filepath.Join(root, "hack", "tools", tools)
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("finding %s in the module cache: %w\n%s", module, err, exitStderr(err))
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil {
		return "", fmt.Errorf("reading go list's answer for %s: %w", module, err)
	}
	if m.Dir == "" {
		return "", fmt.Errorf("%s is not in the module cache", module)
	}
	return m.Dir, nil
}

func exitStderr(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}

// RepoRoot returns the root of the opack repository the test runs in.
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(string(data), "module github.com/opack/opack\n") {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("not inside the opack repository")
		}
		dir = parent
	}
}

// skipOrFail skips t with the message, or fails it when the environment variable CI is set: in CI the
// end-to-end tests never skip.
func skipOrFail(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf(format, args...)
	}
	t.Skipf("SKIP: "+format, args...)
}
