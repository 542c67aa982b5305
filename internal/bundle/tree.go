package bundle

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"

	"github.com/opack/opack/internal/manifest"
)

// readTree reads every file of the bundle folder into memory (nil when it does not exist).
func readTree(dir string) (map[string][]byte, error) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	files, err := manifest.Files(dir)
	if err != nil {
		return nil, fmt.Errorf("reading the existing bundle: %w", err)
	}
	tree := make(map[string][]byte, len(files))
	for _, f := range files {
		data, err := manifest.ReadBytes(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			return nil, fmt.Errorf("reading the existing bundle: %w", err)
		}
		tree[f] = data
	}
	return tree, nil
}

// planTree computes the bundle folder's new content: the files on disk, with manifests/
// replaced by this run's (unless KeepUnknown), and the generated files.
func planTree(o *Options, disk map[string][]byte, res *Result) map[string][]byte {
	tree := make(map[string][]byte, len(disk)+len(res.Files))
	generated := map[string]bool{}
	for _, f := range res.Files {
		generated[f.Name] = true
	}
	for name, data := range disk {
		if o.Manifests && path.Dir(name) == ManifestsDir && !generated[name] {
			if !o.KeepUnknown && generatorFile(name, data) {
				res.Removed = append(res.Removed, name)
				continue
			}
			res.Kept = append(res.Kept, name) // KeepUnknown, or a file the generator does not write
		}
		tree[name] = data
	}
	sort.Strings(res.Removed)
	sort.Strings(res.Kept)
	for _, f := range res.Files {
		tree[f.Name] = f.Data
	}
	return tree
}

// write replaces the bundle folder with tree, then writes the Dockerfile.
func write(ctx context.Context, o *Options, tree map[string][]byte, res *Result) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	names := sortedKeys(tree)
	err := manifest.ReplaceDir(o.OutputDir, func(tmp string) error {
		for _, name := range names {
			p := filepath.Join(tmp, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, tree[name], 0o644); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("writing bundle %s: %w", o.OutputDir, err)
	}
	if res.Dockerfile != nil {
		if dir := filepath.Dir(res.Dockerfile.Name); dir != "." {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return fmt.Errorf("writing %s: %w", res.Dockerfile.Name, err)
			}
		}
		return manifest.WriteFile(res.Dockerfile.Name, res.Dockerfile.Data, 0o644)
	}
	return nil
}

// check compares tree and the Dockerfile with disk byte for byte and records a unified diff.
func check(o *Options, disk, tree map[string][]byte, res *Result) error {
	all := map[string]bool{}
	for n := range disk {
		all[n] = true
	}
	for n := range tree {
		all[n] = true
	}
	var diffs []string
	for _, n := range sortedKeys(all) {
		old, inOld := disk[n]
		cur, inNew := tree[n]
		name := path.Join(filepath.ToSlash(o.OutputDir), n)
		if d := manifest.UnifiedDiff(name, old, inOld, cur, inNew); d != "" {
			diffs = append(diffs, d)
		}
	}
	if res.Dockerfile != nil {
		old, err := readBeside(o.ProjectDir, res.Dockerfile.Name)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("reading %s: %w", res.Dockerfile.Name, err)
		}
		if d := manifest.UnifiedDiff(filepath.ToSlash(res.Dockerfile.Name), old, err == nil, res.Dockerfile.Data, true); d != "" {
			diffs = append(diffs, d)
		}
	}
	res.Changed = len(diffs) > 0
	for _, d := range diffs {
		res.Diff += d
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
