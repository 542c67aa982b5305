package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opack/opack/internal/catalog/internal/catalogtest"

	"github.com/google/go-cmp/cmp"
)

func renderToTextErr(r *Renderer, format string, refs ...string) (string, error) {
	var buf bytes.Buffer
	err := r.RenderTo(context.Background(), &buf, format, refs...)
	return buf.String(), err
}

// writeRendered is the reference RenderTo must match: Write over what Render returns.
func writeRendered(t *testing.T, format string, opts []RenderOption, refs ...string) string {
	t.Helper()
	r, err := NewRenderer(opts...)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := r.Render(context.Background(), refs...)
	if err != nil {
		t.Fatal(err)
	}
	return catalogtest.WriteString(t, cfg, format)
}

// TestRenderToMatchesWrite: RenderTo writes what Write writes for Render's result, for every
// kind of reference, format and migration level, without a cache, with a cold one and a warm one.
func TestRenderToMatchesWrite(t *testing.T) {
	bundles := copyGoldenBundles(t)
	sets := map[string][]string{
		"bundle folders":             bundles,
		"bundle folders, reversed":   reversed(bundles),
		"the same bundle twice":      {bundles[3], bundles[0], bundles[3]},
		"package manifests":          {"../../../testdata/opm/bundles-etcd-lib"},
		"file-based catalogs":        {"../../../testdata/opm/fbc-dir-example", "../../../testdata/opm/fbc-list-index"},
		"catalog, bundles, packages": {"../../../testdata/opm/fbc-e2e-prometheus", bundles[5], "../../../testdata/opm/bundles-etcd-lib", bundles[1]},
	}
	levels := []struct {
		name string
		opts []RenderOption
	}{
		{"no migrations", []RenderOption{WithImageRefTemplate(goldenImageRefTpl)}},
		{"csv metadata", []RenderOption{WithImageRefTemplate(goldenImageRefTpl), WithMigrateLevel(migrateBundleObjectToCSVMetadata)}},
		{"no image", nil},
	}
	for name, refs := range sets {
		for _, level := range levels {
			for _, format := range []string{"json", "yaml"} {
				t.Run(fmt.Sprintf("%s/%s/%s", name, level.name, format), func(t *testing.T) {
					want := writeRendered(t, format, level.opts, refs...)
					r, err := NewRenderer(level.opts...)
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(want, renderToText(t, r, format, refs...)); diff != "" {
						t.Errorf("no cache (-Write +RenderTo):\n%s", diff)
					}
					cacheDir := t.TempDir()
					for _, run := range []string{"cold cache", "warm cache"} {
						r := newCachedRenderer(t, cacheDir, level.opts...)
						if diff := cmp.Diff(want, renderToText(t, r, format, refs...)); diff != "" {
							t.Errorf("%s (-Write +RenderTo):\n%s", run, diff)
						}
						if run == "warm cache" && r.Rendered() != 0 {
							t.Errorf("warm cache: %d bundles rendered, want 0", r.Rendered())
						}
					}
					// Another format or level of a cached bundle comes from its stored model.
					other := newCachedRenderer(t, cacheDir)
					renderToText(t, other, map[string]string{"json": "yaml", "yaml": "json"}[format], refs...)
				})
			}
		}
	}
}

func reversed(in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[len(in)-1-i] = s
	}
	return out
}

// TestRenderToGolden: RenderTo of the golden catalogs is what opm render wrote.
func TestRenderToGolden(t *testing.T) {
	expectedRoot := "../../../testdata/opm/fbc-expected"
	cases, err := os.ReadDir(expectedRoot)
	if err != nil {
		t.Fatal(err)
	}
	r := newCachedRenderer(t, t.TempDir())
	for _, c := range cases {
		input := filepath.Join("../../../testdata/opm", strings.Replace(c.Name(), "_", "/", 1))
		for _, format := range []string{"json", "yaml"} {
			t.Run(c.Name()+"/"+format, func(t *testing.T) {
				want := catalogtest.ReadFile(t, filepath.Join(expectedRoot, c.Name(), "render."+format))
				if diff := cmp.Diff(want, renderToText(t, r, format, input)); diff != "" {
					t.Errorf("render differs from opm (-opm +opack):\n%s", diff)
				}
			})
		}
	}
	for _, name := range renderBundleNames(t) {
		t.Run(name, func(t *testing.T) {
			want := catalogtest.ReadFile(t, filepath.Join(renderExpectedDir, name, "expected.json"))
			for run := range 2 { // cold, then warm
				r := newCachedRenderer(t, filepath.Join(t.TempDir(), fmt.Sprint(run)), WithImageRefTemplate(goldenImageRefTpl))
				if diff := cmp.Diff(want, renderToText(t, r, "json", filepath.Join(renderBundlesDir, name))); diff != "" {
					t.Errorf("render differs from opm (-opm +opack):\n%s", diff)
				}
			}
		})
	}
}

// TestRenderToOrder: the output does not depend on parallelism or on which bundles were cached,
// and bundles with the same package and name keep the order of their references (as Write's
// stable sort keeps Render's order).
func TestRenderToOrder(t *testing.T) {
	bundles := copyGoldenBundles(t)
	// A second bar.v0.1.0 with other content: same sort key, told apart by its related image.
	twin := filepath.Join(t.TempDir(), "bar-twin")
	catalogtest.CopyTree(t, bundles[0], twin)
	csv := filepath.Join(twin, "manifests", "bar.csv.yaml")
	data := catalogtest.ReadFile(t, csv)
	changed := strings.Replace(data, "image: test.registry/bar-operator/bar:v0.1.0", "image: example.com/twin:1", 1)
	if changed == data {
		t.Fatal("fixture changed: no related image in bar.csv.yaml")
	}
	if err := os.WriteFile(csv, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	orders := [][]string{
		append([]string{twin}, bundles...),
		append(append([]string(nil), bundles...), twin),
		append([]string{bundles[4], twin}, reversed(bundles)...),
	}
	for i, refs := range orders {
		want := writeRendered(t, "json", nil, refs...)
		if !strings.Contains(want, "example.com/twin:1") {
			t.Fatal("the twin bundle is not in the output")
		}
		cacheDir := t.TempDir()
		for _, workers := range []int{1, 2, 7} {
			for run := range 2 {
				r := newCachedRenderer(t, cacheDir, withParallelism(workers))
				if diff := cmp.Diff(want, renderToText(t, r, "json", refs...)); diff != "" {
					t.Errorf("order %d, %d workers, run %d (-Write +RenderTo):\n%s", i, workers, run, diff)
				}
			}
		}
	}
	first, last := writeRendered(t, "json", nil, orders[0]...), writeRendered(t, "json", nil, orders[1]...)
	if first == last {
		t.Error("the twins' order does not show in the output: the test cannot see a wrong order")
	}
}

// TestRenderToErrors: a failing reference is reported as Render reports it, and nothing is written.
func TestRenderToErrors(t *testing.T) {
	good := filepath.Join(renderBundlesDir, "foo-bundle-v0.3.1")
	noCSV := filepath.Join(t.TempDir(), "no-csv")
	catalogtest.CopyTree(t, good, noCSV)
	if err := os.Remove(filepath.Join(noCSV, "manifests", "foo.csv.yaml")); err != nil {
		t.Fatal(err)
	}
	for _, refs := range [][]string{{good, noCSV}, {noCSV, good}, {good, "does-not-exist"}} {
		r, err := NewRenderer()
		if err != nil {
			t.Fatal(err)
		}
		_, want := r.Render(context.Background(), refs...)
		out, got := renderToTextErr(newCachedRenderer(t, t.TempDir()), "json", refs...)
		if want == nil || got == nil || got.Error() != want.Error() {
			t.Errorf("%v: error %v, want %v", refs, got, want)
		}
		if out != "" {
			t.Errorf("%v: %d bytes written before the error", refs, len(out))
		}
	}
	r, err := NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := renderToTextErr(r, "xml", good); err == nil || !strings.Contains(err.Error(), `unknown output format "xml"`) {
		t.Errorf("format xml: %v", err)
	}
	if err := r.RenderTo(context.Background(), failingWriter{}, "json", good); !errors.Is(err, errWriteFailed) {
		t.Errorf("failing writer: %v", err)
	}
}

var errWriteFailed = errors.New("disk full")

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errWriteFailed }
