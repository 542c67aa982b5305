package bundle

import (
	"io"
	"log"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// TestUseImageDigests pins the images of a generated CSV through an in-process registry.
func TestUseImageDigests(t *testing.T) {
	s := httptest.NewServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
	t.Cleanup(s.Close)
	u, _ := url.Parse(s.URL)
	host := u.Host
	t.Setenv("DOCKER_CONFIG", t.TempDir()) // no credentials: anonymous access

	digests := map[string]string{}
	for _, ref := range []string{"op:v1", "memcached:1.6", "helper:v2"} {
		img, err := random.Image(64, 1)
		if err != nil {
			t.Fatal(err)
		}
		tag, _ := name.ParseReference(host + "/" + ref)
		if err := remote.Write(tag, img); err != nil {
			t.Fatal(err)
		}
		d, _ := img.Digest()
		digests[ref] = host + "/" + strings.Split(ref, ":")[0] + "@" + d.String()
	}
	stream := strings.NewReplacer("example.com/op:v1", host+"/op:v1", "docker.io/memcached:1.6", host+"/memcached:1.6",
		"example.com/helper:v2", host+"/helper:v2").Replace(smallStream)

	out := t.TempDir()
	res := generateSmall(t, out, func(o *Options) {
		o.Input = strings.NewReader(stream)
		o.Resolver = RegistryResolver{}
	})
	spec := res.CSV.Spec
	if got := spec.InstallStrategy.StrategySpec.DeploymentSpecs[0].Spec.Template.Spec.Containers[0].Image; got != digests["op:v1"] {
		t.Errorf("container image = %s, want %s", got, digests["op:v1"])
	}
	var got []string
	for _, ri := range spec.RelatedImages {
		got = append(got, ri.Name+"="+ri.Image)
	}
	want := []string{"memcached=" + digests["memcached:1.6"], "helper=" + digests["helper:v2"], "manager=" + digests["op:v1"]}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("relatedImages = %v, want %v", got, want)
	}
	data, _ := os.ReadFile(filepath.Join(out, "bundle", "manifests", "op.clusterserviceversion.yaml"))
	if !strings.Contains(string(data), "  relatedImages:\n  - image: "+digests["memcached:1.6"]+"\n    name: memcached\n") {
		t.Errorf("pinned CSV not in the usual YAML style:\n%s", data)
	}

	t.Run("unreachable registry names the image", func(t *testing.T) {
		bad := strings.Replace(stream, host+"/helper:v2", "127.0.0.1:1/helper:v2", 1)
		before := snapshot(t, out)
		_, err := Generate(t.Context(), Options{Package: "op", Version: "1.2.3", Input: strings.NewReader(bad), ProjectDir: out,
			OutputDir: filepath.Join(out, "bundle"), Dockerfile: filepath.Join(out, "bundle.Dockerfile"), Resolver: RegistryResolver{}})
		if err == nil || !strings.Contains(err.Error(), "127.0.0.1:1/helper:v2") {
			t.Fatalf("got %v, want an error naming the image", err)
		}
		if len(snapshot(t, out)) != len(before) {
			t.Errorf("a failed run changed files")
		}
	})
}
