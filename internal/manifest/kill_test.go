//go:build unix

package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The SIGKILL tests re-execute this test binary as a child that writes an output with ReplaceDir or
// WriteFile; the parent waits for the child's marker file (the write is then in progress), kills the
// child with SIGKILL and checks that the output is a complete version (the previous one when the child
// never finished a write), never a partial one.

const (
	killEnvMode   = "OPACK_KILLTEST_MODE"
	killEnvTarget = "OPACK_KILLTEST_TARGET"
	killEnvMarker = "OPACK_KILLTEST_MARKER"
	killEnvMarkAt = "OPACK_KILLTEST_MARK_AT" // the loop writing version N writes the marker first
	killFiles     = 40                       // files of one folder version
)

// TestKillDuringReplaceDirFill kills the child while its fill is still writing: the old folder must
// be there byte for byte.
func TestKillDuringReplaceDirFill(t *testing.T) {
	if killChild() {
		return
	}
	dir := filepath.Join(t.TempDir(), "bundle")
	writeVersion(t, dir, 0)
	want := snapshot(t, dir)
	runAndKill(t, "slowfill", dir, 0, 0)
	if diff := cmp.Diff(want, snapshot(t, dir)); diff != "" {
		t.Fatalf("folder changed after the writer was killed mid-fill (-want +got):\n%s", diff)
	}
	assertOnlyHidden(t, filepath.Dir(dir), "bundle")
}

// TestKillDuringReplaceDirLoop kills a child that replaces the folder again and again: whenever the
// kill lands (in a fill, in the swap, in the clean-up), the folder is one complete version.
func TestKillDuringReplaceDirLoop(t *testing.T) {
	if killChild() {
		return
	}
	for i, markAt := range []int{1, 1, 3, 3, 3} {
		dir := filepath.Join(t.TempDir(), "bundle")
		writeVersion(t, dir, 0)
		runAndKill(t, "loopdir", dir, markAt, time.Duration(i)*15*time.Millisecond)
		checkVersion(t, snapshot(t, dir))
		assertOnlyHidden(t, filepath.Dir(dir), "bundle")
	}
}

// TestKillDuringWriteFile kills a child that rewrites one large file again and again: the file is
// always one complete version, the previous content or a whole new one.
func TestKillDuringWriteFile(t *testing.T) {
	if killChild() {
		return
	}
	for i, markAt := range []int{1, 1, 3, 3, 3} {
		file := filepath.Join(t.TempDir(), "catalog.json")
		must(t, os.WriteFile(file, fileVersion(0), 0o644))
		runAndKill(t, "loopfile", file, markAt, time.Duration(i)*15*time.Millisecond)
		got, err := os.ReadFile(file)
		must(t, err)
		gen, ok := parseFileVersion(got)
		if !ok {
			t.Fatalf("%s holds %d bytes that are no complete version (starts %q)", file, len(got), got[:min(len(got), 40)])
		}
		t.Logf("kill %d: the file holds version %d", i, gen)
		assertOnlyHidden(t, filepath.Dir(file), "catalog.json")
	}
}

// runAndKill starts the child in mode on target, waits for its marker, SIGKILLs it and reaps it.
// markAt is the version before whose write the looping children write their marker; jitter delays
// the kill by up to that much after the marker, so that it lands in different phases of a write.
func runAndKill(t *testing.T, mode, target string, markAt int, jitter time.Duration) {
	t.Helper()
	marker := filepath.Join(t.TempDir(), "marker")
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), killEnvMode+"="+mode, killEnvTarget+"="+target, killEnvMarker+"="+marker, killEnvMarkAt+"="+strconv.Itoa(markAt))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	must(t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for !exists(marker) {
		select {
		case err := <-done:
			t.Fatalf("the child exited before its marker appeared (%v):\n%s", err, out.String())
		case <-time.After(2 * time.Millisecond):
		}
	}
	if jitter > 0 {
		time.Sleep(time.Duration(rand.Int64N(int64(jitter))))
	}
	must(t, cmd.Process.Kill()) // SIGKILL on unix
	err := <-done
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("the child was not killed: %v\n%s", err, out.String())
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the child ended with %v, not by SIGKILL:\n%s", err, out.String())
	}
}

// killChild runs the child's side when this process is a child, and reports whether it was.
func killChild() bool {
	mode := os.Getenv(killEnvMode)
	if mode == "" {
		return false
	}
	target, marker := os.Getenv(killEnvTarget), os.Getenv(killEnvMarker)
	markAt, _ := strconv.Atoi(os.Getenv(killEnvMarkAt))
	var err error
	switch mode {
	case "slowfill":
		err = ReplaceDir(target, func(tmp string) error {
			// Never returns on its own: the parent kills it. It gives up (without swapping) after a
			// bound, so a lost parent does not leave it running.
			for i := 0; i < 100000; i++ {
				if err := os.WriteFile(filepath.Join(tmp, "new-"+strconv.Itoa(i)+".yaml"), bytes.Repeat([]byte("partial\n"), 512), 0o644); err != nil {
					return err
				}
				if i == 5 {
					if err := os.WriteFile(marker, nil, 0o644); err != nil {
						return err
					}
				}
				time.Sleep(time.Millisecond)
			}
			return errors.New("not killed")
		})
	case "loopdir":
		for gen := 1; gen < 100000 && err == nil; gen++ {
			if gen == markAt {
				err = os.WriteFile(marker, nil, 0o644)
			}
			if err == nil {
				err = ReplaceDir(target, func(tmp string) error { return writeVersionErr(tmp, gen) })
			}
		}
	case "loopfile":
		for gen := 1; gen < 100000 && err == nil; gen++ {
			if gen == markAt {
				err = os.WriteFile(marker, nil, 0o644)
			}
			if err == nil {
				err = WriteFile(target, fileVersion(gen), 0o644)
			}
		}
	default:
		err = fmt.Errorf("unknown mode %q", mode)
	}
	fmt.Fprintf(os.Stderr, "child %s: %v\n", mode, err)
	os.Exit(3) // reached only when not killed: the parent reports it
	return true
}

// writeVersion writes version gen of a folder: killFiles files in two folders, each naming gen.
func writeVersion(t *testing.T, dir string, gen int) {
	t.Helper()
	must(t, writeVersionErr(dir, gen))
}

func writeVersionErr(dir string, gen int) error {
	for i := 0; i < killFiles; i++ {
		p := filepath.Join(dir, "sub"+strconv.Itoa(i%2), "f"+strconv.Itoa(i)+".yaml")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, versionBody(gen, i), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func versionBody(gen, i int) []byte {
	return bytes.Repeat([]byte(fmt.Sprintf("version: %d\nfile: %d\n", gen, i)), 64)
}

// checkVersion fails unless files is one complete folder version.
func checkVersion(t *testing.T, files map[string]string) {
	t.Helper()
	gen := -1
	if body, ok := files["sub0/f0.yaml"]; ok {
		fmt.Sscanf(body, "version: %d", &gen)
	}
	want := map[string]string{}
	for i := 0; i < killFiles; i++ {
		want["sub"+strconv.Itoa(i%2)+"/f"+strconv.Itoa(i)+".yaml"] = string(versionBody(gen, i))
	}
	if diff := cmp.Diff(want, files); diff != "" {
		t.Fatalf("the folder is not one complete version (-want +got):\n%s", diff)
	}
	t.Logf("the folder holds version %d", gen)
}

// fileVersion is a 4 MiB file naming gen at both ends.
func fileVersion(gen int) []byte {
	head := []byte(fmt.Sprintf("version %08d\n", gen))
	body := bytes.Repeat([]byte{byte('a' + gen%26)}, 4<<20)
	return append(append(append([]byte{}, head...), body...), head...)
}

func parseFileVersion(data []byte) (int, bool) {
	var gen int
	if _, err := fmt.Sscanf(string(data[:min(len(data), 17)]), "version %d\n", &gen); err != nil {
		return 0, false
	}
	return gen, bytes.Equal(data, fileVersion(gen))
}

// snapshot returns the files below dir (relative slash paths) and their contents.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	must(t, err)
	return out
}

// assertOnlyHidden fails if parent holds anything besides name and hidden staging leftovers of it.
func assertOnlyHidden(t *testing.T, parent, name string) {
	t.Helper()
	ents, err := os.ReadDir(parent)
	must(t, err)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
		if e.Name() != name && !strings.HasPrefix(e.Name(), ".opack-tmp-"+name+"-") {
			t.Errorf("%s: unexpected entry %s next to the output", parent, e.Name())
		}
	}
	sort.Strings(names)
	if len(names) == 0 || !contains(names, name) {
		t.Errorf("%s: the output %s is missing (entries %v)", parent, name, names)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
