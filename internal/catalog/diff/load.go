package diff

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/manifest"
	"github.com/opack/opack/internal/parallel"
)

// loaded is what was decoded of both sides: the blobs of the packages held in a changed file
// (and, for those packages, in any other file naming them), nothing else.
type loaded struct {
	base, head       *fbc.DeclarativeConfig
	baseSrc, headSrc *fbc.Sources
	changedFiles     []string // files added, removed or modified, sorted
	unchangedFiles   int
	touched          []string // packages with a blob in a changed file, sorted
	baseBroken       []string // BASE files opm cannot load ("file: error"), compared as absent
}

// changedFiles lists the files whose content differs between the sides (or that only one
// has). A changed .indexignore changes what is read everywhere: then every file counts.
func changedFiles(base, head *side) (changed []string, unchanged []string) {
	all := map[string]bool{}
	for f := range base.hashes {
		all[f] = true
	}
	for f := range head.hashes {
		all[f] = true
	}
	ignoreChanged := false
	for f := range all {
		bh, bok := base.hashes[f]
		hh, hok := head.hashes[f]
		if fbc.IsIndexIgnore(f) && (bok != hok || bh != hh) {
			ignoreChanged = true
		}
	}
	for _, f := range fbc.SortedKeys(all) {
		bh, bok := base.hashes[f]
		hh, hok := head.hashes[f]
		if fbc.IsIndexIgnore(f) {
			continue
		}
		if bok && hok && bh == hh && !ignoreChanged {
			unchanged = append(unchanged, f)
		} else {
			changed = append(changed, f)
		}
	}
	return changed, unchanged
}

// indexIgnores are the .indexignore files of s, which LoadFiles needs among the files it is given.
func (s *side) indexIgnores() []string {
	var out []string
	for f := range s.hashes {
		if fbc.IsIndexIgnore(f) {
			out = append(out, f)
		}
	}
	return out
}

// loadFiles decodes the given files of s that it holds, recording the packages of each file.
func (s *side) loadFiles(ctx context.Context, files []string, src *fbc.Sources, pkgs map[string]bool, mu *sync.Mutex) (*fbc.DeclarativeConfig, error) {
	var mine []string
	for _, f := range files {
		if _, ok := s.hashes[f]; ok {
			mine = append(mine, f)
		}
	}
	if len(mine) == 0 {
		return &fbc.DeclarativeConfig{}, nil
	}
	keep := map[string]bool{}
	for _, f := range mine {
		keep[f] = true
	}
	return fbc.LoadFiles(ctx, s.fsys, append(mine, s.indexIgnores()...),
		fbc.WithSources(src),
		fbc.WithOnlyFiles(func(f string) bool { return keep[f] }),
		fbc.WithEachFile(func(_ context.Context, _ string, cfg *fbc.DeclarativeConfig) {
			mu.Lock()
			defer mu.Unlock()
			for p := range packagesOf(cfg) {
				pkgs[p] = true
			}
		}))
}

// load decodes the changed files of both sides, then the unchanged files that name a package of
// a changed file (a package spread over several files is decoded whole), and keeps the blobs of
// the packages whose content differs. A file that names no such package is only hashed.
func load(ctx context.Context, base, head *side) (*loaded, error) {
	changed, unchanged := changedFiles(base, head)
	for _, s := range []*side{base, head} {
		if err := s.charge(changed); err != nil {
			return nil, err
		}
	}
	l := &loaded{changedFiles: changed, unchangedFiles: len(unchanged), baseSrc: &fbc.Sources{}, headSrc: &fbc.Sources{}}
	pkgs := map[string]bool{}
	var mu sync.Mutex
	b, err := base.loadFiles(ctx, changed, l.baseSrc, pkgs, &mu)
	var le *fbc.LoadError
	if errors.As(err, &le) {
		// A BASE file opm cannot load (the change may fix it) is compared as absent.
		bad := map[string]bool{}
		for _, f := range le.Files {
			bad[f.Path] = true
			l.baseBroken = append(l.baseBroken, f.Error())
		}
		ok := slices.DeleteFunc(slices.Clone(changed), func(f string) bool { return bad[f] })
		b, err = base.loadFiles(ctx, ok, l.baseSrc, pkgs, &mu)
	}
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", base.arg, err)
	}
	h, err := head.loadFiles(ctx, changed, l.headSrc, pkgs, &mu)
	if err != nil {
		return nil, &headLoadError{err: err}
	}
	// Unchanged files are identical on both sides: searched and decoded once, from a folder when
	// one side is (reading a file from git inflates it).
	scan := head
	if head.git && !base.git {
		scan = base
	}
	candidates := unchanged
	if scan.git {
		candidates = nearby(unchanged, changed, fbc.SortedKeys(pkgs))
		if err := scan.charge(candidates); err != nil {
			return nil, err
		}
	}
	more, err := naming(ctx, scan, candidates, fbc.SortedKeys(pkgs))
	if err != nil {
		return nil, err
	}
	if len(more) > 0 {
		extra, err := scan.loadFiles(ctx, more, l.headSrc, map[string]bool{}, &mu)
		if err != nil {
			return nil, &headLoadError{err: err}
		}
		shared := onlyPackages(extra, pkgs)
		b, h = mergeConfigs(b, shared), mergeConfigs(h, shared)
	}
	l.base, l.head = onlyPackages(b, pkgs), onlyPackages(h, pkgs)
	for _, p := range fbc.SortedKeys(pkgs) {
		if !bytes.Equal(packageSum(l.base, p), packageSum(l.head, p)) {
			l.touched = append(l.touched, p)
		}
	}
	return l, nil
}

// charge counts the blobs of files that a git side will inflate against the total read
// (--max-total-size) and refuses one over the catalog file size, from their headers, before
// anything is inflated: a tree naming one large blob many times costs nothing to refuse. A
// folder's files were counted as they were hashed.
func (s *side) charge(files []string) error {
	g, ok := s.fsys.(*gitFS)
	if !ok {
		return nil
	}
	var total int64
	for _, f := range files {
		if _, ok := g.files[f]; !ok {
			continue
		}
		n, err := g.size(f)
		if err != nil {
			return fmt.Errorf("reading %s: %w", s.file(f), err)
		}
		if n > fbc.MaxFileSize {
			return &manifest.LimitError{File: s.file(f), What: "catalog file size", Limit: fbc.MaxFileSize}
		}
		total += n
	}
	return manifest.ChargeRead(s.arg, total)
}

// headLoadError is a HEAD file opm cannot load: reported as findings, not as a failure to run.
type headLoadError struct{ err error }

func (e *headLoadError) Error() string { return e.err.Error() }
func (e *headLoadError) Unwrap() error { return e.err }

// nearby returns the files of unchanged that can hold a blob of a package of pkgs in a catalog
// laid out as opm lays it out (a folder per package, or files named after their package): the
// files in the folder of a changed file, and the files whose path names one of pkgs. Reading
// every unchanged file out of git costs what opm validate of the whole catalog costs.
func nearby(unchanged, changed, pkgs []string) []string {
	dirs := map[string]bool{}
	for _, f := range changed {
		dirs[path.Dir(f)] = true
	}
	var out []string
	for _, f := range unchanged {
		if dirs[path.Dir(f)] || slices.ContainsFunc(pkgs, func(p string) bool { return strings.Contains(f, p) }) {
			out = append(out, f)
		}
	}
	return out
}

// naming returns the files among files whose bytes contain the name of one of pkgs: the only
// files that can hold a blob of them (a blob names its package).
func naming(ctx context.Context, s *side, files, pkgs []string) ([]string, error) {
	if len(pkgs) == 0 || len(files) == 0 {
		return nil, nil
	}
	names := make([][]byte, len(pkgs))
	for i, p := range pkgs {
		names[i] = []byte(p)
	}
	hit := make([]bool, len(files))
	errs := make([]error, len(files))
	parallel.ForEach(ctx, len(files), nil, func(i int) {
		data, err := fs.ReadFile(s.fsys, files[i])
		if err != nil {
			errs[i] = err
			return
		}
		hit[i] = slices.ContainsFunc(names, func(n []byte) bool { return bytes.Contains(data, n) })
	})
	var out []string
	for i, f := range files {
		if errs[i] != nil {
			return nil, fmt.Errorf("reading %s: %w", s.file(f), errs[i])
		}
		if hit[i] {
			out = append(out, f)
		}
	}
	return out, ctx.Err()
}
