package validate

import (
	"context"
	"crypto/sha256"
	"sync"

	apierrors "github.com/operator-framework/api/pkg/validation/errors"

	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/packagemanifest"
)

// crdCache remembers the outcome of the API server's validation of a CRD file's content, so that a CRD
// shipped unchanged in many bundles of a run is validated once: a bundle that needs a content another
// bundle is validating waits for its outcome (consecutive releases of one operator are validated side
// by side and share most CRDs).
type crdCache struct {
	mu sync.Mutex
	m  map[[32]byte]*crdEntry
}

// crdEntry is one content's outcome, ready when done is closed; ok is false when the bundle that
// validated it gave no outcome (it panicked), and each waiting bundle then validates it itself.
type crdEntry struct {
	done    chan struct{}
	ok      bool
	outcome crdOutcome
}

type crdOutcome struct {
	result apierrors.ManifestResult
	server []finding.Finding // File and Object left empty
}

// key identifies a CRD by its file's bytes and the target Kubernetes version; nil (no caching) when the file
// is unknown.
func (c *crdCache) key(f *packagemanifest.SourceFile, k8sVersion string) *[32]byte {
	if c == nil || f == nil {
		return nil
	}
	h := sha256.New()
	h.Write(f.Sum()[:]) // the content's hash, computed once when the file was read
	h.Write([]byte{0})
	h.Write([]byte(k8sVersion))
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return &k
}

// get returns the outcome for key, waiting while another bundle validates the same content; ok false
// means the caller validates it, puts the outcome, and defers release.
func (c *crdCache) get(ctx context.Context, key *[32]byte, file, object string) (apierrors.ManifestResult, []finding.Finding, bool) {
	if key == nil {
		return apierrors.ManifestResult{}, nil, false
	}
	c.mu.Lock()
	e, ok := c.m[*key]
	if !ok {
		if c.m == nil {
			c.m = map[[32]byte]*crdEntry{}
		}
		c.m[*key] = &crdEntry{done: make(chan struct{})}
	}
	c.mu.Unlock()
	if !ok {
		return apierrors.ManifestResult{}, nil, false
	}
	select {
	case <-e.done:
	case <-ctx.Done():
		return apierrors.ManifestResult{}, nil, false // validated here rather than waited for
	}
	if !e.ok {
		return apierrors.ManifestResult{}, nil, false
	}
	o := e.outcome
	server := make([]finding.Finding, len(o.server))
	for i, f := range o.server {
		f.File, f.Object = file, object
		server[i] = f
	}
	r := o.result
	r.Errors = append([]apierrors.Error(nil), r.Errors...)
	r.Warnings = append([]apierrors.Error(nil), r.Warnings...)
	return r, server, true
}

// put records the outcome of a content get left to the caller.
func (c *crdCache) put(key *[32]byte, r apierrors.ManifestResult, server []finding.Finding) {
	if key == nil {
		return
	}
	tmpl := make([]finding.Finding, len(server))
	for i, f := range server {
		f.File, f.Object = "", ""
		tmpl[i] = f
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.m[*key]
	if e == nil { // released without an outcome meanwhile
		e = &crdEntry{done: make(chan struct{})}
		c.m[*key] = e
	}
	select {
	case <-e.done: // a second put, after a cancelled wait: the first outcome stays
	default:
		e.ok, e.outcome = true, crdOutcome{result: r, server: tmpl}
		close(e.done)
	}
}

// release ends an entry the caller of a missed get left without an outcome (validation panicked): the
// bundles waiting on it validate the CRD themselves instead of waiting for ever.
func (c *crdCache) release(key *[32]byte) {
	if key == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.m[*key]
	if e == nil {
		return
	}
	select {
	case <-e.done:
	default:
		delete(c.m, *key)
		close(e.done)
	}
}
