package adopt

import (
	"context"
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/opack/opack/internal/project"
	"github.com/opack/opack/internal/project/config"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/fbc"
)

// adoptCopy copies a real repository of testdata/adopt into a temporary folder, without the
// paths in drop.
func adoptCopy(t *testing.T, name string, drop ...string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "testdata", "adopt", name))); err != nil {
		t.Fatal(err)
	}
	for _, d := range drop {
		if err := os.RemoveAll(filepath.Join(dir, d)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// hashTree hashes every file below dir by slash path.
func hashTree(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = sha256.Sum256(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestE2EAdoptMultiReleaseFBC adopts openshift/lightspeed-operator, which publishes its releases as
// a file-based catalog (one file per bundle, channels in index.yaml): init keeps the catalog,
// build adds the next release to it and changes nothing it does not own, check then passes.
func TestE2EAdoptMultiReleaseFBC(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a real repository's release (slow)")
	}
	ctx := context.Background()
	// lightspeed-catalog/ holds the 0.2.x tech preview, to which 1.1.4 must not be added: the
	// upgrade from 0.2.1 is unsafe, and build says so (TestE2EAdoptRefusesUnsafeCatalog).
	dir := adoptCopy(t, "lightspeed-operator", "lightspeed-catalog", "lightspeed-catalog.Dockerfile")
	before := hashTree(t, dir)
	res, err := Init(ctx, dir, InitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Project.Catalogs
	if len(c) != 1 || c[0].Mode != config.CatalogModeFBC || c[0].Dir != "lightspeed-catalog-4.16" || c[0].BundleFile != "bundle-v{{.Version}}.yaml" {
		t.Fatalf("catalogs = %+v", c)
	}
	if res.Project.Version != "1.1.3" {
		t.Errorf("version = %q, want the catalog's newest release 1.1.3", res.Project.Version)
	}
	file := filepath.Join(dir, config.DefaultFile)
	out, err := project.BuildFile(ctx, file, project.BuildVersion("1.1.4"))
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	after := hashTree(t, dir)
	written := map[string]bool{config.DefaultFile: true}
	for _, w := range out.Written {
		written[w] = true
	}
	for f, h := range before {
		if after[f] == h {
			continue
		}
		if !ownedBy(f, written) {
			t.Errorf("%s changed, and opack did not write it (written: %v)", f, out.Written)
		}
	}
	for f := range before {
		if _, ok := after[f]; !ok && !ownedBy(f, written) {
			t.Errorf("%s was deleted", f)
		}
	}
	checkAdoptedCatalog(t, filepath.Join(dir, "lightspeed-catalog-4.16"))
	oldIndex, _ := os.ReadFile(filepath.Join("..", "..", "testdata", "adopt", "lightspeed-operator", "lightspeed-catalog-4.16", "index.yaml"))
	newIndex, _ := os.ReadFile(filepath.Join(dir, "lightspeed-catalog-4.16", "index.yaml"))
	if added := addedLines(t, string(oldIndex), string(newIndex)); !slices.Equal(added, []string{
		"  - name: lightspeed-operator.v1.1.4", "    replaces: lightspeed-operator.v1.1.3"}) {
		t.Errorf("index.yaml: lines added %q, want only the new alpha entry", added)
	}
	chk, err := project.CheckFile(ctx, file)
	if err != nil {
		t.Fatalf("check after build: %v", err)
	}
	if len(chk.DiffFiles) > 0 {
		t.Errorf("check after build: out of date %v\n%s", chk.DiffFiles, chk.Diff)
	}
}

// ownedBy reports whether f is one of the written outputs or below one.
func ownedBy(f string, written map[string]bool) bool {
	for w := range written {
		if f == w || strings.HasPrefix(f, w+"/") {
			return true
		}
	}
	return false
}

// addedLines returns the lines of b that are not in a, checking that every line of a is still
// in b, in order.
func addedLines(t *testing.T, a, b string) []string {
	t.Helper()
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var added []string
	i := 0
	for _, l := range bl {
		if i < len(al) && l == al[i] {
			i++
			continue
		}
		added = append(added, l)
	}
	if i != len(al) {
		t.Errorf("line %d of the original (%q) is gone", i+1, al[i])
	}
	return added
}

// checkAdoptedCatalog checks that every earlier release is still in the catalog and 1.1.4 is
// the head of alpha, replacing 1.1.3; stable is untouched.
func checkAdoptedCatalog(t *testing.T, dir string) {
	t.Helper()
	cfg, err := fbc.LoadDir(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	var bundles []string
	for _, b := range cfg.Bundles {
		bundles = append(bundles, b.Name)
	}
	slices.Sort(bundles)
	want := []string{"lightspeed-operator.v1.1.1", "lightspeed-operator.v1.1.2", "lightspeed-operator.v1.1.3", "lightspeed-operator.v1.1.4"}
	if diff := cmp.Diff(want, bundles); diff != "" {
		t.Errorf("bundles (-want +got):\n%s", diff)
	}
	heads := map[string]fbc.ChannelEntry{}
	for _, ch := range cfg.Channels {
		heads[ch.Name] = ch.Entries[len(ch.Entries)-1]
	}
	wantHeads := map[string]fbc.ChannelEntry{
		"alpha":  {Name: "lightspeed-operator.v1.1.4", Replaces: "lightspeed-operator.v1.1.3"},
		"stable": {Name: "lightspeed-operator.v1.1.3", Replaces: "lightspeed-operator.v1.1.2"},
	}
	if diff := cmp.Diff(wantHeads, heads); diff != "" {
		t.Errorf("channel heads (-want +got):\n%s", diff)
	}
}

// TestE2EAdoptRefusesUnsafeCatalog: adopted as a whole, lightspeed-operator also has its 0.2.x tech
// preview catalog, where 1.1.4 would replace 0.2.1 with unsafe CRD changes. build refuses and
// changes nothing in the repository.
func TestE2EAdoptRefusesUnsafeCatalog(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a real repository's release (slow)")
	}
	ctx := context.Background()
	dir := adoptCopy(t, "lightspeed-operator")
	res, err := Init(ctx, dir, InitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.Project.Catalogs); n != 2 {
		t.Fatalf("%d catalogs, want 2", n)
	}
	before := hashTree(t, dir)
	_, err = project.BuildFile(ctx, filepath.Join(dir, config.DefaultFile), project.BuildVersion("1.1.4"))
	var se *project.StepError
	if !errors.As(err, &se) || se.Step != project.StepCatalogValidate || se.File != "lightspeed-catalog" {
		t.Fatalf("err = %v, want a catalog-validate failure of lightspeed-catalog", err)
	}
	if diff := cmp.Diff(before, hashTree(t, dir)); diff != "" {
		t.Errorf("a refused build changed the repository (-before +after):\n%s", diff)
	}
}
