package validate

import (
	"runtime"

	"github.com/opack/opack/internal/image"
	"github.com/opack/opack/internal/packagemanifest"
)

type config struct {
	selector     string
	optional     []OptionalValidator
	values       map[string]string
	puller       image.Puller
	inspector    PlatformInspector
	parallelism  int
	serverChecks bool
	progress     func(done, total int)
	parsed       *packagemanifest.ParseCache
	crdCache     *crdCache
}

// Option configures a validation run.
type Option func(*config)

// WithSelector selects optional validators by a label selector, as operator-sdk's --select-optional
// (e.g. "suite=operatorframework", "name=multiarch"). A selector that selects none makes Bundles fail.
func WithSelector(selector string) Option { return func(c *config) { c.selector = selector } }

// WithOptionalValues passes key=value settings to the optional validators: k8s-version (the Kubernetes
// release the bundle targets), container-tools, index-path.
func WithOptionalValues(values map[string]string) Option {
	return func(c *config) { c.values = values }
}

// WithPuller sets how IMAGE arguments are fetched; without one, an argument that is not a folder is refused.
func WithPuller(p image.Puller) Option { return func(c *config) { c.puller = p } }

// WithPlatformInspector sets how the multiarch validator reads the platforms of an image.
func WithPlatformInspector(i PlatformInspector) Option { return func(c *config) { c.inspector = i } }

// WithParallelism sets how many bundles are validated at once (default: GOMAXPROCS).
func WithParallelism(n int) Option { return func(c *config) { c.parallelism = n } }

// WithAPIServerChecks turns the API server's CRD checks (on by default) on or off; off gives operator-sdk's
// findings only.
func WithAPIServerChecks(on bool) Option { return func(c *config) { c.serverChecks = on } }

// WithProgress calls fn each time an argument has been validated (done of total), one call at a time
// with done increasing, from the goroutine that validated it.
func WithProgress(fn func(done, total int)) Option { return func(c *config) { c.progress = fn } }

func makeConfig(opts []Option) (*config, error) {
	c := &config{parallelism: runtime.GOMAXPROCS(0), serverChecks: true, parsed: &packagemanifest.ParseCache{}, crdCache: &crdCache{}}
	for _, o := range opts {
		o(c)
	}
	if c.parallelism < 1 {
		c.parallelism = 1
	}
	optional, err := selectValidators(c.selector)
	if err != nil {
		return nil, err
	}
	c.optional = optional
	if c.inspector == nil && c.puller != nil {
		c.inspector = &ImageInspector{Puller: c.puller} // the multiarch check reads images as IMAGE arguments are
	}
	return c, nil
}

var sharedInspector = &ImageInspector{}

// defaultInspector, without a puller or an inspector, is an inspector shared by every run of the
// process (its cache included).
func (c *config) defaultInspector() PlatformInspector { return sharedInspector }
