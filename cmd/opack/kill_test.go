//go:build unix

package main

import (
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// killEnv carries the arguments of the opack run a TestE2EBuildKilled child makes.
const killEnv = "OPACK_KILLTEST_ARGS"

// TestE2EBuildKilled guards against what a SIGKILL during opack build once did: it left
// opack.yaml at one release and the other outputs at the next (and check said all was well),
// and temporary folders stayed forever. Here a child process runs opack build --version of the
// next release and is killed after a random delay within one build's duration, many times in a
// row. After each kill, check either passes (the project is one release: opack.yaml's version
// is the old or the new one and every output matches it) or names the half-applied build; the
// next plain build finishes it and writes nothing else, check then passes, and no temporary
// folder of opack survives in the project or in $TMPDIR.
func TestE2EBuildKilled(t *testing.T) {
	if args := os.Getenv(killEnv); args != "" {
		os.Exit(run(context.Background(), strings.Split(args, "\x1f"), nil, os.Stdout, os.Stderr))
	}
	if testing.Short() {
		t.Skip("kill loop: runs without -short")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir := demoProject(t)
	file := filepath.Join(dir, "opack.yaml")
	opack := func(args ...string) (int, string) {
		code, stdout, stderr := runOpack(t, "", args...)
		return code, stdout + stderr
	}
	if code, out := opack("init", dir, "--version", "0.0.1", "--bundle-image", "quay.io/example/memcached-operator-bundle", "--catalog-image", "quay.io/example/memcached-operator-catalog"); code != 0 {
		t.Fatal(out)
	}
	if code, out := opack("build", "-f", file); code != 0 {
		t.Fatal(out)
	}
	child := func(version string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^TestE2EBuildKilled$")
		cmd.Env = append(os.Environ(), killEnv+"="+strings.Join([]string{"build", "-f", file, "--version", version}, "\x1f"))
		return cmd
	}
	// One uninterrupted build of a release bounds the kill delays.
	start := time.Now()
	if out, err := child("0.0.2").CombinedOutput(); err != nil {
		t.Fatalf("child build: %v\n%s", err, out)
	}
	span := time.Since(start)
	cur, half, kills := 2, 0, 12
	for i := range kills {
		next := "0.0." + strconv.Itoa(cur+1)
		cmd := child(next)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rand.Int64N(int64(span))))
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()

		version := projectVersion(t, file)
		if version != "0.0."+strconv.Itoa(cur) && version != next {
			t.Fatalf("kill %d: opack.yaml has version %s, want 0.0.%d or %s", i, version, cur, next)
		}
		code, out := opack("check", "-f", file)
		switch {
		case strings.Contains(out, "half-applied"):
			half++
			if code == 0 {
				t.Fatalf("kill %d: check passed on a half-applied build:\n%s", i, out)
			}
		case code != 0:
			t.Fatalf("kill %d: check failed on a project that should be one release (%s):\n%s", i, version, out)
		}
		code, out = opack("build", "-f", file)
		if code != 0 || !strings.Contains(out, "everything up to date (nothing written)") {
			t.Fatalf("kill %d: the next build (exit %d) should only finish what was interrupted:\n%s", i, code, out)
		}
		if code, out := opack("check", "-f", file); code != 0 {
			t.Fatalf("kill %d: check after the next build: exit %d\n%s", i, code, out)
		}
		assertNoLitter(t, dir, tmp)
		if v := projectVersion(t, file); v == next {
			cur++
		}
	}
	t.Logf("%d kills: %d left a half-applied build, finished by the next build; the project reached 0.0.%d", kills, half, cur)
}

var versionLine = regexp.MustCompile(`(?m)^version: *"?([^"\s]+)"?`)

func projectVersion(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m := versionLine.FindSubmatch(data)
	if m == nil {
		t.Fatalf("no version in %s:\n%s", file, data)
	}
	return string(m[1])
}

// assertNoLitter fails when a temporary file or folder of opack is left in the project (hidden
// .opack-* or .*.tmp-* entries at any depth) or in tmp (opack-* folders, and operator-registry's
// opm-cache-build-*.json, which the serve cache builder writes inside opack's folder).
func assertNoLitter(t *testing.T, dir, tmp string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && (strings.HasPrefix(d.Name(), ".opack-") || strings.Contains(d.Name(), ".tmp-")) {
			t.Errorf("temporary %s left in the project", p)
		}
		return err
	})
	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "opack-") || strings.HasPrefix(e.Name(), "opm-cache-build-") {
			t.Errorf("temporary %s left in $TMPDIR", filepath.Join(tmp, e.Name()))
		}
	}
}
