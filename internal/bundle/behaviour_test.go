package bundle

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// snapshot reads every file below dir (raw bytes) for before/after comparisons.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			out[rel] = string(b)
		}
		return nil
	})
	return out
}

// regenerate runs Generate again on the sample's stream with the output of a previous run.
func regenerate(t *testing.T, sample, out string, mut func(*Options)) (*Result, error) {
	t.Helper()
	stream, err := os.ReadFile(filepath.Join(sampleDir(sample), "observed-v1.42.3", "kustomize-out.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Package: "memcached-operator", Layout: "go.kubebuilder.io/v4", Version: "0.0.1",
		Input: bytes.NewReader(stream), OutputDir: filepath.Join(out, "bundle"),
		Dockerfile: filepath.Join(out, "bundle.Dockerfile"), SourceDateEpoch: "1700000000", ProjectDir: out}
	if mut != nil {
		mut(&o)
	}
	return Generate(context.Background(), o)
}

func TestCheck(t *testing.T) {
	const sample = "memcached-operator"
	for _, tc := range []struct {
		name   string
		edit   func(t *testing.T, out string)
		change bool
		want   string // text the diff must contain
	}{
		{name: "unchanged"},
		{name: "comment added to a manifest", change: true, want: "bundle/manifests/memcached-operator-webhook-service_v1_service.yaml\n@@",
			edit: func(t *testing.T, out string) {
				appendFile(t, filepath.Join(out, "bundle", "manifests", "memcached-operator-webhook-service_v1_service.yaml"), "# note\n")
			}},
		{name: "Dockerfile edited", change: true, want: "-LABEL extra",
			edit: func(t *testing.T, out string) {
				// a line the generator does not parse as a label is lost on regeneration
				appendFile(t, filepath.Join(out, "bundle.Dockerfile"), "LABEL extra\n")
			}},
		{name: "stale manifest", change: true, want: "stale_v1_configmap.yaml",
			edit: func(t *testing.T, out string) {
				appendFile(t, filepath.Join(out, "bundle", "manifests", "stale_v1_configmap.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: stale\n")
			}},
		{name: "scorecard config removed", change: true, want: "tests/scorecard/config.yaml",
			edit: func(t *testing.T, out string) {
				os.Remove(filepath.Join(out, "bundle", "tests", "scorecard", "config.yaml"))
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _ := generateSample(t, sample, true, nil)
			if tc.edit != nil {
				tc.edit(t, out)
			}
			before := snapshot(t, out)
			res, err := regenerate(t, sample, out, func(o *Options) { o.Mode = ModeCheck })
			if err != nil {
				t.Fatal(err)
			}
			if res.Changed != tc.change {
				t.Fatalf("Changed = %v, want %v; diff:\n%s", res.Changed, tc.change, res.Diff)
			}
			if !strings.Contains(res.Diff, tc.want) {
				t.Errorf("diff does not mention %q:\n%s", tc.want, res.Diff)
			}
			if diff := cmp.Diff(before, snapshot(t, out)); diff != "" {
				t.Errorf("--check changed files on disk:\n%s", diff)
			}
		})
	}
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

func TestCreatedAt(t *testing.T) {
	const sample = "memcached-operator"
	csvFile := func(out string) string {
		b, _ := os.ReadFile(filepath.Join(out, "bundle", "manifests", "memcached-operator.clusterserviceversion.yaml"))
		return string(b)
	}
	out, _ := generateSample(t, sample, true, nil) // SOURCE_DATE_EPOCH 1667928397
	first := csvFile(out)
	if !strings.Contains(first, `createdAt: "2022-11-08T17:26:37Z"`) {
		t.Fatalf("createdAt does not come from SOURCE_DATE_EPOCH:\n%s", first)
	}
	t.Run("kept when nothing changed", func(t *testing.T) {
		if _, err := regenerate(t, sample, out, nil); err != nil { // epoch 1700000000 now
			t.Fatal(err)
		}
		if diff := cmp.Diff(first, csvFile(out)); diff != "" {
			t.Errorf("second run changed the CSV:\n%s", diff)
		}
	})
	t.Run("new when the CSV changes", func(t *testing.T) {
		if _, err := regenerate(t, sample, out, func(o *Options) { o.Version = "0.0.2" }); err != nil {
			t.Fatal(err)
		}
		if got := csvFile(out); !strings.Contains(got, `createdAt: "2023-11-14T22:13:20Z"`) {
			t.Errorf("createdAt not renewed from SOURCE_DATE_EPOCH:\n%s", got)
		}
	})
	t.Run("flag wins", func(t *testing.T) {
		if _, err := regenerate(t, sample, out, func(o *Options) { o.CreatedAt = "2020-01-02T03:04:05Z" }); err != nil {
			t.Fatal(err)
		}
		if got := csvFile(out); !strings.Contains(got, `createdAt: "2020-01-02T03:04:05Z"`) {
			t.Errorf("--created-at ignored:\n%s", got)
		}
	})
}

func TestBadInputChangesNothing(t *testing.T) {
	const sample = "memcached-operator"
	for _, tc := range []struct {
		name string
		mut  func(*Options)
		want string
	}{
		{"invalid YAML", func(o *Options) { o.Input = strings.NewReader("kind: [unclosed\n") }, "document 1"},
		{"object without kind", func(o *Options) {
			o.Input = strings.NewReader("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nmetadata:\n  name: nokind\n")
		}, "document 2"},
		{"non-semver version", func(o *Options) { o.Version = "1.0" }, `--version "1.0" is not a semantic version`},
		{"leading zero version", func(o *Options) { o.Version = "01.0.0" }, `01.0.0`},
		{"unreadable kustomize tree", func(o *Options) { o.Input = nil; o.KustomizeDir = "/does/not/exist" }, "/does/not/exist"},
		{"bad created-at", func(o *Options) { o.CreatedAt = "yesterday" }, "--created-at"},
		{"bad SOURCE_DATE_EPOCH", func(o *Options) { o.Version = "0.0.9"; o.SourceDateEpoch = "soon" }, "SOURCE_DATE_EPOCH"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _ := generateSample(t, sample, true, nil)
			before := snapshot(t, out)
			_, err := regenerate(t, sample, out, tc.mut)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got error %v, want one containing %q", err, tc.want)
			}
			if diff := cmp.Diff(before, snapshot(t, out)); diff != "" {
				t.Errorf("a failed run changed files on disk:\n%s", diff)
			}
		})
	}
}

func TestStdoutWritesNothing(t *testing.T) {
	out := t.TempDir()
	res, err := regenerate(t, "memcached-operator", out, func(o *Options) { o.Mode = ModeStdout })
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(res.Stdout, []byte("\n---\napiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\n")) {
		t.Errorf("stdout does not start with the CSV:\n%.200s", res.Stdout)
	}
	if n := bytes.Count(res.Stdout, []byte("\n---\n")); n != 9 {
		t.Errorf("stdout holds %d documents, want 9 (CSV + 8 manifests)", n)
	}
	if got := snapshot(t, out); len(got) != 0 {
		t.Errorf("--stdout wrote files: %v", got)
	}
}

func TestDropped(t *testing.T) {
	_, res := generateSample(t, "memcached-operator", true, nil)
	var got []string
	for _, d := range res.Dropped {
		got = append(got, d.Kind+" "+d.Name)
	}
	want := []string{"Namespace memcached-operator-system", "Certificate memcached-operator-metrics-certs",
		"Certificate memcached-operator-serving-cert", "Issuer memcached-operator-selfsigned-issuer"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("dropped objects (-want +got):\n%s", diff)
	}
}

func TestStaleFiles(t *testing.T) {
	for _, keep := range []bool{false, true} {
		t.Run(map[bool]string{false: "removed", true: "kept"}[keep], func(t *testing.T) {
			out, _ := generateSample(t, "memcached-operator", true, nil)
			appendFile(t, filepath.Join(out, "bundle", "manifests", "old_v1_configmap.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: old\n")
			// Files the generator never writes under these names are never removed.
			appendFile(t, filepath.Join(out, "bundle", "manifests", "kustomization.yaml"), "resources: []\n")
			appendFile(t, filepath.Join(out, "bundle", "manifests", "mine_v1_configmap.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\n")
			appendFile(t, filepath.Join(out, "bundle", "metadata", "properties.yaml"), "properties: []\n")
			res, err := regenerate(t, "memcached-operator", out, func(o *Options) { o.KeepUnknown = keep })
			if err != nil {
				t.Fatal(err)
			}
			removed, kept := []string{"manifests/old_v1_configmap.yaml"}, []string{"manifests/kustomization.yaml", "manifests/mine_v1_configmap.yaml"}
			if keep {
				removed, kept = nil, []string{"manifests/kustomization.yaml", "manifests/mine_v1_configmap.yaml", "manifests/old_v1_configmap.yaml"}
			}
			if diff := cmp.Diff(removed, res.Removed); diff != "" {
				t.Errorf("removed files (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(kept, res.Kept); diff != "" {
				t.Errorf("kept files (-want +got):\n%s", diff)
			}
			for _, k := range kept {
				if _, err := os.Stat(filepath.Join(out, "bundle", k)); err != nil {
					t.Errorf("%s was lost: %v", k, err)
				}
			}
			_, err = os.Stat(filepath.Join(out, "bundle", "manifests", "old_v1_configmap.yaml"))
			if exists := err == nil; exists != keep {
				t.Errorf("stale file exists = %v, want %v", exists, keep)
			}
			if _, err := os.Stat(filepath.Join(out, "bundle", "metadata", "properties.yaml")); err != nil {
				t.Errorf("a user file outside manifests/ was lost: %v", err)
			}
		})
	}
}

func TestTreeMatchesDisk(t *testing.T) {
	out, _ := generateSample(t, "helm-memcached-operator", true, nil)
	appendFile(t, filepath.Join(out, "bundle", "manifests", "old.yaml"), "kind: ConfigMap\n")
	res, err := regenerate(t, "helm-memcached-operator", out, func(o *Options) { o.Version = "0.0.2" })
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for k, v := range res.Tree {
		got[filepath.FromSlash(k)] = string(v)
	}
	if diff := cmp.Diff(snapshot(t, filepath.Join(out, "bundle")), got); diff != "" {
		t.Errorf("Result.Tree differs from the written folder (-disk +tree):\n%s", diff)
	}
}
