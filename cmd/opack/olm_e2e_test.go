package main

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/opack/opack/internal/olmtest"
)

// TestE2EOLMServe proves that the catalog images opack builds are served by the real opm (v1.73.0,
// built from operator-registry's module in hack/tools/opm) in OLM v0's catalog pod, emulated as
// operator-lifecycle-manager's reconciler.go builds it, and read by OLM v1's catalogd: for the go/v4
// sample built by opack build, a catalog of several releases with replaces, skips and skipRange, and
// certified-operators-v4.22 (../shared). Each image is unpacked by skopeo, served, queried over gRPC
// on 127.0.0.1 and compared with its FBC; without the serve cache the same pods must fail.
func TestE2EOLMServe(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test: builds opm and serves catalogs; run without -short")
	}
	olmtest.RequireRoot(t)
	tools := olmtest.BuildTools(t)
	base := opmBaseLayout(t, tools.OPM)

	t.Run("sample", func(t *testing.T) {
		p := newPipelineProject(t, "quay.io/example/memcached-operator-bundle", "quay.io/example/memcached-operator-catalog")
		p.build(t, 0, "wrote catalog-template.yaml")
		cs := readObject(t, filepath.Join(p.dir, "deploy", "olmv0", "catalogsource.yaml")).Object
		catalogDir, _, _ := unstructured.NestedString(cs.Object, "spec", "grpcPodConfig", "extractContent", "catalogDir")
		cacheDir, _, _ := unstructured.NestedString(cs.Object, "spec", "grpcPodConfig", "extractContent", "cacheDir")
		if catalogDir != "/configs" || cacheDir != "/tmp/cache" {
			t.Fatalf("CatalogSource extractContent = {%q, %q}, want {/configs, /tmp/cache}", catalogDir, cacheDir)
		}
		fbc := filepath.Join(p.dir, "catalog")
		built := "oci:" + ociLayoutRef(t, filepath.Join(p.dir, "_output", "images", "memcached-operator-catalog"))
		s := serveCase{tools: tools, fbc: fbc, catalogDir: catalogDir, cacheDir: cacheDir}
		s.scratch(t, built)
		s.opmBase(t, imageCatalog(t, fbc, "--base", base))
	})
	t.Run("releases-and-skips", func(t *testing.T) {
		fbc := filepath.Join("..", "..", "testdata", "opm", "fbc-index-declcfgs", "latest")
		s := serveCase{tools: tools, fbc: fbc, catalogDir: "/configs", cacheDir: "/tmp/cache"}
		s.scratch(t, imageCatalog(t, fbc))
		s.cacheless(t, imageCatalog(t, fbc, "--no-serve-cache"))
		s.opmBase(t, imageCatalog(t, fbc, "--base", base))
	})
	t.Run("certified-operators-v4.22", func(t *testing.T) {
		fbc := filepath.Join("..", "..", "..", "shared", "corpus", "fbc", "certified-operators-v4.22")
		if _, err := os.Stat(fbc); err != nil {
			t.Skipf("SKIP: %s not found (needs ../shared beside the repository): %v", fbc, err)
		}
		s := serveCase{tools: tools, fbc: fbc, catalogDir: "/configs", cacheDir: "/tmp/cache"}
		s.scratch(t, imageCatalog(t, fbc, "--no-validate"))
		s.cacheless(t, imageCatalog(t, fbc, "--no-validate", "--no-serve-cache"))
		s.opmBase(t, imageCatalog(t, fbc, "--no-validate", "--base", base))
	})
}

// serveCase serves one catalog's images in every mode.
type serveCase struct {
	tools                     olmtest.Tools
	fbc, catalogDir, cacheDir string
}

// scratch: catalogd reads the image; OLM v0's extractContent pod serves it from its cache, and fails
// once the cache is removed from the image.
func (s serveCase) scratch(t *testing.T, ref string) {
	t.Run("olmv1-catalogd", func(t *testing.T) {
		img := olmtest.Unpack(t, ref)
		all, err := olmtest.CatalogdAll(img)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(string(olmtest.FBCAll(t, s.fbc)), string(all)); d != "" {
			t.Errorf("catalogd's all.json differs from the FBC (-fbc +image):\n%.3000s", d)
		}
	})
	t.Run("olmv0-extractContent", func(t *testing.T) {
		img := olmtest.Unpack(t, ref)
		pod, err := olmtest.StartExtractContent(t, s.tools, img, s.catalogDir, s.cacheDir)
		if err != nil {
			t.Fatal(err)
		}
		n := olmtest.CompareWithFBC(t, pod, s.fbc)
		t.Logf("served from the image's cache: %+v; image %d bytes (compressed layers); ready after %s", n, img.Size, pod.Startup)
		if strings.Contains(pod.Logs(), "building cache") {
			t.Errorf("opm rebuilt the cache instead of using the image's:\n%s", pod.Logs())
		}

		if err := os.RemoveAll(filepath.Join(img.Root, filepath.FromSlash(s.cacheDir))); err != nil {
			t.Fatal(err)
		}
		if _, err := olmtest.StartExtractContent(t, s.tools, img, s.catalogDir, s.cacheDir); err == nil || !strings.Contains(err.Error(), "failed to copy") {
			t.Errorf("the pod started without the image's serve cache (err %v); OLM's copy-content must fail", err)
		}
	})
}

// cacheless: an image without serve cache, served by OLM >= v0.35.0 through extractContent without
// cacheDir (opm builds the cache at start-up).
func (s serveCase) cacheless(t *testing.T, ref string) {
	t.Run("olmv0-extractContent-no-cacheDir", func(t *testing.T) {
		img := olmtest.Unpack(t, ref)
		if _, err := os.Stat(filepath.Join(img.Root, "tmp", "cache")); err == nil {
			t.Fatalf("--no-serve-cache image holds /tmp/cache")
		}
		pod, err := olmtest.StartExtractContent(t, s.tools, img, s.catalogDir, "")
		if err != nil {
			t.Fatal(err)
		}
		n := olmtest.CompareWithFBC(t, pod, s.fbc)
		t.Logf("served without cache: %+v; image %d bytes (compressed layers); ready after %s", n, img.Size, pod.Startup)
	})
}

// opmBase: the image's own entrypoint serves it from its cache with integrity enforced, writing
// nothing into it; without the cache it exits.
func (s serveCase) opmBase(t *testing.T, ref string) {
	t.Run("olmv0-opm-base", func(t *testing.T) {
		img := olmtest.Unpack(t, ref)
		want := []string{"/bin/opm", "serve", "/configs", "--cache-dir=/tmp/cache"}
		if got := append(append([]string{}, img.Config.Entrypoint...), img.Config.Cmd...); !cmp.Equal(want, got) {
			t.Fatalf("entrypoint+cmd = %q, want %q", got, want)
		}
		cache := filepath.Join(img.Root, "tmp", "cache")
		before := treeHashes(t, cache)
		pod, err := olmtest.StartImage(t, img)
		if err != nil {
			t.Fatal(err)
		}
		n := olmtest.CompareWithFBC(t, pod, s.fbc)
		t.Logf("opm base served from its cache: %+v; ready after %s", n, pod.Startup)
		if d := cmp.Diff(before, treeHashes(t, cache)); d != "" {
			t.Errorf("opm serve wrote into the image's cache (-before +after):\n%s", d)
		}

		if err := os.RemoveAll(cache); err != nil {
			t.Fatal(err)
		}
		if _, err := olmtest.StartImage(t, img); err == nil || !strings.Contains(err.Error(), "integrity check failed") {
			t.Errorf("the opm base served without its serve cache (err %v); opm serve must refuse", err)
		}
	})
}

// imageCatalog packs fbc with opack image catalog into an OCI layout and returns its skopeo reference.
func imageCatalog(t *testing.T, fbc string, args ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "catalog")
	var stdout, stderr bytes.Buffer
	args = append([]string{"image", "catalog", fbc, "--oci-layout", out, "--tag", "example.com/e2e/catalog:v1"}, args...)
	if code := run(t.Context(), args, strings.NewReader(""), &stdout, &stderr); code != exitOK {
		t.Fatalf("opack %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
	}
	return "oci:" + out + ":v1"
}

// ociLayoutRef returns DIR:NAME for the one image an OCI layout names.
func ociLayoutRef(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var idx struct {
		Manifests []struct {
			Annotations map[string]string `json:"annotations"`
		} `json:"manifests"`
	}
	if err := json.Unmarshal(data, &idx); err != nil || len(idx.Manifests) != 1 {
		t.Fatalf("%s: want one image (%v)", dir, err)
	}
	return dir + ":" + idx.Manifests[0].Annotations["org.opencontainers.image.ref.name"]
}

// opmBaseLayout writes an opm base image (opm at /bin/opm, as in quay.io/operator-framework/opm) into
// an OCI layout and returns it as an opack --base reference.
func opmBaseLayout(t *testing.T, opm string) string {
	t.Helper()
	data, err := os.ReadFile(opm)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, h := range []*tar.Header{
		{Typeflag: tar.TypeDir, Name: "bin/", Mode: 0o755},
		{Typeflag: tar.TypeReg, Name: "bin/opm", Mode: 0o755, Size: int64(len(data))},
		{Typeflag: tar.TypeDir, Name: "tmp/", Mode: 0o1777},
	} {
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			if _, err := tw.Write(data); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	l, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		t.Fatal(err)
	}
	img, err := mutate.AppendLayers(mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON), l)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture, cf.Config.User = "linux", "amd64", "1001"
	if img, err = mutate.ConfigFile(img, cf); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "opm-base")
	p, err := layout.Write(dir, empty.Index)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.AppendImage(img, layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": "opm"})); err != nil {
		t.Fatal(err)
	}
	return "oci:" + dir + ":opm"
}
