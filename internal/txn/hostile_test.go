package txn

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHostileTransactions plants transaction folders as a pull request could (the project is
// untrusted) and checks that Recover and Pending refuse each one, naming the folder and how to
// remove it, and that nothing outside the project, nor inside it, changes.
func TestHostileTransactions(t *testing.T) {
	const planted = Prefix + "1"
	tests := []struct {
		name    string
		plant   func(t *testing.T, root, outside string)
		wantErr string // "" when the folder is ignored (no journal)
	}{
		{
			name: "unsealed journal writing and removing outside",
			plant: func(t *testing.T, root, outside string) {
				write(t, map[string]string{planted + "/new/0": "PWNED",
					planted + "/journal.json": `{"changes":[{"rel":"../outside/victim"},{"rel":"../outside/dir","remove":true}]}`}, root)
			},
			wantErr: "seal does not verify",
		},
		{
			name: "unsealed journal inside the project",
			plant: func(t *testing.T, root, outside string) {
				write(t, map[string]string{planted + "/new/0": "PWNED", planted + "/journal.json": `{"changes":[{"rel":"go.mod"}]}`}, root)
			},
			wantErr: "seal does not verify",
		},
		{
			name: "sealed journal naming a path outside",
			plant: func(t *testing.T, root, outside string) {
				write(t, map[string]string{planted + "/new/0": "PWNED"}, root)
				writeJournal(t, root, filepath.Join(root, planted), []Change{{Rel: "../outside/victim"}})
			},
			wantErr: "not a clean path below the project",
		},
		{
			name: "sealed journal through a symlinked folder",
			plant: func(t *testing.T, root, outside string) {
				symlink(t, "../outside", filepath.Join(root, "lnk"))
				write(t, map[string]string{planted + "/new/0": "PWNED"}, root)
				writeJournal(t, root, filepath.Join(root, planted), []Change{{Rel: "lnk/victim"}, {Rel: "lnk/dir", Remove: true}})
			},
			wantErr: "lnk",
		},
		{
			name: "journal is a symlink",
			plant: func(t *testing.T, root, outside string) {
				write(t, map[string]string{"real.json": `{"changes":[]}`}, outside)
				os.MkdirAll(filepath.Join(root, planted), 0o755)
				symlink(t, filepath.Join(outside, "real.json"), filepath.Join(root, planted, journalName))
			},
			wantErr: "not a plain file",
		},
		{
			name: "staged output is a symlink",
			plant: func(t *testing.T, root, outside string) {
				os.MkdirAll(filepath.Join(root, planted, "new"), 0o755)
				symlink(t, filepath.Join(outside, "victim"), filepath.Join(root, planted, "new", "0"))
				writeJournal(t, root, filepath.Join(root, planted), []Change{{Rel: "out"}})
			},
			wantErr: "not a plain file",
		},
		{
			name: "journal is a FIFO",
			plant: func(t *testing.T, root, outside string) {
				os.MkdirAll(filepath.Join(root, planted), 0o755)
				if err := syscall.Mkfifo(filepath.Join(root, planted, journalName), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			wantErr: "not a plain file",
		},
		{
			name: "journal too large",
			plant: func(t *testing.T, root, outside string) {
				os.MkdirAll(filepath.Join(root, planted), 0o755)
				f, _ := os.Create(filepath.Join(root, planted, journalName))
				f.Truncate(maxJournal + 1)
				f.Close()
			},
			wantErr: "larger than",
		},
		{
			name: "transaction folder is a symlink out",
			plant: func(t *testing.T, root, outside string) {
				write(t, map[string]string{"txn/new/0": "PWNED", "txn/journal.json": `{"changes":[{"rel":"go.mod"}]}`}, outside)
				symlink(t, filepath.Join(outside, "txn"), filepath.Join(root, planted))
			},
		},
		{
			name: "staging folder without journal or seal is left alone",
			plant: func(t *testing.T, root, outside string) {
				write(t, map[string]string{planted + "/stage/x": "someone's"}, root)
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			root, outside := filepath.Join(base, "project"), filepath.Join(base, "outside")
			write(t, map[string]string{"victim": "canary", "dir/keep": "canary"}, outside)
			write(t, map[string]string{"go.mod": "module x"}, root)
			tc.plant(t, root, outside)
			beforeOut, beforeIn := tree(t, outside), tree(t, root)

			_, pendErr := Pending(root)
			_, recErr := Recover(root)
			for what, err := range map[string]error{"Pending": pendErr, "Recover": recErr} {
				if tc.wantErr == "" {
					if err != nil {
						t.Errorf("%s: %v, want the folder ignored", what, err)
					}
					continue
				}
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("%s: %v, want an error containing %q", what, err, tc.wantErr)
				}
				if what == "Recover" && strings.Contains(tc.wantErr, "seal") && !strings.Contains(err.Error(), "rm -rf "+planted) {
					t.Errorf("%s: %v, want the way to remove %s", what, err, planted)
				}
			}
			if d := cmp.Diff(beforeOut, tree(t, outside)); d != "" {
				t.Errorf("outside the project changed (-before +after):\n%s", d)
			}
			if d := cmp.Diff(beforeIn, tree(t, root)); d != "" {
				t.Errorf("the project changed (-before +after):\n%s", d)
			}
		})
	}
}

// TestCommitRefusesOutsidePaths: a commit never writes a path outside the root, through ".." or a
// symlinked folder of the project.
func TestCommitRefusesOutsidePaths(t *testing.T) {
	for _, rel := range []string{"../outside/victim", "/etc/x", "lnk/victim", ".opack-txn-x/y", "a/../b"} {
		t.Run(rel, func(t *testing.T) {
			base := t.TempDir()
			root, outside := filepath.Join(base, "project"), filepath.Join(base, "outside")
			write(t, map[string]string{"victim": "canary"}, outside)
			write(t, map[string]string{"go.mod": "module x"}, root)
			symlink(t, "../outside", filepath.Join(root, "lnk"))
			tx, err := Begin(root)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Abort()
			write(t, map[string]string{"out": "PWNED"}, tx.Dir())
			err = tx.Commit([]Change{{Rel: rel, Staged: filepath.Join(tx.Dir(), "out")}})
			if err == nil {
				t.Fatalf("Commit(%q) succeeded", rel)
			}
			if d := cmp.Diff(map[string]string{"victim": "canary"}, tree(t, outside)); d != "" {
				t.Errorf("outside changed (-want +got):\n%s", d)
			}
		})
	}
}

// TestForeignJournalOfAnotherCheckout: a sealed journal copied into another project (another
// checkout, a repository that committed it) does not verify there.
func TestForeignJournalOfAnotherCheckout(t *testing.T) {
	root, tx, changes := stageNew(t)
	for i, c := range changes {
		if err := tx.take(i, c.Staged); err != nil {
			t.Fatal(err)
		}
	}
	writeJournal(t, root, tx.dir, changes)
	other := t.TempDir()
	if err := os.CopyFS(filepath.Join(other, filepath.Base(tx.dir)), os.DirFS(tx.dir)); err != nil {
		t.Fatal(err)
	}
	_, err := Recover(other)
	var fe *ForeignError
	if !errors.As(err, &fe) {
		t.Fatalf("Recover in another folder: %v, want a *ForeignError", err)
	}
	if _, err := Recover(root); err != nil {
		t.Fatalf("Recover in its own folder: %v", err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// TestRecoverRemovesOwnStage: a build killed right after Begin (nothing staged, no journal)
// leaves a folder whose name carries its seal; the next Recover removes it, and leaves a
// look-alike planted by the repository.
func TestRecoverRemovesOwnStage(t *testing.T) {
	root := t.TempDir()
	tx, err := Begin(root)
	if err != nil {
		t.Fatal(err)
	}
	forged := filepath.Join(root, Prefix+"0123456789abcdef-0123456789abcdef")
	if err := os.Mkdir(forged, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Recover(root); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tx.dir); err == nil {
		t.Errorf("the abandoned staging folder %s is left", tx.dir)
	}
	if _, err := os.Stat(forged); err != nil {
		t.Errorf("the planted folder was removed: %v", err)
	}
}
