//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestE2EMinimalImage runs `opack check` as it runs in a container image of opack alone: a root
// holding nothing but the static binary (CGO_ENABLED=0, as make build builds it), an empty /tmp
// (a distroless image has one; FROM scratch needs --tmpfs /tmp) and the project, no PATH, no HOME,
// chrooted there (what a container runtime does for a filesystem). The project is a real Go
// repository of testdata/realrepos: its API types are read without the go command, and check
// passes on the release build just wrote. Without /tmp, check says to mount one.
func TestE2EMinimalImage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds opack and chroots: runs in make test-slow")
	}
	if os.Geteuid() != 0 {
		t.Skip("chroot needs root")
	}
	var repo realRepo
	for _, r := range realRepos(t) {
		if r.name == "node-healthcheck-operator" {
			repo = r
		}
	}
	root := t.TempDir()
	bin := filepath.Join(root, "opack")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	project := filepath.Join(root, "project")
	if err := os.CopyFS(project, os.DirFS(filepath.Join(repo.src, "input"))); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		append([]string{"init", project, "--version", "0.0.1", "--bundle-image", "quay.io/example/op-bundle", "--catalog-image", "quay.io/example/op-catalog",
			"--kustomize-dir", repo.kustomizeDir}, []string{}...),
		{"build", "-f", filepath.Join(project, "opack.yaml")},
	} {
		if code, stdout, stderr := runOpack(t, "", args...); code != 0 {
			t.Fatalf("opack %v: exit %d\n%s%s", args, code, stdout, stderr)
		}
	}
	check := func(t *testing.T) (int, string) {
		t.Helper()
		cmd := exec.Command("/opack", "check", "-f", "/project/opack.yaml")
		cmd.Dir = "/"
		cmd.Env = []string{}
		cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: root}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if err != nil && cmd.ProcessState == nil {
			t.Fatal(err)
		}
		return cmd.ProcessState.ExitCode(), out.String()
	}
	t.Run("no /tmp", func(t *testing.T) {
		if code, out := check(t); code != 2 || !strings.Contains(out, "set TMPDIR to a writable folder") {
			t.Errorf("exit %d, want 2 saying to give a temporary folder:\n%s", code, out)
		}
	})
	t.Run("with /tmp", func(t *testing.T) {
		if err := os.Mkdir(filepath.Join(root, "tmp"), 0o1777); err != nil {
			t.Fatal(err)
		}
		if code, out := check(t); code != 0 {
			t.Errorf("exit %d:\n%s", code, out)
		}
	})
}
