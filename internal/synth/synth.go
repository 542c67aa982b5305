package synth

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// Config says what to generate. Zero fields take the defaults of Defaults.
type Config struct {
	Seed               uint64 // the only source of variation
	Bundles            int    // total bundles, spread over packages
	VersionsPerPackage int    // bundles per package (default 10)
	MaxCRDs            int    // CRDs per package are 1..MaxCRDs (default 20)
	SchemaDepth        int    // nesting depth of the CRD schemas (default 4)
	SchemaWidth        int    // properties per object node (default 5)
}

// Defaults returns cfg with its zero fields set.
func (cfg Config) Defaults() Config {
	if cfg.VersionsPerPackage <= 0 {
		cfg.VersionsPerPackage = 10
	}
	if cfg.MaxCRDs <= 0 {
		cfg.MaxCRDs = 20
	}
	if cfg.SchemaDepth <= 0 {
		cfg.SchemaDepth = 4
	}
	if cfg.SchemaWidth <= 0 {
		cfg.SchemaWidth = 5
	}
	return cfg
}

// Result says where the generated files are.
type Result struct {
	BundleDirs []string // root/bundles/<package>/<version>, in generation order
	CatalogDir string   // root/catalog: one <package>/catalog.json per package
	Packages   []string
}

// Write generates cfg.Bundles bundles and their catalog below root.
func Write(root string, cfg Config) (*Result, error) {
	cfg = cfg.Defaults()
	res := &Result{CatalogDir: filepath.Join(root, "catalog")}
	for p := 0; p*cfg.VersionsPerPackage < cfg.Bundles; p++ {
		n := min(cfg.VersionsPerPackage, cfg.Bundles-p*cfg.VersionsPerPackage)
		pkg := newPackage(cfg, p, n)
		res.Packages = append(res.Packages, pkg.name)
		for _, b := range pkg.bundles {
			dir := filepath.Join(root, "bundles", pkg.name, b.version)
			if err := writeBundle(dir, pkg, b); err != nil {
				return nil, fmt.Errorf("writing synthetic bundle %s: %w", dir, err)
			}
			res.BundleDirs = append(res.BundleDirs, dir)
		}
		if err := writeCatalog(filepath.Join(res.CatalogDir, pkg.name), pkg); err != nil {
			return nil, fmt.Errorf("writing synthetic catalog of %s: %w", pkg.name, err)
		}
	}
	return res, nil
}

// pkgModel is one synthetic package: its CRD kinds and its bundles.
type pkgModel struct {
	name    string
	group   string
	kinds   []string
	seed    uint64
	cfg     Config
	bundles []bundleModel
}

type bundleModel struct {
	index     int
	version   string
	name      string
	replaces  string
	skips     []string
	skipRange string
}

func newPackage(cfg Config, p, n int) *pkgModel {
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(p)))
	pkg := &pkgModel{
		name:  fmt.Sprintf("synth-operator-%04d", p),
		group: fmt.Sprintf("p%04d.synth.example.com", p),
		seed:  rng.Uint64(),
		cfg:   cfg,
	}
	for k := range 1 + rng.IntN(cfg.MaxCRDs) {
		pkg.kinds = append(pkg.kinds, fmt.Sprintf("Widget%02d", k))
	}
	// A main line 1.0.0 -> 1.1.0 -> ... where each release replaces the previous one and now and
	// then a patch release 1.m.1 that replaces 1.m.0 and is skipped by the next main release, as
	// z-streams are in real catalogs; some main releases carry an olm.skipRange. The graphs pass
	// opm's validation (one head, no stranded bundles).
	main, minor := "", -1
	for i := range n {
		prevMain := len(pkg.bundles) > 0 && pkg.bundles[i-1].name == main
		if prevMain && i < n-1 && rng.IntN(4) == 0 {
			b := bundleModel{index: i, version: fmt.Sprintf("1.%d.1", minor), replaces: main}
			b.name = pkg.name + ".v" + b.version
			pkg.bundles = append(pkg.bundles, b)
			continue
		}
		minor++
		b := bundleModel{index: i, version: fmt.Sprintf("1.%d.0", minor), replaces: main}
		b.name = pkg.name + ".v" + b.version
		if i > 0 && !prevMain {
			b.skips = []string{pkg.bundles[i-1].name}
		}
		if minor > 2 && rng.IntN(4) == 0 {
			b.skipRange = fmt.Sprintf(">=1.%d.0 <1.%d.0", minor-2, minor)
		}
		main = b.name
		pkg.bundles = append(pkg.bundles, b)
	}
	return pkg
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "    ")
	if err != nil {
		return err
	}
	return writeFile(path, append(data, '\n'))
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
