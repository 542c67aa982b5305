package image

import (
	"archive/tar"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

func TestBundleLabelsAndLayout(t *testing.T) {
	img, err := Bundle(t.Context(), bundleDir, WithLabels(map[string]string{"extra": "yes"}),
		WithSource("https://example.com/memcached"), WithRevision("abc123"))
	if err != nil {
		t.Fatal(err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	wantLabels := map[string]string{
		"operators.operatorframework.io.bundle.mediatype.v1": "registry+v1",
		"operators.operatorframework.io.bundle.manifests.v1": "manifests/",
		"operators.operatorframework.io.bundle.metadata.v1":  "metadata/",
		"operators.operatorframework.io.bundle.package.v1":   "memcached-operator",
		"operators.operatorframework.io.bundle.channels.v1":  "alpha",
		"operators.operatorframework.io.test.mediatype.v1":   "scorecard+v1",
		"operators.operatorframework.io.test.config.v1":      "tests/scorecard/",
		"extra": "yes",
	}
	if d := cmp.Diff(wantLabels, cf.Config.Labels); d != "" {
		t.Errorf("labels (-want +got):\n%s", d)
	}
	if got := cf.Platform().String(); got != "linux/amd64" {
		t.Errorf("platform = %s, want linux/amd64", got)
	}
	m, err := img.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	wantAnn := map[string]string{
		AnnotationCreated: "1970-01-01T00:00:00Z", AnnotationVersion: "0.0.1",
		AnnotationSource: "https://example.com/memcached", AnnotationRevision: "abc123",
	}
	if d := cmp.Diff(wantAnn, m.Annotations); d != "" {
		t.Errorf("annotations (-want +got):\n%s", d)
	}
	layers, err := img.Layers()
	if err != nil || len(layers) != 1 {
		t.Fatalf("layers = %d, %v; want 1", len(layers), err)
	}
	var names []string
	for _, e := range layerEntries(t, layers[0]) {
		names = append(names, e.Name)
		wantMode := int64(fileMode)
		if e.Type == tar.TypeDir {
			wantMode = dirMode
		}
		if e.Mode != wantMode || e.UID != 0 || e.GID != 0 || e.ModTime != 0 {
			t.Errorf("%s: mode %o uid %d gid %d mtime %d; want %o 0 0 0", e.Name, e.Mode, e.UID, e.GID, e.ModTime, wantMode)
		}
	}
	wantNames := []string{
		"manifests/",
		"manifests/cache.example.com_memcacheds.yaml",
		"manifests/memcached-operator-controller-manager-metrics-monitor_monitoring.coreos.com_v1_servicemonitor.yaml",
		"manifests/memcached-operator-controller-manager-metrics-service_v1_service.yaml",
		"manifests/memcached-operator-memcached-admin-role_rbac.authorization.k8s.io_v1_clusterrole.yaml",
		"manifests/memcached-operator-memcached-editor-role_rbac.authorization.k8s.io_v1_clusterrole.yaml",
		"manifests/memcached-operator-memcached-viewer-role_rbac.authorization.k8s.io_v1_clusterrole.yaml",
		"manifests/memcached-operator-metrics-reader_rbac.authorization.k8s.io_v1_clusterrole.yaml",
		"manifests/memcached-operator-webhook-service_v1_service.yaml",
		"manifests/memcached-operator.clusterserviceversion.yaml",
		"metadata/",
		"metadata/annotations.yaml",
		"tests/",
		"tests/scorecard/",
		"tests/scorecard/config.yaml",
	}
	if d := cmp.Diff(wantNames, names); d != "" {
		t.Errorf("layer entries (-want +got):\n%s", d)
	}
}

func TestBundleFormats(t *testing.T) {
	for _, tc := range []struct {
		format                  Format
		manifest, config, layer types.MediaType
		wantAnnotations         bool
	}{
		{"", types.OCIManifestSchema1, types.OCIConfigJSON, types.OCILayer, true},
		{FormatOCI, types.OCIManifestSchema1, types.OCIConfigJSON, types.OCILayer, true},
		{FormatDocker, types.DockerManifestSchema2, types.DockerConfigJSON, types.DockerLayer, false},
	} {
		t.Run(string(tc.format), func(t *testing.T) {
			img, err := Bundle(t.Context(), bundleDir, WithFormat(tc.format))
			if err != nil {
				t.Fatal(err)
			}
			m, err := img.Manifest()
			if err != nil {
				t.Fatal(err)
			}
			got := []types.MediaType{m.MediaType, m.Config.MediaType, m.Layers[0].MediaType}
			if d := cmp.Diff([]types.MediaType{tc.manifest, tc.config, tc.layer}, got); d != "" {
				t.Errorf("media types (-want +got):\n%s", d)
			}
			if (len(m.Annotations) > 0) != tc.wantAnnotations {
				t.Errorf("annotations = %v, want present: %v", m.Annotations, tc.wantAnnotations)
			}
		})
	}
}

// TestBundleIsReproducible builds the go/v4 sample bundle twice with every mtime changed in between.
func TestBundleIsReproducible(t *testing.T) {
	dir := copyTree(t, bundleDir)
	first, err := Bundle(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	later := time.Date(2030, 5, 6, 7, 8, 9, 0, time.UTC)
	err = filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, later, later)
	})
	if err != nil {
		t.Fatal(err)
	}
	second, err := Bundle(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := mustDigest(t, first), mustDigest(t, second); a != b {
		t.Errorf("digest changed after touching files: %s then %s", a, b)
	}
	// The uncompressed layer digest does not depend on the gzip implementation: pin it.
	cf, err := second.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	const wantDiffID = "sha256:1bf202198e97ad2fd029e3f6315f9529ebd9e37bccfccadef848641f03a4fa5e"
	if got := cf.RootFS.DiffIDs[0].String(); got != wantDiffID {
		t.Errorf("layer diffID = %s, want %s", got, wantDiffID)
	}
}

func TestBundleCreated(t *testing.T) {
	created := time.Unix(1700000000, 0)
	img, err := Bundle(t.Context(), bundleDir, WithCreated(created), WithVersion("9.9.9"))
	if err != nil {
		t.Fatal(err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	if !cf.Created.Equal(created) || !cf.History[0].Created.Equal(created) {
		t.Errorf("created = %v / %v, want %v", cf.Created, cf.History[0].Created, created)
	}
	m, err := img.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{AnnotationCreated: "2023-11-14T22:13:20Z", AnnotationVersion: "9.9.9"}
	if d := cmp.Diff(want, m.Annotations); d != "" {
		t.Errorf("annotations (-want +got):\n%s", d)
	}
	// Layers do not carry the creation time: content alone decides their digest.
	plain, err := Bundle(t.Context(), bundleDir)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := layerDigest(t, img), layerDigest(t, plain); a != b {
		t.Errorf("layer digest depends on the creation time: %s vs %s", a, b)
	}
}

func layerDigest(t *testing.T, img v1.Image) v1.Hash {
	t.Helper()
	ls, err := img.Layers()
	if err != nil {
		t.Fatal(err)
	}
	h, err := ls[0].Digest()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestBundleErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(t *testing.T, dir string)
		opts []Option
		want string
	}{
		{"no metadata", func(t *testing.T, dir string) { os.RemoveAll(filepath.Join(dir, "metadata")) }, nil, "annotations.yaml"},
		{"no manifests", func(t *testing.T, dir string) { os.RemoveAll(filepath.Join(dir, "manifests")) }, nil, "needs manifests/ and metadata/"},
		{"empty annotations", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "metadata", "annotations.yaml"), []byte("annotations: {}\n"), 0o644)
		}, nil, "no annotations"},
		{"non-string annotation", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "metadata", "annotations.yaml"), []byte("annotations:\n  a: [1]\n"), 0o644)
		}, nil, "annotations must map strings to strings"},
		{"symlink", func(t *testing.T, dir string) {
			if err := os.Symlink("/etc/passwd", filepath.Join(dir, "manifests", "evil.yaml")); err != nil {
				t.Fatal(err)
			}
		}, nil, "evil.yaml is a symlink to /etc/passwd, outside"},
		{"bad format", func(*testing.T, string) {}, []Option{WithFormat("tar")}, `unknown image format "tar"`},
		{"manifest YAML syntax error", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "manifests", "broken.crd.yaml"), []byte("apiVersion: v1\nkind: [\n"), 0o644)
		}, nil, "broken.crd.yaml"},
		{"manifests without objects", func(t *testing.T, dir string) {
			entries, _ := os.ReadDir(filepath.Join(dir, "manifests"))
			for _, e := range entries {
				os.Remove(filepath.Join(dir, "manifests", e.Name()))
			}
		}, nil, "manifests/ holds no objects"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyTree(t, bundleDir)
			tc.edit(t, dir)
			_, err := Bundle(t.Context(), dir, tc.opts...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Bundle() error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}
