package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/remote"

	"github.com/opack/opack/internal/emit"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/manifest"
	"github.com/opack/opack/internal/olmtest"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestE2EPipeline is the release flow end to end on a copy of the go/v4 sample: opack init, an offline
// opack build, the five OLM kinds emitted and schema-valid, opack check; removing the size field of
// the Memcached CRD makes opack build --version 0.0.2 fail naming the field and change nothing;
// restoring it, 0.0.2 builds and replaces 0.0.1 in the catalog's channel. Then the same flow with
// --push against Debian's docker-registry (distribution) on 127.0.0.1.
func TestE2EPipeline(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test: builds the sample several times and runs docker-registry; run without -short")
	}
	t.Setenv("DOCKER_CONFIG", t.TempDir()) // no credentials of the host
	t.Run("offline", func(t *testing.T) {
		p := newPipelineProject(t, "quay.io/example/memcached-operator-bundle", "quay.io/example/memcached-operator-catalog")
		p.flow(t)
		for _, layout := range []string{"_output/images/bundle", "_output/images/memcached-operator-catalog"} {
			if _, err := os.Stat(filepath.Join(p.dir, layout, "index.json")); err != nil {
				t.Errorf("offline build left no OCI layout %s: %v", layout, err)
			}
		}
	})
	t.Run("push", func(t *testing.T) {
		host := startPipelineRegistry(t)
		p := newPipelineProject(t, host+"/demo/memcached-operator-bundle", host+"/demo/memcached-operator-catalog")
		p.push = true
		p.flow(t)
		if _, err := os.Stat(filepath.Join(p.dir, "_output")); err == nil {
			t.Errorf("a --push build wrote _output")
		}
		// The registry serves the catalog the deploy manifests point at, under the release's tag.
		cs := readObject(t, filepath.Join(p.dir, "deploy", "olmv0", "catalogsource.yaml"))
		digestRef, _, _ := unstructured.NestedString(cs.Object.Object, "spec", "image")
		d, err := name.NewDigest(digestRef)
		if err != nil {
			t.Fatalf("CatalogSource image %q is not a digest reference: %v", digestRef, err)
		}
		desc, err := remote.Head(d.Context().Tag("v0.0.2"))
		if err != nil {
			t.Fatalf("reading %s:v0.0.2 from the registry: %v", d.Context(), err)
		}
		if desc.Digest.String() != d.DigestStr() {
			t.Errorf("the registry's v0.0.2 catalog is %s; the CatalogSource points at %s", desc.Digest, d.DigestStr())
		}
	})
}

type pipelineProject struct {
	dir  string
	push bool
}

func newPipelineProject(t *testing.T, bundleRepo, catalogRepo string) *pipelineProject {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "memcached-operator")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "testdata", "project", "memcached-operator"))); err != nil {
		t.Fatal(err)
	}
	p := &pipelineProject{dir: dir}
	p.expect(t, 0, "", "init", dir, "--version", "0.0.1", "--bundle-image", bundleRepo, "--catalog-image", catalogRepo)
	return p
}

// opack runs opack on the project and returns its exit code and output.
func (p *pipelineProject) opack(args ...string) (int, string) {
	var out bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &out)
	return code, out.String()
}

func (p *pipelineProject) expect(t *testing.T, code int, contains string, args ...string) string {
	t.Helper()
	got, out := p.opack(args...)
	if got != code || !strings.Contains(out, contains) {
		t.Fatalf("opack %s: exit %d, want %d (output should contain %q):\n%s", strings.Join(args, " "), got, code, contains, out)
	}
	return out
}

func (p *pipelineProject) build(t *testing.T, code int, contains string, args ...string) string {
	t.Helper()
	args = append([]string{"build", "-f", filepath.Join(p.dir, "opack.yaml")}, args...)
	if p.push {
		args = append(args, "--push")
	}
	return p.expect(t, code, contains, args...)
}

func (p *pipelineProject) check(t *testing.T, args ...string) {
	t.Helper()
	p.expect(t, 0, "up to date", append([]string{"check", "-f", filepath.Join(p.dir, "opack.yaml")}, args...)...)
}

func (p *pipelineProject) flow(t *testing.T) {
	p.build(t, 0, "wrote catalog-template.yaml")
	p.checkDeploy(t)
	p.check(t)
	p.build(t, 0, "nothing written")

	crd := filepath.Join(p.dir, "config", "crd", "bases", "cache.example.com_memcacheds.yaml")
	orig, err := os.ReadFile(crd)
	if err != nil {
		t.Fatal(err)
	}
	size := "              size:\n                description: Size defines the number of Memcached instances\n                format: int32\n                maximum: 3\n                minimum: 1\n                type: integer\n"
	if !bytes.Contains(orig, []byte(size)) {
		t.Fatalf("%s has no size field", crd)
	}
	before := treeHashes(t, p.dir)
	if err := os.WriteFile(crd, bytes.Replace(orig, []byte(size), nil, 1), 0o644); err != nil {
		t.Fatal(err)
	}
	out := p.build(t, exitFindings, "^.spec.size: field removed", "--version", "0.0.2")
	if !strings.Contains(out, "step crd-upgrade") {
		t.Errorf("the failure does not name the step:\n%s", out)
	}
	if diff := cmp.Diff(before, treeHashes(t, p.dir)); diff != "" {
		t.Errorf("the failed build changed the project (-before +after):\n%s", diff)
	}

	if err := os.WriteFile(crd, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	p.build(t, 0, "wrote catalog", "--version", "0.0.2")
	p.checkChannel(t)
	p.check(t, "--version", "0.0.2")
	// build --version saved 0.0.2 in opack.yaml: a plain check works on the same release.
	if data, _ := os.ReadFile(filepath.Join(p.dir, "opack.yaml")); !bytes.Contains(data, []byte(`version: "0.0.2"`)) && !bytes.Contains(data, []byte("version: 0.0.2")) {
		t.Errorf("opack.yaml does not hold version 0.0.2:\n%s", data)
	}
	p.check(t)

	// An edit of the base CSV changes the released 0.0.2: build refuses, check reports it and the drift.
	base := filepath.Join(p.dir, "config", "manifests", "bases", "memcached-operator.clusterserviceversion.yaml")
	baseData, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(baseData, []byte("description: Memcached Operator description. TODO."), []byte("description: Caches things."), 1)
	if bytes.Equal(edited, baseData) {
		t.Fatalf("%s has no description to edit", base)
	}
	if err := os.WriteFile(base, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	before = treeHashes(t, p.dir)
	p.build(t, exitFindings, "is already in catalog-template.yaml as")
	if diff := cmp.Diff(before, treeHashes(t, p.dir)); diff != "" {
		t.Errorf("the refused build changed the project (-before +after):\n%s", diff)
	}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"check", "-f", filepath.Join(p.dir, "opack.yaml"), "-o", "json"}, strings.NewReader(""), &stdout, &stderr)
	var rep struct {
		Passed  bool `json:"passed"`
		Outputs []struct{ Type, File, Rule string }
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || code != exitFindings || rep.Passed {
		t.Fatalf("check -o json: exit %d, passed %v, %v; stdout:\n%s", code, rep.Passed, err, stdout.String())
	}
	rules := map[string]bool{}
	for _, o := range rep.Outputs {
		rules[o.Rule+" "+o.File] = true
	}
	for _, want := range []string{"check/out-of-date bundle/manifests/memcached-operator.clusterserviceversion.yaml", "build/released-version-changed catalog-template.yaml"} {
		if !rules[want] {
			t.Errorf("check -o json has no %s finding: %v", want, rep.Outputs)
		}
	}
	if !strings.Contains(stderr.String(), "+  description: Caches things.") {
		t.Errorf("check -o json does not print the diff on stderr:\n%s", stderr.String())
	}
	p.build(t, 0, "wrote catalog-template.yaml", "--allow-rebuild")
	p.check(t)
}

func TestBuildCheckUsage(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"build", "-o", "xml"}, exitUsage, `unknown output format "xml"`},
		{[]string{"check", "--version", "1.0"}, exitUsage, `--version: version "1.0" is not a semantic version`},
		{[]string{"build", "-f", filepath.Join(t.TempDir(), "missing.yaml")}, exitUsage, "no project file: looked for"},
		{[]string{"check", "extra"}, exitUsage, `unknown command "extra"`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out bytes.Buffer
			code := run(context.Background(), tt.args, strings.NewReader(""), &out, &out)
			if code != tt.code || !strings.Contains(out.String(), tt.want) {
				t.Errorf("exit %d, output %q; want exit %d and %q", code, out.String(), tt.code, tt.want)
			}
		})
	}
}

// checkDeploy checks that deploy/ holds the five OLM kinds, each valid against OLM's CRD schemas.
func (p *pipelineProject) checkDeploy(t *testing.T) {
	t.Helper()
	schemas, err := emit.OLMSchemas()
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, sub := range []string{"olmv0", "olmv1"} {
		docs, err := manifest.ReadTree(filepath.Join(p.dir, "deploy", sub))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range docs {
			if filepath.Base(d.File) == "kustomization.yaml" {
				continue
			}
			kinds = append(kinds, d.Object.GetKind())
			if !schemas.Covers(d.Object.GroupVersionKind()) { // the Namespace: checked by kubectl in TestE2EDeployKubectl
				continue
			}
			if errs := schemas.Validate(context.Background(), d.Object); len(errs) > 0 {
				t.Errorf("%s: %s", d, emit.FormatErrors(errs))
			}
		}
	}
	sort.Strings(kinds)
	want := []string{"CatalogSource", "ClusterCatalog", "ClusterExtension", "Namespace", "Namespace", "OperatorGroup", "Subscription"}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("emitted kinds (-want +got):\n%s", diff)
	}
}

// checkChannel checks that the catalog's alpha channel has 0.0.2 replacing 0.0.1, and that the
// bundles are referenced by digest.
func (p *pipelineProject) checkChannel(t *testing.T) {
	t.Helper()
	cfg, err := fbc.LoadDir(context.Background(), filepath.Join(p.dir, "catalog"))
	if err != nil {
		t.Fatal(err)
	}
	var entries []fbc.ChannelEntry
	for _, ch := range cfg.Channels {
		if ch.Name == "alpha" {
			entries = ch.Entries
		}
	}
	want := []fbc.ChannelEntry{{Name: "memcached-operator.v0.0.1"}, {Name: "memcached-operator.v0.0.2", Replaces: "memcached-operator.v0.0.1"}}
	if diff := cmp.Diff(want, entries); diff != "" {
		t.Errorf("alpha channel (-want +got):\n%s", diff)
	}
	for _, b := range cfg.Bundles {
		if _, err := name.NewDigest(b.Image); err != nil {
			t.Errorf("bundle %s is referenced as %q, not by digest", b.Name, b.Image)
		}
	}
}

// treeHashes hashes every file of the project outside config/, with its modification time.
func treeHashes(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			if d != nil && d.IsDir() && d.Name() == "config" {
				return filepath.SkipDir
			}
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		out[rel] = fmt.Sprintf("%x %s", sha256.Sum256(data), info.ModTime())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func readObject(t *testing.T, path string) manifest.Doc {
	t.Helper()
	docs, err := manifest.ReadFile(path)
	if err != nil || len(docs) != 1 {
		t.Fatalf("reading %s: %v (%d documents)", path, err, len(docs))
	}
	return docs[0]
}

// startPipelineRegistry starts Debian's docker-registry on 127.0.0.1 (olmtest.StartRegistry).
func startPipelineRegistry(t *testing.T) string { return olmtest.StartRegistry(t) }
