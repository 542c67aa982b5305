package apitypes

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/opack/opack/internal/rootfs"
	"golang.org/x/mod/modfile"
)

// maxModuleFiles bounds the walk of the module for symlinks (operator repositories hold a few
// thousand files; vendor/ included, tens of thousands).
const maxModuleFiles = 500_000

// confined checks, before go list reads anything, that the Go code it would read stays inside the
// project dir (untrusted input): the API folder, every symlink of the module (vendor/ included),
// and the go.mod's local replace directives resolve inside it, and the module's go.mod is the
// project's own (go would otherwise look in the folders above).
func confined(dir, apisDir string) error {
	if _, err := rootfs.Resolve(dir, apisDir); err != nil {
		return fmt.Errorf("reading the Go API types: %w", err)
	}
	data, err := rootfs.ReadFile(dir, "go.mod")
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("reading the Go API types: no go.mod in the project folder %s: opack reads the API types of the module rooted there (go would look for one in the folders above, outside the project)", dir)
	}
	if err != nil {
		return fmt.Errorf("reading the Go API types: %w", err)
	}
	mf, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		return fmt.Errorf("reading the Go API types: %w", err)
	}
	for _, r := range mf.Replace {
		if r.New.Version != "" { // a module version: read from the module cache, offline
			continue
		}
		if filepath.IsAbs(r.New.Path) || !filepath.IsLocal(filepath.Clean(r.New.Path)) {
			return fmt.Errorf("reading the Go API types: go.mod:%d: replace %s => %s: a folder outside the project; opack reads only Go code inside the project (vendor the module, or generate with --kustomize-manifests=false)",
				r.Syntax.Start.Line, r.Old.Path, r.New.Path)
		}
		if _, err := rootfs.Resolve(dir, r.New.Path); err != nil {
			return fmt.Errorf("reading the Go API types: go.mod:%d: replace %s => %s: %w", r.Syntax.Start.Line, r.Old.Path, r.New.Path, err)
		}
	}
	return symlinksInside(dir)
}

// symlinksInside walks the module below dir and refuses a symlink that leads out of it.
func symlinksInside(dir string) error {
	n := 0
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() && (d.Name() == ".git" || strings.HasPrefix(d.Name(), ".opack-")) && rel != "." {
			return filepath.SkipDir
		}
		if n++; n > maxModuleFiles {
			return fmt.Errorf("reading the Go API types: more than %d files below %s", maxModuleFiles, dir)
		}
		if d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		if _, err := rootfs.Resolve(dir, rel); err != nil {
			return fmt.Errorf("reading the Go API types: %w", err)
		}
		return nil
	})
}
