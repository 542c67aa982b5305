package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateBundleRefusesSymlinkOut: a bundle whose manifests/ holds a symlink to /etc/passwd is
// refused; the report names the link and says it is a symlink leaving the tree, and the exit code is 1.
func TestValidateBundleRefusesSymlinkOut(t *testing.T) {
	bundle := hardeningCopyTree(t, validateTestdata("samples", "memcached-operator", "bundle"))
	link := filepath.Join(bundle, "manifests", "passwd.yaml")
	if err := os.Symlink("/etc/passwd", link); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"validate", "bundle", bundle}, nil, &stdout, &stderr)
	if code != exitFindings {
		t.Errorf("exit code = %d, want %d", code, exitFindings)
	}
	out := stdout.String() + stderr.String()
	for _, want := range []string{link, "symlink", "outside"} {
		if !strings.Contains(out, want) {
			t.Errorf("output does not contain %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "root:x:0:0") {
		t.Errorf("output shows the content of /etc/passwd:\n%s", out)
	}
}

// hardeningCopyTree copies the regular files below src into a temporary folder and returns it.
func hardeningCopyTree(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}
