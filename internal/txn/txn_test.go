package txn

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opack/opack/internal/rootfs"
)

// tree maps the files below dir (slash paths) to their content.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if !d.Type().IsRegular() { // a FIFO would block a read; a symlink is named by its type
			out[filepath.ToSlash(rel)] = d.Type().String()
			return nil
		}
		data, _ := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	return out
}

func write(t *testing.T, files map[string]string, root string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var (
	oldRelease = map[string]string{"opack.yaml": "version: 1", "bundle/m.yaml": "v1", "catalog/index.yaml": "v1", "deploy/olmv0/cs.yaml": "v1", "config/k.yaml": "input"}
	newRelease = map[string]string{"opack.yaml": "version: 2", "bundle/m.yaml": "v2", "bundle/extra.yaml": "v2", "catalog/index.yaml": "v2", "deploy/olmv0/cs.yaml": "v2", "config/k.yaml": "input"}
)

// stageNew starts a transaction on a project holding oldRelease and stages newRelease's outputs.
func stageNew(t *testing.T) (root string, tx *Txn, changes []Change) {
	t.Helper()
	root = t.TempDir()
	write(t, oldRelease, root)
	tx, err := Begin(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"bundle", "catalog", "deploy/olmv0", "opack.yaml"} {
		staged := filepath.Join(tx.Dir(), rel)
		sub := map[string]string{}
		for name, data := range newRelease {
			if name == rel {
				sub[filepath.Base(name)] = data
			} else if strings.HasPrefix(name, rel+"/") {
				sub[strings.TrimPrefix(name, rel+"/")] = data
			}
		}
		if rel == "opack.yaml" {
			write(t, sub, filepath.Dir(staged))
		} else {
			write(t, sub, staged)
		}
		changes = append(changes, Change{Rel: rel, Staged: staged})
	}
	return root, tx, changes
}

func TestCommit(t *testing.T) {
	root, tx, changes := stageNew(t)
	if err := tx.Commit(changes); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(newRelease, tree(t, root)); d != "" {
		t.Errorf("after commit (-want +got):\n%s", d)
	}
}

// TestRecover interrupts a commit at every point a kill can land (simulated by running the
// commit's steps partly) and checks that Recover leaves the old or the new release, never a mix,
// that Pending names the interrupted commit meanwhile, and that no transaction folder remains.
func TestRecover(t *testing.T) {
	for _, tc := range []struct {
		name    string
		swapped int  // changes swapped in before the kill; -1: killed before the journal
		half    bool // the kill landed between moving the old output aside and moving the new in
		want    map[string]string
	}{
		{name: "killed while staging", swapped: -1, want: oldRelease},
		{name: "killed after the journal", swapped: 0, want: newRelease},
		{name: "killed midway", swapped: 2, want: newRelease},
		{name: "killed between the two renames", swapped: 1, half: true, want: newRelease},
		{name: "killed before removing the journal", swapped: 4, want: newRelease},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, tx, changes := stageNew(t)
			if tc.swapped >= 0 {
				for i, c := range changes {
					if err := tx.take(i, c.Staged); err != nil {
						t.Fatal(err)
					}
				}
				writeJournal(t, root, tx.dir, changes)
				r, err := os.OpenRoot(root)
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				for i, c := range changes[:tc.swapped] {
					dst := filepath.Join(root, filepath.FromSlash(c.Rel))
					if err := moveAside(r, c.Rel, filepath.Join(filepath.Base(tx.dir), "old", itoa(i))); err != nil {
						t.Fatal(err)
					}
					if tc.half && i == tc.swapped-1 {
						break
					}
					if err := os.Rename(filepath.Join(tx.dir, "new", itoa(i)), dst); err != nil {
						t.Fatal(err)
					}
				}
				if pending, _ := Pending(root); len(pending) != 1 {
					t.Errorf("Pending() = %v, want the interrupted transaction", pending)
				}
			}
			if _, err := Recover(root); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, tree(t, root)); d != "" {
				t.Errorf("after Recover (-want +got):\n%s", d)
			}
			if left, _ := txnDirs(root); len(left) > 0 {
				t.Errorf("transaction folders left: %v", left)
			}
		})
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// writeJournal writes a journal of changes into the transaction folder dir, sealed as Commit
// seals it.
func writeJournal(t *testing.T, root, dir string, changes []Change) {
	t.Helper()
	real, err := rootfs.Real(root)
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(changes)
	s, err := seal(real, filepath.Base(dir), "journal", payload)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(journal{Changes: changes, Seal: s})
	write(t, map[string]string{journalName: string(data)}, dir)
}
