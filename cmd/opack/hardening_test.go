package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/benchutil"
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

// TestValidateBundleReadLimits guards the read limits at a small scale: files each within
// --max-file-size but holding one document over --max-doc-size were once read whole and kept in
// memory, and a 1 GiB sparse file was read 64 MiB before being refused. Every file is now refused by the
// limit that applies, named once, and the sparse file is refused from its size, unread.
func TestValidateBundleReadLimits(t *testing.T) {
	bundle := hardeningCopyTree(t, validateTestdata("samples", "memcached-operator", "bundle"))
	big := strings.Repeat("x", 2<<20)
	for i := range 3 {
		doc := fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big%d\ndata:\n  a: %s\n", i, big)
		if err := os.WriteFile(filepath.Join(bundle, "manifests", fmt.Sprintf("big%d.yaml", i)), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr := runOpack(t, "", "--max-doc-size", "1Mi", "validate", "bundle", bundle)
	out := stdout + stderr
	for i := range 3 {
		want := filepath.Join(bundle, "manifests", fmt.Sprintf("big%d.yaml", i)) + ": document size exceeds the limit of 1048576 (raise it with --max-doc-size)"
		if code != exitFindings || strings.Count(out, want) != 1 {
			t.Errorf("exit %d, want %d; output should name %q once:\n%s", code, exitFindings, want, out)
		}
	}

	huge := filepath.Join(bundle, "manifests", "huge.yaml")
	if err := os.WriteFile(huge, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 1<<30); err != nil {
		t.Fatal(err)
	}
	benchutil.ResetPeak()
	before := benchutil.PeakRSS()
	code, stdout, stderr = runOpack(t, "", "validate", "bundle", bundle)
	grown := benchutil.PeakRSS() - before
	want := huge + ": file size exceeds the limit of 67108864 (raise it with --max-file-size)"
	if out := stdout + stderr; code != exitFindings || strings.Count(out, want) != 1 {
		t.Errorf("exit %d, want %d; output should name %q once:\n%s", code, exitFindings, want, out)
	}
	if !raceEnabled && before > 0 && grown > 48<<20 {
		t.Errorf("peak RSS grew by %d MiB refusing a 1 GiB sparse file; want it refused unread", grown>>20)
	}
}

// TestDemoFlowOffline runs the demo flow (init, build, an unchanged build, check) and then build
// and check on a fresh checkout of the result (no _output/) with a DNS resolver that fails the
// test on any lookup: offline means no name is ever resolved (a fresh checkout once pulled its own
// bundle image from quay.io).
func TestDemoFlowOffline(t *testing.T) {
	var mu sync.Mutex
	var lookups []string
	saved := net.DefaultResolver
	t.Cleanup(func() { net.DefaultResolver = saved })
	net.DefaultResolver = &net.Resolver{PreferGo: true, Dial: func(_ context.Context, network, addr string) (net.Conn, error) {
		mu.Lock()
		lookups = append(lookups, network+" "+addr)
		mu.Unlock()
		return nil, errors.New("offline test: no DNS")
	}}
	// The resolver is the one in use: a lookup of a name reaches it.
	if _, err := net.LookupHost("registry.invalid.example"); err == nil || len(lookups) == 0 {
		t.Fatalf("the failing resolver was not used (err %v)", err)
	}
	lookups = nil
	t.Cleanup(func() {
		if len(lookups) > 0 {
			t.Errorf("DNS lookups during the offline flow: %v", lookups)
		}
	})
	dir := demoProject(t)
	steps := [][]string{
		{"init", dir, "--version", "0.0.1", "--bundle-image", "quay.io/example/memcached-operator-bundle", "--catalog-image", "quay.io/example/memcached-operator-catalog"},
		{"build", "-f", filepath.Join(dir, "opack.yaml")},
		{"build", "-f", filepath.Join(dir, "opack.yaml")},
		{"check", "-f", filepath.Join(dir, "opack.yaml")},
	}
	for _, args := range steps {
		if code, stdout, stderr := runOpack(t, "", args...); code != 0 {
			t.Fatalf("opack %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
		}
	}
	if err := os.RemoveAll(filepath.Join(dir, "_output")); err != nil {
		t.Fatal(err)
	}
	for _, verb := range []string{"check", "build", "check"} {
		if code, stdout, stderr := runOpack(t, "", verb, "-f", filepath.Join(dir, "opack.yaml")); code != 0 {
			t.Fatalf("fresh checkout: opack %s: exit %d\n%s%s", verb, code, stdout, stderr)
		}
	}
}

// demoProject copies the go/v4 sample of make demo (PROJECT and config/) into a temporary folder.
func demoProject(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "testdata", "project", "memcached-operator")
	dir := filepath.Join(t.TempDir(), "memcached-operator")
	for _, part := range []string{"PROJECT", "config"} {
		if err := os.CopyFS(filepath.Join(dir, part), os.DirFS(filepath.Join(src, part))); err != nil && part == "config" {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(filepath.Join(src, "PROJECT"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "PROJECT"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestGenerateBundleOutputOverInputs: generate bundle --output-dir config once deleted
// config/manifests/kustomization.yaml. An output folder that holds, equals or lies
// inside an input is now refused before anything is written.
func TestGenerateBundleOutputOverInputs(t *testing.T) {
	dir := copySample(t, "memcached-operator")
	before := treeHashes(t, filepath.Join(dir, "config"))
	for _, out := range []string{"config", "config/manifests", "config/manifests/bundle", ".", "config/default"} {
		t.Run(out, func(t *testing.T) {
			code, _, stderr := runOpack(t, "", "generate", "bundle", "--version", "0.0.1", "--output-dir", out)
			if code != exitUsage || !strings.Contains(stderr, "output folder "+out+" overlaps") {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitUsage, stderr)
			}
			if d := cmp.Diff(before, treeHashes(t, filepath.Join(dir, "config"))); d != "" {
				t.Errorf("config/ changed (-before +after):\n%s", d)
			}
		})
	}
}

// TestCollidingKeysRefusedEverywhere: a manifest whose mapping has keys 8 and 00008 (one JSON
// key: sigs.k8s.io/yaml keeps either at random) is refused by validate bundle as by image bundle
// (refused everywhere, naming the file and the key).
func TestCollidingKeysRefusedEverywhere(t *testing.T) {
	bundle := hardeningCopyTree(t, validateTestdata("samples", "memcached-operator", "bundle"))
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: keys\ndata:\n  8: a\n  00008: b\n"
	file := filepath.Join(bundle, "manifests", "keys_v1_configmap.yaml")
	if err := os.WriteFile(file, []byte(cm), 0o644); err != nil {
		t.Fatal(err)
	}
	want := `two keys that both read as "8" in JSON`
	for _, args := range [][]string{
		{"validate", "bundle", bundle},
		{"image", "bundle", bundle, "--oci-layout", filepath.Join(t.TempDir(), "oci")},
	} {
		code, stdout, stderr := runOpack(t, "", args...)
		if code == 0 || !strings.Contains(stdout+stderr, want) || !strings.Contains(stdout+stderr, "keys_v1_configmap.yaml") {
			t.Errorf("opack %s: exit %d, want a refusal naming the file and %q:\n%s%s", args[0]+" "+args[1], code, want, stdout, stderr)
		}
	}
}
