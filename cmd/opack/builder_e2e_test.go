package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestE2EBuilderLabelTwoBinaries: two binaries of the same commit — one from `make build`
// (version from git describe through -ldflags), one from `go install` (version from the build
// info) — generate byte-identical bundles, builder label included.
func TestE2EBuilderLabelTwoBinaries(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds opack twice")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	build := func(name string, args ...string) {
		t.Helper()
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir, cmd.Env = root, append(os.Environ(), "GOBIN="+bin, "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
	}
	build("make build", "make", "build", "BIN="+filepath.Join(bin, "opack-make"))
	build("go install", "go", "install", "-trimpath", "./cmd/opack")

	want := "opack-dev"
	if tag, err := exec.Command("git", "-C", root, "describe", "--tags", "--exact-match", "--dirty").Output(); err == nil &&
		regexp.MustCompile(`^v\d+\.\d+\.\d+(-(alpha|beta|rc)(\.\d+)?)?$`).MatchString(strings.TrimSpace(string(tag))) {
		want = "opack-" + strings.TrimSpace(string(tag))
	}
	src := filepath.Join(root, "testdata", "realrepos", "self-node-remediation", "input")
	trees := map[string]map[string]string{}
	for _, b := range []string{"opack-make", "opack"} {
		dir := filepath.Join(t.TempDir(), "repo")
		if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(filepath.Join(bin, b), "generate", "bundle", "-q", "--version", "0.0.1", "--created-at", "2026-01-01T00:00:00Z")
		cmd.Dir, cmd.Env = dir, append(os.Environ(), "GOPROXY=off", "GOMODCACHE="+t.TempDir())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s generate bundle: %v\n%s", b, err, out)
		}
		trees[b] = readTreeUnder(t, dir, "bundle", same)
		trees[b]["bundle.Dockerfile"] = readOptional(t, filepath.Join(dir, "bundle.Dockerfile"))
		if csv := trees[b]["bundle/manifests/self-node-remediation.clusterserviceversion.yaml"]; !strings.Contains(csv, "operators.operatorframework.io/builder: "+want+"\n") {
			t.Errorf("%s: the CSV's builder is not %s", b, want)
		}
	}
	if diff := cmp.Diff(trees["opack-make"], trees["opack"]); diff != "" {
		t.Errorf("make build and go install binaries wrote different bundles (-make +install):\n%s", diff)
	}
}
