package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opack/opack/internal/catalog/internal/catalogtest"
	"github.com/opack/opack/internal/image"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/fbc"
)

// copyGoldenBundles copies the 11 golden bundles into a fresh folder and returns their paths.
func copyGoldenBundles(t *testing.T) []string {
	t.Helper()
	root := t.TempDir()
	var refs []string
	for _, n := range renderBundleNames(t) {
		dst := filepath.Join(root, n)
		catalogtest.CopyTree(t, filepath.Join(renderBundlesDir, n), dst)
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

// settledCache is a renderer whose cache clock runs an hour ahead: every file looks old enough
// for the stat index to vouch for it (nothing is racily clean), as on a machine where the
// bundles were written a while before they are rendered.
func settledCache(t *testing.T, cacheDir string, opts ...RenderOption) *Renderer {
	t.Helper()
	r := newCachedRenderer(t, cacheDir, opts...)
	r.cache.now = func() time.Time { return time.Now().Add(time.Hour) }
	return r
}

// renderToText renders refs with RenderTo.
func renderToText(t *testing.T, r *Renderer, format string, refs ...string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := r.RenderTo(context.Background(), &buf, format, refs...); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestRenderCacheBundleDirs(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			refs := copyGoldenBundles(t)
			cacheDir := t.TempDir()
			opts := []RenderOption{WithImageRefTemplate(goldenImageRefTpl)}
			render := func(r *Renderer) string {
				if stream {
					return renderToText(t, r, "json", refs...)
				}
				return catalogtest.RenderToString(t, r, false, refs...)
			}
			first := newCachedRenderer(t, cacheDir, opts...)
			want := render(first)
			if got := first.Rendered(); got != 11 {
				t.Fatalf("first render: want 11 bundles rendered, got %d", got)
			}

			second := newCachedRenderer(t, cacheDir, opts...)
			if diff := cmp.Diff(want, render(second)); diff != "" {
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
			out := render(third)
			if got := third.Rendered(); got != 1 {
				t.Errorf("one bundle changed: want 1 bundle rendered, got %d", got)
			}
			if !strings.Contains(out, "bar.v0.1.0-changed") {
				t.Errorf("the changed bundle was served stale from the cache")
			}

			// Another image reference template is another key.
			fourth := newCachedRenderer(t, cacheDir, WithImageRefTemplate("other/{{.Name}}"))
			render(fourth)
			if got := fourth.Rendered(); got != 11 {
				t.Errorf("new image template: want 11 bundles rendered, got %d", got)
			}
		})
	}
}

// TestRenderCacheModel: a bundle served from the cache is the bundle rendered, CsvJSON and
// Objects included (templates and migrations read them).
func TestRenderCacheModel(t *testing.T) {
	refs := copyGoldenBundles(t)
	fresh, err := newCachedRenderer(t, t.TempDir()).Render(context.Background(), refs...)
	if err != nil {
		t.Fatal(err)
	}
	cacheDir := t.TempDir()
	for range 2 {
		if _, err := newCachedRenderer(t, cacheDir).Render(context.Background(), refs...); err != nil {
			t.Fatal(err)
		}
	}
	r := newCachedRenderer(t, cacheDir)
	cached, err := r.Render(context.Background(), refs...)
	if err != nil {
		t.Fatal(err)
	}
	if r.Rendered() != 0 {
		t.Fatalf("want every bundle from the cache, %d rendered", r.Rendered())
	}
	if diff := cmp.Diff(fresh, cached); diff != "" {
		t.Errorf("cached bundles differ (-rendered +cached):\n%s", diff)
	}
}

// entryFiles lists the entries of a cache (not its stat index).
func entryFiles(t *testing.T, cacheDir string) []string {
	t.Helper()
	var entries []string
	err := filepath.WalkDir(cacheDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, entryExt) {
			entries = append(entries, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

func TestRenderCacheCorruptedEntries(t *testing.T) {
	flip := func(at func(e *cacheEntry, size int) int) func(*cacheEntry, []byte) []byte {
		return func(e *cacheEntry, b []byte) []byte {
			c := append([]byte(nil), b...)
			c[at(e, len(b))] ^= 1
			return c
		}
	}
	corruptions := []struct {
		name    string
		corrupt func(e *cacheEntry, b []byte) []byte
	}{
		{"truncated", func(_ *cacheEntry, b []byte) []byte { return b[:len(b)/2] }},
		{"empty", func(*cacheEntry, []byte) []byte { return nil }},
		{"header bit flip", flip(func(*cacheEntry, int) int { return entryPrefixLen + 2 })},
		{"output bit flip", flip(func(e *cacheEntry, _ int) int { return int(e.outOff + e.outLen/2) })},
		{"model bit flip", flip(func(_ *cacheEntry, size int) int { return size - 5 })},
		{"appended byte", func(_ *cacheEntry, b []byte) []byte { return append(append([]byte(nil), b...), '\n') }},
	}
	for _, format := range []string{"", "json", "yaml"} { // "": Render, the model path
		t.Run("format="+format, func(t *testing.T) {
			refs := copyGoldenBundles(t)[:len(corruptions)]
			cacheDir := t.TempDir()
			render := func(r *Renderer) string {
				if format == "" {
					return catalogtest.RenderToString(t, r, false, refs...)
				}
				return renderToText(t, r, format, refs...)
			}
			want := render(newCachedRenderer(t, cacheDir))
			if r := newCachedRenderer(t, cacheDir); render(r) != want || r.Rendered() != 0 {
				t.Fatalf("warm cache: %d rendered, or the output differs", r.Rendered())
			}
			c, err := NewRenderCache(cacheDir)
			if err != nil {
				t.Fatal(err)
			}
			// The entries read by this format: the bundle entries, plus the YAML ones for yaml.
			var targets []string
			for _, ref := range refs {
				key := cacheKey("dir", mustHash(t, c, ref), "")
				if format == "" {
					targets = append(targets, c.path(key))
				} else {
					targets = append(targets, c.path(viewKey(key, format, 0)))
				}
			}
			originals := make([][]byte, len(targets))
			for i, p := range targets {
				e, err := c.header(strings.TrimSuffix(filepath.Base(p), entryExt))
				if err != nil {
					t.Fatal(err)
				}
				if originals[i], err = os.ReadFile(p); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, corruptions[i].corrupt(e, originals[i]), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r := newCachedRenderer(t, cacheDir)
			if diff := cmp.Diff(want, render(r)); diff != "" {
				t.Errorf("render with corrupted entries differs (-want +got):\n%s", diff)
			}
			// A corrupted entry is a miss and is written again. A section is checked when it is
			// read: the model path does not read the output, the JSON stream not the model.
			for i, p := range targets {
				name := corruptions[i].name
				unread := (format == "" && name == "output bit flip") || (format == "json" && name == "model bit flip")
				got, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if rewritten := bytes.Equal(got, originals[i]); rewritten == unread {
					t.Errorf("%s: entry rewritten = %v, want %v", name, rewritten, !unread)
				}
			}
			again := newCachedRenderer(t, cacheDir)
			if diff := cmp.Diff(want, render(again)); diff != "" {
				t.Errorf("render after the repair differs (-want +got):\n%s", diff)
			}
			if got := again.Rendered(); got != 0 {
				t.Errorf("rewritten entries must hit: %d rendered", got)
			}
		})
	}
}

func mustHash(t *testing.T, c *RenderCache, dir string) string {
	t.Helper()
	h, err := c.hashBundleDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// fakeImages serves bundle folders as images: ref → folder, digest and labels; it counts unpacks.
type fakeImages struct {
	dirs    map[string]string
	digests map[string]string
	labels  map[string]map[string]string
	unpacks atomic.Int64
}

func (f *fakeImages) Inspect(_ context.Context, ref string) (*image.Report, error) {
	if _, ok := f.dirs[ref]; !ok {
		return nil, fmt.Errorf("pulling %s: not found", ref)
	}
	labels := f.labels[ref]
	if labels == nil {
		labels = map[string]string{labelBundlePackage: "x"}
	}
	return &image.Report{Ref: ref, Digest: f.digests[ref], Images: []image.ImageReport{{Labels: labels}}}, nil
}

func (f *fakeImages) Attachments(context.Context, string, string) (*image.Attachments, error) {
	return nil, errors.New("not used")
}

func (f *fakeImages) Unpack(_ context.Context, ref, dir string) (*image.Unpacked, error) {
	f.unpacks.Add(1)
	return &image.Unpacked{Ref: ref}, os.CopyFS(dir, os.DirFS(f.dirs[ref]))
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
	first := newCachedRenderer(t, cacheDir, WithPuller(imgs))
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
	second := newCachedRenderer(t, cacheDir, WithPuller(imgs))
	var want bytes.Buffer
	if err := fbc.Write(*cfg, "json", &want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.String(), renderToText(t, second, "json", refs...)); diff != "" {
		t.Errorf("streamed images differ (-Render +RenderTo):\n%s", diff)
	}
	if imgs.unpacks.Load() != 5 || second.Rendered() != 1 {
		t.Errorf("one digest changed: %d unpacks in total, %d rendered; want 5 and 1", imgs.unpacks.Load(), second.Rendered())
	}
}

func TestRenderImageKinds(t *testing.T) {
	imgs := &fakeImages{
		dirs: map[string]string{"catalog:1": "../../../testdata/opm", "nolabels:1": ".", "other:1": ".", "sqlite:1": "."},
		labels: map[string]map[string]string{
			"catalog:1":  {labelConfigsLocation: "/does-not-exist"},
			"nolabels:1": {},
			"other:1":    {"b": "2", "a": "1"},
			"sqlite:1":   {labelDBLocation: "/database/index.db"},
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
			r, err := NewRenderer(append([]RenderOption{WithPuller(imgs)}, tt.opts...)...)
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
