package bundle

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opack/opack/internal/fuzzseed"
	"github.com/opack/opack/internal/manifest"
)

// FuzzBundleLoad: loading a bundle folder whose manifests/ holds one fuzzed file (CSV decoding
// included) next to a fuzzed metadata/annotations.yaml never panics; errors name the bundle, and a
// loaded bundle has its CSV.
func FuzzBundleLoad(f *testing.F) {
	csvs := fuzzseed.Files(f, "testdata/validate/samples/*/bundle/manifests/*.clusterserviceversion.yaml")
	anns := fuzzseed.Files(f, "testdata/validate/samples/*/bundle/metadata/annotations.yaml")
	for i, c := range csvs {
		f.Add(c, anns[i%len(anns)])
	}
	crd := fuzzseed.Files(f, "testdata/image/memcached-bundle/manifests/cache.example.com_memcacheds.yaml")[0]
	f.Add(append(append(append([]byte{}, csvs[0]...), "\n---\n"...), crd...), []byte("annotations: {}\n"))
	limits := []manifest.Option{manifest.WithMaxFileSize(1 << 20), manifest.WithMaxAliasNodes(1 << 12)}
	f.Fuzz(func(t *testing.T, manifests, annotations []byte) {
		dir := t.TempDir()
		for name, data := range map[string][]byte{"manifests/m.yaml": manifests, "metadata/annotations.yaml": annotations} {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		b, err := Load(context.Background(), dir, limits...)
		if err != nil {
			if !strings.Contains(err.Error(), dir) {
				t.Fatalf("error %q does not name the bundle %s", err, dir)
			}
			return
		}
		if b.CSV == nil || b.CSVFile != "manifests/m.yaml" {
			t.Fatalf("loaded bundle without its CSV: %+v", b)
		}
	})
}
