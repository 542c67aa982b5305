package bundle

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var samples = []string{"memcached-operator", "monitoring-memcached-operator", "helm-memcached-operator", "ansible-memcached-operator-v1.31"}

func sampleDir(name string) string {
	return filepath.Join("..", "..", "testdata", "operator-sdk", name)
}

// maskRE matches the lines operator-sdk's sample generator deletes from its goldens
// (hack/generate/samples/internal/pkg/utils.go StripBundleAnnotations).
var maskRE = regexp.MustCompile(`(?m)^.*(operators\.operatorframework\.io\.metrics\.(builder|mediatype\.v1|project_layout)|operators\.operatorframework\.io/(builder|project_layout)).*\n`)

var createdAtRE = regexp.MustCompile(`createdAt:.*`)

// normalize applies upstream's golden normalisation: masked lines deleted, createdAt fixed.
func normalize(b []byte) string {
	b = maskRE.ReplaceAll(b, nil)
	return string(createdAtRE.ReplaceAll(b, []byte(`createdAt: "2022-11-08T17:26:37Z"`)))
}

// readDir reads every file below dir into a map keyed by slash path.
func readDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = normalize(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// generateSample generates a sample's bundle into a temporary folder, from its kustomize
// stream (stdin) when fromStream, else by building config/manifests in-process.
func generateSample(t *testing.T, sample string, fromStream bool, mut func(*Options)) (string, *Result) {
	t.Helper()
	src := sampleDir(sample)
	proj, ok, err := ReadProject(src)
	if err != nil || !ok {
		t.Fatalf("reading PROJECT: %v %v", ok, err)
	}
	out := t.TempDir()
	o := Options{
		Package: proj.Name, Layout: proj.Layout, Version: "0.0.1",
		KustomizeDir: filepath.Join(src, "config", "manifests"),
		OutputDir:    filepath.Join(out, "bundle"), Dockerfile: filepath.Join(out, "bundle.Dockerfile"),
		SourceDateEpoch: "1667928397",
	}
	if fromStream {
		stream, err := os.ReadFile(filepath.Join(src, "observed-v1.42.3", "kustomize-out.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		o.Input = bytes.NewReader(stream)
	}
	if mut != nil {
		mut(&o)
	}
	res, err := Generate(context.Background(), o)
	if err != nil {
		t.Fatalf("generating %s: %v", sample, err)
	}
	return out, res
}

func TestGenerateGolden(t *testing.T) {
	for _, sample := range samples {
		for _, fromStream := range []bool{true, false} {
			name := sample + "/kustomize-in-process"
			if fromStream {
				name = sample + "/stdin"
			}
			t.Run(name, func(t *testing.T) {
				out, _ := generateSample(t, sample, fromStream, nil)
				want := readDir(t, filepath.Join(sampleDir(sample), "bundle"))
				got := readDir(t, filepath.Join(out, "bundle"))
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("bundle differs from operator-sdk's golden (-want +got):\n%s", diff)
				}
				wantDF, _ := os.ReadFile(filepath.Join(sampleDir(sample), "bundle.Dockerfile"))
				gotDF, _ := os.ReadFile(filepath.Join(out, "bundle.Dockerfile"))
				if diff := cmp.Diff(normalize(wantDF), normalize(gotDF)); diff != "" {
					t.Errorf("bundle.Dockerfile differs (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestGenerateObserved compares with operator-sdk v1.42.3's raw output (nothing deleted): only
// the builder name and createdAt differ by design.
func TestGenerateObserved(t *testing.T) {
	for _, sample := range samples {
		t.Run(sample, func(t *testing.T) {
			out, _ := generateSample(t, sample, true, func(o *Options) { o.Builder = "operator-sdk-v1.42.3" })
			obs := filepath.Join(sampleDir(sample), "observed-v1.42.3")
			fix := func(m map[string]string) {
				for k, v := range m {
					m[k] = createdAtRE.ReplaceAllString(v, "createdAt: X")
				}
			}
			want, got := readRaw(t, filepath.Join(obs, "bundle")), readRaw(t, filepath.Join(out, "bundle"))
			fix(want)
			fix(got)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("bundle differs from operator-sdk v1.42.3's (-want +got):\n%s", diff)
			}
			wantDF, _ := os.ReadFile(filepath.Join(obs, "bundle.Dockerfile"))
			gotDF, _ := os.ReadFile(filepath.Join(out, "bundle.Dockerfile"))
			if diff := cmp.Diff(string(wantDF), string(gotDF)); diff != "" {
				t.Errorf("bundle.Dockerfile differs (-want +got):\n%s", diff)
			}
		})
	}
}

func readRaw(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			out[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	return out
}

func TestPartialModes(t *testing.T) {
	out, _ := generateSample(t, "memcached-operator", true, nil)
	ann := filepath.Join(out, "bundle", "metadata", "annotations.yaml")
	csv := filepath.Join(out, "bundle", "manifests", "memcached-operator.clusterserviceversion.yaml")
	t.Run("manifests only keeps metadata", func(t *testing.T) {
		os.WriteFile(ann, []byte("annotations:\n  custom: x\n"), 0o644)
		res, err := regenerate(t, "memcached-operator", out, func(o *Options) { o.Manifests = true; o.Version = "0.0.3" })
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(ann); string(got) != "annotations:\n  custom: x\n" || res.Dockerfile != nil {
			t.Errorf("--manifests touched metadata: %q", got)
		}
		if got, _ := os.ReadFile(csv); !bytes.Contains(got, []byte("version: 0.0.3")) {
			t.Errorf("--manifests did not regenerate the CSV")
		}
	})
	t.Run("metadata only keeps manifests", func(t *testing.T) {
		before, _ := os.ReadFile(csv)
		if _, err := regenerate(t, "memcached-operator", out, func(o *Options) { o.Metadata = true; o.Version = "0.0.4"; o.Input = nil }); err != nil {
			t.Fatal(err)
		}
		if after, _ := os.ReadFile(csv); !bytes.Equal(before, after) {
			t.Errorf("--metadata changed the CSV")
		}
		if got, _ := os.ReadFile(ann); !bytes.Contains(got, []byte("operators.operatorframework.io.test.config.v1")) || !bytes.Contains(got, []byte("custom: x")) {
			t.Errorf("--metadata did not regenerate annotations.yaml (with scorecard labels, keeping custom):\n%s", got)
		}
	})
	t.Run("cancelled run changes nothing", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		before := readRaw(t, out)
		stream, _ := os.ReadFile(filepath.Join(sampleDir("memcached-operator"), "observed-v1.42.3", "kustomize-out.yaml"))
		_, err := Generate(ctx, Options{Package: "memcached-operator", Version: "9.9.9", Input: bytes.NewReader(stream),
			OutputDir: filepath.Join(out, "bundle"), Dockerfile: filepath.Join(out, "bundle.Dockerfile"), ProjectDir: out})
		if err == nil {
			t.Fatal("no error from a cancelled run")
		}
		if diff := cmp.Diff(before, readRaw(t, out)); diff != "" {
			t.Errorf("cancelled run changed files:\n%s", diff)
		}
	})
}
