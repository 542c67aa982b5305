//go:build unix

package tmpdir

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSweep: a folder of a live process (this one) stays, one whose process died goes, and
// folders that are not opack's are never touched.
func TestSweep(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	if os.Getenv("TMPDIR_SWEEP_CHILD") != "" {
		return
	}
	live, err := Make("live")
	if err != nil {
		t.Fatal(err)
	}
	// A child makes a folder and dies without removing it (os.Exit skips every defer).
	cmd := exec.Command(os.Args[0], "-test.run=^TestSweepChild$")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "TMPDIR_SWEEP_CHILD=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	other := filepath.Join(tmp, "someone-else")
	os.Mkdir(other, 0o755)
	// A user's own folder with opack's prefix is not opack's to remove; an empty one left by a
	// process killed as it created it (before its owner file) is.
	users := filepath.Join(tmp, "opack-notes")
	os.Mkdir(users, 0o755)
	os.WriteFile(filepath.Join(users, "todo.txt"), []byte("mine"), 0o644)
	os.Mkdir(filepath.Join(tmp, "opack-render-123"), 0o700)
	Sweep()
	entries, _ := os.ReadDir(tmp)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	got := strings.Join(names, " ")
	if !strings.Contains(got, filepath.Base(filepath.Dir(live))) || !strings.Contains(got, "someone-else") || !strings.Contains(got, "opack-notes") || strings.Contains(got, "opack-dead-") || strings.Contains(got, "opack-render-123") {
		t.Errorf("after Sweep, $TMPDIR holds %q; want the live folder, someone-else and opack-notes, not the dead or the empty one", got)
	}
	if entries, err := os.ReadDir(live); err != nil || len(entries) != 0 {
		t.Errorf("Make returned %s holding %d entries (%v); want an empty folder", live, len(entries), err)
	}
	Remove(live)
	if _, err := os.Stat(filepath.Dir(live)); !os.IsNotExist(err) {
		t.Errorf("Remove left %s", live)
	}
}

func TestSweepChild(t *testing.T) {
	if os.Getenv("TMPDIR_SWEEP_CHILD") == "" {
		t.Skip("helper of TestSweep")
	}
	if _, err := Make("dead"); err != nil {
		t.Fatal(err)
	}
	os.Exit(0)
}
