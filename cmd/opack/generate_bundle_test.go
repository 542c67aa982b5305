package main

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// copySample copies a sample's PROJECT and config/ into a temporary folder and enters it.
func copySample(t *testing.T, sample string) string {
	t.Helper()
	src, err := filepath.Abs(filepath.Join("..", "..", "testdata", "operator-sdk", sample))
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	for _, part := range []string{"PROJECT", "config", "observed-v1.42.3/kustomize-out.yaml"} {
		err := filepath.WalkDir(filepath.Join(src, part), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755)
			return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dst)
	return dst
}

// runOpack runs opack in-process with stdin and returns its exit code and output.
func runOpack(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestGenerateBundleCheckCycle(t *testing.T) {
	for _, sample := range []string{"memcached-operator", "monitoring-memcached-operator", "helm-memcached-operator", "ansible-memcached-operator-v1.31"} {
		t.Run(sample, func(t *testing.T) {
			dir := copySample(t, sample)
			if code, _, stderr := runOpack(t, "", "generate", "bundle", "--version", "0.0.1"); code != 0 {
				t.Fatalf("generate: exit %d\n%s", code, stderr)
			}
			if code, out, stderr := runOpack(t, "", "generate", "bundle", "--version", "0.0.1", "--check"); code != 0 {
				t.Fatalf("--check right after generating: exit %d\n%s%s", code, out, stderr)
			}
			stream, _ := os.ReadFile(filepath.Join(dir, "observed-v1.42.3", "kustomize-out.yaml"))
			if code, out, stderr := runOpack(t, string(stream), "generate", "bundle", "-", "--version", "0.0.1", "--check"); code != 0 {
				t.Fatalf("--check from stdin: exit %d\n%s%s", code, out, stderr)
			}
			entries, _ := os.ReadDir(filepath.Join(dir, "bundle", "manifests"))
			if sample != "memcached-operator" && len(entries) > 1 {
				entries = entries[:1] // every file of one sample is enough; keep the suite fast
			}
			for _, e := range entries {
				t.Run("edit "+e.Name(), func(t *testing.T) {
					p := filepath.Join(dir, "bundle", "manifests", e.Name())
					orig, _ := os.ReadFile(p)
					t.Cleanup(func() { os.WriteFile(p, orig, 0o644) })
					os.WriteFile(p, append(append([]byte{}, orig...), "# edited\n"...), 0o644)
					code, out, _ := runOpack(t, "", "generate", "bundle", "--version", "0.0.1", "--check")
					if code != 1 || !strings.Contains(out, "+++ b/bundle/manifests/"+e.Name()) {
						t.Errorf("--check after an edit: exit %d, want 1 with a diff\n%s", code, out)
					}
				})
			}
		})
	}
}

func TestGenerateBundleUsageAndBadInput(t *testing.T) {
	dir := copySample(t, "memcached-operator")
	if code, _, stderr := runOpack(t, "", "generate", "bundle", "--version", "0.0.1", "-q"); code != 0 {
		t.Fatalf("generate: exit %d\n%s", code, stderr)
	}
	snapshot := func() string {
		var b strings.Builder
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				data, _ := os.ReadFile(p)
				b.WriteString(p + "\n" + string(data))
			}
			return nil
		})
		return b.String()
	}
	before := snapshot()
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"stray argument", "", []string{"config"}, `unexpected argument "config"`},
		{"non-semver version", "", []string{"--version", "1.0"}, "not a semantic version"},
		{"invalid YAML on stdin", "kind: [x\n", []string{"-"}, "-"},
		{"object without kind", "apiVersion: v1\nmetadata: {name: a}\n", []string{"-"}, "no apiVersion or kind"},
		{"missing kustomize tree", "", []string{"--kustomize-dir", "nope"}, "nope"},
		{"stdout with check", "", []string{"--stdout", "--check"}, "cannot be used together"},
		{"empty stdin", "", []string{"-", "--version", "0.0.1"}, "Error: no objects on stdin: the input is empty"},
		{"version with a leading v", "", []string{"--version", "v0.0.1"}, `drop the leading v (--version 0.0.1)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runOpack(t, tc.stdin, append([]string{"generate", "bundle"}, tc.args...)...)
			if code != 2 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 mentioning %q", code, stderr, tc.want)
			}
			if snapshot() != before {
				t.Errorf("a failed run changed files")
			}
		})
	}
	t.Run("stdout writes nothing", func(t *testing.T) {
		code, out, _ := runOpack(t, "", "generate", "bundle", "--version", "0.0.2", "--stdout")
		if code != 0 || !strings.HasPrefix(out, "\n---\napiVersion: operators.coreos.com/v1alpha1") {
			t.Errorf("exit %d, stdout %.80q", code, out)
		}
		if snapshot() != before {
			t.Errorf("--stdout changed files")
		}
	})
}

// TestGenerateBundleQuiet checks that -q prints nothing on success, though the sample has
// dropped objects and validation warnings, and that the same run without -q labels them.
func TestGenerateBundleQuiet(t *testing.T) {
	copySample(t, "memcached-operator")
	tests := []struct {
		name       string
		args       []string
		wantStderr []string // prefixes of the stderr lines, in order, without repeats
	}{
		{"quiet", []string{"-q"}, nil},
		{"not quiet", nil, []string{"warning:", "dropped:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := runOpack(t, "", append([]string{"generate", "bundle", "--version", "0.0.1"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, stderr)
			}
			var got []string
			for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
				label, _, ok := strings.Cut(line, " ")
				if ok && (len(got) == 0 || got[len(got)-1] != label) {
					got = append(got, label)
				}
			}
			if diff := cmp.Diff(tt.wantStderr, got); diff != "" {
				t.Errorf("stderr labels (-want +got):\n%s\n%s", diff, stderr)
			}
			if tt.args != nil && out != "" {
				t.Errorf("-q printed %q", out)
			}
		})
	}
}
