package validate

import (
	"crypto/sha256"
	"sync"

	apierrors "github.com/operator-framework/api/pkg/validation/errors"

	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/packagemanifest"
)

// crdCache remembers the outcome of the API server's validation of a CRD file's content, so that a CRD
// shipped unchanged in many bundles of a run is validated once.
type crdCache struct {
	mu sync.Mutex
	m  map[[32]byte]crdOutcome
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
	h.Write(f.Raw)
	h.Write([]byte{0})
	h.Write([]byte(k8sVersion))
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return &k
}

func (c *crdCache) get(key *[32]byte, file, object string) (apierrors.ManifestResult, []finding.Finding, bool) {
	if key == nil {
		return apierrors.ManifestResult{}, nil, false
	}
	c.mu.Lock()
	o, ok := c.m[*key]
	c.mu.Unlock()
	if !ok {
		return apierrors.ManifestResult{}, nil, false
	}
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
	if c.m == nil {
		c.m = map[[32]byte]crdOutcome{}
	}
	c.m[*key] = crdOutcome{result: r, server: tmpl}
	c.mu.Unlock()
}
