package synth

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
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

// Write generates cfg.Bundles bundles and their catalog below root. Packages are written in
// parallel; each has its own random source (seeded by cfg.Seed and its index), so the bytes do not
// depend on the schedule.
func Write(root string, cfg Config) (*Result, error) {
	res, pkgs := plan(root, cfg)
	errs := make([]error, len(pkgs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(pkgs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < len(pkgs); i = int(next.Add(1)) - 1 {
				errs[i] = writePackage(root, res.CatalogDir, pkgs[i])
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return res, nil
}

// Paths returns the Result Write(root, cfg) returns, without writing anything.
func Paths(root string, cfg Config) *Result {
	res, _ := plan(root, cfg)
	return res
}

func plan(root string, cfg Config) (*Result, []*pkgModel) {
	cfg = cfg.Defaults()
	res := &Result{CatalogDir: filepath.Join(root, "catalog")}
	var pkgs []*pkgModel
	for p := 0; p*cfg.VersionsPerPackage < cfg.Bundles; p++ {
		n := min(cfg.VersionsPerPackage, cfg.Bundles-p*cfg.VersionsPerPackage)
		pkg := newPackage(cfg, p, n)
		pkgs = append(pkgs, pkg)
		res.Packages = append(res.Packages, pkg.name)
		for _, b := range pkg.bundles {
			res.BundleDirs = append(res.BundleDirs, filepath.Join(root, "bundles", pkg.name, b.version))
		}
	}
	return res, pkgs
}

func writePackage(root, catalogDir string, pkg *pkgModel) error {
	for _, b := range pkg.bundles {
		dir := filepath.Join(root, "bundles", pkg.name, b.version)
		if err := writeBundle(dir, pkg, b); err != nil {
			return fmt.Errorf("writing synthetic bundle %s: %w", dir, err)
		}
	}
	if err := writeCatalog(filepath.Join(catalogDir, pkg.name), pkg); err != nil {
		return fmt.Errorf("writing synthetic catalog of %s: %w", pkg.name, err)
	}
	return nil
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
