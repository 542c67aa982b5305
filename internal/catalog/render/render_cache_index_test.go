package render

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// bundleFiles lists the files of a bundle folder the cache key covers.
func bundleFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	for _, sub := range []string{"manifests", "metadata"} {
		entries, err := os.ReadDir(filepath.Join(dir, sub))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			files = append(files, filepath.Join(dir, sub, e.Name()))
		}
	}
	return files
}

// rewriteKeepingStat writes data to path and sets its mtime back to what it was: only ctime
// (and, for replace, the inode) tells that the file changed.
func rewriteKeepingStat(t *testing.T, path string, data []byte, replace bool) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if replace {
		tmp := path + ".new"
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
	} else {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteAt(data, 0); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	// Set mtime back (as touch -d does). Where timestamps are coarse (a clock tick of a few ms
	// before Linux 6.13), a write in the tick of the previous one leaves ctime as it was: the
	// racily clean case, which the real clock's racy window covers and the test's settled clock
	// does not. So wait for ctime to move, as it does for any edit made after the window.
	before, hasCtime := fileStatOf(fi)
	for range 1000 {
		if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
		after, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if after.Size() != fi.Size() || !after.ModTime().Equal(fi.ModTime()) {
			t.Fatalf("%s: size or mtime not kept", path)
		}
		if st, _ := fileStatOf(after); !hasCtime || st.ctime != before.ctime {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("%s: ctime did not change", path)
}

// TestRenderCacheStatIndexSeesEveryByte flips one byte of every file of a bundle (first,
// middle and last byte) in place, keeping size and mtime, and checks that the cache key
// changes each time, with only the changed file read again; the key comes back with the byte.
func TestRenderCacheStatIndexSeesEveryByte(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the stat index is used on Linux only; elsewhere every file is read")
	}
	for _, replace := range []bool{false, true} {
		name := "in place"
		if replace {
			name = "replaced"
		}
		t.Run(name, func(t *testing.T) {
			dir := copyGoldenBundles(t)[0]
			r := settledCache(t, t.TempDir())
			files := bundleFiles(t, dir)
			key0 := r.dirKey(dir)
			if key0 == "" || r.cache.hashed.Load() != int64(len(files)) {
				t.Fatalf("first key: %q after reading %d files, want all %d read", key0, r.cache.hashed.Load(), len(files))
			}
			r.cache.hashed.Store(0)
			if key := r.dirKey(dir); key != key0 || r.cache.hashed.Load() != 0 {
				t.Fatalf("unchanged folder: key %q (want %q), %d files read (want 0)", key, key0, r.cache.hashed.Load())
			}
			for _, f := range files {
				orig, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				for _, at := range []int{0, len(orig) / 2, len(orig) - 1} {
					changed := append([]byte(nil), orig...)
					changed[at] ^= 0x20
					rewriteKeepingStat(t, f, changed, replace)
					r.cache.hashed.Store(0)
					if r.dirKey(dir) == key0 {
						t.Errorf("%s: byte %d changed, same size and mtime: the key did not change", f, at)
					}
					if got := r.cache.hashed.Load(); got != 1 {
						t.Errorf("%s: %d files read, want only the changed one", f, got)
					}
					rewriteKeepingStat(t, f, orig, replace)
					if r.dirKey(dir) != key0 {
						t.Errorf("%s: byte %d restored: the key did not come back", f, at)
					}
				}
			}
		})
	}
}

// TestRenderCacheStaleBundle: an edit that keeps size and mtime is rendered, not served stale;
// so are added and removed files.
func TestRenderCacheStaleBundle(t *testing.T) {
	edits := []struct {
		name string
		edit func(t *testing.T, dir string)
		want string // in the output (or the error) after the edit
	}{
		{"same-size edit, mtime restored", func(t *testing.T, dir string) {
			csv := filepath.Join(dir, "manifests", "bar.csv.yaml")
			data, err := os.ReadFile(csv)
			if err != nil {
				t.Fatal(err)
			}
			changed := strings.Replace(string(data), "name: bar.v0.1.0", "name: bar.v0.1.9", 1)
			if changed == string(data) {
				t.Fatal("fixture changed: bar.v0.1.0 not found")
			}
			rewriteKeepingStat(t, csv, []byte(changed), false)
		}, `"name": "bar.v0.1.9"`},
		{"file added", func(t *testing.T, dir string) {
			props := "properties:\n- type: test.added\n  value: 1\n"
			if err := os.WriteFile(filepath.Join(dir, "metadata", "properties.yaml"), []byte(props), 0o644); err != nil {
				t.Fatal(err)
			}
		}, `"type": "test.added"`},
		{"file removed", func(t *testing.T, dir string) {
			crds, err := filepath.Glob(filepath.Join(dir, "manifests", "*crd*"))
			if err != nil || len(crds) == 0 {
				t.Fatalf("fixture changed: no CRD file (%v)", err)
			}
			for _, f := range crds {
				if err := os.Remove(f); err != nil {
					t.Fatal(err)
				}
			}
		}, "couldn't find test.bar/v1alpha1/Bar (bars) in bundle"},
	}
	for _, tt := range edits {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyGoldenBundles(t)[0]
			cacheDir := t.TempDir()
			before := renderToText(t, settledCache(t, cacheDir), "json", dir)
			tt.edit(t, dir)
			r := settledCache(t, cacheDir)
			out, err := renderToTextErr(r, "json", dir)
			if err != nil {
				out = err.Error()
			}
			if out == before || !strings.Contains(out, tt.want) {
				t.Errorf("after the edit: want %q in the render, got:\n%s", tt.want, out)
			}
			if r.Rendered() != 1 {
				t.Errorf("after the edit: want the bundle rendered again, %d rendered", r.Rendered())
			}
		})
	}
}

// TestRenderCacheRacyFiles: a file recorded within racyWindow of its mtime or ctime is read
// again on every run until it is older; the index vouches only for settled files.
func TestRenderCacheRacyFiles(t *testing.T) {
	dir := copyGoldenBundles(t)[0] // just written: every file is racy now
	n := int64(len(bundleFiles(t, dir)))
	cacheDir := t.TempDir()
	for run := range 2 {
		r := newCachedRenderer(t, cacheDir)
		r.dirKey(dir)
		if got := r.cache.hashed.Load(); got != n {
			t.Errorf("run %d with fresh files: %d files read, want all %d", run, got, n)
		}
	}
	settled := settledCache(t, cacheDir)
	settled.dirKey(dir) // the records were racy: read once more, now recorded as settled
	settled.cache.hashed.Store(0)
	settled.dirKey(dir)
	if got := settled.cache.hashed.Load(); got != 0 {
		t.Errorf("settled files: %d read, want 0", got)
	}
}

func TestStatIndexTrust(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	old := fileStat{size: 10, mtime: t0.Add(-time.Hour).UnixNano(), ctime: t0.Add(-time.Hour).UnixNano(), ino: 7, dev: 1, mode: 0o644}
	with := func(f func(*fileStat)) fileStat { s := old; f(&s); return s }
	tests := []struct {
		name    string
		rec     fileStat
		racy    bool
		cur     fileStat
		trusted bool
	}{
		{"unchanged", old, false, old, true},
		{"recorded racy", old, true, old, false},
		{"size", old, false, with(func(s *fileStat) { s.size++ }), false},
		{"mtime", old, false, with(func(s *fileStat) { s.mtime++ }), false},
		{"ctime (touch -d after an edit)", old, false, with(func(s *fileStat) { s.ctime++ }), false},
		{"inode (file replaced)", old, false, with(func(s *fileStat) { s.ino++ }), false},
		{"device", old, false, with(func(s *fileStat) { s.dev++ }), false},
		{"mode", old, false, with(func(s *fileStat) { s.mode = 0o600 }), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &indexedFile{stat: tt.rec, racy: tt.racy}
			if got := rec.trusted(tt.cur); got != tt.trusted {
				t.Errorf("trusted = %v, want %v", got, tt.trusted)
			}
		})
	}
	racy := []struct {
		name string
		st   fileStat
		want bool
	}{
		{"an hour old", old, false},
		{"mtime within the window", with(func(s *fileStat) { s.mtime = t0.Add(-racyWindow / 2).UnixNano() }), true},
		{"ctime within the window", with(func(s *fileStat) { s.ctime = t0.Add(-racyWindow / 2).UnixNano() }), true},
		{"ctime at the window's edge", with(func(s *fileStat) { s.ctime = t0.Add(-racyWindow).UnixNano() }), true},
		{"ctime just before the window", with(func(s *fileStat) { s.ctime = t0.Add(-racyWindow).UnixNano() - 1 }), false},
		{"timestamps in the future (clock skew)", with(func(s *fileStat) { s.mtime = t0.Add(time.Hour).UnixNano() }), true},
	}
	for _, tt := range racy {
		t.Run("racy/"+tt.name, func(t *testing.T) {
			if got := isRacy(tt.st, t0); got != tt.want {
				t.Errorf("isRacy = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestRenderCacheIndexCorrupted: a damaged index record is ignored (the files are read again),
// and rewritten.
func TestRenderCacheIndexCorrupted(t *testing.T) {
	dir := copyGoldenBundles(t)[0]
	cacheDir := t.TempDir()
	r := settledCache(t, cacheDir)
	key := r.dirKey(dir)
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	p := r.cache.indexPath(abs)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, corrupt := range [][]byte{nil, data[:len(data)/2], append(append([]byte(nil), data[:10]...), data[11:]...)} {
		if err := os.WriteFile(p, corrupt, 0o644); err != nil {
			t.Fatal(err)
		}
		r.cache.hashed.Store(0)
		if got := r.dirKey(dir); got != key {
			t.Errorf("key with a damaged index: %q, want %q", got, key)
		}
		if r.cache.hashed.Load() == 0 {
			t.Errorf("a damaged index record was trusted")
		}
		again, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(data, again); diff != "" {
			t.Errorf("index record not rewritten (-want +got):\n%s", diff)
		}
	}
}
