package render

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/opack/opack/internal/escape"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"text/template"

	"github.com/opack/opack/internal/image"

	"github.com/opack/opack/internal/fbc"
)

// Renderer turns bundle folders, bundle images, package-manifest folders and catalogs
// (folders and images) into file-based catalog blobs, the way `opm render` does.
type Renderer struct {
	images   image.Puller
	cache    *RenderCache
	tmpl     *template.Template
	tmplText string
	stages   int
	allowed  RefType
	log      io.Writer
	workers  int
	progress func(done, total int)
	rendered atomic.Int64
	// beforeParse, when set (tests), runs after a bundle folder's cache key is taken and before
	// its files are read.
	beforeParse func(dir string)
}

// RenderOption configures a Renderer.
type RenderOption func(*Renderer) error

// WithPuller lets the renderer inspect and unpack images (registry references and oci:DIR
// layouts; image.NewPuller gives the default one).
func WithPuller(p image.Puller) RenderOption {
	return func(r *Renderer) error { r.images = p; return nil }
}

// WithRenderCache caches rendered bundles in c (nil: no cache).
func WithRenderCache(c *RenderCache) RenderOption {
	return func(r *Renderer) error { r.cache = c; return nil }
}

// WithImageRefTemplate sets the image of bundles rendered from folders from a Go template
// over {{.Package}}, {{.Name}} and {{.Version}} (opm's --alpha-image-ref-template).
func WithImageRefTemplate(text string) RenderOption {
	return func(r *Renderer) error {
		r.tmpl, r.tmplText = nil, text
		if text == "" {
			return nil
		}
		t, err := template.New("image-ref-template").Option("missingkey=error").Parse(text)
		if err != nil {
			return fmt.Errorf("parsing image reference template: %w", err)
		}
		r.tmpl = t
		return nil
	}
}

// WithMigrateLevel applies opm's migrations up to level ("none", "bundle-object-to-csv-metadata", "all").
func WithMigrateLevel(level string) RenderOption {
	return func(r *Renderer) error {
		n, err := migrationStages(level)
		r.stages = n
		return err
	}
}

// WithAllowedRefs limits the kinds of references rendered (RefAll, the default, allows all).
func WithAllowedRefs(mask RefType) RenderOption {
	return func(r *Renderer) error { r.allowed = mask; return nil }
}

// WithRenderLog sends warnings (manifests that do not decode, …) to w.
func WithRenderLog(w io.Writer) RenderOption {
	return func(r *Renderer) error { r.log = &lockedWriter{w: escape.LineWriter(w)}; return nil } // warnings quote input
}

// withParallelism renders up to n references at once (default: the number of CPUs).
func withParallelism(n int) RenderOption {
	return func(r *Renderer) error {
		if n < 1 {
			return fmt.Errorf("parallelism must be at least 1, got %d", n)
		}
		r.workers = n
		return nil
	}
}

// WithRenderProgress calls fn after each reference is rendered (done of total); fn is called
// from one goroutine at a time.
func WithRenderProgress(fn func(done, total int)) RenderOption {
	return func(r *Renderer) error { r.progress = fn; return nil }
}

// NewRenderer returns a renderer configured by opts.
func NewRenderer(opts ...RenderOption) (*Renderer, error) {
	r := &Renderer{workers: runtime.GOMAXPROCS(0)}
	for _, o := range opts {
		if err := o(r); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Rendered is how many bundles were rendered (parsed) rather than served from the cache.
func (r *Renderer) Rendered() int64 { return r.rendered.Load() }

// lockedWriter serializes the writes of the goroutines rendering in parallel.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (r *Renderer) warnings() io.Writer {
	if r.log == nil {
		return io.Discard
	}
	return r.log
}

// Render renders every reference and concatenates the results in reference order. References
// are rendered in parallel; a failure stops the others, and the first failing reference (in
// order) is the error.
func (r *Renderer) Render(parent context.Context, refs ...string) (*fbc.DeclarativeConfig, error) {
	results := make([]*fbc.DeclarativeConfig, len(refs))
	err := r.forEachRef(parent, refs, func(ctx context.Context, i int, ref string) error {
		cfg, err := r.renderOne(ctx, ref, nil)
		results[i] = cfg
		return err
	})
	if err != nil {
		return nil, err
	}
	out := &fbc.DeclarativeConfig{}
	for _, res := range results {
		AppendConfig(out, res)
	}
	return out, nil
}

// forEachRef calls fn for every reference, up to r.workers at once, and reports progress. The
// first failure stops the others; the error is that of the first failing reference in order.
func (r *Renderer) forEachRef(parent context.Context, refs []string, fn func(ctx context.Context, i int, ref string) error) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	errs := make([]error, len(refs))
	sem := make(chan struct{}, r.workers)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done int
	)
	for i, ref := range refs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if err := ctx.Err(); err != nil {
				errs[i] = err
				return
			}
			if errs[i] = fn(ctx, i, ref); errs[i] != nil {
				cancel()
			}
			if r.progress != nil {
				mu.Lock()
				done++
				r.progress(done, len(refs))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return firstError(parent, refs, errs)
}

// firstError is the error of the first failing reference, skipping references stopped only
// because another one failed.
func firstError(parent context.Context, refs []string, errs []error) error {
	var stopped error
	for i, err := range errs {
		if err == nil {
			continue
		}
		err = fmt.Errorf("render reference %q: %w", refs[i], err)
		if parent.Err() == nil && errors.Is(err, context.Canceled) {
			if stopped == nil {
				stopped = err
			}
			continue
		}
		return err
	}
	return stopped
}

// RenderBundle renders one reference that must yield bundles (templates use it).
func (r *Renderer) RenderBundle(ctx context.Context, ref string) (*fbc.DeclarativeConfig, error) {
	return r.Render(ctx, ref)
}

// renderOne renders ref, normalized and migrated. With bundleDir, a bundle folder is handed to
// it instead of being rendered into the config (RenderTo streams them).
func (r *Renderer) renderOne(ctx context.Context, ref string, bundleDir func(dir string) error) (*fbc.DeclarativeConfig, error) {
	cfg, err := r.renderReference(ctx, ref, bundleDir)
	if err != nil {
		return nil, err
	}
	normalizeRendered(cfg)
	if err := migrate(cfg, r.stages); err != nil {
		return nil, fmt.Errorf("migrate: %v", err)
	}
	return cfg, nil
}

func AppendConfig(out, in *fbc.DeclarativeConfig) {
	out.Packages = append(out.Packages, in.Packages...)
	out.Channels = append(out.Channels, in.Channels...)
	out.Bundles = append(out.Bundles, in.Bundles...)
	out.Deprecations = append(out.Deprecations, in.Deprecations...)
	out.Others = append(out.Others, in.Others...)
}

// renderReference classifies ref: image.ParseSource tells images (registry references, oci:DIR
// and folders holding an OCI layout) from paths; a folder with manifests/ and metadata/ is a
// bundle; a folder with a package manifest is a package-manifest tree; any other folder is a
// file-based catalog.
func (r *Renderer) renderReference(ctx context.Context, ref string, bundleDir func(dir string) error) (*fbc.DeclarativeConfig, error) {
	src, err := image.ParseSource(ref)
	if err != nil {
		return nil, err
	}
	if src.IsImage() {
		return r.renderImage(ctx, src.Ref)
	}
	st, err := os.Stat(ref)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("ref %q has unsupported file type: only folders and images can be rendered (sqlite databases are not supported)", ref)
	}
	entries, err := os.ReadDir(ref)
	if err != nil {
		return nil, err
	}
	switch {
	case fbc.IsBundleDir(entries):
		if !r.allowed.Allowed(RefBundleDir) {
			return nil, fmt.Errorf("cannot render bundle directory %q: %w", ref, errNotAllowed)
		}
		if bundleDir != nil {
			return &fbc.DeclarativeConfig{}, bundleDir(ref)
		}
		b, err := r.renderBundleDir(ref)
		if err != nil {
			return nil, err
		}
		return &fbc.DeclarativeConfig{Bundles: []fbc.Bundle{*b}}, nil
	case packageManifestFile(ref, entries) != "":
		if !r.allowed.Allowed(RefPackageManifestDir) {
			return nil, fmt.Errorf("cannot render package manifest directory %q: %w", ref, errNotAllowed)
		}
		return r.renderPackageManifestDir(ref, packageManifestFile(ref, entries))
	}
	if !r.allowed.Allowed(RefDCDir) {
		return nil, fmt.Errorf("cannot render declarative config directory: %w", errNotAllowed)
	}
	cfg, err := loadFBCDir(ctx, ref)
	if err != nil {
		if werr := fbc.NotCatalogDir(ref); werr != nil {
			return nil, werr
		}
	}
	return cfg, err
}

// renderBundleDir renders a registry+v1 bundle folder, from the cache when its files were
// rendered before with the same image reference template.
func (r *Renderer) renderBundleDir(dir string) (*fbc.Bundle, error) {
	key := r.dirKey(dir)
	return r.cachedBundle(key, func() (*fbc.Bundle, string, error) {
		b, err := r.parseBundleDir(dir)
		if err != nil {
			return nil, "", err
		}
		return b, r.stableKey(dir, key), nil
	})
}

// stableKey is key when dir still hashes to it after being rendered, else "": a folder that
// changed while it was read may have been rendered from other content than key names, and that
// render must not be stored under key (a later checkout of the old content would be served it).
// A change and its exact undo between the two hashes is not seen.
func (r *Renderer) stableKey(dir, key string) string {
	if key == "" || r.dirKey(dir) != key {
		return ""
	}
	return key
}

// parseBundleDir renders a registry+v1 bundle folder.
func (r *Renderer) parseBundleDir(dir string) (*fbc.Bundle, error) {
	if r.beforeParse != nil {
		r.beforeParse(dir)
	}
	rb, err := parseRegistryBundle(dir, r.warnings())
	if err != nil {
		return nil, err
	}
	if err := r.templateImageRef(rb); err != nil {
		return nil, fmt.Errorf("failed templating image reference from bundle for %q: %v", dir, err)
	}
	return rb.toFBC()
}

// templateImageRef sets the bundle image from the image reference template.
func (r *Renderer) templateImageRef(b *registryBundle) error {
	if r.tmpl == nil {
		return nil
	}
	var pkg fbc.PackageProperty
	for _, p := range b.properties {
		if p.Type != fbc.TypePackage {
			continue
		}
		if err := json.Unmarshal(p.Value, &pkg); err != nil {
			return err
		}
		break
	}
	var sb strings.Builder
	data := struct{ Package, Name, Version string }{b.pkg, b.name, pkg.Version}
	if err := r.tmpl.Execute(&sb, data); err != nil {
		return err
	}
	b.image = sb.String()
	return nil
}

// loadFBCDir loads a file-based catalog folder (a catalog root, or the configs folder of an
// unpacked catalog image).
func loadFBCDir(ctx context.Context, dir string) (*fbc.DeclarativeConfig, error) {
	return fbc.LoadDir(ctx, dir)
}
