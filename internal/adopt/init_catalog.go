package adopt

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/opack/opack/internal/catalog/template"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/manifest"
)

// foundCatalog is a file-based catalog of the package found in the project.
type foundCatalog struct {
	Dir            string // slash path relative to the project
	Files          []string
	BundleFile     string // the naming of one-bundle-per-file layouts, e.g. bundle-v{{.Version}}.yaml
	Channels       []string
	DefaultChannel string
	Latest         string // the newest version of the package in it
	Bundles        int
	images         map[string]bool
	pkg            string
}

// foundTemplate is a catalog template found in the project.
type foundTemplate struct {
	File, Schema string
	images       []string
}

// skipDirs are folders init never searches for catalogs.
var skipDirs = map[string]bool{"vendor": true, "node_modules": true, "bin": true, "testdata": true, "_output": true, "config": true}

const maxScanFile = 64 << 20

// findCatalogs searches the project for file-based catalogs holding pkg and catalog templates.
func findCatalogs(ctx context.Context, dir, pkg, bundleDir string) ([]foundCatalog, []foundTemplate, []string, error) {
	byRoot := map[string]*foundCatalog{}
	var templates []foundTemplate
	var notes []string
	others := map[string]bool{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || skipDirs[d.Name()] || rel == bundleDir) {
				return filepath.SkipDir
			}
			return ctx.Err()
		}
		if !d.Type().IsRegular() || !template.IsFBCName(p) {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > maxScanFile {
			return nil
		}
		data, err := manifest.ReadBytes(p) // a regular file: the walk follows no symlink
		if err != nil || !bytes.Contains(data, []byte("olm.")) {
			return err
		}
		if k, ok := template.KindOf(data); ok {
			templates = append(templates, foundTemplate{File: rel, Schema: k.Name, images: imageRefs(data)})
			return nil
		}
		if !template.IsFBCFile(p, data) {
			return nil
		}
		cfg, err := fbc.LoadReader(bytes.NewReader(data), rel)
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s looks like a file-based catalog but does not load: %v", rel, err))
			return nil
		}
		if !hasPackage(cfg, pkg) {
			for _, n := range packagesOf(cfg) {
				others[n+" in "+path.Dir(rel)] = true
			}
			return nil
		}
		root := catalogRoot(rel, pkg)
		fc := byRoot[root]
		if fc == nil {
			fc = &foundCatalog{Dir: root, images: map[string]bool{}, pkg: pkg}
			byRoot[root] = fc
		}
		fc.add(rel, cfg, pkg)
		return nil
	})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("searching %s for catalogs: %w", dir, err)
	}
	for o := range others {
		notes = append(notes, "a catalog of another package was left alone: "+o)
	}
	sort.Strings(notes)
	found := collapse(byRoot, &notes)
	// The catalog with the newest release first: the CRD upgrade check takes the previous
	// release from the first catalog.
	sort.SliceStable(found, func(i, j int) bool { return newer(found[i].Latest, found[j].Latest) })
	return found, templates, notes, nil
}

// newer reports whether version a is above b ("" is below everything).
func newer(a, b string) bool {
	if a == "" || b == "" {
		return b == "" && a != ""
	}
	return semver.MustParse(a).GT(semver.MustParse(b))
}

// catalogRoot is the catalog folder of a file: the parent of a folder named after the package
// (opm's <root>/<package>/ layout), else the file's folder.
func catalogRoot(rel, pkg string) string {
	parts := strings.Split(path.Dir(rel), "/")
	for i := len(parts) - 1; i >= 0; i-- {
		if parts[i] == pkg {
			if i == 0 {
				return "."
			}
			return strings.Join(parts[:i], "/")
		}
	}
	return path.Dir(rel)
}

// collapse merges catalogs nested in another and drops fragments (no package, no bundle).
func collapse(byRoot map[string]*foundCatalog, notes *[]string) []foundCatalog {
	// A catalog in opm's layout (<root>/<package>/...) whose root holds other catalogs too
	// (catalog/external-dns-operator/ beside catalog/v4.12/, catalog/v4.13/, ...) is its package
	// folder alone: opm would load the others with it.
	for r, fc := range byRoot {
		pkgDir := path.Join(r, fc.pkg)
		if fc.pkg == "" || !allUnder(fc.Files, pkgDir) {
			continue
		}
		for o := range byRoot {
			if o != r && (r == "." || strings.HasPrefix(o, r+"/")) && !strings.HasPrefix(o, pkgDir+"/") {
				delete(byRoot, r)
				fc.Dir = pkgDir
				byRoot[pkgDir] = fc
				break
			}
		}
	}
	roots := make([]string, 0, len(byRoot))
	for r := range byRoot {
		roots = append(roots, r)
	}
	sort.Strings(roots)
	var out []foundCatalog
	for _, r := range roots {
		fc := byRoot[r]
		nested := false
		for _, o := range out {
			if o.Dir == "." || strings.HasPrefix(r, o.Dir+"/") {
				nested = true
			}
		}
		if nested {
			continue
		}
		if fc.DefaultChannel == "" || fc.Bundles == 0 {
			*notes = append(*notes, fmt.Sprintf("%s holds blobs of the package but no complete catalog (olm.package and olm.bundle): left alone", strings.Join(fc.Files, ", ")))
			continue
		}
		fc.BundleFile = bundleFilePattern(fc)
		out = append(out, *fc)
	}
	return out
}

// allUnder reports whether every file lies below dir.
func allUnder(files []string, dir string) bool {
	for _, f := range files {
		if !strings.HasPrefix(f, dir+"/") {
			return false
		}
	}
	return true
}

// add records what one file contributes to the catalog.
func (fc *foundCatalog) add(rel string, cfg *fbc.DeclarativeConfig, pkg string) {
	fc.Files = append(fc.Files, rel)
	for _, p := range cfg.Packages {
		if p.Name == pkg {
			fc.DefaultChannel = p.DefaultChannel
		}
	}
	for _, c := range cfg.Channels {
		if c.Package == pkg {
			fc.Channels = append(fc.Channels, c.Name)
		}
	}
	for _, b := range cfg.Bundles {
		if b.Package != pkg {
			continue
		}
		fc.Bundles++
		fc.images[b.Image] = true
		if v := bundleVersion(b); v != "" && (fc.Latest == "" || semver.MustParse(v).GT(semver.MustParse(fc.Latest))) {
			fc.Latest = v
		}
	}
}

// bundleVersion is the olm.package version of a bundle ("" when it has none that parses).
func bundleVersion(b fbc.Bundle) string {
	props, err := fbc.ParseProperties(b.Properties)
	if err != nil || len(props.Packages) == 0 {
		return ""
	}
	if _, err := semver.Parse(props.Packages[0].Version); err != nil {
		return ""
	}
	return props.Packages[0].Version
}

// bundleFilePattern is the naming of a catalog whose every bundle file holds one bundle named
// by its version (bundle-v1.2.3.yaml → bundle-v{{.Version}}.yaml), "" otherwise.
func bundleFilePattern(fc *foundCatalog) string {
	pattern := ""
	n := 0
	for _, f := range fc.Files {
		m := versionInName.FindStringIndex(path.Base(f))
		if m == nil {
			continue
		}
		base := path.Base(f)
		p := path.Join(strings.TrimPrefix(path.Dir(f), fc.Dir+"/"), base[:m[0]]+"{{.Version}}"+base[m[1]:])
		if path.Dir(f) == fc.Dir {
			p = base[:m[0]] + "{{.Version}}" + base[m[1]:]
		}
		if pattern != "" && p != pattern {
			return ""
		}
		pattern = p
		n++
	}
	if n != fc.Bundles || n < 2 {
		return ""
	}
	return pattern
}

var versionInName = regexp.MustCompile(`\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?`)

func hasPackage(cfg *fbc.DeclarativeConfig, pkg string) bool {
	for _, n := range packagesOf(cfg) {
		if n == pkg {
			return true
		}
	}
	return false
}

func packagesOf(cfg *fbc.DeclarativeConfig) []string {
	seen := map[string]bool{}
	var out []string
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, p := range cfg.Packages {
		add(p.Name)
	}
	for _, c := range cfg.Channels {
		add(c.Package)
	}
	for _, b := range cfg.Bundles {
		add(b.Package)
	}
	return out
}

var imageLine = regexp.MustCompile(`(?m)image["']?\s*:\s*["']?([^\s"']+)`)

// imageRefs lists the image references of a template.
func imageRefs(data []byte) []string {
	var out []string
	for _, m := range imageLine.FindAllSubmatch(data, -1) {
		out = append(out, string(m[1]))
	}
	return out
}

// renders reports whether catalog fc holds every bundle image of template t (t renders into it).
func (t foundTemplate) renders(fc foundCatalog) bool {
	if len(t.images) == 0 {
		return false
	}
	for _, img := range t.images {
		if !fc.images[img] {
			return false
		}
	}
	return true
}
