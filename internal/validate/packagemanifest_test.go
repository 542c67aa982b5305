package validate

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/packagemanifest"
)

const etcdPackage = "../../testdata/validate/packagemanifests/etcd"

// copyTree copies src into a new temporary folder and returns the copy's path.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, raw, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func editFile(t *testing.T, path, old, new string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), old) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(raw), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func packageFindings(r *finding.Report) []string {
	var out []string
	for _, f := range r.Findings {
		if f.Rule == RulePackage || f.Rule == RuleLoad {
			out = append(out, string(f.Severity)+" "+filepath.Base(f.File)+": "+f.Message)
		}
	}
	return out
}

func TestPackageManifestImportRules(t *testing.T) {
	tests := []struct {
		name string
		edit func(t *testing.T, dir string)
		want []string
	}{
		{"valid", func(*testing.T, string) {}, nil},
		{"no channels", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "etcd.package.yaml"), []byte("packageName: etcd\nchannels: []\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{"error etcd.package.yaml: Error: Value : (etcd) channels empty"}},
		{"currentCSV missing", func(t *testing.T, dir string) {
			editFile(t, filepath.Join(dir, "etcd.package.yaml"), "currentCSV: etcdoperator.v0.9.4\n", "currentCSV: etcdoperator.v0.9.6\n")
		}, []string{`error etcd.package.yaml: channel "singlenamespace-alpha": currentCSV etcdoperator.v0.9.6 is not in the package: add its version folder or point the channel at an existing CSV (etcdoperator-community.v0.6.1, etcdoperator.v0.9.0, etcdoperator.v0.9.2, etcdoperator.v0.9.2-clusterwide, etcdoperator.v0.9.4, etcdoperator.v0.9.4-clusterwide)`}},
		{"two CSVs in a version folder", func(t *testing.T, dir string) {
			raw, err := os.ReadFile(filepath.Join(dir, "0.9.2", "etcdoperator.v0.9.2.clusterserviceversion.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "0.9.4", "copy.clusterserviceversion.yaml"), raw, 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{
			"error 0.9.4: version folder " + "DIR/0.9.4 holds 2 ClusterServiceVersions [copy.clusterserviceversion.yaml etcdoperator.v0.9.4.clusterserviceversion.yaml]; a package-manifest version folder holds exactly one",
			`error etcd.package.yaml: channel "singlenamespace-alpha": currentCSV etcdoperator.v0.9.4 is not in the package: add its version folder or point the channel at an existing CSV (etcdoperator-community.v0.6.1, etcdoperator.v0.9.0, etcdoperator.v0.9.2, etcdoperator.v0.9.2-clusterwide, etcdoperator.v0.9.4-clusterwide)`,
		}},
		{"replaces missing", func(t *testing.T, dir string) {
			editFile(t, filepath.Join(dir, "0.9.4", "etcdoperator.v0.9.4.clusterserviceversion.yaml"), "replaces: etcdoperator.v0.9.2\n", "replaces: etcdoperator.v0.9.3\n")
		}, []string{"error etcdoperator.v0.9.4.clusterserviceversion.yaml: spec.replaces names etcdoperator.v0.9.3, which is not in the package: add its version folder or fix spec.replaces"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyTree(t, etcdPackage)
			tt.edit(t, dir)
			r, err := Bundles(context.Background(), []string{dir})
			if err != nil {
				t.Fatal(err)
			}
			got := packageFindings(r)
			for i := range got {
				got[i] = strings.ReplaceAll(got[i], dir, "DIR")
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestPackageManifestMatchesBundles checks that a package-manifest folder and its conversion to bundle
// folders give the same bundle findings.
func TestPackageManifestMatchesBundles(t *testing.T) {
	ctx := context.Background()
	out := filepath.Join(t.TempDir(), "bundles")
	converted, report, err := packagemanifest.Convert(ctx, etcdPackage, out)
	if err != nil {
		t.Fatal(err)
	}
	if !report.Passed() {
		t.Fatalf("conversion refused: %v", report.Findings)
	}
	var dirs []string
	for _, c := range converted {
		dirs = append(dirs, c.Dir)
	}
	fromPackage, err := Bundles(ctx, []string{etcdPackage})
	if err != nil {
		t.Fatal(err)
	}
	fromBundles, err := Bundles(ctx, dirs)
	if err != nil {
		t.Fatal(err)
	}
	strip := func(r *finding.Report, prefix string) []string {
		var s []string
		for _, f := range r.Findings {
			rel := strings.TrimPrefix(strings.Replace(f.File, "/manifests/", "/", 1), prefix)
			s = append(s, string(f.Severity)+" "+rel+" "+f.Rule+" "+strings.ReplaceAll(strings.ReplaceAll(f.Message, out, ""), etcdPackage, ""))
		}
		return s
	}
	if diff := cmp.Diff(strip(fromPackage, etcdPackage), strip(fromBundles, out)); diff != "" {
		t.Errorf("package vs converted bundles (-package +bundles):\n%s", diff)
	}
}

func TestConvertPackageManifests(t *testing.T) {
	out := filepath.Join(t.TempDir(), "bundles")
	converted, _, err := packagemanifest.Convert(context.Background(), etcdPackage, out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range converted {
		got = append(got, filepath.Base(c.Dir)+" "+c.CSV+" "+strings.Join(c.Channels, ","))
	}
	want := []string{
		"0.6.1 etcdoperator-community.v0.6.1 alpha",
		"0.9.0 etcdoperator.v0.9.0 clusterwide-alpha,singlenamespace-alpha",
		"0.9.2 etcdoperator.v0.9.2 singlenamespace-alpha",
		"0.9.2-clusterwide etcdoperator.v0.9.2-clusterwide clusterwide-alpha",
		"0.9.4 etcdoperator.v0.9.4 singlenamespace-alpha",
		"0.9.4-clusterwide etcdoperator.v0.9.4-clusterwide clusterwide-alpha",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	raw, err := os.ReadFile(filepath.Join(out, "0.9.0", "metadata", "annotations.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	wantAnnotations := `annotations:
  operators.operatorframework.io.bundle.channel.default.v1: singlenamespace-alpha
  operators.operatorframework.io.bundle.channels.v1: clusterwide-alpha,singlenamespace-alpha
  operators.operatorframework.io.bundle.manifests.v1: manifests/
  operators.operatorframework.io.bundle.mediatype.v1: registry+v1
  operators.operatorframework.io.bundle.metadata.v1: metadata/
  operators.operatorframework.io.bundle.package.v1: etcd
`
	if diff := cmp.Diff(wantAnnotations, string(raw)); diff != "" {
		t.Errorf("annotations (-want +got):\n%s", diff)
	}
	orig, _ := os.ReadFile(filepath.Join(etcdPackage, "0.9.0", "etcdoperator.v0.9.0.clusterserviceversion.yaml"))
	copied, err := os.ReadFile(filepath.Join(out, "0.9.0", "manifests", "etcdoperator.v0.9.0.clusterserviceversion.yaml"))
	if err != nil || string(orig) != string(copied) {
		t.Errorf("CSV not copied byte for byte (err %v)", err)
	}
	if _, _, err := packagemanifest.Convert(context.Background(), etcdPackage, filepath.Join(etcdPackage, "out")); err == nil {
		t.Error("an output folder inside the package folder was accepted")
	}
}
