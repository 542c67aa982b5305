//go:build linux

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostileEnv carries the arguments of the opack run a TestE2EHostileProject child makes.
const hostileEnv = "OPACK_HOSTILE_ARGS"

// hostileCase is a project a pull request could make (a hostile repository): what it plants in a copy of the
// built sample project, the command run on it, and what opack must answer.
type hostileCase struct {
	name    string
	plant   func(t *testing.T, dir, outside string)
	args    []string // run in the project folder; default build
	env     []string
	code    int      // the exit code; -1: 0 or 1 (the command ran)
	want    []string // in the output
	notWant []string // never in the output nor in opack.yaml
	// absent are paths of the project that must not exist after the run (what a planted journal
	// would write); present, paths that must still exist (what it would delete).
	absent, present []string
	deadline        time.Duration // default 90 s
}

// TestE2EHostileProject plants hostile projects beside a folder of canary files and runs opack
// on each as a child process (as CI runs it). For every case: the canary folder is byte-identical
// afterwards, the exit code and message are the expected ones (naming the file and the fix), no
// process of the run outlives it, the run ends within its deadline and its peak memory stays
// under 1 GiB. Each attack a hostile repository can make is a row of this table.
func TestE2EHostileProject(t *testing.T) {
	if args := os.Getenv(hostileEnv); args != "" {
		os.Exit(runWithSignals(strings.Split(args, "\x1f")))
	}
	if testing.Short() {
		t.Skip("child processes: runs without -short (test-slow)")
	}
	template := demoProject(t)
	for _, args := range [][]string{
		{"init", template, "--version", "0.0.1", "--bundle-image", "quay.io/example/memcached-operator-bundle", "--catalog-image", "quay.io/example/memcached-operator-catalog"},
		{"build", "-f", filepath.Join(template, "opack.yaml")},
	} {
		if code, stdout, stderr := runOpack(t, "", args...); code != 0 {
			t.Fatalf("opack %v: exit %d\n%s%s", args, code, stdout, stderr)
		}
	}
	for _, tc := range append(hostileCases(), gateCases()...) {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			dir, outside := filepath.Join(base, "project"), filepath.Join(base, "outside")
			if err := os.CopyFS(dir, os.DirFS(template)); err != nil {
				t.Fatal(err)
			}
			writeFiles(t, outside, map[string]string{"victim": "canary\n", "dir/keep": "canary\n", "secrets.mk": "SECRET = hunter2\n",
				"secret.h": "SECRET-CANARY\n", "template.yaml": "schema: olm.template.basic\nentries: []\n# SECRET-CANARY\n"})
			tc.plant(t, dir, outside)
			before := hashTree(t, outside)
			args := tc.args
			if args == nil {
				args = []string{"build"}
			}
			deadline := tc.deadline
			if deadline == 0 {
				deadline = 90 * time.Second
			}
			env := make([]string, len(tc.env))
			for i, e := range tc.env {
				env[i] = strings.ReplaceAll(e, "$BASE", base)
			}
			code, out := runHostile(t, dir, args, env, deadline)
			for _, p := range tc.absent {
				if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
					t.Errorf("%s exists after the run", p)
				}
			}
			for _, p := range tc.present {
				if _, err := os.Lstat(filepath.Join(dir, p)); err != nil {
					t.Errorf("%s is gone after the run: %v", p, err)
				}
			}
			if after := hashTree(t, outside); !equalMaps(before, after) {
				t.Errorf("the folder beside the project changed:\nbefore %v\nafter  %v", before, after)
			}
			if tc.code >= 0 && code != tc.code || tc.code < 0 && code > 1 {
				t.Errorf("opack %s: exit %d, want %d\n%s", strings.Join(args, " "), code, tc.code, out)
			}
			var project []byte // opack.yaml as the run left it (a planted /dev/zero or FIFO is not read)
			if fi, err := os.Lstat(filepath.Join(dir, "opack.yaml")); err == nil && fi.Mode().IsRegular() {
				project, _ = os.ReadFile(filepath.Join(dir, "opack.yaml"))
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range append(tc.notWant, "SECRET-CANARY", "hunter2") {
				if strings.Contains(out, w) || bytes.Contains(project, []byte(w)) {
					t.Errorf("%q (from outside the project) in the output or opack.yaml:\n%s", w, out)
				}
			}
		})
	}
}

func hostileCases() []hostileCase {
	link := func(target, name string) func(t *testing.T, dir, outside string) {
		return func(t *testing.T, dir, outside string) {
			t.Helper()
			p := filepath.Join(dir, name)
			os.RemoveAll(p)
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
		}
	}
	edit := func(old, new string, more ...func(t *testing.T, dir, outside string)) func(t *testing.T, dir, outside string) {
		return func(t *testing.T, dir, outside string) {
			t.Helper()
			p := filepath.Join(dir, "opack.yaml")
			data, err := os.ReadFile(p)
			if err != nil || !bytes.Contains(data, []byte(old)) {
				t.Fatalf("opack.yaml lacks %q (%v)", old, err)
			}
			if err := os.WriteFile(p, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, m := range more {
				m(t, dir, outside)
			}
		}
	}
	fifo := func(name string) func(t *testing.T, dir, outside string) {
		return func(t *testing.T, dir, outside string) {
			p := filepath.Join(dir, name)
			os.RemoveAll(p)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	files := func(m map[string]string) func(t *testing.T, dir, outside string) {
		return func(t *testing.T, dir, outside string) { writeFiles(t, dir, m) }
	}
	both := func(fs ...func(t *testing.T, dir, outside string)) func(t *testing.T, dir, outside string) {
		return func(t *testing.T, dir, outside string) {
			for _, f := range fs {
				f(t, dir, outside)
			}
		}
	}
	journal := files(map[string]string{".opack-txn-1/new/0": "PWNED",
		".opack-txn-1/journal.json": `{"changes":[{"rel":"../outside/victim"},{"rel":"../outside/dir","remove":true}]}`})
	lnk := link("../outside", "lnk")
	makefile := func(text string) func(t *testing.T, dir, outside string) {
		return both(files(map[string]string{"Makefile": text}), func(t *testing.T, dir, outside string) { os.Remove(filepath.Join(dir, "opack.yaml")) })
	}
	initArgs := []string{"init", "."}
	doubling := func(n int) string {
		var b strings.Builder
		b.WriteString("VERSION ?= 0.0.1\nA0 = xxxxxxxxxxxxxxxx\n")
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "A%d = $(A%d)$(A%d)\n", i, i-1, i-1)
		}
		return b.String() + fmt.Sprintf("IMAGE_TAG_BASE ?= $(A%d)\n", n)
	}
	apiTypes := "// +groupName=cache.example.com\npackage v1alpha1\n\ntype Node struct {\n\t// +operator-sdk:csv:customresourcedefinitions:type=spec\n\tSize int32 `json:\"size\"`\n\tNext *Node `json:\"next,omitempty\"`\n}\n\ntype MemcachedSpec struct {\n\tRoot Node `json:\"root\"`\n}\n\ntype MemcachedStatus struct{}\n\ntype Memcached struct {\n\tSpec   MemcachedSpec   `json:\"spec\"`\n\tStatus MemcachedStatus `json:\"status\"`\n}\n"
	goModule := files(map[string]string{"go.mod": "module example.com/memcached-operator\n\ngo 1.22\n", "api/v1alpha1/memcached_types.go": apiTypes})
	return []hostileCase{
		{name: "planted journal: build", plant: journal, code: 2, want: []string{".opack-txn-1", "was not written by opack", "rm -rf .opack-txn-1"}},
		{name: "planted journal: check", plant: journal, args: []string{"check"}, code: 2, want: []string{".opack-txn-1", "rm -rf .opack-txn-1"}},
		{name: "journal is a FIFO", plant: fifo(".opack-txn-1/journal.json"), code: 2, want: []string{".opack-txn-1", "not a plain file"}},
		{name: "journal is a symlink out", plant: both(files(map[string]string{".opack-txn-1/new/0": "x"}), link("../../outside/victim", ".opack-txn-1/journal.json")), code: 2, want: []string{"not a plain file"}},
		{name: "catalog dir through a symlink", plant: edit("  dir: catalog\n", "  dir: lnk/dir\n", lnk), code: 2, want: []string{"catalogs[0].dir", "symlink lnk"}},
		{name: "bundle dir through a symlink", plant: edit("  dir: bundle\n", "  dir: lnk/bundle\n", lnk), code: 2, want: []string{"bundle.dir", "symlink lnk"}},
		{name: "deploy through a symlink", plant: edit("  deploy: deploy ", "  deploy: lnk/deploy ", lnk), code: 2, want: []string{"outputs.deploy", "symlink lnk"}},
		{name: "outputs through a symlink", plant: edit("  dir: _output ", "  dir: lnk/out ", lnk), code: 2, want: []string{"outputs.dir", "symlink lnk"}},
		{name: "previous dir through a symlink", plant: edit("# previous:        #", "previous:\n  dir: lnk/dir\n#", lnk), code: 2, want: []string{"previous.dir", "symlink lnk"}},
		{name: "template is a symlink out", plant: link("../outside/template.yaml", "catalog-template.yaml"), code: 2, want: []string{"catalogs[0].template", "symlink catalog-template.yaml"}},
		{name: "template names a bundle folder beside the project", plant: func(t *testing.T, dir, outside string) {
			if err := os.CopyFS(filepath.Join(outside, "bundle"), os.DirFS(filepath.Join(dir, "bundle"))); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, "catalog-template.yaml")
			data, _ := os.ReadFile(p)
			os.WriteFile(p, bytes.Replace(data, []byte("- schema: olm.channel"), []byte("- schema: olm.bundle\n  image: ../outside/bundle\n- schema: olm.channel"), 1), 0o644)
		}, code: 2, want: []string{"../outside/bundle", "outside the project"}},
		{name: "template names an absolute folder", plant: func(t *testing.T, dir, outside string) {
			p := filepath.Join(dir, "catalog-template.yaml")
			data, _ := os.ReadFile(p)
			os.WriteFile(p, bytes.Replace(data, []byte("- schema: olm.channel"), []byte("- schema: olm.bundle\n  image: "+outside+"\n- schema: olm.channel"), 1), 0o644)
		}, code: 2, want: []string{"outside the project"}},
		{name: "template is a FIFO", plant: fifo("catalog-template.yaml"), code: 2, want: []string{"catalog-template.yaml", "FIFO"}},
		{name: "opack.yaml is a symlink out", plant: link("../outside/victim", "opack.yaml"), code: 2, want: []string{"opack.yaml", "outside the project"}},
		{name: "opack.yaml is /dev/zero", plant: link("/dev/zero", "opack.yaml"), code: 2, want: []string{"opack.yaml", "outside the project"}},
		{name: "opack.owned is /dev/zero", plant: link("/dev/zero", "opack.owned"), code: 2, want: []string{"opack.owned", "outside the project"}},
		{name: "opack.owned is a FIFO", plant: fifo("opack.owned"), code: 2, want: []string{"opack.owned", "FIFO"}},
		{name: "PROJECT is /dev/zero", plant: link("/dev/zero", "PROJECT"), code: 2, want: []string{"PROJECT", "outside the project"}},
		{name: "bundle.Dockerfile is /dev/zero", plant: link("/dev/zero", "bundle.Dockerfile"), code: 2, want: []string{"bundle.Dockerfile", "outside the project"}},
		{name: "bundle.Dockerfile is a FIFO", plant: fifo("bundle.Dockerfile"), code: 2, want: []string{"bundle.Dockerfile", "FIFO"}},
		{name: "version flag empty", args: []string{"build", "--version="}, plant: files(nil), code: 2, want: []string{"--version is empty"}},
		{name: "init: include of the environment", plant: makefile("include /proc/self/environ\nVERSION ?= 0.0.1\nIMAGE_TAG_BASE ?= $(SOME_TOKEN)\n"),
			args: initArgs, env: []string{"SOME_TOKEN=TOKEN-CANARY-42"}, code: 2, notWant: []string{"TOKEN-CANARY-42"}, want: []string{"outside the project"}},
		{name: "init: include beside the project", plant: makefile("include ../outside/secrets.mk\nVERSION ?= 0.0.1\nIMAGE_TAG_BASE ?= quay.io/$(SECRET)/op\n"),
			args: initArgs, code: 2, want: []string{"outside the project"}},
		{name: "init: a 40-deep doubling", plant: makefile(doubling(40)), args: initArgs, code: 2, want: []string{"larger than opack reads"}},
		{name: "init: a line over 1 MiB", plant: makefile("VERSION ?= 0.0.1\nX = " + strings.Repeat("x", 2<<20) + "\nIMAGE_TAG_BASE ?= quay.io/me/op\n"),
			args: initArgs, code: 2, want: []string{"Makefile:2: "}},
		{name: "init: ifeq without endif", plant: makefile("ifeq (a,a)\nVERSION ?= 0.0.1\n"), args: initArgs, code: 2, want: []string{"missing 'endif'"}},
		{name: "Go type holding itself", plant: goModule, code: -1},
		{name: "cgo file including outside files", plant: both(goModule, files(map[string]string{
			"api/v1alpha1/cgo.go": "package v1alpha1\n\n/*\n#include \"../../../outside/secret.h\"\n#include \"/dev/zero\"\n*/\nimport \"C\"\n"})), code: -1},
		// Only the API packages are read (without the go command): a replace or vendor/ pointing
		// outside is never followed.
		{name: "go.mod replace outside", plant: both(goModule, files(map[string]string{
			"go.mod": "module example.com/memcached-operator\n\ngo 1.22\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ../outside\n"})),
			code: -1},
		{name: "vendor symlink out", plant: both(goModule, files(map[string]string{"vendor/modules.txt": "# example.com/dep v0.0.0\n"}), link("../../outside", "vendor/example.com")),
			code: -1},
		{name: "API Go file is a symlink out", plant: both(goModule, link("../../../outside/secret.h", "api/v1alpha1/zz_secret.go")),
			code: 2, want: []string{"api/v1alpha1/zz_secret.go", "outside the project"}},
	}
}

// runHostile runs opack with args in dir as a child process in a process group of its own and
// returns its exit code and output; it fails the test when the run outlives deadline, leaves a
// process behind or peaks over 1 GiB.
func runHostile(t *testing.T, dir string, args, env []string, deadline time.Duration) (int, string) {
	t.Helper()
	var out bytes.Buffer
	code := runChild(t, dir, args, env, deadline, &out, &out)
	return code, out.String()
}

// runChild is runHostile with stdout and stderr apart.
func runChild(t *testing.T, dir string, args, env []string, deadline time.Duration, stdout, stderr *bytes.Buffer) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestE2EHostileProject$")
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), hostileEnv+"="+strings.Join(args, "\x1f")), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := cmd.Process.Pid
	timer := time.AfterFunc(deadline, func() { syscall.Kill(-pgid, syscall.SIGKILL) })
	err := cmd.Wait()
	if !timer.Stop() {
		t.Errorf("opack %s ran past %v", strings.Join(args, " "), deadline)
	}
	if err := syscall.Kill(-pgid, 0); err == nil {
		t.Errorf("a process of the run outlived it")
		syscall.Kill(-pgid, syscall.SIGKILL)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > 1<<20 {
		t.Errorf("peak memory %d MiB", ru.Maxrss>>10)
	}
	code := cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		t.Fatalf("opack %s: %v\n%s%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return code
}

// TestE2EStopsOnSIGTERM: opack blocked on its input stops within 2 s of SIGTERM, with 143.
func TestE2EStopsOnSIGTERM(t *testing.T) {
	if args := os.Getenv(hostileEnv); args != "" {
		os.Exit(runWithSignals(strings.Split(args, "\x1f")))
	}
	if testing.Short() {
		t.Skip("child process: runs without -short (test-slow)")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestE2EStopsOnSIGTERM$")
	cmd.Env = append(os.Environ(), hostileEnv+"="+strings.Join([]string{"catalog", "template", "basic", "-"}, "\x1f"))
	r, w, err := os.Pipe() // stdin that never ends
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	cmd.Stdin = r
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	time.Sleep(500 * time.Millisecond)
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("opack still ran 10 s after SIGTERM")
	}
	if d := time.Since(sent); d > 2*time.Second {
		t.Errorf("opack stopped %v after SIGTERM, want within 2 s", d)
	}
	if code := cmd.ProcessState.ExitCode(); code != 143 {
		t.Errorf("exit %d, want 143\n%s", code, out.String())
	}
}

func writeFiles(t *testing.T, root string, files map[string]string) {
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

// hashTree maps every entry below dir to its type and content hash (a symlink to its target).
func hashTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[rel] = "link " + target
		case d.IsDir():
			out[rel] = "dir"
		case d.Type().IsRegular():
			data, _ := os.ReadFile(p)
			sum := sha256.Sum256(data)
			out[rel] = hex.EncodeToString(sum[:8])
		default:
			out[rel] = d.Type().String()
		}
		return nil
	})
	return out
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
