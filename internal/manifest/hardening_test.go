package manifest

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/opack/opack/internal/benchutil"
	"github.com/opack/opack/internal/leakcheck"
)

// bombs are documents whose aliases expand to about 9^9 (387 million) nodes; expanded, each would
// take tens of gigabytes.
var bombs = map[string]string{
	"billion laughs":             billionLaughs,
	"bomb in the second doc":     "kind: A\n---\n" + billionLaughs,
	"bomb below kind":            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  " + strings.ReplaceAll(strings.TrimSpace(billionLaughs), "\n", "\n  ") + "\n",
	"bomb through merge keys":    mergeBomb(9),
	"bomb in flow style":         "{a: &a [x,x,x,x,x,x,x,x,x], b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a], c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b], d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c], e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d], f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e], g: [*f,*f,*f,*f,*f,*f,*f,*f,*f]}\n",
	"self-referencing anchor":    "a: &a [*a]\n",
	"bomb with a document start": "--- # a comment\n" + billionLaughs,
}

// mergeBomb builds levels of mappings that each merge nine copies of the previous level.
func mergeBomb(levels int) string {
	var b strings.Builder
	b.WriteString("l0: &l0 {a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9}\n")
	for l := 1; l <= levels; l++ {
		prev := "*l" + itoa(l-1)
		b.WriteString("l" + itoa(l) + ": &l" + itoa(l) + " {")
		for k := 0; k < 9; k++ {
			if k > 0 {
				b.WriteString(", ")
			}
			b.WriteString("k" + itoa(k) + ": {<<: " + prev + "}")
		}
		b.WriteString("}\n")
	}
	return b.String()
}

func itoa(i int) string { return string(rune('0' + i)) }

// TestAliasBombsRefusedWithLittleMemory: every bomb is refused with a limit error that names the
// file and the flag raising the limit, and the process's peak memory stays under 100 MB.
func TestAliasBombsRefusedWithLittleMemory(t *testing.T) {
	leakcheck.Check(t)
	if !benchutil.ResetPeak() {
		t.Log("the kernel does not allow resetting the peak RSS; the peak below includes earlier tests")
	}
	for name, doc := range bombs {
		t.Run(name, func(t *testing.T) {
			_, err := Decode(strings.NewReader(doc), "bomb.yaml")
			var le *LimitError
			if !errors.As(err, &le) || le.What != "alias expansion" {
				t.Fatalf("Decode() error = %v, want an alias expansion limit error", err)
			}
			for _, want := range []string{"bomb.yaml", "YAML aliases expand to more than 1048576 nodes", "raise it with --max-alias-nodes"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
		})
	}
	if peak := benchutil.PeakRSS(); peak > 100<<20 && !raceEnabled {
		t.Errorf("peak resident memory %d MB while refusing alias bombs, want under 100 MB", peak>>20)
	} else {
		t.Logf("peak resident memory %.1f MB", float64(peak)/(1<<20))
	}
}

// BenchmarkAliasBomb reports the peak memory (peak-MB) of refusing a billion-laughs document.
func BenchmarkAliasBomb(b *testing.B) {
	defer benchutil.Measure(b)()
	for i := 0; i < b.N; i++ {
		if _, err := Decode(strings.NewReader(billionLaughs), "bomb.yaml"); err == nil {
			b.Fatal("the bomb was accepted")
		}
	}
}

// TestHugeFileRefused: a 1 GiB (sparse) file and an endless stream are refused at the file size
// limit, with an error naming the file and the flag that raises the limit, without reading them whole
// (a regular file over the limit is refused from its size; peak memory stays under 100 MB).
func TestHugeFileRefused(t *testing.T) {
	leakcheck.Check(t)
	huge := filepath.Join(t.TempDir(), "huge.yaml")
	f, err := os.Create(huge)
	must(t, err)
	must(t, f.Truncate(1<<30))
	must(t, f.Close())
	benchutil.ResetPeak()
	for _, tc := range []struct {
		name string
		read func() error
		file string
	}{
		{name: "file", file: huge, read: func() error { _, err := ReadFile(huge); return err }},
		{name: "tree", file: huge, read: func() error { _, err := ReadTree(filepath.Dir(huge)); return err }},
		{name: "endless stream", file: "-", read: func() error { _, err := Decode(endless{}, "-", WithMaxFileSize(8<<20)); return err }},
		{name: "one huge document", file: "doc.yaml", read: func() error {
			_, err := Decode(strings.NewReader("kind: A\n---\nx: "+strings.Repeat("y", 2<<20)+"\n"), "doc.yaml", WithMaxDocSize(1<<20))
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.read()
			var le *LimitError
			if !errors.As(err, &le) {
				t.Fatalf("error = %v, want a *LimitError", err)
			}
			flag := LimitFlags[le.What]
			if flag == "" || !strings.Contains(err.Error(), tc.file+": ") || !strings.Contains(err.Error(), "raise it with "+flag) {
				t.Errorf("error %q does not name %s and the flag raising the %s limit", err, tc.file, le.What)
			}
		})
	}
	if peak := benchutil.PeakRSS(); peak > 100<<20 && !raceEnabled {
		t.Errorf("peak resident memory %d MB while refusing huge files, want under 100 MB", peak>>20)
	} else {
		t.Logf("peak resident memory %.1f MB", float64(peak)/(1<<20))
	}
}

// TestTooManyFilesRefused: a tree with more files than the limit is refused naming the root.
func TestTooManyFilesRefused(t *testing.T) {
	root := t.TempDir()
	for i := 0; i < 5; i++ {
		write(t, root, "f"+itoa(i)+".yaml", "kind: A\n")
	}
	_, err := ReadTree(root, WithMaxFiles(4))
	if err == nil || !strings.Contains(err.Error(), root+": number of files exceeds the limit of 4 (raise it with --max-files)") {
		t.Fatalf("ReadTree() error = %v", err)
	}
}

// endless is a reader of a YAML stream without end.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	const line = "key: value\n"
	for i := range p {
		p[i] = line[i%len(line)]
	}
	return len(p), nil
}

// TestCollidingKeysRefused: keys of different YAML types that read as the same JSON key made
// sigs.k8s.io/yaml keep one of them at random (found by FuzzDecodeAgreesWithReference); Decode
// refuses them, with the same error every time, and keeps ordinary numeric keys.
func TestCollidingKeysRefused(t *testing.T) {
	for _, doc := range []string{
		"kind: A\ndata:\n  8: a\n  00008: b\n",
		"kind: A\nx: {true: a, \"true\": b}\n",
		"kind: A\nx:\n  1: a\n  1.0: b\n  2: c\n  2.0: d\n",
		"kind: A\nx:\n- 0:\n  0E0:\n", // in a list: the fast conversion used to drop the mapping
	} {
		var first string
		for i := 0; i < 20; i++ {
			_, err := Decode(strings.NewReader(doc), "keys.yaml")
			if err == nil || !strings.Contains(err.Error(), "two keys that both read as") {
				t.Fatalf("Decode(%q) error = %v, want the colliding keys refused", doc, err)
			}
			if i == 0 {
				first = err.Error()
			} else if err.Error() != first {
				t.Fatalf("Decode(%q) errors differ between runs:\n%s\n%s", doc, first, err)
			}
		}
	}
	docs, err := Decode(strings.NewReader("kind: A\nports:\n  80: http\n  443: https\n"), "keys.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := docs[0].Object.Object["ports"]; !reflect.DeepEqual(got, map[string]interface{}{"80": "http", "443": "https"}) {
		t.Errorf("ports = %v", got)
	}
}

// TestReplaceDirDoesNotFollowSymlink: when the output folder is a symlink to a folder elsewhere,
// ReplaceDir replaces the link itself; the folder it pointed to is left untouched.
func TestReplaceDirDoesNotFollowSymlink(t *testing.T) {
	outside := t.TempDir()
	write(t, outside, "keep.yaml", "keep")
	parent := t.TempDir()
	out := filepath.Join(parent, "bundle")
	must(t, os.Symlink(outside, out))
	must(t, ReplaceDir(out, func(tmp string) error { return os.WriteFile(filepath.Join(tmp, "new.yaml"), []byte("new"), 0o644) }))
	assertOnly(t, outside, []string{"keep.yaml"})
	if fi, err := os.Lstat(out); err != nil || !fi.IsDir() {
		t.Fatalf("%s is not a folder after ReplaceDir: %v, %v", out, fi, err)
	}
	assertOnly(t, out, []string{"new.yaml"})
	assertOnly(t, parent, []string{"bundle"})
}

func TestCheckStreamDocSizes(t *testing.T) {
	big := strings.Repeat("x", 100)
	for _, tc := range []struct {
		name, data string
		wantErr    bool
	}{
		{name: "small", data: "a: 1\n"},
		{name: "one big document", data: "a: " + big + "\n", wantErr: true},
		{name: "big stream of small documents", data: "a: 1\n---\nb: " + big[:40] + "\n---\nc: " + big[:40] + "\n"},
		{name: "big last document", data: "a: 1\n--- \nb: " + big + big + "\n", wantErr: true},
		{name: "big first document", data: "b: " + big + "\n---\na: 1\n", wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckStreamDocSizes([]byte(tc.data), "f.yaml", WithMaxDocSize(64))
			if (err != nil) != tc.wantErr {
				t.Errorf("CheckStreamDocSizes() = %v, want error %v", err, tc.wantErr)
			}
			if err != nil && !strings.Contains(err.Error(), "f.yaml: document size exceeds the limit of 64 (raise it with --max-doc-size)") {
				t.Errorf("error %q", err)
			}
		})
	}
}
