package bundle

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLoadGoldens(t *testing.T) {
	for _, sample := range samples {
		t.Run(sample, func(t *testing.T) {
			b, err := Load(context.Background(), filepath.Join(sampleDir(sample), "bundle"))
			if err != nil {
				t.Fatal(err)
			}
			if got := b.CSV.GetName(); got != "memcached-operator.v0.0.1" {
				t.Errorf("CSV name = %s", got)
			}
			if b.CSVFile != "manifests/memcached-operator.clusterserviceversion.yaml" {
				t.Errorf("CSVFile = %s", b.CSVFile)
			}
			if len(b.CRDs) != 1 || b.CRDs[0].ManifestName() != "cache.example.com_memcacheds.yaml" {
				t.Errorf("CRDs = %+v", b.CRDs)
			}
			if got := b.Annotations[LabelPackage]; got != "memcached-operator" {
				t.Errorf("package annotation = %q", got)
			}
			if len(b.Others) == 0 || !strings.HasPrefix(b.Others[0].File, "manifests/") {
				t.Errorf("Others = %+v", b.Others)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	csv := "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: a.v1.0.0\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"no manifests folder", map[string]string{"metadata/annotations.yaml": "annotations: {}\n"}, "manifests"},
		{"folder in manifests", map[string]string{"manifests/a.yaml": csv, "manifests/extra/b.yaml": csv}, "extra"},
		{"no CSV", map[string]string{"manifests/a.yaml": "apiVersion: v1\nkind: Service\nmetadata: {name: s}\n"}, "no ClusterServiceVersion"},
		{"two CSVs", map[string]string{"manifests/a.yaml": csv, "manifests/b.yaml": csv}, "second ClusterServiceVersion"},
		{"object without kind", map[string]string{"manifests/a.yaml": csv, "manifests/b.yaml": "apiVersion: v1\nmetadata: {name: x}\n"}, "manifests/b.yaml"},
		{"bad annotations", map[string]string{"manifests/a.yaml": csv, "metadata/annotations.yaml": "labels: {}\n"}, "annotations.yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range tc.files {
				p := filepath.Join(dir, filepath.FromSlash(name))
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := Load(context.Background(), dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestLoadRoundTrip(t *testing.T) {
	out, res := generateSample(t, "monitoring-memcached-operator", true, nil)
	b, err := Load(context.Background(), filepath.Join(out, "bundle"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range res.Files {
		want = append(want, f.Name)
	}
	if diff := cmp.Diff(len(want), len(b.Files)); diff != "" {
		t.Errorf("file count (-generated +loaded):\n%s\n%v\n%v", diff, want, b.Files)
	}
	if b.CSV.Spec.Version.String() != "0.0.1" {
		t.Errorf("version = %s", b.CSV.Spec.Version)
	}
}
