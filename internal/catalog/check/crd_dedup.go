package check

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sort"
	"sync"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/crd"
	"github.com/opack/opack/internal/crd/load"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/manifest"
)

// Catalogs ship the same CRD, byte for byte, in many bundles of a package, and skipRange edges
// compare the same pair of CRDs many times. The CRD checks therefore decode each distinct
// embedded CRD once (by the SHA-256 of its JSON), skip pairs of identical CRDs (an upgrade to
// the same CRD changes nothing), and compare each distinct pair once. Both caches live per
// package and are dropped with it.

// crdSum is the SHA-256 of a CRD's JSON; the zero value means unknown (CRDs from folders or images).
type crdSum [32]byte

// hashedCRDSource is a CRDSource that can decode through a package's cache and say each CRD's sum.
// from indexes the schemas of the CRDs the bundle's are compared with (the edge's old bundle),
// whose identical parts the new ones share (load.FromJSONSharing).
type hashedCRDSource interface {
	hashedCRDs(ctx context.Context, b *fbc.Bundle, dec *decodeCache, from []*load.SchemaIndex) (crds []*apiextv1.CustomResourceDefinition, sums []crdSum, idx []*load.SchemaIndex, ok bool, err error)
}

// decodeCache holds the decoded CRDs of one package by sum, and the findings of the pairs compared.
type decodeCache struct {
	mu    sync.Mutex
	crds  map[crdSum]*decoded
	pairs map[[2]crdSum]*comparedPair
	// refs counts, per CRD, the uses the package's edges still have for it (see plan); a
	// decoded CRD is forgotten when its count drops to zero. nil: kept until the package is dropped.
	refs map[crdSum]int
	// cands are the CRD candidates of each bundle (by name), hashed once for plan and hashedCRDs.
	cands map[string][]crdCandidate
}

type decoded struct {
	once sync.Once
	crd  *apiextv1.CustomResourceDefinition
	idx  *load.SchemaIndex
	err  error
}

type comparedPair struct {
	once     sync.Once
	findings []crd.Finding
}

func newDecodeCache() *decodeCache {
	return &decodeCache{crds: map[crdSum]*decoded{}, pairs: map[[2]crdSum]*comparedPair{}, cands: map[string][]crdCandidate{}}
}

// decode returns the CRD of data and the index of its schemas (decoded once per distinct
// content, sharing what is identical in the index from returns, asked only when it decodes;
// callers must not modify it).
func (d *decodeCache) decode(sum crdSum, data string, from func() *load.SchemaIndex) (*apiextv1.CustomResourceDefinition, *load.SchemaIndex, error) {
	d.mu.Lock()
	e := d.crds[sum]
	if e == nil {
		e = &decoded{}
		d.crds[sum] = e
	}
	d.mu.Unlock()
	e.once.Do(func() { e.crd, _, e.idx, e.err = load.FromJSONSharing([]byte(data), from()) })
	return e.crd, e.idx, e.err
}

// plan counts the uses of each CRD by the edges still to check: each edge uses the CRDs of its
// two bundles (sums lists them per bundle, nil for a bundle whose CRDs have no sum).
func (d *decodeCache) plan(edges [][2]string, sums map[string][]crdSum) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.refs = map[crdSum]int{}
	for _, e := range edges {
		for _, b := range e {
			for _, s := range sums[b] {
				d.refs[s]++
			}
		}
	}
}

// done gives back the uses of one edge (the sums of its two bundles' CRDs).
func (d *decodeCache) done(sums ...[]crdSum) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.refs == nil {
		return
	}
	var zero crdSum
	for _, list := range sums {
		for _, s := range list {
			if s == zero {
				continue
			}
			if d.refs[s]--; d.refs[s] == 0 {
				delete(d.crds, s)
			}
		}
	}
}

// crdCandidate is an object of a bundle that may be a CRD (its kind says so, or cannot be
// peeked), by index in Bundle.Objects, with the sum of its JSON.
type crdCandidate struct {
	index int
	sum   crdSum
}

// candidates returns b's CRD candidates, hashed on the first call for the bundle.
func (d *decodeCache) candidates(b *fbc.Bundle) []crdCandidate {
	d.mu.Lock()
	c, done := d.cands[b.Name]
	d.mu.Unlock()
	if done {
		return c
	}
	for i, obj := range b.Objects {
		data := []byte(obj)
		if av, kind, ok := manifest.PeekKind(data); ok && (kind != "CustomResourceDefinition" || av == "") {
			continue // not a CRD (FromJSON would say the same, after a decode)
		}
		c = append(c, crdCandidate{index: i, sum: crdSum(sha256.Sum256(data))})
	}
	d.mu.Lock()
	d.cands[b.Name] = c
	d.mu.Unlock()
	return c
}

// compare returns compare(old, new), computed once per pair of sums.
func (d *decodeCache) compare(old, new crdSum, compare func() []crd.Finding) []crd.Finding {
	k := [2]crdSum{old, new}
	d.mu.Lock()
	e := d.pairs[k]
	if e == nil {
		e = &comparedPair{}
		d.pairs[k] = e
	}
	d.mu.Unlock()
	e.once.Do(func() { e.findings = compare() })
	return e.findings
}

// hashedCRDs implements hashedCRDSource: like CRDs, through the package's decode cache.
func (ObjectCRDs) hashedCRDs(_ context.Context, b *fbc.Bundle, dec *decodeCache, from []*load.SchemaIndex) ([]*apiextv1.CustomResourceDefinition, []crdSum, []*load.SchemaIndex, bool, error) {
	if len(b.Objects) == 0 {
		return nil, nil, nil, false, nil
	}
	type entry struct {
		c   *apiextv1.CustomResourceDefinition
		sum crdSum
		idx *load.SchemaIndex
	}
	var out []entry
	mergeOnce := sync.OnceValue(func() *load.SchemaIndex { return load.MergeSchemaIndexes(from...) }) // per bundle, when a CRD is decoded
	for _, cand := range dec.candidates(b) {
		c, idx, err := dec.decode(cand.sum, b.Objects[cand.index], mergeOnce)
		if err != nil {
			return nil, nil, nil, false, fmt.Errorf("olm.bundle.object[%d]: %w", cand.index, err)
		}
		if c != nil {
			out = append(out, entry{c, cand.sum, idx})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].c.Name < out[j].c.Name })
	crds, sums, idx := make([]*apiextv1.CustomResourceDefinition, len(out)), make([]crdSum, len(out)), make([]*load.SchemaIndex, len(out))
	for i, e := range out {
		crds[i], sums[i], idx[i] = e.c, e.sum, e.idx
	}
	return crds, sums, idx, true, nil
}

// hashedCRDs implements hashedCRDSource: the first source that has the bundle's CRDs, through the
// cache where that source can use it.
func (f FirstCRDs) hashedCRDs(ctx context.Context, b *fbc.Bundle, dec *decodeCache, from []*load.SchemaIndex) ([]*apiextv1.CustomResourceDefinition, []crdSum, []*load.SchemaIndex, bool, error) {
	for _, s := range f {
		crds, sums, idx, ok, err := sourceCRDs(ctx, s, b, dec, from)
		if err != nil || ok {
			return crds, sums, idx, ok, err
		}
	}
	return nil, nil, nil, false, nil
}

// sourceCRDs asks s for b's CRDs, through dec when s can use it (sums are zero and indexes nil otherwise).
func sourceCRDs(ctx context.Context, s CRDSource, b *fbc.Bundle, dec *decodeCache, from []*load.SchemaIndex) ([]*apiextv1.CustomResourceDefinition, []crdSum, []*load.SchemaIndex, bool, error) {
	if h, ok := s.(hashedCRDSource); ok {
		return h.hashedCRDs(ctx, b, dec, from)
	}
	crds, ok, err := s.CRDs(ctx, b)
	return crds, make([]crdSum, len(crds)), nil, ok, err
}

// compareEdge compares the CRDs of an edge: identical CRDs (same sum) are skipped, each distinct
// pair is compared once per package, the rest (added, removed, unknown sums) in one call. The
// findings are ordered by CRD, each CRD's in Compare's order.
func compareEdge(ctx context.Context, dec *decodeCache, old, new crdResult, opts ...crd.Option) []crd.Finding {
	opts = append([]crd.Option{crd.WithContext(ctx)}, opts...)
	newAt := make(map[string]int, len(new.crds))
	for i, c := range new.crds {
		newAt[c.Name] = i
	}
	var zero crdSum
	var out []crd.Finding
	var restOld, restNew []*apiextv1.CustomResourceDefinition
	paired := map[string]bool{}
	for i, oc := range old.crds {
		j, ok := newAt[oc.Name]
		if !ok || old.sums[i] == zero || new.sums[j] == zero {
			restOld = append(restOld, oc)
			continue
		}
		paired[oc.Name] = true
		if old.sums[i] == new.sums[j] {
			continue
		}
		nc := new.crds[j]
		out = append(out, dec.compare(old.sums[i], new.sums[j], func() []crd.Finding {
			return crd.Compare([]*apiextv1.CustomResourceDefinition{oc}, []*apiextv1.CustomResourceDefinition{nc}, opts...)
		})...)
	}
	for _, nc := range new.crds {
		if !paired[nc.Name] {
			restNew = append(restNew, nc)
		}
	}
	if len(restOld) > 0 || len(restNew) > 0 {
		if grants, known := new.grants.get(); known && len(restOld) > 0 {
			opts = append(opts, crd.WithNewGrants(grants)) // a CRD may be removed
		}
		out = append(out, crd.Compare(restOld, restNew, opts...)...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].CRD < out[j].CRD })
	return out
}
