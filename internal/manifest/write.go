package manifest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/opack/opack/internal/tmpdir"
)

// tempPattern names the temporary sibling of an output base: hidden, with opack's prefix. A
// writer holds it locked (internal/tmpdir), so the next write of the same output removes only
// what a killed writer left.
func tempPattern(base string) string { return ".opack-tmp-" + base + "-*" }

// WriteFile writes data to path atomically: a temporary file in the same folder is
// written, synced and renamed over path. If path is a symlink, the link itself is
// replaced; its target is never written.
func WriteFile(path string, data []byte, perm fs.FileMode) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmpdir.SweepSiblings(dir, tempPattern(base))
	f, err := os.CreateTemp(dir, tempPattern(base))
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	defer tmpdir.Hold(tmp)()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, perm)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// ReplaceDir builds a new version of dir in a temporary sibling folder with fill, then
// swaps it into place (an atomic exchange where the kernel supports it). If fill fails,
// or the process dies before the swap, dir is untouched and the temporary folder is
// removed (or left as a hidden ".opack-tmp-<name>-*" sibling after a crash, which the next
// write of dir removes).
func ReplaceDir(dir string, fill func(tmp string) error) (err error) {
	dir = filepath.Clean(dir)
	parent, base := filepath.Split(dir)
	if parent == "" {
		parent = "."
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", parent, err)
	}
	tmpdir.SweepSiblings(parent, tempPattern(base))
	tmp, err := os.MkdirTemp(parent, tempPattern(base))
	if err != nil {
		return fmt.Errorf("creating a staging folder for %s: %w", dir, err)
	}
	defer os.RemoveAll(tmp) // after a swap, tmp holds the old version
	defer tmpdir.Hold(tmp)()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := fill(tmp); err != nil {
		return err
	}
	if err := swap(tmp, dir); err != nil {
		return fmt.Errorf("replacing %s: %w", dir, err)
	}
	return nil
}
