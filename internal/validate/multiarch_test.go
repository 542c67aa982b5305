package validate

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// platformImage returns a small random image whose config names os/arch.
func platformImage(t *testing.T, os, arch string) v1.Image {
	t.Helper()
	img, err := random.Image(64, 1)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	cf.OS, cf.Architecture = os, arch
	img, err = mutate.ConfigFile(img, cf)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// testRegistry serves an in-process registry holding multi:v1 (linux/amd64 + linux/arm64) and single:v1
// (linux/amd64), and returns its host.
func testRegistry(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
	t.Cleanup(srv.Close)
	host := strings.TrimPrefix(srv.URL, "http://")
	idx := mutate.AppendManifests(empty.Index,
		mutate.IndexAddendum{Add: platformImage(t, "linux", "amd64"), Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: "linux", Architecture: "amd64"}}},
		mutate.IndexAddendum{Add: platformImage(t, "linux", "arm64"), Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: "linux", Architecture: "arm64"}}},
	)
	multi, _ := name.ParseReference(host + "/multi:v1")
	if err := remote.WriteIndex(multi, idx); err != nil {
		t.Fatal(err)
	}
	single, _ := name.ParseReference(host + "/single:v1")
	if err := remote.Write(single, platformImage(t, "linux", "amd64")); err != nil {
		t.Fatal(err)
	}
	return host
}

func TestMultiArch(t *testing.T) {
	host := testRegistry(t)
	tests := []struct {
		name    string
		labels  string
		manager string
		related string
		want    []string
	}{
		{"defaults, single-arch images", "", "single:v1", "single:v1", nil},
		{"arm64 labelled, related image lacks it", "operatorframework.io/arch.amd64: supported\n    operatorframework.io/arch.arm64: supported\n", "multi:v1", "single:v1",
			[]string{"error: not all images specified are providing the support described via the CSV labels. Note that (OS.architecture): (linux.arm64) was not found for the image(s) [HOST/single:v1]; build the images for it or remove the label"}},
		{"multi-arch manager without labels", "", "multi:v1", "multi:v1",
			[]string{`warning: check if the CSV is missing the label (operatorframework.io/arch.<value>) for the Arch(s): ["arm64"]. Your manager image(s) ["HOST/multi:v1"] provide this support; label every supported architecture or the operator is not listed for it`}},
		{"unreachable image", "", "single:v1", "missing:v1",
			[]string{"warning: unable to inspect the image (HOST/missing:v1): reading HOST/missing:v1: GET http://HOST/v2/missing/manifests/v1: NAME_UNKNOWN: Unknown name"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyTree(t, "../../testdata/validate/samples/memcached-operator/bundle")
			csv := filepath.Join(dir, "manifests", "memcached-operator.clusterserviceversion.yaml")
			editFile(t, csv, "image: quay.io/example/memcached-operator:v0.0.1", "image: "+host+"/"+tt.manager)
			editFile(t, csv, "  name: memcached-operator.v0.0.1\n", fmt.Sprintf("  labels:\n    %s  name: memcached-operator.v0.0.1\n", tt.labels))
			editFile(t, csv, "  version: 0.0.1\n", "  version: 0.0.1\n  relatedImages:\n  - name: other\n    image: "+host+"/"+tt.related+"\n")
			r, err := Bundles(context.Background(), []string{dir}, WithSelector("name=multiarch"), WithPlatformInspector(&RegistryInspector{}))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range r.Findings {
				if f.Rule == RuleMultiArch {
					got = append(got, string(f.Severity)+": "+strings.ReplaceAll(f.Message, host, "HOST"))
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
