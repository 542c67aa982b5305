package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opack/opack/internal/version"
)

// TestOutsideAProject: every command that needs a project file says which file it looked for
// and how to create it.
func TestOutsideAProject(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	abs, _ := filepath.Abs(dir)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"build"}, "looked for " + filepath.Join(abs, "opack.yaml") + ": not found; run opack init"},
		{[]string{"build", "-q"}, "looked for " + filepath.Join(abs, "opack.yaml")},
		{[]string{"check"}, "looked for " + filepath.Join(abs, "opack.yaml")},
		{[]string{"emit"}, "looked for " + filepath.Join(abs, "opack.yaml")},
		{[]string{"build", "-f", "sub/op.yaml"}, "looked for " + filepath.Join(abs, "sub", "op.yaml")},
		{[]string{"init"}, "no kubebuilder/operator-sdk project file " + filepath.Join(abs, "PROJECT") + ", and no Makefile target running operator-sdk generate bundle"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, stderr := runOpack(t, "", tt.args...)
			if code != exitUsage || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, exitUsage, tt.want)
			}
		})
	}
}

// TestFlagMeanings: -v is --verbose wherever it exists, --version is spelled out, -q exists on
// the commands that write.
func TestFlagMeanings(t *testing.T) {
	t.Chdir(t.TempDir())
	tests := []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{[]string{"--version"}, exitOK, version.Version + "\n", ""},
		{[]string{"-v"}, exitUsage, "", "unknown shorthand flag: 'v' in -v (-v is --verbose in opack"},
		{[]string{"generate", "bundle", "-v", "1.0.0"}, exitUsage, "", "a version is passed as --version"},
		{[]string{"build", "-v"}, exitUsage, "", "no project file"},
		{[]string{"check", "-v", "-q"}, exitUsage, "", "no project file"},
		{[]string{"image", "bundle", "-v", "missing"}, exitUsage, "", "--tag is required"},
		{[]string{"build", "-q", "--prune"}, exitUsage, "", "no project file"},
		{[]string{"init", "-q"}, exitUsage, "", "PROJECT"},
		{[]string{"emit", "-q"}, exitUsage, "", "no project file"},
		{[]string{"convert", "packagemanifests", "-q", "missing"}, exitUsage, "", "--output-dir is required"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := runOpack(t, "", tt.args...)
			if code != tt.code || !strings.Contains(stdout, tt.stdout) || !strings.Contains(stderr, tt.stderr) || strings.Contains(stderr, "unknown flag") {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %q, %q", code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
			}
		})
	}
}

// TestKustomizeNotices: kustomize prints its deprecation notices straight to the process's stderr;
// opack gives them as warnings naming the kustomization (so a cached result keeps them), -q
// silences them, and nothing reaches the process's stderr past opack's escaper.
// lightspeed-operator's config uses patchesJson6902.
func TestKustomizeNotices(t *testing.T) {
	src, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "adopt", "lightspeed-operator"))
	dir := t.TempDir()
	for _, part := range []string{"PROJECT", "config"} {
		if err := os.CopyFS(filepath.Join(dir, part), os.DirFS(filepath.Join(src, part))); err != nil && part == "config" {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(filepath.Join(src, "PROJECT"))
	if err != nil {
		t.Fatal(err)
	}
	_ = os.RemoveAll(filepath.Join(dir, "PROJECT"))
	if err := os.WriteFile(filepath.Join(dir, "PROJECT"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	const notice = "warning: config/scorecard/kustomization.yaml: 'patchesJson6902' is deprecated. Please use 'patches' instead."
	for _, tt := range []struct {
		quiet bool
		want  bool
	}{{false, true}, {true, false}} {
		args := []string{"generate", "bundle", "--version", "1.1.4"}
		if tt.quiet {
			args = append(args, "-q")
		}
		var stderr string
		procErr := captureProcessStderr(t, func() {
			var code int
			if code, _, stderr = runOpack(t, "", args...); code != exitOK {
				t.Fatalf("%v: exit %d\n%s", args, code, stderr)
			}
		})
		if got := strings.Count(stderr, notice); got != map[bool]int{true: 1}[tt.want] {
			t.Errorf("%v: the notice is printed %d times, want it %v once (stderr %q)", args, got, tt.want, stderr)
		}
		if procErr != "" {
			t.Errorf("%v: printed past opack's writer: %q", args, procErr)
		}
	}
}

// captureProcessStderr returns what fn writes to the process's stderr (os.Stderr).
func captureProcessStderr(t *testing.T, fn func()) string {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stderr
	os.Stderr = f
	defer func() { os.Stderr = old }()
	fn()
	os.Stderr = old
	data, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
