package check

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/crd"
	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/manifest"

	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/fbc"
)

const bundlesDir = "../render/testdata/bundles"

// bundleFromDir makes the olm.bundle of a real bundle folder (manifests/ or a folder of
// manifests) the way opm render does in substance: olm.package, one olm.gvk per CRD version,
// olm.gvk.required per required CRD and one olm.bundle.object per manifest.
func bundleFromDir(t *testing.T, pkg, dir string) fbc.Bundle {
	t.Helper()
	root := dir
	if fi, err := os.Stat(filepath.Join(dir, "manifests")); err == nil && fi.IsDir() {
		root = filepath.Join(dir, "manifests")
	}
	docs, err := manifest.ReadTree(root)
	if err != nil {
		t.Fatal(err)
	}
	b := fbc.Bundle{Schema: fbc.SchemaBundle, Package: pkg}
	var objects, gvks []fbc.Property
	for _, d := range docs {
		u := d.Object
		data, err := json.Marshal(u.Object)
		if err != nil {
			t.Fatal(err)
		}
		objects = append(objects, fbc.NewBundleObjectProperty(data))
		switch u.GetKind() {
		case "ClusterServiceVersion":
			b.Name = u.GetName()
			v, _, _ := unstructuredString(u.Object, "spec", "version")
			b.Image = "example.com/" + pkg + "-bundle:v" + v
			b.Properties = append(b.Properties, fbc.NewPackageProperty(pkg, v))
			reqs, _ := nested(u.Object, "spec", "customresourcedefinitions", "required").([]any)
			for _, r := range reqs {
				m := r.(map[string]any)
				name, _ := m["name"].(string)
				group := name[strings.Index(name, ".")+1:]
				gvks = append(gvks, fbc.NewGVKRequiredProperty(group, m["version"].(string), m["kind"].(string)))
			}
		case "CustomResourceDefinition":
			group, _, _ := unstructuredString(u.Object, "spec", "group")
			kind, _, _ := unstructuredString(u.Object, "spec", "names", "kind")
			vs, _ := nested(u.Object, "spec", "versions").([]any)
			for _, v := range vs {
				gvks = append(gvks, fbc.NewGVKProperty(group, v.(map[string]any)["name"].(string), kind))
			}
			if v, ok, _ := unstructuredString(u.Object, "spec", "version"); ok && len(vs) == 0 {
				gvks = append(gvks, fbc.NewGVKProperty(group, v, kind))
			}
		}
	}
	b.Properties = append(append(gvks, b.Properties...), objects...)
	if b.Name == "" {
		t.Fatalf("%s: no ClusterServiceVersion", dir)
	}
	bs := []fbc.Bundle{b}
	if err := fbc.ReadBundleObjects(bs); err != nil {
		t.Fatal(err)
	}
	return bs[0]
}

func nested(obj map[string]any, path ...string) any {
	var cur any = obj
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[p]
	}
	return cur
}

func unstructuredString(obj map[string]any, path ...string) (string, bool, error) {
	s, ok := nested(obj, path...).(string)
	return s, ok, nil
}

// derive copies a bundle folder and edits it: the CSV's name and version, and the CRD file
// through edit (nil: remove the CRD and the CSV's owned entry).
func derive(t *testing.T, from, version string, edit func(crd string) string) string {
	t.Helper()
	src := filepath.Join(bundlesDir, from)
	dst := filepath.Join(t.TempDir(), "kubecost-operator.v"+version)
	files, err := manifest.Files(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		s := string(data)
		switch {
		case strings.HasSuffix(f, ".clusterserviceversion.yaml"):
			s = strings.ReplaceAll(s, "kubecost-operator.v3.2.4", "kubecost-operator.v"+version)
			s = strings.ReplaceAll(s, "version: 3.2.4", "version: "+version)
			if edit == nil {
				s = strings.Replace(s, "    owned:\n      - kind: Kubecost\n        name: kubecosts.charts.kubecost.com\n        version: v1\n", "    owned: []\n", 1)
			}
		case strings.HasSuffix(f, "charts.kubecost.com_kubecosts.yaml"):
			if edit == nil {
				continue
			}
			s = edit(s)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, f), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// CRD edits of the kubecost CRD (one version v1, storage).
func renameVersion(crd string) string {
	return strings.Replace(crd, "  - name: v1\n", "  - name: v2\n", 1)
}

func addV2Storage(crd string) string {
	i, j := strings.Index(crd, "  - name: v1\n"), strings.Index(crd, "\nstatus:\n")+1
	v1 := strings.Replace(crd[i:j], "storage: true", "storage: false", 1)
	v2 := strings.Replace(crd[i:j], "  - name: v1\n", "  - name: v2\n", 1)
	return crd[:i] + v1 + v2 + crd[j:]
}

func specToString(crd string) string {
	return strings.Replace(crd, "            description: Spec defines the desired state of Kubecost\n            type: object\n            x-kubernetes-preserve-unknown-fields: true\n",
		"            description: Spec defines the desired state of Kubecost\n            type: string\n", 1)
}

// catalogOf builds a one-package catalog: bundles and one channel "stable" with entries.
func catalogOf(pkg string, bundles []fbc.Bundle, entries ...fbc.ChannelEntry) *fbc.DeclarativeConfig {
	return &fbc.DeclarativeConfig{
		Packages: []fbc.Package{{Schema: fbc.SchemaPackage, Name: pkg, DefaultChannel: "stable"}},
		Channels: []fbc.Channel{{Schema: fbc.SchemaChannel, Name: "stable", Package: pkg, Entries: entries}},
		Bundles:  bundles,
	}
}

func errorsOf(r *finding.Report, rule string) []finding.Finding {
	var out []finding.Finding
	for _, f := range r.Findings {
		if f.Severity == finding.SeverityError && (rule == "" || f.Rule == rule) {
			out = append(out, f)
		}
	}
	return out
}

func findingsText(fs []finding.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.String() + "\n")
	}
	return b.String()
}

const kc = "kubecost-operator"

func kcBundle(t *testing.T, dir string) fbc.Bundle { return bundleFromDir(t, kc, dir) }

func TestCRDEdgeChecks(t *testing.T) {
	ctx := context.Background()
	v323 := kcBundle(t, filepath.Join(bundlesDir, "kubecost-operator.v3.2.3"))
	v324 := kcBundle(t, filepath.Join(bundlesDir, "kubecost-operator.v3.2.4"))
	e := func(name, replaces, skipRange string, skips ...string) fbc.ChannelEntry {
		return fbc.ChannelEntry{Name: kc + ".v" + name, Replaces: replaces, SkipRange: skipRange, Skips: skips}
	}
	tests := []struct {
		name    string
		cfg     func() *fbc.DeclarativeConfig
		wantErr []string // substrings of the one error finding expected per element; none: passes
	}{
		{
			name: "safe graph passes",
			cfg: func() *fbc.DeclarativeConfig {
				return catalogOf(kc, []fbc.Bundle{v323, v324}, e("3.2.3", "", ""), e("3.2.4", kc+".v3.2.3", ">=3.2.0 <3.2.4"))
			},
		},
		{
			name: "edge removing the stored version fails",
			cfg: func() *fbc.DeclarativeConfig {
				v330 := kcBundle(t, derive(t, "kubecost-operator.v3.2.4", "3.3.0", renameVersion))
				return catalogOf(kc, []fbc.Bundle{v324, v330}, e("3.2.4", "", ""), e("3.3.0", kc+".v3.2.4", ""))
			},
			wantErr: []string{"kubecost-operator.v3.2.4 -> kubecost-operator.v3.3.0 (replaces in channel \"stable\")", "stored-version-removed"},
		},
		{
			name: "version stored two releases back must stay",
			cfg: func() *fbc.DeclarativeConfig {
				v330 := kcBundle(t, derive(t, "kubecost-operator.v3.2.4", "3.3.0", addV2Storage))
				v340 := kcBundle(t, derive(t, "kubecost-operator.v3.2.4", "3.4.0", renameVersion))
				return catalogOf(kc, []fbc.Bundle{v324, v330, v340}, e("3.2.4", "", ""), e("3.3.0", kc+".v3.2.4", ""), e("3.4.0", kc+".v3.3.0", ""))
			},
			wantErr: []string{"kubecost-operator.v3.4.0 removes it from spec.versions, but a cluster upgraded along kubecost-operator.v3.2.4 -> kubecost-operator.v3.3.0 -> kubecost-operator.v3.4.0 can still have it"},
		},
		{
			name: "unsafe skipRange edge fails",
			cfg: func() *fbc.DeclarativeConfig {
				v350 := kcBundle(t, derive(t, "kubecost-operator.v3.2.4", "3.5.0", specToString))
				return catalogOf(kc, []fbc.Bundle{v323, v324, v350},
					e("3.2.3", "", ""), e("3.2.4", kc+".v3.2.3", ""), e("3.5.0", kc+".v3.2.4", ">=3.2.0 <3.2.4"))
			},
			wantErr: []string{"2 upgrade edges make the same change (kubecost-operator.v3.2.3 -> kubecost-operator.v3.5.0, kubecost-operator.v3.2.4 -> kubecost-operator.v3.5.0)", "type-changed"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Validate(ctx, tc.cfg(), WithChecks(CheckOPM, CheckCRD))
			errs := errorsOf(r, "")
			if len(tc.wantErr) == 0 {
				if len(errs) > 0 {
					t.Fatalf("want no errors, got:\n%s", findingsText(errs))
				}
				for _, f := range r.Findings {
					if strings.Contains(f.Message, "not checked") {
						t.Errorf("edges were not checked: %s", f)
					}
				}
				return
			}
			found := false
			for _, f := range errorsOf(r, "") {
				ok := strings.HasPrefix(f.Rule, "crd-upgrade/")
				for _, want := range tc.wantErr {
					ok = ok && strings.Contains(f.Message, want)
				}
				found = found || ok
			}
			if !found {
				t.Errorf("no error finding with %q in:\n%s", tc.wantErr, findingsText(r.Findings))
			}
			if opm := errorsOf(r, ruleOPM); len(opm) > 0 {
				t.Errorf("the catalog itself must be valid for opm:\n%s", findingsText(opm))
			}
		})
	}
}

func TestDependencyChecks(t *testing.T) {
	ctx := context.Background()
	v324 := kcBundle(t, filepath.Join(bundlesDir, "kubecost-operator.v3.2.4"))
	etcd := bundleFromDir(t, "etcd", filepath.Join(bundlesDir, "etcdoperator.v0.9.2"))
	etcd.Properties = append(etcd.Properties, fbc.NewGVKRequiredProperty("charts.kubecost.com", "v1", "Kubecost"))
	build := func(head fbc.Bundle) *fbc.DeclarativeConfig {
		cfg := catalogOf(kc, []fbc.Bundle{v324, head},
			fbc.ChannelEntry{Name: v324.Name}, fbc.ChannelEntry{Name: head.Name, Replaces: v324.Name})
		other := catalogOf("etcd", []fbc.Bundle{etcd}, fbc.ChannelEntry{Name: etcd.Name})
		cfg.Packages = append(cfg.Packages, other.Packages...)
		cfg.Channels = append(cfg.Channels, other.Channels...)
		cfg.Bundles = append(cfg.Bundles, other.Bundles...)
		return cfg
	}
	t.Run("head dropping a required API fails", func(t *testing.T) {
		dropped := kcBundle(t, derive(t, "kubecost-operator.v3.2.4", "3.6.0", nil))
		r := Validate(ctx, build(dropped), WithChecks(CheckOPM, CheckDeps))
		errs := errorsOf(r, "")
		if len(errs) != 1 || errs[0].Rule != ruleDeps ||
			!strings.Contains(errs[0].Message, "head kubecost-operator.v3.6.0 stops providing charts.kubecost.com/v1, Kind=Kubecost") ||
			!strings.Contains(errs[0].Message, "etcdoperator.v0.9.2 (head of package \"etcd\") requires it") {
			t.Errorf("want one dependency error naming both heads, got:\n%s", findingsText(r.Findings))
		}
	})
	t.Run("head keeping the API passes", func(t *testing.T) {
		kept := kcBundle(t, derive(t, "kubecost-operator.v3.2.4", "3.6.0", func(s string) string { return s }))
		r := Validate(ctx, build(kept), WithChecks(CheckOPM, CheckDeps))
		if errs := errorsOf(r, ""); len(errs) > 0 {
			t.Errorf("want no errors, got:\n%s", findingsText(errs))
		}
	})
	t.Run("requirement from another catalog", func(t *testing.T) {
		cfg := catalogOf("etcd", []fbc.Bundle{etcd}, fbc.ChannelEntry{Name: etcd.Name})
		r := Validate(ctx, cfg, WithChecks(CheckDeps))
		if len(r.Findings) != 1 || r.Findings[0].Severity != finding.SeverityWarning || r.Findings[0].Object != "API charts.kubecost.com/v1, Kind=Kubecost" {
			t.Errorf("want one warning, got:\n%s", findingsText(r.Findings))
		}
		r = Validate(ctx, cfg, WithChecks(CheckDeps), WithRequireClosed(true))
		if len(errorsOf(r, ruleDeps)) != 1 {
			t.Errorf("--require-closed: want one error, got:\n%s", findingsText(r.Findings))
		}
	})
}

func TestGraphChecks(t *testing.T) {
	ctx := context.Background()
	v323 := kcBundle(t, filepath.Join(bundlesDir, "kubecost-operator.v3.2.3"))
	v324 := kcBundle(t, filepath.Join(bundlesDir, "kubecost-operator.v3.2.4"))
	tests := []struct {
		name    string
		entries []fbc.ChannelEntry
		sev     finding.Severity
		want    string
	}{
		{"bad range syntax", []fbc.ChannelEntry{{Name: v323.Name}, {Name: v324.Name, Replaces: v323.Name, SkipRange: "not a range"}},
			finding.SeverityError, "is not a valid semver range"},
		{"downgrade range", []fbc.ChannelEntry{{Name: v323.Name, SkipRange: "<3.3.0", Skips: []string{v324.Name}}, {Name: v324.Name}},
			finding.SeverityError, "OLM would offer a downgrade"},
		{"skip-only bundle", []fbc.ChannelEntry{{Name: v323.Name}, {Name: v324.Name, Skips: []string{v323.Name}}},
			finding.SeverityWarning, "is only in the graph as a skip"},
		{"default head not highest", []fbc.ChannelEntry{{Name: v324.Name}, {Name: v323.Name, Replaces: v324.Name}},
			finding.SeverityWarning, "is a higher version"},
		// OLM v1 keeps 3.2.4: its only successor, 3.2.3, has a lower version (docs/upgrades.md, v1-3).
		{"stranded release", []fbc.ChannelEntry{{Name: v324.Name}, {Name: v323.Name, Replaces: v324.Name}},
			finding.SeverityWarning, "1 stranded release(s), never brought to the head kubecost-operator.v3.2.3: kubecost-operator.v3.2.4 (OLM v1 stops at kubecost-operator.v3.2.4)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Validate(ctx, catalogOf(kc, []fbc.Bundle{v323, v324}, tc.entries...), WithChecks(CheckGraph))
			found := false
			for _, f := range r.Findings {
				found = found || (f.Severity == tc.sev && strings.Contains(f.Message, tc.want))
			}
			if !found {
				t.Errorf("want %s %q, got:\n%s", tc.sev, tc.want, findingsText(r.Findings))
			}
		})
	}
}

// TestGraphUnsafeEdges draws the stored-version-removing edge red with its reason, and the
// rest exactly as opm alpha render-graph.
func TestGraphUnsafeEdges(t *testing.T) {
	v324 := kcBundle(t, filepath.Join(bundlesDir, "kubecost-operator.v3.2.4"))
	v330 := kcBundle(t, derive(t, "kubecost-operator.v3.2.4", "3.3.0", renameVersion))
	cfg := catalogOf(kc, []fbc.Bundle{v324, v330}, fbc.ChannelEntry{Name: v324.Name}, fbc.ChannelEntry{Name: v330.Name, Replaces: v324.Name})
	var safe, checked bytes.Buffer
	if err := WriteGraph(context.Background(), cfg, &safe, GraphMermaid, graph.GraphOptions{Unsafe: map[graph.EdgeKey]string{}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := WriteGraph(context.Background(), cfg, &checked, GraphMermaid, graph.GraphOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	wantSafe := `graph LR
  classDef deprecated fill:#E8960F
  classDef skipped stroke:#FF0000,stroke-width:4px
  classDef deprecatedskipped fill:#E8960F,stroke:#FF0000,stroke-width:4px
  %% package "kubecost-operator"
  subgraph "kubecost-operator"
    %% channel "stable"
    subgraph kubecost-operator-stable["stable"]
      kubecost-operator-stable-kubecost-operator.v3.3.0["kubecost-operator.v3.3.0"]
      kubecost-operator-stable-kubecost-operator.v3.2.4["kubecost-operator.v3.2.4"]-- replace --> kubecost-operator-stable-kubecost-operator.v3.3.0["kubecost-operator.v3.3.0"]
      kubecost-operator-stable-kubecost-operator.v3.2.4["kubecost-operator.v3.2.4"]
    end
  end
`
	if diff := cmp.Diff(wantSafe, safe.String()); diff != "" {
		t.Errorf("unchecked graph (-want +got):\n%s", diff)
	}
	got := checked.String()
	if !strings.Contains(got, `kubecost-operator-stable-kubecost-operator.v3.2.4["kubecost-operator.v3.2.4"]-- "replace: kubecosts.charts.kubecost.com version v1: kubecost-operator.v3.3.0 removes it from spec.versions`) ||
		!strings.HasSuffix(got, "linkStyle 0 "+graph.UnsafeLinkStyle+"\n") {
		t.Errorf("unsafe edge not drawn red with its reason:\n%s", got)
	}
}

// TestCRDsFromBundleFolders checks edges of a catalog that carries no olm.bundle.object (like
// catalogs migrated to olm.csv.metadata): not checked offline (info), checked with the folders.
func TestCRDsFromBundleFolders(t *testing.T) {
	ctx := context.Background()
	dir324 := filepath.Join(bundlesDir, "kubecost-operator.v3.2.4")
	dir330 := derive(t, "kubecost-operator.v3.2.4", "3.3.0", renameVersion)
	strip := func(b fbc.Bundle) fbc.Bundle {
		var props []fbc.Property
		for _, p := range b.Properties {
			if p.Type != fbc.TypeBundleObject {
				props = append(props, p)
			}
		}
		b.Properties, b.Objects, b.CsvJSON = props, nil, ""
		return b
	}
	v324, v330 := strip(kcBundle(t, dir324)), strip(kcBundle(t, dir330))
	cfg := catalogOf(kc, []fbc.Bundle{v324, v330}, fbc.ChannelEntry{Name: v324.Name}, fbc.ChannelEntry{Name: v330.Name, Replaces: v324.Name})
	r := Validate(ctx, cfg, WithChecks(CheckCRD))
	if len(r.Findings) != 1 || r.Findings[0].Severity != finding.SeverityInfo || !strings.Contains(r.Findings[0].Message, "1 upgrade edge(s) not checked") {
		t.Errorf("offline: want one info finding, got:\n%s", findingsText(r.Findings))
	}
	dirs, err := BundleDirCRDs([]string{dir324, dir330})
	if err != nil {
		t.Fatal(err)
	}
	r = Validate(ctx, cfg, WithChecks(CheckCRD), WithCRDSource(FirstCRDs{ObjectCRDs{}, dirs}))
	if errs := errorsOf(r, crd.RuleStoredVersionRemoved.ID()); len(errs) == 0 || !strings.Contains(errs[0].Message, "stored-version-removed") {
		t.Errorf("with bundle folders: want the stored version error, got:\n%s", findingsText(r.Findings))
	}
}
