//go:build linux

package main

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// gateCases are the rows of TestE2EHostileProject for what a pull request can plant to crash,
// stall or spoof the gate: a committed OCI layout, a planted transaction key, inputs whose cost
// their shape decides (a CRD pattern, deploy templates, catalog files and git trees).
func gateCases() []hostileCase {
	plant := func(fs ...func(t *testing.T, dir, outside string)) func(t *testing.T, dir, outside string) {
		return func(t *testing.T, dir, outside string) {
			for _, f := range fs {
				f(t, dir, outside)
			}
		}
	}
	replace := func(rel string, make func(p string) error) func(t *testing.T, dir, outside string) {
		return func(t *testing.T, dir, outside string) {
			p := filepath.Join(dir, filepath.FromSlash(rel))
			if err := os.RemoveAll(p); err != nil {
				t.Fatal(err)
			}
			if err := make(p); err != nil {
				t.Fatal(err)
			}
		}
	}
	toZero := func(p string) error { return os.Symlink("/dev/zero", p) }
	fifo := func(p string) error { return syscall.Mkfifo(p, 0o644) }
	sparse := func(size int64) func(p string) error {
		return func(p string) error {
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				return err
			}
			return os.Truncate(p, size)
		}
	}
	const index = "_output/images/bundle/index.json"
	inspect := []string{"image", "inspect", "oci:_output/images/bundle"}
	hook := ".git/hooks/pre-commit"
	installHook := []txnChange{{Rel: hook}}
	deleteConfig := []txnChange{{Rel: "config", Remove: true}}
	sharedTmpKey := func(t *testing.T, dir, _ string) string {
		return filepath.Join(filepath.Dir(dir), "tmp", fmt.Sprintf(".opack-cache-%d", os.Getuid()), "opack", "txn.key")
	}
	at := func(rel string) func(t *testing.T, dir, _ string) string {
		return func(t *testing.T, dir, _ string) string { return filepath.Join(filepath.Dir(dir), rel) }
	}
	template := func(body string) func(t *testing.T, dir, outside string) {
		return plant(editProject("deploy:\n", "deploy:\n  templates: tmpl\n"),
			files(map[string]string{"tmpl/olmv0/namespace.yaml.tmpl": "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: x\n" + body + "\n"}))
	}
	nested := func(k int, leaf string) string {
		return "^" + strings.Repeat("(a|(b|", k) + leaf + strings.Repeat("))", k) + "$"
	}
	return []hostileCase{
		// A committed OCI layout is read through the confined reader, never by path.
		{name: "layout index.json is /dev/zero: build", plant: replace(index, toZero), args: []string{"build", "--version", "0.0.5"}, code: 2,
			want: []string{"index.json is a symlink to /dev/zero", "remove _output/images/bundle"}},
		{name: "layout index.json is /dev/zero: check", plant: replace(index, toZero), args: []string{"check"}, code: 2, want: []string{"index.json is a symlink to /dev/zero"}},
		{name: "layout index.json is /dev/zero: image inspect", plant: replace(index, toZero), args: inspect, code: 2, want: []string{"leads out of the layout"}},
		{name: "layout index.json is a FIFO: image inspect", plant: replace(index, fifo), args: inspect, code: 2, want: []string{"index.json is not a regular file"}},
		{name: "layout index.json is 4 GiB: image inspect", plant: replace(index, sparse(4<<30)), args: inspect, code: 2, want: []string{"manifest size exceeds"}},
		// The transaction key is the user's alone: a key another user or the repository could
		// write seals nothing, and a journal sealed with one is never applied.
		{name: "key planted in the shared temporary folder (no HOME)", plant: sealedJournal(sharedTmpKey, 0o600, installHook),
			env: []string{"HOME=", "XDG_CACHE_HOME=", "TMPDIR=$BASE/tmp"}, code: 2, want: []string{"cannot verify", "restore them"}, absent: []string{hook}},
		{name: "key inside the project (XDG_CACHE_HOME)", plant: sealedJournal(at("project/.cache/opack/txn.key"), 0o600, deleteConfig),
			env: []string{"XDG_CACHE_HOME=$BASE/project/.cache"}, code: 2, want: []string{"lies inside the project"}, present: []string{"config"}},
		{name: "key writable by others", plant: sealedJournal(at("cache/opack/txn.key"), 0o666, installHook),
			env: []string{"XDG_CACHE_HOME=$BASE/cache"}, code: 2, want: []string{"txn.key is writable by others"}, absent: []string{hook}},
		{name: "key folder of another user", plant: plant(sealedJournal(at("cache/opack/txn.key"), 0o600, installHook), chownTree(at("cache/opack"))),
			env: []string{"XDG_CACHE_HOME=$BASE/cache"}, code: 2, want: []string{"belongs to uid 4242"}, absent: []string{hook}},
		{name: "read-only home: build", plant: files(nil), env: []string{"HOME=/sys", "XDG_CACHE_HOME="}, args: []string{"build", "--version", "0.0.2"}, code: 0},
		// Costs the input's shape decides have budgets.
		{name: "CRD pattern of 30 nested alternations", plant: files(map[string]string{
			"old.yaml": patternCRD(nested(30, "c")), "new.yaml": patternCRD(nested(30, "d"))}),
			args: []string{"validate", "crds", "old.yaml", "new.yaml"}, code: -1, want: []string{"pattern changed"}, deadline: 20 * time.Second},
		{name: "deploy template range over 10^12", plant: template("{{range 1000000000000}}AAAA{{end}}"), code: 2, want: []string{"more than 100000 steps", "deploy.templates"}},
		{name: "deploy template empty loop: check", plant: template("{{range 1000000000000}}{{end}}"), args: []string{"check"}, code: 2, want: []string{"more than 100000 steps"}},
		{name: "deploy template that calls itself", plant: template(`{{define "a"}}{{template "a" .}}{{end}}{{template "a" .}}`), code: 2, want: []string{"call themselves"}},
		{name: "catalog diff: a 4 GiB file in a catalog folder", plant: plant(catalogPair, replace("head/p/huge.json", sparse(4<<30))),
			args: []string{"catalog", "diff", "base", "head"}, code: 2, want: []string{"huge.json: catalog file size exceeds"}, deadline: 20 * time.Second},
		{name: "catalog diff: a git tree naming one 99 MiB blob 300 times", plant: gitCatalog(300, 99<<20),
			args: []string{"catalog", "diff", "git:base:fbc", "git:head:fbc"}, code: 2, want: []string{"total size read exceeds"}, deadline: 30 * time.Second},
		{name: "catalog diff: a 600 MiB blob in a git tree", plant: gitCatalog(1, 600<<20),
			args: []string{"catalog", "diff", "git:base:fbc", "git:head:fbc"}, code: 2, want: []string{"catalog file size exceeds"}, deadline: 30 * time.Second},
		// kustomize panics on a comma in a name under a namePrefix: an error, not a crash.
		{name: "kustomize panics on a resource name", plant: plant(files(map[string]string{"config/default/evil.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a,b\n"}),
			editProjectFile("config/default/kustomization.yaml", "resources:\n", "resources:\n- evil.yaml\n")), code: 2, want: []string{"failed inside kustomize", "rename it"}},
	}
}

func files(m map[string]string) func(t *testing.T, dir, outside string) {
	return func(t *testing.T, dir, outside string) { writeFiles(t, dir, m) }
}

// editProjectFile replaces old with new in the project file rel.
func editProjectFile(rel, old, new string) func(t *testing.T, dir, outside string) {
	return func(t *testing.T, dir, outside string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		data, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(data), old) {
			t.Fatalf("%s lacks %q (%v)", rel, old, err)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func editProject(old, new string) func(t *testing.T, dir, outside string) {
	return editProjectFile("opack.yaml", old, new)
}

// txnChange is a change of a transaction journal, as internal/txn writes it.
type txnChange struct {
	Rel    string `json:"rel"`
	Remove bool   `json:"remove,omitempty"`
}

// sealedJournal writes a key of mode mode at the path keyAt gives, and in the project a journal
// sealed with it (internal/txn's seal: an HMAC over the project's real path, the folder's name,
// "journal" and the changes), staging "PWNED" for every change that is not a removal.
func sealedJournal(keyAt func(t *testing.T, dir, outside string) string, mode os.FileMode, changes []txnChange) func(t *testing.T, dir, outside string) {
	return func(t *testing.T, dir, outside string) {
		t.Helper()
		keyFile := keyAt(t, dir, outside)
		key := make([]byte, 32)
		rand.Read(key)
		if err := os.MkdirAll(filepath.Dir(keyFile), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(keyFile, key, mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(keyFile, mode)
		realRoot, err := filepath.EvalSymlinks(dir)
		if err != nil {
			t.Fatal(err)
		}
		const folder = ".opack-txn-planted"
		payload, _ := json.Marshal(changes)
		m := hmac.New(sha256.New, key)
		for _, part := range [][]byte{[]byte("opack-txn-v1"), []byte(realRoot), []byte(folder), []byte("journal"), payload} {
			fmt.Fprintf(m, "%d:", len(part))
			m.Write(part)
		}
		journal, _ := json.Marshal(map[string]any{"changes": changes, "seal": hex.EncodeToString(m.Sum(nil))})
		planted := map[string]string{folder + "/journal.json": string(journal)}
		for i, c := range changes {
			if !c.Remove {
				planted[fmt.Sprintf("%s/new/%d", folder, i)] = "#!/bin/sh\necho PWNED\n"
			}
		}
		writeFiles(t, dir, planted)
		os.MkdirAll(filepath.Join(dir, ".git", "hooks"), 0o755)
	}
}

// chownTree gives the folder at and what it holds to uid 4242 (another local user).
func chownTree(at func(t *testing.T, dir, outside string) string) func(t *testing.T, dir, outside string) {
	return func(t *testing.T, dir, outside string) {
		t.Helper()
		root := at(t, dir, outside)
		err := filepath.Walk(root, func(p string, _ os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, 4242, 4242)
		})
		if err != nil {
			t.Skipf("cannot give files to another user here: %v", err)
		}
	}
}

// patternCRD is a CRD whose spec.name has the pattern p.
func patternCRD(p string) string {
	quoted, _ := json.Marshal(p)
	return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              name:
                type: string
                pattern: ` + string(quoted) + "\n"
}

// catalogPair writes the same one-package catalog in base/ and head/.
func catalogPair(t *testing.T, dir, _ string) {
	t.Helper()
	c := `{"schema":"olm.package","name":"p","defaultChannel":"stable"}
{"schema":"olm.channel","name":"stable","package":"p","entries":[{"name":"p.v1.0.0"}]}
{"schema":"olm.bundle","name":"p.v1.0.0","package":"p","image":"quay.io/example/p@sha256:` + strings.Repeat("0", 64) + `","properties":[{"type":"olm.package","value":{"packageName":"p","version":"1.0.0"}}]}
`
	writeFiles(t, dir, map[string]string{"base/p/catalog.json": c, "head/p/catalog.json": c})
}

// gitCatalog makes the project a git repository: branch base holds catalogPair's catalog in
// fbc/, branch head the same plus n tree entries naming one blob of size bytes (written in
// chunks: the test process stays small, as a child's peak memory counts its parent's at fork).
func gitCatalog(n int, size int64) func(t *testing.T, dir, outside string) {
	return func(t *testing.T, dir, outside string) {
		t.Helper()
		if _, err := exec.LookPath("git"); err != nil {
			t.Skip("git not found")
		}
		catalogPair(t, dir, outside)
		if err := os.Rename(filepath.Join(dir, "base"), filepath.Join(dir, "fbc")); err != nil {
			t.Fatal(err)
		}
		git := func(args ...string) string {
			t.Helper()
			cmd := exec.Command("git", args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("git %v: %v", args, err)
			}
			return strings.TrimSpace(string(out))
		}
		git("init", "-q", "-b", "base", ".")
		git("add", "fbc")
		git("commit", "-q", "-m", "base")
		big := filepath.Join(t.TempDir(), "big.json")
		if err := os.WriteFile(big, []byte(`{"schema":"olm.package","name":"q","description":"`), 0o644); err != nil {
			t.Fatal(err)
		}
		f, _ := os.OpenFile(big, os.O_APPEND|os.O_WRONLY, 0)
		chunk := []byte(strings.Repeat("A", 1<<20))
		for n := int64(0); n < size; n += int64(len(chunk)) {
			f.Write(chunk[:min(int64(len(chunk)), size-n)])
		}
		f.Write([]byte("\"}\n"))
		f.Close()
		blob := git("hash-object", "-w", big)
		var tree strings.Builder
		fmt.Fprintf(&tree, "040000 tree %s\tp\n", git("rev-parse", "base:fbc/p"))
		for i := range n {
			fmt.Fprintf(&tree, "100644 blob %s\tq%d.json\n", blob, i)
		}
		mk := exec.Command("git", "mktree")
		mk.Dir, mk.Stdin = dir, strings.NewReader(tree.String())
		catalogTree, err := mk.Output()
		if err != nil {
			t.Fatal(err)
		}
		mk = exec.Command("git", "mktree")
		mk.Dir, mk.Stdin = dir, strings.NewReader("040000 tree "+strings.TrimSpace(string(catalogTree))+"\tfbc\n")
		root, err := mk.Output()
		if err != nil {
			t.Fatal(err)
		}
		git("update-ref", "refs/heads/head", git("commit-tree", strings.TrimSpace(string(root)), "-p", "base", "-m", "head"))
	}
}
