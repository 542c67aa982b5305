// Package txn commits a set of outputs into a folder as one transaction: every output is staged
// in a folder beside them (same file system), a journal listing the changes is written, each
// output is swapped in by rename, and the journal is removed. A run interrupted at any point
// (error, crash, SIGKILL) leaves either the old outputs, or a journal that the next Recover
// finishes: the folder never stays a mix of two releases.
package txn

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/opack/opack/internal/manifest"
)

// Prefix starts the name of every transaction folder opack makes in a project.
const Prefix = ".opack-txn-"

const journalName = "journal.json"

// Change is one output of a transaction: Rel (slash path below the root) gets the file or
// folder staged at Staged, or is removed when Remove is set.
type Change struct {
	Rel    string `json:"rel"`
	Staged string `json:"-"`
	Remove bool   `json:"remove,omitempty"`
}

// Txn is a transaction on the outputs below Root; stage outputs below Dir().
type Txn struct {
	root, dir string
}

// Begin starts a transaction on root: a new folder root/.opack-txn-* to stage outputs in.
func Begin(root string) (*Txn, error) {
	dir, err := os.MkdirTemp(root, Prefix+"*")
	if err != nil {
		return nil, fmt.Errorf("creating a staging folder in %s: %w", root, err)
	}
	return &Txn{root: root, dir: dir}, nil
}

// Dir is the transaction's folder; outputs staged below it are moved, not copied, on Commit.
func (t *Txn) Dir() string { return filepath.Join(t.dir, "stage") }

// Abort removes the transaction's folder (after Commit, a no-op).
func (t *Txn) Abort() error { return os.RemoveAll(t.dir) }

// journal is the intent a commit writes before it changes anything.
type journal struct {
	Changes []Change `json:"changes"`
}

// Commit applies changes: it moves each staged output into a folder of the transaction, writes
// the journal, swaps every output in (the previous one moved aside), removes the journal and
// the transaction's folder. Outputs staged outside the transaction are copied in first.
func (t *Txn) Commit(changes []Change) error {
	for i, c := range changes {
		if !filepath.IsLocal(filepath.FromSlash(c.Rel)) {
			return fmt.Errorf("committing %s: not a path below %s", c.Rel, t.root)
		}
		if c.Remove {
			continue
		}
		if err := t.take(i, c.Staged); err != nil {
			return fmt.Errorf("staging %s: %w", c.Rel, err)
		}
	}
	data, err := json.Marshal(journal{Changes: changes})
	if err != nil {
		return err
	}
	if err := manifest.WriteFile(filepath.Join(t.dir, journalName), data, 0o644); err != nil {
		return fmt.Errorf("writing the journal: %w", err)
	}
	return finish(t.root, t.dir, changes)
}

// take moves (or, from another file system or folder, copies) the staged output i into the
// transaction's "new" folder.
func (t *Txn) take(i int, staged string) error {
	dst := filepath.Join(t.dir, "new", fmt.Sprint(i))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if err := os.Rename(staged, dst); err == nil {
		return nil
	}
	fi, err := os.Stat(staged)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return os.CopyFS(dst, os.DirFS(staged))
	}
	data, err := os.ReadFile(staged)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}

// finish swaps in every change of the journal in dir, idempotently (a crash may have stopped
// it anywhere), then removes the journal and dir.
func finish(root, dir string, changes []Change) error {
	for i, c := range changes {
		dst := filepath.Join(root, filepath.FromSlash(c.Rel))
		staged := filepath.Join(dir, "new", fmt.Sprint(i))
		old := filepath.Join(dir, "old", fmt.Sprint(i))
		if _, err := os.Lstat(staged); errors.Is(err, fs.ErrNotExist) && !c.Remove {
			continue // already swapped in
		}
		if err := moveAside(dst, old); err != nil {
			return fmt.Errorf("committing %s: %w", c.Rel, err)
		}
		if c.Remove {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("committing %s: %w", c.Rel, err)
		}
		if err := os.Rename(staged, dst); err != nil {
			return fmt.Errorf("committing %s: %w", c.Rel, err)
		}
	}
	if err := syncDir(root); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(dir, journalName)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing the journal: %w", err)
	}
	return os.RemoveAll(dir)
}

// moveAside moves the current output at dst (if any) to old, unless old already holds one.
func moveAside(dst, old string) error {
	if _, err := os.Lstat(old); err == nil {
		return nil
	}
	if _, err := os.Lstat(dst); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(old), 0o755); err != nil {
		return err
	}
	return os.Rename(dst, old)
}

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	_ = f.Sync()
	return nil
}

// Pending returns the transaction folders below root whose journal says a commit was
// interrupted (the outputs may be a mix of two releases until Recover finishes them).
func Pending(root string) ([]string, error) {
	dirs, err := txnDirs(root)
	var out []string
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, journalName)); err == nil {
			out = append(out, d)
		}
	}
	return out, err
}

// Recover finishes every interrupted commit below root (a journal was written: the new outputs
// are all staged, so the commit is completed) and removes the folders of transactions that
// never reached their commit (nothing of them was applied). It returns what it finished.
func Recover(root string) (finished []string, err error) {
	dirs, err := txnDirs(root)
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		data, err := os.ReadFile(filepath.Join(d, journalName))
		if errors.Is(err, fs.ErrNotExist) {
			if err := os.RemoveAll(d); err != nil {
				return finished, fmt.Errorf("removing the staging folder %s of an interrupted build: %w", d, err)
			}
			continue
		}
		if err != nil {
			return finished, err
		}
		var j journal
		if err := json.Unmarshal(data, &j); err != nil {
			return finished, fmt.Errorf("reading the journal of an interrupted build %s: %w; remove the folder and build again", d, err)
		}
		if err := finish(root, d, j.Changes); err != nil {
			return finished, fmt.Errorf("finishing the interrupted build %s: %w", d, err)
		}
		finished = append(finished, filepath.Base(d))
	}
	return finished, nil
}

func txnDirs(root string) ([]string, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), Prefix) {
			out = append(out, filepath.Join(root, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}
