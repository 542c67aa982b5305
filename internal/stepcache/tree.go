package stepcache

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// maxTreeFiles bounds the files a tree digest hashes: a larger project is not cached.
const maxTreeFiles = 200_000

// ErrTooLarge is returned for a tree with more than maxTreeFiles entries.
var ErrTooLarge = errors.New("more files than the step cache digests")

// statEntry is what the stat index remembers of a file: a file whose size, modification and
// change times and inode are the same is not read again (git's index does the same).
type statEntry struct {
	Size  int64    `json:"s"`
	MTime int64    `json:"m"`
	CTime int64    `json:"c"`
	Ino   uint64   `json:"i"`
	Sum   [32]byte `json:"h"`
}

// racyWindow is how recent a modification makes a file's stat unreliable (a write in the same
// second as the index may not change its time): such files are hashed every time.
const racyWindow = 2 * time.Second

// TreeDigest adds to k every entry below root (a project): folders, symlinks with their targets,
// special files by type, regular files by mode and content, in path order, without following
// symlinks. Below .git only HEAD, packed-refs and refs/ are read (the revisions, not the
// objects). Files are hashed once and found again through a stat index kept in c (per real
// path of root).
func TreeDigest(k *Hasher, root string, c *Cache) error {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	indexKey := NewKey("stat-index").String(real).Sum()
	index := map[string]statEntry{}
	if data, ok := c.Get(indexKey); ok {
		_ = json.Unmarshal(data, &index) // a bad index is an empty one
	}
	fresh := map[string]statEntry{}
	var lines []string
	now := time.Now()
	n := 0
	err = filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(real, p)
		rel = filepath.ToSlash(rel)
		if n++; n > maxTreeFiles {
			return ErrTooLarge
		}
		if rel == ".git" {
			lines = append(lines, gitRefs(gitDir(p))...)
			if d.IsDir() {
				return filepath.SkipDir
			}
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch mode := info.Mode(); {
		case mode.IsDir():
			lines = append(lines, "d "+rel)
		case mode&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			lines = append(lines, "l "+rel+" "+target)
		case !mode.IsRegular():
			lines = append(lines, "s "+rel+" "+mode.Type().String())
		default:
			sum, err := fileSum(p, rel, info, index, fresh, now)
			if err != nil {
				return err
			}
			lines = append(lines, fmt.Sprintf("f %s %o %x", rel, mode.Perm()&0o111, sum))
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(lines)
	for _, l := range lines {
		k.String(l)
	}
	if data, err := json.Marshal(fresh); err == nil {
		_ = c.Put(indexKey, data)
	}
	return nil
}

// fileSum hashes the regular file at p, or takes its sum from the stat index when its stat is
// unchanged and not racy; it records the stat of what it hashed in fresh.
func fileSum(p, rel string, info fs.FileInfo, index, fresh map[string]statEntry, now time.Time) ([32]byte, error) {
	st, _ := info.Sys().(*syscall.Stat_t)
	var cur statEntry
	if st != nil {
		cur = statEntry{Size: info.Size(), MTime: info.ModTime().UnixNano(), CTime: st.Ctim.Nano(), Ino: st.Ino}
		if old, ok := index[rel]; ok && old.Size == cur.Size && old.MTime == cur.MTime && old.CTime == cur.CTime && old.Ino == cur.Ino {
			fresh[rel] = old
			return old.Sum, nil
		}
	}
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return [32]byte{}, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return [32]byte{}, err
	}
	copy(cur.Sum[:], h.Sum(nil))
	if st != nil && now.Sub(info.ModTime()) > racyWindow && now.Sub(time.Unix(0, cur.CTime)) > racyWindow {
		fresh[rel] = cur
	}
	return cur.Sum, nil
}

// gitDir is the git folder of a checkout's .git: the folder itself, or, for a worktree's .git
// file, the folder it names.
func gitDir(p string) string {
	data, err := os.ReadFile(p)
	if err != nil {
		return p // a folder (or unreadable)
	}
	dir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
	if !ok {
		return p
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(p), dir)
	}
	return dir
}

// gitRefs are the lines of a .git folder's revisions: HEAD, packed-refs and every file below
// refs/, by content (a worktree's .git file is read as a file by the walk).
func gitRefs(dir string) []string {
	var out []string
	add := func(rel string) {
		if data, err := os.ReadFile(filepath.Join(dir, rel)); err == nil && len(data) < 1<<20 {
			out = append(out, fmt.Sprintf("g %s %x", rel, sha256.Sum256(data)))
		}
	}
	add("HEAD")
	add("packed-refs")
	filepath.WalkDir(filepath.Join(dir, "refs"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			add(filepath.ToSlash(rel))
		}
		return nil
	})
	// A worktree's refs are its common folder's.
	if data, err := os.ReadFile(filepath.Join(dir, "commondir")); err == nil {
		common := strings.TrimSpace(string(data))
		if !filepath.IsAbs(common) {
			common = filepath.Join(dir, common)
		}
		if filepath.Clean(common) != filepath.Clean(dir) {
			for _, l := range gitRefs(common) {
				out = append(out, "c"+l)
			}
		}
	}
	return out
}
