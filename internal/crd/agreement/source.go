// Package agreement measures opack's OLM v1 claims against OLM v1's own CRD upgrade-safety preflight on
// real catalogs: every CRD that changes on an upgrade edge of a catalog (an FBC folder whose bundles
// embed their objects, or a tree of bundle or package-manifest folders) is a pair; the preflight's
// verdict on each pair (crdify as operator-controller configures it, hack/tools/crdify) is compared with
// whether `opack validate crds OLD NEW` names olm-v1 among a finding's actors. Tests and make oracle only.
package agreement

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blang/semver/v4"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/manifest"
)

// Pair is a CRD that changes on an upgrade edge: its spec differs between the bundle upgraded from and the
// bundle upgraded to.
type Pair struct {
	// Key identifies the pair by content (the two CRDs' bytes): the same change on several edges is one pair.
	Key string `json:"key"`
	// Catalog, Package, From and To name the first edge the pair was found on; CRD is its name.
	Catalog string `json:"catalog"`
	Package string `json:"package"`
	From    string `json:"from"`
	To      string `json:"to"`
	CRD     string `json:"crd"`
	// Old and New are the CRDs as the bundles hold them, as JSON.
	Old json.RawMessage `json:"-"`
	New json.RawMessage `json:"-"`
}

// bundle is one release of a package: its name, version and CRDs (by name, as JSON), and the names of
// the releases it upgrades from.
type bundle struct {
	name, version string
	crds          map[string][]byte
	replaces      string
	skips         []string
	skipRange     string
}

// Source names a catalog to read pairs from: Kind "fbc" (a file-based catalog folder) or "bundles" (a
// folder of <package>/<version>/ folders, each a bundle folder with manifests/ or a package-manifest
// version folder).
type Source struct {
	Name, Kind, Dir string
}

// Pairs returns the changed CRD pairs on the upgrade edges of the sources, each once, sorted by key,
// and the number of edges read.
func Pairs(ctx context.Context, sources ...Source) ([]Pair, int, error) {
	seen := map[string]bool{}
	var out []Pair
	edges := 0
	for _, s := range sources {
		var pkgs map[string][]*bundle
		var err error
		switch s.Kind {
		case "fbc":
			pkgs, err = fbcPackages(ctx, s.Dir)
		case "bundles":
			pkgs, err = bundleTree(s.Dir)
		default:
			err = fmt.Errorf("unknown source kind %q (want fbc or bundles)", s.Kind)
		}
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", s.Name, err)
		}
		for _, name := range sortedKeys(pkgs) {
			for _, e := range upgradeEdges(pkgs[name]) {
				edges++
				for _, crd := range sortedKeys(e.to.crds) {
					oldCRD, ok := e.from.crds[crd]
					if !ok || !specChanged(oldCRD, e.to.crds[crd]) {
						continue
					}
					p := Pair{Catalog: s.Name, Package: name, From: e.from.name, To: e.to.name, CRD: crd, Old: oldCRD, New: e.to.crds[crd]}
					p.Key = pairKey(p.Old, p.New)
					if !seen[p.Key] {
						seen[p.Key] = true
						out = append(out, p)
					}
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, edges, nil
}

func pairKey(old, new []byte) string {
	h := sha256.New()
	h.Write(old)
	h.Write([]byte{0})
	h.Write(new)
	return hex.EncodeToString(h.Sum(nil))[:20]
}

// specChanged reports whether two CRDs' specs differ as JSON values (the metadata and status are not
// what an upgrade check compares).
func specChanged(a, b []byte) bool {
	var x, y struct {
		APIVersion string          `json:"apiVersion"`
		Spec       json.RawMessage `json:"spec"`
	}
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return !bytes.Equal(a, b)
	}
	return x.APIVersion != y.APIVersion || canonical(x.Spec) != canonical(y.Spec)
}

func canonical(raw []byte) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

type edge struct{ from, to *bundle }

// upgradeEdges returns a package's upgrade edges: replaces, skips and skipRange, each once; a package
// none of whose releases names another (a catalog in semver mode) upgrades from each release to the next
// by version.
func upgradeEdges(bundles []*bundle) []edge {
	byName := map[string]*bundle{}
	for _, b := range bundles {
		byName[b.name] = b
	}
	seen := map[[2]string]bool{}
	var out []edge
	add := func(from *bundle, to *bundle) {
		if from == nil || from == to || seen[[2]string{from.name, to.name}] {
			return
		}
		seen[[2]string{from.name, to.name}] = true
		out = append(out, edge{from, to})
	}
	for _, b := range bundles {
		add(byName[b.replaces], b)
		for _, s := range b.skips {
			add(byName[s], b)
		}
		if r, err := semver.ParseRange(b.skipRange); b.skipRange != "" && err == nil {
			for _, o := range bundles {
				if v, err := semver.ParseTolerant(o.version); err == nil && r(v) {
					add(o, b)
				}
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	sorted := append([]*bundle(nil), bundles...)
	sort.SliceStable(sorted, func(i, j int) bool { return versionLess(sorted[i].version, sorted[j].version) })
	for i := 1; i < len(sorted); i++ {
		add(sorted[i-1], sorted[i])
	}
	return out
}

func versionLess(a, b string) bool {
	va, ea := semver.ParseTolerant(a)
	vb, eb := semver.ParseTolerant(b)
	if ea == nil && eb == nil {
		return va.LT(vb)
	}
	return a < b
}

// fbcPackages reads the bundles of a file-based catalog whose bundles embed their objects
// (olm.bundle.object) and their edges from the channels.
func fbcPackages(ctx context.Context, dir string) (map[string][]*bundle, error) {
	cfg, err := fbc.LoadDir(ctx, dir)
	if err != nil {
		return nil, err
	}
	byName := map[string]*bundle{}
	pkgs := map[string][]*bundle{}
	for i := range cfg.Bundles {
		b := &cfg.Bundles[i]
		nb := &bundle{name: b.Name, crds: map[string][]byte{}}
		if _, v, err := fbc.BundleVersion(b); err == nil {
			nb.version = v.String()
		}
		for _, obj := range b.Objects {
			if u, ok := crdObject([]byte(obj)); ok {
				nb.crds[u.GetName()] = []byte(obj)
			}
		}
		byName[b.Package+"/"+b.Name] = nb
		pkgs[b.Package] = append(pkgs[b.Package], nb)
	}
	// A bundle's edges are the union of its channel entries'.
	for _, ch := range cfg.Channels {
		for _, e := range ch.Entries {
			b := byName[ch.Package+"/"+e.Name]
			if b == nil {
				continue
			}
			if e.Replaces != "" && b.replaces == "" {
				b.replaces = e.Replaces
			} else if e.Replaces != "" && e.Replaces != b.replaces {
				b.skips = append(b.skips, e.Replaces)
			}
			b.skips = append(b.skips, e.Skips...)
			if e.SkipRange != "" {
				b.skipRange = e.SkipRange
			}
		}
	}
	return pkgs, nil
}

// crdObject decodes a CRD object; ok is false for any other object.
func crdObject(raw []byte) (*unstructured.Unstructured, bool) {
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(raw); err != nil || u.GetKind() != "CustomResourceDefinition" || !strings.HasPrefix(u.GetAPIVersion(), "apiextensions.k8s.io/") {
		return nil, false
	}
	return u, true
}

// bundleTree reads <package>/<version>/ folders: bundle folders (manifests/) or package-manifest version
// folders (the CSV and CRDs side by side).
func bundleTree(dir string) (map[string][]*bundle, error) {
	ops, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	pkgs := map[string][]*bundle{}
	for _, op := range ops {
		if !op.IsDir() {
			continue
		}
		versions, err := os.ReadDir(filepath.Join(dir, op.Name()))
		if err != nil {
			return nil, err
		}
		for _, v := range versions {
			if !v.IsDir() {
				continue
			}
			folder := filepath.Join(dir, op.Name(), v.Name())
			if st, err := os.Stat(filepath.Join(folder, "manifests")); err == nil && st.IsDir() {
				folder = filepath.Join(folder, "manifests")
			}
			b, err := readBundleFolder(folder, v.Name())
			if err != nil {
				return nil, err
			}
			if b != nil {
				pkgs[op.Name()] = append(pkgs[op.Name()], b)
			}
		}
	}
	return pkgs, nil
}

// readBundleFolder reads the CSV's name, version and edges and the CRDs of a folder; nil without a CSV.
func readBundleFolder(dir, version string) (*bundle, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	b := &bundle{version: version, crds: map[string][]byte{}}
	for _, e := range entries {
		if e.IsDir() || !(strings.HasSuffix(e.Name(), ".yaml") || strings.HasSuffix(e.Name(), ".yml") || strings.HasSuffix(e.Name(), ".json")) {
			continue
		}
		docs, err := manifest.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue // a file the loaders refuse is no CRD of this release
		}
		for _, d := range docs {
			switch o := d.Object; o.GetKind() {
			case "CustomResourceDefinition":
				if raw, err := o.MarshalJSON(); err == nil {
					b.crds[o.GetName()] = raw
				}
			case "ClusterServiceVersion":
				b.name = o.GetName()
				b.replaces, _, _ = unstructured.NestedString(o.Object, "spec", "replaces")
				b.skips, _, _ = unstructured.NestedStringSlice(o.Object, "spec", "skips")
				b.skipRange = o.GetAnnotations()["olm.skipRange"]
				if v, ok, _ := unstructured.NestedString(o.Object, "spec", "version"); ok && v != "" {
					b.version = v
				}
			}
		}
	}
	if b.name == "" {
		return nil, nil
	}
	return b, nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
