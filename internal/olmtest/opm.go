package olmtest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// opmVersion is the operator-registry release hack/tools/opm/go.mod pins.
const opmVersion = "v1.73.0"

// Tools are the programs of OLM's catalog pod, built from hack/tools/opm.
type Tools struct {
	OPM         string // opm serve
	CopyContent string // the extract-content init container's copy-content
}

// BuildTools returns the tools, building them on first use into the user cache folder (keyed by the
// tools module's files, so a version bump rebuilds them). Concurrent test processes wait for one build.
func BuildTools(t testing.TB) Tools {
	t.Helper()
	mod := filepath.Join(RepoRoot(t), "hack", "tools", "opm")
	key := sha256.New()
	for _, f := range []string{"go.mod", "go.sum", "copycontent/main.go"} {
		data, err := os.ReadFile(filepath.Join(mod, f))
		if err != nil {
			t.Fatalf("reading the opm tools module: %v", err)
		}
		key.Write(data)
	}
	dir := filepath.Join(toolsCache(), "opm-"+opmVersion+"-"+hex.EncodeToString(key.Sum(nil))[:12])
	bin := filepath.Join(dir, "bin")
	tools := Tools{OPM: filepath.Join(bin, "opm"), CopyContent: filepath.Join(bin, "copycontent")}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX); err != nil {
		t.Fatalf("locking %s: %v", dir, err)
	}
	defer unix.Flock(int(lock.Fd()), unix.LOCK_UN)
	if _, err := os.Stat(bin); err == nil {
		return tools
	}
	t.Logf("building opm %s and copycontent from %s into %s (once)", opmVersion, mod, dir)
	tmp := bin + ".tmp"
	if err := os.RemoveAll(tmp); err != nil {
		t.Fatal(err)
	}
	// Static binaries (they run chrooted in unpacked images), with the build tags operator-registry's
	// Makefile uses; sqlite (cgo) is not needed to serve a file-based catalog.
	cmd := exec.Command("go", "build", "-trimpath", "-tags", "containers_image_openpgp,json1", "-o", tmp+"/",
		"github.com/operator-framework/operator-registry/cmd/opm", "./copycontent")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off", "GOFLAGS=-mod=readonly")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building opm: %v\n%s", err, out)
	}
	if err := os.Rename(tmp, bin); err != nil {
		t.Fatal(err)
	}
	return tools
}

// toolsCache is where test tools are built, outside the repository (as hack/ scripts do):
// $OPACK_TOOLS_CACHE, else the user cache folder's opack-tools.
func toolsCache() string {
	if d := os.Getenv("OPACK_TOOLS_CACHE"); d != "" {
		return d
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	return filepath.Join(base, "opack-tools")
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

// RequireRoot skips t unless it runs as root (chroot and network namespaces need it).
func RequireRoot(t testing.TB) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip(fmt.Sprintf("SKIP: emulating OLM's catalog pod needs root (chroot, a network namespace); running as uid %d", os.Geteuid()))
	}
}
