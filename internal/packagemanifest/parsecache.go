package packagemanifest

import (
	"container/list"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/opack/opack/internal/manifest"
)

// ParseCache shares the decoding of file contents across the bundles of one run: releases of one operator
// ship the same CRDs again and again.
//
// Every content decoded is kept as JSON, up to maxParseCache, and its objects are shared with every later
// bundle holding the content: its unstructured object and, for a v1 CRD, its typed form, defaulted as the
// API server defaults it (which the CRD checks do in place; defaulting again only reads). The objects are
// bounded by maxParsedObjects, the least recently used dropped first (a decoded object takes several times
// the memory of its JSON); a content whose objects were dropped is decoded again from its JSON. Shared
// objects are read-only: nothing that validates a bundle writes to its objects, which
// TestSharedObjectsUnchanged and TestCorpusSharedObjectsUnchanged check after every bundle (SharedUnchanged). One bundle never gets the same object twice
// (its files are told apart by object).
type ParseCache struct {
	mu    sync.Mutex
	m     map[[32]byte]*parsedEntry
	bytes int
	gz    map[[32]byte]int // gzip sizes by content (the bundle-size check)

	objMu    sync.Mutex // guards every entry's obj, crd, elem and cost, and the fields below
	lru      list.List  // entries holding objects, most recently used first
	objBytes int        // estimated memory of the kept objects
}

const (
	maxParseCache = 256 << 20
	// maxParsedObjects bounds the estimated memory of the objects kept. About two bundles of a large
	// operator: releases are validated in order, two at a time. More costs more than it saves (the GC
	// scans what is kept): on the repetition corpus of docs/performance.md, 16 MB saved 20% of the CPU
	// for 25 MB more peak RSS, 64 MB saved less for 130 MB more.
	maxParsedObjects = 16 << 20
	// Memory per JSON byte, from the live heap with and without kept objects (GODEBUG=gctrace=1): an
	// unstructured object takes about 7 bytes, a typed v1 CRD about 22 (JSONSchemaProps is a large struct).
	objectCostPerByte = 7
	crdCostPerByte    = 22
)

// parsedEntry is what the run knows of one file content.
type parsedEntry struct {
	json      []byte
	decodeErr error
	docs      int
	pc        *ParseCache
	lose      atomic.Int32 // manifest.MayLoseNumbers of the content: 0 not computed, 1 true, 2 false

	obj  *unstructured.Unstructured                // shared, read-only
	crd  *apiextensionsv1.CustomResourceDefinition // shared, read-only, defaulted
	elem *list.Element                             // in pc.lru while obj or crd is kept
	cost int
}

// lookup is the run's entry of a content, nil when it was not decoded before (or not kept).
func (pc *ParseCache) lookup(key *[32]byte) *parsedEntry {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return pc.m[*key]
}

// decode decodes a content seen for the first time, keeps its JSON for the next files holding it, and
// shares its object from now on.
func (pc *ParseCache) decode(path string, raw []byte, key *[32]byte) *SourceFile {
	f := decodeFirst(path, raw)
	f.sum = key
	j := f.jsonBytes()
	e := &parsedEntry{json: j, decodeErr: f.decodeErr, docs: f.Docs, pc: pc}
	pc.mu.Lock()
	if pc.m == nil {
		pc.m = map[[32]byte]*parsedEntry{}
	}
	added := false
	if _, ok := pc.m[*key]; !ok && pc.bytes+len(j) <= maxParseCache {
		pc.m[*key] = e
		pc.bytes += len(j)
		added = true
	}
	pc.mu.Unlock()
	if added && f.Obj != nil {
		f.entry = e
		pc.objMu.Lock()
		e.obj = f.Obj
		pc.keep(e, objectCostPerByte*len(j))
		pc.objMu.Unlock()
	}
	return f
}

// file is the SourceFile of path holding the entry's content (raw), sharing the entry's object; nil
// when its JSON does not decode.
func (e *parsedEntry) file(path string, raw []byte, key *[32]byte) *SourceFile {
	f := &SourceFile{Path: path, Raw: raw, json: e.json, decodeErr: e.decodeErr, Docs: e.docs, sum: key, entry: e}
	if e.json == nil {
		return f
	}
	f.Obj = kept(e, &e.obj, objectCostPerByte, func() (*unstructured.Unstructured, error) {
		obj := &unstructured.Unstructured{}
		return obj, obj.UnmarshalJSON(e.json)
	})
	if f.Obj == nil {
		return nil
	}
	return f
}

// v1CRD is the content as a typed, defaulted v1 CRD (as decodeV1CRD decodes it from f, a file holding
// the content), shared; nil when it does not decode: the caller then decodes f itself, for its error.
func (e *parsedEntry) v1CRD(f *SourceFile) *apiextensionsv1.CustomResourceDefinition {
	return kept(e, &e.crd, crdCostPerByte, func() (*apiextensionsv1.CustomResourceDefinition, error) {
		c, err := f.decodeV1CRDOnce()
		if err == nil {
			apiextensionsv1.SetObjectDefaults_CustomResourceDefinition(c)
		}
		return c, err
	})
}

// kept is the object in *slot, one of e's, decoded by decode and kept when there is none yet (nil when
// decode fails). Decoding runs outside the lock: two bundles may decode one content at once, and the
// first to finish is kept.
func kept[T any](e *parsedEntry, slot **T, costPerByte int, decode func() (*T, error)) *T {
	pc := e.pc
	pc.objMu.Lock()
	v := *slot
	if v != nil {
		pc.lru.MoveToFront(e.elem)
	}
	pc.objMu.Unlock()
	if v != nil {
		return v
	}
	v, err := decode()
	if err != nil {
		return nil
	}
	pc.objMu.Lock()
	defer pc.objMu.Unlock()
	if *slot != nil {
		return *slot
	}
	*slot = v
	pc.keep(e, costPerByte*len(e.json))
	return v
}

// keep accounts for an object just kept in e and drops the least recently used objects beyond
// maxParsedObjects (bundles holding them keep them as long as they need). pc.objMu is held.
func (pc *ParseCache) keep(e *parsedEntry, cost int) {
	e.cost += cost
	pc.objBytes += cost
	if e.elem == nil {
		e.elem = pc.lru.PushFront(e)
	} else {
		pc.lru.MoveToFront(e.elem)
	}
	for pc.objBytes > maxParsedObjects && pc.lru.Len() > 1 {
		old := pc.lru.Remove(pc.lru.Back()).(*parsedEntry)
		pc.objBytes -= old.cost
		old.obj, old.crd, old.elem, old.cost = nil, nil, nil, 0
	}
}

// SharedUnchanged reports the first kept object that differs from a fresh decode of its content: something
// wrote to an object other bundles share. Tests call it after validating each bundle. A typed CRD whose
// numbers JSON may not hold exactly (mayLoseNumbers) is decoded from its YAML, which is not kept; it is
// not compared.
func (pc *ParseCache) SharedUnchanged() error {
	pc.objMu.Lock()
	defer pc.objMu.Unlock()
	for el := pc.lru.Front(); el != nil; el = el.Next() {
		e := el.Value.(*parsedEntry)
		if e.obj != nil {
			fresh := &unstructured.Unstructured{}
			if err := fresh.UnmarshalJSON(e.json); err != nil {
				return fmt.Errorf("decoding kept content again: %w", err)
			}
			if !equality.Semantic.DeepEqual(fresh.Object, e.obj.Object) {
				return fmt.Errorf("shared object %s %s was written to", e.obj.GetKind(), e.obj.GetName())
			}
		}
		if e.crd != nil && e.lose.Load() == 2 {
			fresh := &apiextensionsv1.CustomResourceDefinition{}
			if err := json.Unmarshal(e.json, fresh); err != nil {
				return fmt.Errorf("decoding kept CRD again: %w", err)
			}
			apiextensionsv1.SetObjectDefaults_CustomResourceDefinition(fresh)
			if !equality.Semantic.DeepEqual(fresh, e.crd) {
				return fmt.Errorf("shared CRD %s was written to", e.crd.Name)
			}
		}
	}
	return nil
}

// mayLoseNumbers is manifest.MayLoseNumbers(raw) for the entry's content (raw), computed once.
func (e *parsedEntry) mayLoseNumbers(raw []byte) bool {
	switch e.lose.Load() {
	case 1:
		return true
	case 2:
		return false
	}
	lose := manifest.MayLoseNumbers(raw)
	if lose {
		e.lose.Store(1)
	} else {
		e.lose.Store(2)
	}
	return lose
}

// gzipSize is the file's size compressed by compress/gzip at the default level, computed once per
// content in a run: releases of one operator ship the same large CRDs.
func (pc *ParseCache) gzipSize(f *SourceFile) (int, error) {
	if pc == nil || f.sum == nil {
		return gzipSize(f.Raw)
	}
	pc.mu.Lock()
	n, ok := pc.gz[*f.sum]
	pc.mu.Unlock()
	if ok {
		return n, nil
	}
	n, err := gzipSize(f.Raw)
	if err != nil {
		return 0, err
	}
	pc.mu.Lock()
	if pc.gz == nil {
		pc.gz = map[[32]byte]int{}
	}
	pc.gz[*f.sum] = n
	pc.mu.Unlock()
	return n, nil
}
