package check

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/crd/load"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/image"
	"github.com/opack/opack/internal/manifest"
	"github.com/opack/opack/internal/tmpdir"
)

// CRDSource gives the CRDs a bundle installs. ok is false when they cannot be had (the edge
// is then reported as not checked); err is for CRDs that exist but cannot be read.
type CRDSource interface {
	CRDs(ctx context.Context, b *fbc.Bundle) (crds []*apiextv1.CustomResourceDefinition, ok bool, err error)
}

// ObjectCRDs reads CRDs from a bundle's olm.bundle.object properties (Bundle.Objects).
type ObjectCRDs struct{}

// CRDs implements CRDSource.
func (ObjectCRDs) CRDs(_ context.Context, b *fbc.Bundle) ([]*apiextv1.CustomResourceDefinition, bool, error) {
	if len(b.Objects) == 0 {
		return nil, false, nil
	}
	var out []*apiextv1.CustomResourceDefinition
	for i, obj := range b.Objects {
		c, isCRD, err := load.FromJSON([]byte(obj))
		if err != nil {
			return nil, false, fmt.Errorf("olm.bundle.object[%d]: %w", i, err)
		}
		if isCRD {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, true, nil
}

// dirCRDs reads the CRDs of bundles from bundle folders, keyed by bundle name (the CSV name).
type dirCRDs map[string]string

// CRDs implements CRDSource.
func (d dirCRDs) CRDs(ctx context.Context, b *fbc.Bundle) ([]*apiextv1.CustomResourceDefinition, bool, error) {
	dir, ok := d[b.Name]
	if !ok {
		return nil, false, nil
	}
	set, err := load.CRDs(ctx, dir)
	if err != nil {
		return nil, false, err
	}
	return set.CRDs, true, nil
}

// ImageCRDs pulls bundle images (by Bundle.Image) and reads their manifests/ (opack catalog
// validate --pull). Each image is pulled once.
type ImageCRDs struct {
	Puller image.Puller // nil reads no image
	// Dir holds the unpacked images; a temporary folder when empty.
	Dir string
}

// CRDs implements CRDSource.
func (s ImageCRDs) CRDs(ctx context.Context, b *fbc.Bundle) ([]*apiextv1.CustomResourceDefinition, bool, error) {
	if b.Image == "" || s.Puller == nil {
		return nil, false, nil
	}
	var dst string
	var err error
	if s.Dir == "" {
		dst, err = tmpdir.Make("bundle")
		defer tmpdir.Remove(dst)
	} else {
		dst, err = os.MkdirTemp(s.Dir, "opack-bundle-")
		defer os.RemoveAll(dst)
	}
	if err != nil {
		return nil, false, err
	}
	if _, err := s.Puller.Unpack(ctx, b.Image, dst); err != nil {
		return nil, false, fmt.Errorf("pulling %s: %w", b.Image, err)
	}
	set, err := load.CRDs(ctx, filepath.Join(dst, "manifests"))
	if err != nil {
		return nil, false, err
	}
	return set.CRDs, true, nil
}

// FirstCRDs asks each source in turn and uses the first that has the bundle's CRDs.
type FirstCRDs []CRDSource

// CRDs implements CRDSource.
func (f FirstCRDs) CRDs(ctx context.Context, b *fbc.Bundle) ([]*apiextv1.CustomResourceDefinition, bool, error) {
	for _, s := range f {
		crds, ok, err := s.CRDs(ctx, b)
		if err != nil || ok {
			return crds, ok, err
		}
	}
	return nil, false, nil
}

type crdResult struct {
	bundle string
	crds   []*apiextv1.CustomResourceDefinition
	sums   []crdSum            // per CRD; zero when the source does not hash
	index  []*load.SchemaIndex // per CRD, for the edge's new bundle to share (nil entries share nothing)
	// grants are the RBAC rules of the bundle's CSV, read when a CRD is removed (nil: the
	// catalog does not carry the CSV).
	grants *csvGrants
	ok     bool
	err    error
}

// csvGrants reads the RBAC rules of a CSV once, when first asked: only an edge that removes a
// CRD needs them, and decoding every CSV of a catalog costs more than comparing its CRDs.
type csvGrants struct {
	once   sync.Once
	csv    string
	grants []load.Grant
	known  bool
}

// get returns the rules; known is false when the CSV cannot be read.
func (g *csvGrants) get() (grants []load.Grant, known bool) {
	if g == nil {
		return nil, false
	}
	g.once.Do(func() { g.grants, g.known = load.CSVGrants([]byte(g.csv)); g.csv = "" })
	return g.grants, g.known
}

// crdCache loads each bundle's CRDs once, concurrently for different bundles, until its package is dropped.
type crdCache struct {
	src CRDSource
	m   *fbc.Model
	mu  sync.Mutex
	got map[string]map[string]*crdEntry // package → bundle → entry
	dec map[string]*decodeCache         // package → decoded CRDs and compared pairs
}

// drop forgets the CRDs of a package's bundles (their errors stay in the edges that saw them).
func (c *crdCache) drop(pkg string) {
	c.mu.Lock()
	delete(c.got, pkg)
	delete(c.dec, pkg)
	c.mu.Unlock()
}

// release forgets the CRDs of a bundle whose edges are all checked.
func (c *crdCache) release(pkg, name string) {
	c.mu.Lock()
	e := c.got[pkg][name]
	c.mu.Unlock()
	if e != nil {
		e.r.crds, e.r.sums, e.r.index = nil, nil, nil
	}
}

// decoder returns the package's decode cache.
func (c *crdCache) decoder(pkg string) *decodeCache {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dec == nil {
		c.dec = map[string]*decodeCache{}
	}
	d := c.dec[pkg]
	if d == nil {
		d = newDecodeCache()
		c.dec[pkg] = d
	}
	return d
}

type crdEntry struct {
	once sync.Once
	r    crdResult
}

// get returns the bundle's CRDs, decoded on the first call sharing what is identical in the
// CRDs from indexes (the edge's old bundle).
func (c *crdCache) get(ctx context.Context, pkg, name string, from []*load.SchemaIndex) crdResult {
	c.mu.Lock()
	if c.got[pkg] == nil {
		c.got[pkg] = map[string]*crdEntry{}
	}
	e := c.got[pkg][name]
	if e == nil {
		e = &crdEntry{}
		c.got[pkg][name] = e
	}
	c.mu.Unlock()
	e.once.Do(func() {
		e.r = crdResult{bundle: name}
		if b := c.m.Packages[pkg].Bundles[name]; b != nil {
			e.r.crds, e.r.sums, e.r.index, e.r.ok, e.r.err = sourceCRDs(ctx, c.src, b.Blob, c.decoder(pkg), from)
			if e.r.ok && b.Blob.CsvJSON != "" {
				e.r.grants = &csvGrants{csv: b.Blob.CsvJSON}
			}
		}
		if e.r.err != nil {
			e.r.ok = false
		}
	})
	return e.r
}

// BundleDirCRDs maps bundle folders (manifests/ + metadata/) to their bundle names (the CSV's
// metadata.name), for DirCRDs.
func BundleDirCRDs(dirs []string) (dirCRDs, error) {
	out := dirCRDs{}
	for _, dir := range dirs {
		if strings.TrimSpace(dir) == "" {
			continue // "a,b," on the command line
		}
		docs, err := manifest.ReadTree(filepath.Join(dir, "manifests"))
		if err != nil {
			return nil, fmt.Errorf("reading bundle %s: %w", dir, err)
		}
		name := ""
		for _, d := range docs {
			if d.Object.GetKind() == "ClusterServiceVersion" {
				name = d.Object.GetName()
				break
			}
		}
		if name == "" {
			return nil, fmt.Errorf("reading bundle %s: no ClusterServiceVersion in manifests/", dir)
		}
		if prev, dup := out[name]; dup {
			return nil, fmt.Errorf("bundles %s and %s are both %s; pass one", prev, dir, name)
		}
		out[name] = dir
	}
	return out, nil
}
