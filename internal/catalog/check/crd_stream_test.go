package check

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/finding"
)

// TestCRDStreamSameAsWhole checks that the CRD checks run file by file as a catalog loads
// (catalogStream) find what the checks on the whole loaded catalog find: for a package in one file
// (checked from that file) and for a package spread over several files (checked again on the
// reloaded catalog).
func TestCRDStreamSameAsWhole(t *testing.T) {
	ctx := context.Background()
	v323 := kcBundle(t, filepath.Join(bundlesDir, "kubecost-operator.v3.2.3"))
	v324 := kcBundle(t, filepath.Join(bundlesDir, "kubecost-operator.v3.2.4"))
	v330 := kcBundle(t, derive(t, "kubecost-operator.v3.2.4", "3.3.0", addV2Storage))
	v340 := kcBundle(t, derive(t, "kubecost-operator.v3.2.4", "3.4.0", renameVersion))
	v350 := kcBundle(t, derive(t, "kubecost-operator.v3.2.4", "3.5.0", specToString))
	e := func(name, replaces, skipRange string) fbc.ChannelEntry {
		return fbc.ChannelEntry{Name: kc + ".v" + name, Replaces: replaces, SkipRange: skipRange}
	}
	cfg := catalogOf(kc, []fbc.Bundle{v323, v324, v330, v340, v350},
		e("3.2.3", "", ""), e("3.2.4", kc+".v3.2.3", ""), e("3.3.0", kc+".v3.2.4", ""),
		e("3.4.0", kc+".v3.3.0", ""), e("3.5.0", kc+".v3.4.0", ">=3.2.0 <3.5.0"))
	other := catalogOf("other-operator", []fbc.Bundle{rename(v323, "other-operator"), rename(v350, "other-operator")},
		fbc.ChannelEntry{Name: "other-operator.v3.2.3"}, fbc.ChannelEntry{Name: "other-operator.v3.5.0", Replaces: "other-operator.v3.2.3"})

	tests := []struct {
		name  string
		files map[string]*fbc.DeclarativeConfig
	}{
		{name: "one file per package", files: map[string]*fbc.DeclarativeConfig{
			kc + "/catalog.yaml": cfg, "other-operator/catalog.yaml": other}},
		{name: "a package spread over two files", files: map[string]*fbc.DeclarativeConfig{
			kc + "/package.yaml":          {Packages: cfg.Packages, Channels: cfg.Channels},
			kc + "/bundles.yaml":          {Bundles: cfg.Bundles},
			"other-operator/catalog.yaml": other}},
		{name: "two packages in one file", files: map[string]*fbc.DeclarativeConfig{
			"all.yaml": merged(cfg, other)}},
		{name: "a package without bundle objects", files: map[string]*fbc.DeclarativeConfig{
			kc + "/catalog.yaml": cfg, "other-operator/catalog.yaml": withoutObjects(other)}},
		{name: "a package spread over a file with objects and one without", files: map[string]*fbc.DeclarativeConfig{
			kc + "/package.yaml":          {Packages: cfg.Packages, Channels: cfg.Channels, Bundles: withoutObjects(cfg).Bundles[:2]},
			kc + "/bundles.yaml":          {Bundles: cfg.Bundles[2:]},
			"other-operator/catalog.yaml": withoutObjects(other)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, c := range tc.files {
				writeCatalogFile(t, filepath.Join(dir, name), c)
			}
			got, err := ValidateDir(ctx, dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := validateWhole(t, dir)
			if diff := cmp.Diff(withoutFiles(want.Findings), withoutFiles(got.Findings)); diff != "" {
				t.Errorf("file by file (-whole +streamed):\n%s", diff)
			}
			if len(errorsOf(got, "")) == 0 {
				t.Errorf("the catalog has unsafe edges, no error found:\n%s", findingsText(got.Findings))
			}
		})
	}
}

// TestCorpusCRDStreamSameAsWhole is TestCRDStreamSameAsWhole on certified-operators-v4.14-partial
// (40 packages with embedded objects, 168 errors and 343 warnings).
func TestCorpusCRDStreamSameAsWhole(t *testing.T) {
	dir := filepath.Join(filepath.Dir(corpusDir(t)), "certified-operators-v4.14-partial")
	got, err := ValidateDir(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := validateWhole(t, dir)
	if diff := cmp.Diff(withoutFiles(want.Findings), withoutFiles(got.Findings)); diff != "" {
		t.Errorf("file by file (-whole +streamed):\n%s", diff)
	}
}

// validateWhole loads the whole catalog, objects included, then validates it.
func validateWhole(t *testing.T, dir string) *finding.Report {
	t.Helper()
	cfg, err := fbc.LoadDir(context.Background(), dir, fbc.WithoutPropertyValues(fbc.TypeCSVMetadata, fbc.TypeBundleObject))
	if err != nil {
		t.Fatal(err)
	}
	return Validate(context.Background(), cfg)
}

// withoutFiles drops the files of findings (the whole-catalog path does not record them).
func withoutFiles(fs []finding.Finding) []finding.Finding {
	out := make([]finding.Finding, len(fs))
	for i, f := range fs {
		f.File = ""
		out[i] = f
	}
	finding.SortFindings(out)
	return out
}

func rename(b fbc.Bundle, pkg string) fbc.Bundle {
	b.Package = pkg
	b.Name = pkg + b.Name[len(kc):]
	props := make([]fbc.Property, len(b.Properties))
	copy(props, b.Properties)
	for i, p := range props {
		if p.Type == fbc.TypePackage {
			props[i] = fbc.NewPackageProperty(pkg, b.Name[len(pkg)+2:])
		}
	}
	b.Properties = props
	return b
}

// withoutObjects is cfg with its bundles' olm.bundle.object properties removed.
func withoutObjects(cfg *fbc.DeclarativeConfig) *fbc.DeclarativeConfig {
	out := *cfg
	out.Bundles = nil
	for _, b := range cfg.Bundles {
		var props []fbc.Property
		for _, p := range b.Properties {
			if p.Type != fbc.TypeBundleObject {
				props = append(props, p)
			}
		}
		b.Properties, b.Objects, b.CsvJSON = props, nil, ""
		out.Bundles = append(out.Bundles, b)
	}
	return &out
}

func merged(cfgs ...*fbc.DeclarativeConfig) *fbc.DeclarativeConfig {
	out := &fbc.DeclarativeConfig{}
	for _, c := range cfgs {
		out.Packages = append(out.Packages, c.Packages...)
		out.Channels = append(out.Channels, c.Channels...)
		out.Bundles = append(out.Bundles, c.Bundles...)
	}
	return out
}

func writeCatalogFile(t *testing.T, path string, cfg *fbc.DeclarativeConfig) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := fbc.WriteYAML(*cfg, f); err != nil {
		t.Fatal(err)
	}
}
