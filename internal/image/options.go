package image

import (
	"context"
	"github.com/opack/opack/internal/escape"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/google/go-containerregistry/pkg/authn"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// Format selects the manifest and layer media types of a built image.
type Format string

// Supported formats.
const (
	FormatOCI    Format = "oci"    // OCI image manifest / index (the default)
	FormatDocker Format = "docker" // Docker v2 schema 2 manifest / manifest list
)

// DefaultMaxUnpackSize bounds the uncompressed size of an image Unpack reads (1 GiB).
const DefaultMaxUnpackSize int64 = 1 << 30

var defaultMaxUnpack atomic.Int64

// SetDefaultMaxUnpackSize changes the process-wide unpack limit (the CLI's --max-image-size);
// n <= 0 restores DefaultMaxUnpackSize.
func SetDefaultMaxUnpackSize(n int64) { defaultMaxUnpack.Store(n) }

// DefaultMaxLayers bounds the layers of an image Unpack reads (real images have tens; Docker's
// overlay storage stops at 127).
const DefaultMaxLayers = 1000

var defaultMaxLayers atomic.Int64

// SetDefaultMaxLayers changes the process-wide layer-count limit (the CLI's --max-layers);
// n <= 0 restores DefaultMaxLayers.
func SetDefaultMaxLayers(n int) { defaultMaxLayers.Store(int64(n)) }

func maxLayers() int {
	if n := defaultMaxLayers.Load(); n > 0 {
		return int(n)
	}
	return DefaultMaxLayers
}

func maxUnpackSize() int64 {
	if n := defaultMaxUnpack.Load(); n > 0 {
		return n
	}
	return DefaultMaxUnpackSize
}

// Option configures the functions of this package; each function ignores options that do not apply.
type Option func(*options)

type options struct {
	labels   map[string]string
	format   Format
	created  time.Time
	version  string
	source   string
	revision string
	base     string
	// noServeCache leaves opm's serve cache out of a catalog image.
	noServeCache    bool
	serveCacheStore ServeCacheStore
	platforms       []v1.Platform
	insecure        bool
	keychain        authn.Keychain
	transport       http.RoundTripper
	backoff         remote.Backoff
	maxSize         int64
	maxLayers       int
	verify          bool
	unpackPaths     []string
	log             io.Writer
	sleep           func(context.Context, time.Duration) error
	// session, when set, is shared by every registry call (Session).
	session *session
}

func makeOptions(opts ...Option) *options {
	o := &options{
		created:   time.Unix(0, 0).UTC(),
		base:      "scratch",
		keychain:  authn.DefaultKeychain,
		backoff:   remote.Backoff{Duration: 500 * time.Millisecond, Factor: 2, Jitter: 0.1, Steps: 5, Cap: 10 * time.Second},
		maxSize:   maxUnpackSize(),
		maxLayers: maxLayers(),
		log:       io.Discard,
		sleep:     sleepCtx,
	}
	for _, opt := range opts {
		opt(o)
	}
	return o
}

// WithLabels adds config labels; they override labels of the same key from the bundle's
// annotations or the base image.
func WithLabels(labels map[string]string) Option {
	return func(o *options) {
		if o.labels == nil {
			o.labels = map[string]string{}
		}
		for k, v := range labels {
			o.labels[k] = v
		}
	}
}

// WithFormat selects OCI (default) or Docker media types for images built FROM scratch.
// Catalogs built on a base image follow the base's media types.
func WithFormat(f Format) Option { return func(o *options) { o.format = f } }

// WithCreated sets the creation time written to the config and the
// org.opencontainers.image.created annotation (default: the Unix epoch).
func WithCreated(t time.Time) Option { return func(o *options) { o.created = t.UTC() } }

// WithVersion sets org.opencontainers.image.version (default for bundles: the CSV's spec.version).
func WithVersion(v string) Option { return func(o *options) { o.version = v } }

// WithSource sets org.opencontainers.image.source, the URL of the source repository.
func WithSource(url string) Option { return func(o *options) { o.source = url } }

// WithRevision sets org.opencontainers.image.revision, the source revision (e.g. a git commit).
func WithRevision(rev string) Option { return func(o *options) { o.revision = rev } }

// WithBase sets the base of a catalog image: "scratch" (default), a registry reference or
// "oci:DIR[:TAG]".
func WithBase(ref string) Option { return func(o *options) { o.base = ref } }

// WithPlatforms restricts a multi-arch base to these platforms; with a scratch catalog base it
// lists the platforms to build. Unpack uses the first one to pick an image from an index.
func WithPlatforms(p ...v1.Platform) Option { return func(o *options) { o.platforms = p } }

// WithInsecure allows plain HTTP and unverified TLS for every registry. Without it only loopback
// registries (127.0.0.0/8, ::1, localhost) are spoken to over plain HTTP.
func WithInsecure(insecure bool) Option { return func(o *options) { o.insecure = insecure } }

// WithKeychain sets where registry credentials come from (default: authn.DefaultKeychain, which
// reads the docker config, $DOCKER_CONFIG and credential helpers).
func WithKeychain(k authn.Keychain) Option { return func(o *options) { o.keychain = k } }

// WithTransport replaces the HTTP transport below the retry and plain-HTTP guards.
func WithTransport(t http.RoundTripper) Option { return func(o *options) { o.transport = t } }

// WithRetry sets how often a transient registry failure (5xx, 429, connection reset) is retried
// and the first wait; each further wait doubles. steps <= 1 disables retries.
func WithRetry(steps int, first time.Duration) Option {
	return func(o *options) { o.backoff.Steps, o.backoff.Duration = steps, first }
}

// WithMaxSize bounds the uncompressed bytes Unpack reads, and separately the bytes it writes (the
// sizes of the regular files materialized).
func WithMaxSize(n int64) Option { return func(o *options) { o.maxSize = n } }

// WithVerify makes a registry push read the manifests and every blob back by digest (each
// checked against its digest) before it is reported: a registry that acknowledges a push and
// drops or alters it fails the push.
func WithVerify(on bool) Option { return func(o *options) { o.verify = on } }

// WithMaxLayers bounds the number of layers of an image Unpack reads.
func WithMaxLayers(n int) Option { return func(o *options) { o.maxLayers = n } }

// WithUnpackPaths makes Unpack write only entries at or below these image paths (e.g. "configs").
func WithUnpackPaths(paths ...string) Option { return func(o *options) { o.unpackPaths = paths } }

// WithLogger sets where progress and retries are logged (default: nowhere).
func WithLogger(w io.Writer) Option {
	return func(o *options) {
		if w != nil {
			o.log = escape.LineWriter(w) // messages quote registry responses: one line each
		}
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
