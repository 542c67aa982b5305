package catalog

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// copyGoldenBundles copies the 11 golden bundles into a fresh folder and returns their paths.
func copyGoldenBundles(t *testing.T) []string {
	t.Helper()
	root := t.TempDir()
	var refs []string
	for _, n := range renderBundleNames(t) {
		dst := filepath.Join(root, n)
		copyTree(t, filepath.Join(renderBundlesDir, n), dst)
		refs = append(refs, dst)
	}
	return refs
}

func newCachedRenderer(t *testing.T, cacheDir string, opts ...RenderOption) *Renderer {
	t.Helper()
	c, err := NewRenderCache(cacheDir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRenderer(append([]RenderOption{WithRenderCache(c)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRenderCacheBundleDirs(t *testing.T) {
	refs := copyGoldenBundles(t)
	cacheDir := t.TempDir()
	opts := []RenderOption{WithImageRefTemplate(goldenImageRefTpl)}

	first := newCachedRenderer(t, cacheDir, opts...)
	want := renderToString(t, first, false, refs...)
	if got := first.Rendered(); got != 11 {
		t.Fatalf("first render: want 11 bundles rendered, got %d", got)
	}

	second := newCachedRenderer(t, cacheDir, opts...)
	if diff := cmp.Diff(want, renderToString(t, second, false, refs...)); diff != "" {
		t.Errorf("cached render differs (-fresh +cached):\n%s", diff)
	}
	if got := second.Rendered(); got != 0 {
		t.Errorf("unchanged bundles: want every bundle from the cache, %d rendered", got)
	}

	// Change one bundle: only it is rendered again, and the change shows.
	csv := filepath.Join(refs[0], "manifests", "bar.csv.yaml")
	data, err := os.ReadFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(data), "name: bar.v0.1.0", "name: bar.v0.1.0-changed", 1)
	if changed == string(data) {
		t.Fatal("fixture changed: bar.v0.1.0 not found")
	}
	if err := os.WriteFile(csv, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	third := newCachedRenderer(t, cacheDir, opts...)
	out := renderToString(t, third, false, refs...)
	if got := third.Rendered(); got != 1 {
		t.Errorf("one bundle changed: want 1 bundle rendered, got %d", got)
	}
	if !strings.Contains(out, "bar.v0.1.0-changed") {
		t.Errorf("the changed bundle was served stale from the cache")
	}

	// Another image reference template is another key.
	fourth := newCachedRenderer(t, cacheDir, WithImageRefTemplate("other/{{.Name}}"))
	renderToString(t, fourth, false, refs...)
	if got := fourth.Rendered(); got != 11 {
		t.Errorf("new image template: want 11 bundles rendered, got %d", got)
	}
}

func TestRenderCacheCorruptedEntries(t *testing.T) {
	refs := copyGoldenBundles(t)[:3]
	cacheDir := t.TempDir()
	want := renderToString(t, newCachedRenderer(t, cacheDir), false, refs...)

	var entries []string
	err := filepath.WalkDir(cacheDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			entries = append(entries, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 3 {
		t.Fatalf("want 3 cache entries, found %d", len(entries))
	}
	corrupt := []func([]byte) []byte{
		func(b []byte) []byte { return b[:len(b)/2] },                                        // truncated
		func(b []byte) []byte { c := append([]byte(nil), b...); c[len(c)-5] ^= 1; return c }, // bit flip
		func([]byte) []byte { return nil },                                                   // empty
	}
	for i, p := range entries {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, corrupt[i](data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := newCachedRenderer(t, cacheDir)
	if diff := cmp.Diff(want, renderToString(t, r, false, refs...)); diff != "" {
		t.Errorf("render with a corrupted cache differs (-want +got):\n%s", diff)
	}
	if got := r.Rendered(); got != 3 {
		t.Errorf("corrupted entries must be rendered again: want 3, got %d", got)
	}
	again := newCachedRenderer(t, cacheDir)
	renderToString(t, again, false, refs...)
	if got := again.Rendered(); got != 0 {
		t.Errorf("rewritten entries must hit: %d rendered", got)
	}
}

// fakeImages serves bundle folders as images: ref → folder, digest and labels; it counts unpacks.
type fakeImages struct {
	dirs    map[string]string
	digests map[string]string
	labels  map[string]map[string]string
	unpacks atomic.Int64
}

func (f *fakeImages) Inspect(_ context.Context, ref string) (ImageInfo, error) {
	if _, ok := f.dirs[ref]; !ok {
		return ImageInfo{}, fmt.Errorf("pulling %s: not found", ref)
	}
	labels := f.labels[ref]
	if labels == nil {
		labels = map[string]string{LabelBundlePackage: "x"}
	}
	return ImageInfo{Digest: f.digests[ref], Labels: labels}, nil
}

func (f *fakeImages) Unpack(_ context.Context, ref, dir string) error {
	f.unpacks.Add(1)
	return os.CopyFS(dir, os.DirFS(f.dirs[ref]))
}

func TestRenderBundleImagesCachedByDigest(t *testing.T) {
	imgs := &fakeImages{dirs: map[string]string{}, digests: map[string]string{}}
	var refs []string
	for _, n := range renderBundleNames(t)[:4] {
		ref := "quay.io/example/" + n + ":latest"
		imgs.dirs[ref] = filepath.Join(renderBundlesDir, n)
		imgs.digests[ref] = "sha256:" + strings.Repeat("a", 60) + fmt.Sprintf("%04d", len(refs))
		refs = append(refs, ref)
	}
	cacheDir := t.TempDir()
	first := newCachedRenderer(t, cacheDir, WithImageSource(imgs))
	cfg, err := first.Render(context.Background(), refs...)
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range cfg.Bundles {
		if b.Image != refs[i] {
			t.Errorf("bundle %s: image %q, want the reference %q", b.Name, b.Image, refs[i])
		}
	}
	if imgs.unpacks.Load() != 4 || first.Rendered() != 4 {
		t.Fatalf("first render: %d unpacks, %d rendered; want 4 and 4", imgs.unpacks.Load(), first.Rendered())
	}
	imgs.digests[refs[2]] = "sha256:" + strings.Repeat("b", 64)
	second := newCachedRenderer(t, cacheDir, WithImageSource(imgs))
	if _, err := second.Render(context.Background(), refs...); err != nil {
		t.Fatal(err)
	}
	if imgs.unpacks.Load() != 5 || second.Rendered() != 1 {
		t.Errorf("one digest changed: %d unpacks in total, %d rendered; want 5 and 1", imgs.unpacks.Load(), second.Rendered())
	}
}

func TestRenderImageKinds(t *testing.T) {
	imgs := &fakeImages{
		dirs: map[string]string{"catalog:1": "../../testdata/opm", "nolabels:1": ".", "other:1": ".", "sqlite:1": "."},
		labels: map[string]map[string]string{
			"catalog:1":  {LabelConfigsLocation: "/does-not-exist"},
			"nolabels:1": {},
			"other:1":    {"b": "2", "a": "1"},
			"sqlite:1":   {LabelDBLocation: "/database/index.db"},
		},
	}
	tests := []struct {
		ref  string
		opts []RenderOption
		want string
	}{
		{"nolabels:1", nil, "image type could not be determined: image has no labels"},
		{"other:1", nil, "image type could not be determined, found labels\n  a=1\n  b=2"},
		{"sqlite:1", nil, "sqlite catalog images are not supported"},
		{"catalog:1", []RenderOption{WithAllowedRefs(RefBundleImage)}, "cannot render declarative config image: not allowed"},
		{"catalog:1", nil, "does-not-exist"},
		{"missing:1", nil, "pulling missing:1: not found"},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			r, err := NewRenderer(append([]RenderOption{WithImageSource(imgs)}, tt.opts...)...)
			if err != nil {
				t.Fatal(err)
			}
			_, err = r.Render(context.Background(), tt.ref)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("want an error containing %q, got %v", tt.want, err)
			}
		})
	}
}

// BenchmarkRenderBundleDirs renders the 11 golden bundles without a cache, with a cold
// cache (render and store) and with a warm one (hash and load only).
func BenchmarkRenderBundleDirs(b *testing.B) {
	names, err := os.ReadDir(renderBundlesDir)
	if err != nil {
		b.Fatal(err)
	}
	var refs []string
	for _, n := range names {
		refs = append(refs, filepath.Join(renderBundlesDir, n.Name()))
	}
	run := func(b *testing.B, cacheDir func() string) {
		for b.Loop() {
			opts := []RenderOption{WithImageRefTemplate(goldenImageRefTpl)}
			if cacheDir != nil {
				c, err := NewRenderCache(cacheDir())
				if err != nil {
					b.Fatal(err)
				}
				opts = append(opts, WithRenderCache(c))
			}
			r, err := NewRenderer(opts...)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := r.Render(context.Background(), refs...); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("no-cache", func(b *testing.B) { run(b, nil) })
	b.Run("cold-cache", func(b *testing.B) { run(b, func() string { return b.TempDir() }) })
	warm := b.TempDir()
	b.Run("warm-cache", func(b *testing.B) { run(b, func() string { return warm }) })
}
