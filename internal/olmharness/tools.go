package olmharness

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/opack/opack/internal/crdserver"
	"github.com/opack/opack/internal/olmtest"
)

// buildTimeout bounds a cold build of one controller (Kubernetes-sized: minutes on two cores).
const buildTimeout = 45 * time.Minute

// Binary builds (or finds in its cache) the named program with hack/build-apiserver.sh of the repository
// at root ("olm-operator", "catalog-operator", "operator-controller", "catalogd", "kube-apiserver") and
// returns its path.
func Binary(ctx context.Context, root, name string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, buildTimeout)
	defer cancel()
	return crdserver.BuildTool(ctx, root, name)
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
func RepoRoot(t testing.TB) string { return olmtest.RepoRoot(t) }

// skipOrFail skips t with the message, or fails it when the environment variable CI is set: in CI the
// end-to-end tests never skip.
func skipOrFail(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf(format, args...)
	}
	t.Skipf("SKIP: "+format, args...)
}
