package check

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/opack/opack/internal/catalog/internal/catalogtest"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/fbc"
)

// renderPostProcess is what opm render does to a loaded FBC before writing it (internal/catalog/render
// renders; only this part matters for comparing the loader and writers with opm render):
// olm.bundle.object and olm.csv.metadata properties move last, relatedImages sort by image.
func renderPostProcess(cfg fbc.DeclarativeConfig) fbc.DeclarativeConfig {
	bundles := make([]fbc.Bundle, len(cfg.Bundles))
	for i, b := range cfg.Bundles {
		var head, tail []fbc.Property
		for _, p := range b.Properties {
			if p.Type == fbc.TypeBundleObject || p.Type == fbc.TypeCSVMetadata {
				tail = append(tail, p)
			} else {
				head = append(head, p)
			}
		}
		b.Properties = append(head, tail...)
		b.RelatedImages = append([]fbc.RelatedImage(nil), b.RelatedImages...)
		sort.SliceStable(b.RelatedImages, func(i, j int) bool { return b.RelatedImages[i].Image < b.RelatedImages[j].Image })
		bundles[i] = b
	}
	cfg.Bundles = bundles
	return cfg
}

func mermaidString(t *testing.T, cfg *fbc.DeclarativeConfig, o graph.GraphOptions) string {
	t.Helper()
	var buf bytes.Buffer
	if err := graph.WriteMermaid(cfg, &buf, o); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestFBCGoldens loads each golden FBC folder and compares with what opm produced: validate's
// pass/fail, render -o json|yaml (load + write) and render-graph with and without v0 semantics.
func TestFBCGoldens(t *testing.T) {
	inputs := map[string]string{
		"fbc-dir-example":                        "fbc-dir-example",
		"fbc-e2e-prometheus":                     "fbc-e2e-prometheus",
		"fbc-foo-index-v0.2.0":                   "fbc-foo-index-v0.2.0",
		"fbc-list-index":                         "fbc-list-index",
		"fbc-index-declcfgs_exp-headsonly":       "fbc-index-declcfgs/exp-headsonly",
		"fbc-index-declcfgs_exp-include-channel": "fbc-index-declcfgs/exp-include-channel",
		"fbc-index-declcfgs_exp-include-pkg":     "fbc-index-declcfgs/exp-include-pkg",
		"fbc-index-declcfgs_exp-latest":          "fbc-index-declcfgs/exp-latest",
		"fbc-index-declcfgs_latest":              "fbc-index-declcfgs/latest",
		"fbc-index-declcfgs_old":                 "fbc-index-declcfgs/old",
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			exp := filepath.Join(opmTestdata, "fbc-expected", name)
			dir := filepath.Join(opmTestdata, in)
			r, err := ValidateDir(context.Background(), dir, nil, WithChecks(CheckOPM))
			if err != nil {
				t.Fatal(err)
			}
			wantRC := strings.TrimSpace(catalogtest.ReadFile(t, filepath.Join(exp, "validate-rc.txt")))
			if got := "rc=" + map[bool]string{true: "0", false: "1"}[r.Passed()]; got != wantRC {
				t.Fatalf("validate: got %s, want %s:\n%s", got, wantRC, text(r))
			}
			if !r.Passed() {
				var out struct{ Error struct{ Message string } }
				if err := json.Unmarshal([]byte(catalogtest.ReadFile(t, filepath.Join(exp, "validate-output.json"))), &out); err != nil {
					t.Fatal(err)
				}
				if !hasMessage(r, out.Error.Message) {
					t.Errorf("missing opm message %q in:\n%s", out.Error.Message, text(r))
				}
			}
			cfg := catalogtest.LoadDir(t, dir)
			rendered := renderPostProcess(*cfg)
			for _, f := range []string{"json", "yaml"} {
				if diff := cmp.Diff(catalogtest.ReadFile(t, filepath.Join(exp, "render."+f)), catalogtest.WriteString(t, &rendered, f)); diff != "" {
					t.Errorf("render -o %s (-want +got):\n%s", f, diff)
				}
			}
			if diff := cmp.Diff(catalogtest.ReadFile(t, filepath.Join(exp, "render-graph.mmd")), mermaidString(t, cfg, graph.GraphOptions{})); diff != "" {
				t.Errorf("render-graph (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(catalogtest.ReadFile(t, filepath.Join(exp, "render-graph-v0.mmd")), mermaidString(t, cfg, graph.GraphOptions{DrawV0Semantics: true})); diff != "" {
				t.Errorf("render-graph --draw-v0-semantics (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDeclcfgWrite compares the writers with opm's on declcfg's test config.
func TestDeclcfgWrite(t *testing.T) {
	root := filepath.Join(opmTestdata, "declcfg-write")
	cfg := catalogtest.LoadDir(t, filepath.Join(root, "input"))
	cases := []struct {
		file string
		got  func() string
	}{
		{"expected.json", func() string { return catalogtest.WriteString(t, cfg, "json") }},
		{"expected.yaml", func() string { return catalogtest.WriteString(t, cfg, "yaml") }},
		{"expected-mermaid.txt", func() string { return mermaidString(t, cfg, graph.GraphOptions{DrawV0Semantics: true}) }},
		{"expected-mermaid-no-v0-semantics.txt", func() string { return mermaidString(t, cfg, graph.GraphOptions{}) }},
		{"expected-mermaid-package-boba-fett.txt", func() string {
			return mermaidString(t, cfg, graph.GraphOptions{DrawV0Semantics: true, Package: "boba-fett"})
		}},
		{"expected-mermaid-min-edge-anakin.v0.1.0.txt", func() string {
			return mermaidString(t, cfg, graph.GraphOptions{DrawV0Semantics: true, MinEdge: "anakin.v0.1.0"})
		}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			if diff := cmp.Diff(catalogtest.ReadFile(t, filepath.Join(root, c.file)), c.got()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("expected-writefs-json", func(t *testing.T) {
		out := t.TempDir()
		if err := fbc.WriteDir(*cfg, out, "json"); err != nil {
			t.Fatal(err)
		}
		want := filepath.Join(root, "expected-writefs-json")
		for _, f := range []string{"catalog.json", "anakin/catalog.json", "boba-fett/catalog.json"} {
			if diff := cmp.Diff(catalogtest.ReadFile(t, filepath.Join(want, f)), catalogtest.ReadFile(t, filepath.Join(out, f))); diff != "" {
				t.Errorf("%s (-want +got):\n%s", f, diff)
			}
		}
	})
}

// TestDeclcfgLoad covers opm's loader cases: .indexignore, unknown schemas, deprecations and
// five malformed files with opm's messages.
func TestDeclcfgLoad(t *testing.T) {
	exp := filepath.Join(opmTestdata, "declcfg-load-expected")
	t.Run("validFS", func(t *testing.T) {
		cfg := catalogtest.LoadDir(t, filepath.Join(opmTestdata, "declcfg-load-validFS"))
		if diff := cmp.Diff(catalogtest.ReadFile(t, filepath.Join(exp, "validFS.render.yaml")), catalogtest.WriteString(t, cfg, "yaml")); diff != "" {
			t.Errorf("render (-want +got):\n%s", diff)
		}
		r := Validate(context.Background(), cfg, WithChecks(CheckOPM))
		if !hasMessage(r, "config contains package with no name") {
			t.Errorf("validate: want opm's message, got:\n%s", text(r))
		}
	})
	files, err := os.ReadDir(filepath.Join(opmTestdata, "declcfg-load-invalidFS"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		t.Run(f.Name(), func(t *testing.T) {
			var out struct{ Error struct{ Message string } }
			if err := json.Unmarshal([]byte(catalogtest.ReadFile(t, filepath.Join(exp, "invalidFS-"+f.Name()+".validate.json"))), &out); err != nil {
				t.Fatal(err)
			}
			data := catalogtest.ReadFile(t, filepath.Join(opmTestdata, "declcfg-load-invalidFS", f.Name()))
			_, err := fbc.LoadReader(strings.NewReader(data), f.Name())
			var le *fbc.LoadError
			if !errors.As(err, &le) || len(le.Files) != 1 {
				t.Fatalf("want one file error, got %v", err)
			}
			if diff := cmp.Diff(out.Error.Message, le.Files[0].Err.Error()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
