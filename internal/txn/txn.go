// Package txn commits a set of outputs into a folder as one transaction: every output is staged
// in a folder beside them (same file system), a journal listing the changes is written, each
// output is swapped in by rename, and the journal is removed. A run interrupted at any point
// (error, crash, SIGKILL) leaves either the old outputs, or a journal that the next Recover
// finishes: the folder never stays a mix of two releases.
//
// The folder is untrusted (a repository under review): every rename and removal goes through an
// os.Root on it, so no change reaches outside it whatever its symlinks; a journal is applied only
// when it is sealed by this user's key (seal.go), holds only paths below the root, and its
// transaction folder holds nothing but folders and regular files.
package txn

import (
	"crypto/hmac"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/opack/opack/internal/manifest"
	"github.com/opack/opack/internal/rootfs"
)

// Prefix starts the name of every transaction folder opack makes in a project.
const Prefix = ".opack-txn-"

const (
	journalName = "journal.json"
	// maxJournal bounds a journal: a build commits a few dozen outputs.
	maxJournal = 1 << 20
)

// Change is one output of a transaction: Rel (slash path below the root) gets the file or
// folder staged at Staged, or is removed when Remove is set.
type Change struct {
	Rel    string `json:"rel"`
	Staged string `json:"-"`
	Remove bool   `json:"remove,omitempty"`
}

// Txn is a transaction on the outputs below Root; stage outputs below Dir().
type Txn struct {
	root, realRoot, dir string
}

// ForeignError is a transaction folder opack did not write here: its journal is not sealed by
// this user's key (planted by a repository, copied from another machine or checkout), is
// malformed, or its folder holds a symlink or special file. It is never applied.
type ForeignError struct {
	Dir    string // the folder, as found below the root
	Reason string
}

func (e *ForeignError) Error() string {
	return fmt.Sprintf("%s: %s; opack never applies a journal it did not write: remove the folder (rm -rf %s) and build again",
		e.Dir, e.Reason, e.Dir)
}

// Begin starts a transaction on root: a new folder root/.opack-txn-* to stage outputs in. The
// folder's name carries its seal (stageName), so a build killed at any point, even right after
// creating it, leaves a folder the next Recover knows as its own and removes.
func Begin(root string) (*Txn, error) {
	realRoot, err := rootfs.Real(root)
	if err != nil {
		return nil, err
	}
	name, err := stageName(realRoot)
	if err != nil {
		return nil, fmt.Errorf("sealing a staging folder in %s: %w", root, err)
	}
	dir := filepath.Join(root, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating a staging folder in %s: %w", root, err)
	}
	return &Txn{root: root, realRoot: realRoot, dir: dir}, nil
}

// stageName is Prefix + a random nonce + "-" + the seal of the nonce for this project.
func stageName(realRoot string) (string, error) {
	var nonce [8]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return "", err
	}
	n := hex.EncodeToString(nonce[:])
	s, err := seal(realRoot, n, "stage", nil)
	if err != nil {
		return "", err
	}
	return Prefix + n + "-" + s[:stageSealLen], nil
}

// stageSealLen is how much of the seal a folder name carries (64 bits).
const stageSealLen = 16

// ownStage reports whether the folder name is one stageName made for this project.
func ownStage(realRoot, name string) bool {
	n, s, ok := strings.Cut(strings.TrimPrefix(name, Prefix), "-")
	if !ok || len(s) != stageSealLen {
		return false
	}
	want, err := seal(realRoot, n, "stage", nil)
	return err == nil && hmac.Equal([]byte(want[:stageSealLen]), []byte(s))
}

// Dir is the transaction's folder; outputs staged below it are moved, not copied, on Commit.
func (t *Txn) Dir() string { return filepath.Join(t.dir, "stage") }

// Abort removes the transaction's folder (after Commit, a no-op).
func (t *Txn) Abort() error { return os.RemoveAll(t.dir) }

// journal is the intent a commit writes before it changes anything.
type journal struct {
	Changes []Change `json:"changes"`
	Seal    string   `json:"seal"`
}

// Commit applies changes: it moves each staged output into a folder of the transaction, writes
// the journal, swaps every output in (the previous one moved aside), removes the journal and
// the transaction's folder. Outputs staged outside the transaction are copied in first.
func (t *Txn) Commit(changes []Change) error {
	if err := checkChanges(changes); err != nil {
		return fmt.Errorf("committing to %s: %w", t.root, err)
	}
	for i, c := range changes {
		if c.Remove {
			continue
		}
		if err := t.take(i, c.Staged); err != nil {
			return fmt.Errorf("staging %s: %w", c.Rel, err)
		}
	}
	payload, err := json.Marshal(changes)
	if err != nil {
		return err
	}
	s, err := seal(t.realRoot, filepath.Base(t.dir), "journal", payload)
	if err != nil {
		return fmt.Errorf("sealing the journal: %w", err)
	}
	data, err := json.Marshal(journal{Changes: changes, Seal: s})
	if err != nil {
		return err
	}
	if err := manifest.WriteFile(filepath.Join(t.dir, journalName), data, 0o644); err != nil {
		return fmt.Errorf("writing the journal: %w", err)
	}
	return finish(t.root, filepath.Base(t.dir), changes)
}

// checkChanges refuses a change that is not a path below the root, names the root itself or a
// transaction folder: the same rule for a commit and for a journal read back.
func checkChanges(changes []Change) error {
	for _, c := range changes {
		clean := path.Clean(c.Rel)
		switch {
		case c.Rel == "" || !filepath.IsLocal(filepath.FromSlash(c.Rel)) || clean != c.Rel || clean == ".":
			return fmt.Errorf("%q is not a clean path below the project", c.Rel)
		case strings.HasPrefix(strings.SplitN(clean, "/", 2)[0], Prefix):
			return fmt.Errorf("%q lies in a transaction folder", c.Rel)
		}
	}
	return nil
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

// finish swaps in every change of the journal in the transaction folder dirName, idempotently (a
// crash may have stopped it anywhere), then removes the journal and the folder. Every path goes
// through an os.Root on root: a symlink in the project cannot take a rename or a removal out.
func finish(root, dirName string, changes []Change) error {
	r, err := os.OpenRoot(root)
	if err != nil {
		return fmt.Errorf("opening %s: %w", root, err)
	}
	defer r.Close()
	for i, c := range changes {
		dst := filepath.FromSlash(c.Rel)
		staged := filepath.Join(dirName, "new", fmt.Sprint(i))
		old := filepath.Join(dirName, "old", fmt.Sprint(i))
		if _, err := r.Lstat(staged); errors.Is(err, fs.ErrNotExist) && !c.Remove {
			continue // already swapped in
		}
		if err := moveAside(r, dst, old); err != nil {
			return fmt.Errorf("committing %s: %w", c.Rel, err)
		}
		if c.Remove {
			continue
		}
		if err := r.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("committing %s: %w", c.Rel, err)
		}
		if err := r.Rename(staged, dst); err != nil {
			return fmt.Errorf("committing %s: %w", c.Rel, err)
		}
	}
	if err := syncDir(root); err != nil {
		return err
	}
	if err := r.Remove(filepath.Join(dirName, journalName)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing the journal: %w", err)
	}
	return r.RemoveAll(dirName)
}

// moveAside moves the current output at dst (if any) to old, unless old already holds one.
func moveAside(r *os.Root, dst, old string) error {
	if _, err := r.Lstat(old); err == nil {
		return nil
	}
	if _, err := r.Lstat(dst); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err := r.MkdirAll(filepath.Dir(old), 0o755); err != nil {
		return err
	}
	return r.Rename(dst, old)
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
// interrupted (the outputs may be a mix of two releases until Recover finishes them). A journal
// opack did not write is a *ForeignError.
func Pending(root string) ([]string, error) {
	dirs, err := txnDirs(root)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range dirs {
		if _, err := os.Lstat(filepath.Join(d, journalName)); err != nil {
			continue
		}
		if _, err := readJournal(root, d); err != nil {
			return out, err
		}
		out = append(out, d)
	}
	return out, nil
}

// Recover finishes every interrupted commit below root (a sealed journal was written: the new
// outputs are all staged, so the commit is completed) and removes the folders of transactions
// that never reached their commit (nothing of them was applied). A folder it cannot verify as
// its own is left as it is: without a journal it is ignored, with one it is a *ForeignError.
// It returns what it finished.
func Recover(root string) (finished []string, err error) {
	dirs, err := txnDirs(root)
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		if _, err := os.Lstat(filepath.Join(d, journalName)); errors.Is(err, fs.ErrNotExist) {
			if err := removeStage(root, d); err != nil {
				return finished, err
			}
			continue
		}
		changes, err := readJournal(root, d)
		if err != nil {
			return finished, err
		}
		if err := finish(root, filepath.Base(d), changes); err != nil {
			return finished, fmt.Errorf("finishing the interrupted build %s: %w", d, err)
		}
		finished = append(finished, filepath.Base(d))
	}
	return finished, nil
}

// removeStage removes the staging folder of a build that died before its commit, when its name
// carries this project's seal; a folder that does not is not opack's to remove.
func removeStage(root, d string) error {
	realRoot, err := rootfs.Real(root)
	if err != nil {
		return err
	}
	if !ownStage(realRoot, filepath.Base(d)) {
		return nil
	}
	if err := os.RemoveAll(d); err != nil {
		return fmt.Errorf("removing the staging folder %s of an interrupted build: %w", d, err)
	}
	return nil
}

// readJournal reads and verifies the journal of the transaction folder d: the folder holds only
// folders and regular files, the journal is within its bound, sealed by this user's key for
// this project and folder, and every change is a path below the root.
func readJournal(root, d string) ([]Change, error) {
	name := filepath.Base(d)
	foreign := func(format string, args ...any) error {
		return &ForeignError{Dir: name, Reason: fmt.Sprintf(format, args...)}
	}
	if err := onlyPlainFiles(d); err != nil {
		return nil, foreign("%v", err)
	}
	data, err := readSmall(root, filepath.Join(name, journalName), maxJournal)
	if err != nil {
		return nil, foreign("%v", err)
	}
	var j journal
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, foreign("its journal is malformed: %v", err)
	}
	payload, err := json.Marshal(j.Changes)
	if err != nil {
		return nil, err
	}
	realRoot, err := rootfs.Real(root)
	if err != nil {
		return nil, err
	}
	if _, err := keyFor(realRoot); err != nil {
		return nil, foreign("opack cannot verify its journal: %v", err)
	}
	if !verify(realRoot, name, "journal", payload, j.Seal) {
		if why := unverifiable(); why != "" {
			return nil, foreign("it is the journal of an interrupted build, which opack cannot verify: it seals journals with a key kept in "+
				"the user's cache folder and there is none now (%s); the outputs it lists may be half-written: restore them (git checkout, git status)", why)
		}
		return nil, foreign("its journal was not written by opack for this project on this machine (its seal does not verify)")
	}
	if err := checkChanges(j.Changes); err != nil {
		return nil, foreign("its journal names %v", err)
	}
	for _, c := range j.Changes { // os.Root refuses them too; this names the symlink
		if _, err := rootfs.Resolve(root, c.Rel); err != nil {
			return nil, foreign("its journal names %v", err)
		}
	}
	return j.Changes, nil
}

// onlyPlainFiles refuses a symlink, device, FIFO or socket anywhere below d.
func onlyPlainFiles(d string) error {
	return filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if t := e.Type(); t&fs.ModeSymlink != 0 || !(t.IsDir() || t.IsRegular()) {
			rel, _ := filepath.Rel(filepath.Dir(d), p)
			return fmt.Errorf("it holds %s, which is not a plain file or folder (%s)", filepath.ToSlash(rel), t)
		}
		return nil
	})
}

// readSmall reads rel below root, a regular file of at most limit bytes, without following a
// symlink out of root or blocking on a special file.
func readSmall(root, rel string, limit int64) ([]byte, error) {
	p, fi, err := rootfs.Stat(root, rel)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &rootfs.SpecialFileError{Path: filepath.ToSlash(rel), Mode: fi.Mode()}
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", filepath.ToSlash(rel), limit)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
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
