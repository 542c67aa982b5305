package bundle

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// copyGoFixture copies operator-sdk's Go API fixtures (internal/apitypes/testdata/sdk-go) into a
// temporary folder and cuts the Go command off the network and the module cache.
func copyGoFixture(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "sdk-go")
	if err := os.CopyFS(dst, os.DirFS(filepath.Join("..", "apitypes", "testdata", "sdk-go"))); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", t.TempDir()) // no go command: the Go types are read without it
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOMODCACHE", t.TempDir())
	return dst
}

func goBaseOptions(t *testing.T, dir string) BaseOptions {
	t.Helper()
	p, ok, err := ReadProject(dir)
	if err != nil || !ok {
		t.Fatalf("reading PROJECT: %v %v", ok, err)
	}
	out := filepath.Join(dir, "config", "manifests")
	return BaseOptions{Package: p.Name, InputDir: out, OutputDir: out, Project: p, ProjectDir: dir, APIsDir: "api"}
}

// TestGenerateBaseFromGoTypes: the base CSV generated from operator-sdk's own Go fixtures, offline,
// equals the one operator-sdk v1.42.3 generated with the module cache.
func TestGenerateBaseFromGoTypes(t *testing.T) {
	dir := copyGoFixture(t)
	o := goBaseOptions(t, dir)
	res, err := GenerateBase(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(dir, "expected", "memcached-operator.clusterserviceversion.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(BaseFile(o.OutputDir, o.Package))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("base differs from operator-sdk v1.42.3's (-want +got):\n%s", diff)
	}
	wantWarn := []string{"skipping definitions parsing for API cache.example.com/v1alpha2, Kind=Ghost: Go type not found"}
	if diff := cmp.Diff(wantWarn, res.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	again, err := GenerateBase(context.Background(), o)
	if err != nil || again.Changed || len(again.Files) != 0 || len(again.Unchanged) != 1 {
		t.Errorf("second run: %+v, %v; want nothing written, the base unchanged", again, err)
	}
}

// TestGenerateBaseGoErrors: Go code that cannot be read is an error naming the package and the
// reason, and the existing base stays as it was.
func TestGenerateBaseGoErrors(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(t *testing.T, dir string)
		wants []string
	}{
		{"syntax error", func(t *testing.T, dir string) {
			appendTo(t, filepath.Join(dir, "api", "v1alpha2", "dummy_types.go"), "\nfunc broken( {\n")
		}, []string{"reading the Go API types: api/v1alpha2/dummy_types.go:", "kept as it is"}},
		{"bad marker", func(t *testing.T, dir string) {
			replaceIn(t, filepath.Join(dir, "api", "v1alpha2", "dummy_types.go"), `// +operator-sdk:csv:customresourcedefinitions:displayName="Dummy App"`,
				`// +operator-sdk:csv:customresourcedefinitions:displayName="Dummy App",order=first`)
		}, []string{"api/v1alpha2/dummy_types.go:85:1: ", `expected integer, got "first"`, "kept as it is"}},
		{"kind without status", func(t *testing.T, dir string) {
			replaceIn(t, filepath.Join(dir, "api", "v1alpha2", "dummy_types.go"), "`json:\"status,omitempty\"`", "`json:\"state,omitempty\"`")
		}, []string{"no status found for type", "kept as it is"}},
		{"a Go file that is a FIFO", func(t *testing.T, dir string) {
			if err := syscall.Mkfifo(filepath.Join(dir, "api", "v1alpha2", "zz_fifo.go"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{"api/v1alpha2/zz_fifo.go", "FIFO", "kept as it is"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyGoFixture(t)
			o := goBaseOptions(t, dir)
			base := BaseFile(o.OutputDir, o.Package)
			os.MkdirAll(filepath.Dir(base), 0o755)
			before := []byte("# a base opack must not touch\n" + mustRead(t, filepath.Join(dir, "expected", "memcached-operator.clusterserviceversion.yaml")))
			if err := os.WriteFile(base, before, 0o644); err != nil {
				t.Fatal(err)
			}
			tt.edit(t, dir)
			_, err := GenerateBase(context.Background(), o)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if after := mustRead(t, base); after != string(before) {
				t.Errorf("the base changed:\n%s", after)
			}
		})
	}
}

// TestGenerateBaseNoAPIsDir: a Go project without the API folder keeps its base, with operator-sdk's warning.
func TestGenerateBaseNoAPIsDir(t *testing.T) {
	dir := copyGoFixture(t)
	o := goBaseOptions(t, dir)
	o.APIsDir = "apis"
	res, err := GenerateBase(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{`skipping definitions parsing: APIs root dir "apis" does not exist`}, res.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func appendTo(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(mustRead(t, p)+s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func replaceIn(t *testing.T, p, old, new string) {
	t.Helper()
	s := mustRead(t, p)
	if !strings.Contains(s, old) {
		t.Fatalf("%s lacks %q", p, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(s, old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}
