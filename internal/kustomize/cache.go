package kustomize

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/opack/opack/internal/stepcache"
)

// WithCache keeps the build's result in c, with the journal of every question the build asked
// the file system (each file read, each existence and folder test, each listing) and the answer
// it got. A later build of the same folder with the same options asks the same questions again
// and takes the kept result only when every answer is the same: what a build read decides
// whether it reruns, whatever else in the project changed. A build that wrote, walked or opened a
// file, fetched a URL, or failed is not kept.
func WithCache(c *stepcache.Cache) Option { return func(o *options) { o.cache = c } }

// query is one question to the file system and the digest of its answer.
type query struct {
	Op, Path string
	Answer   [sha256.Size]byte
}

// cached is what a build keeps: its journal, output and notices.
type cached struct {
	Journal []query
	Out     []byte
	Notices []string
}

// cacheKey addresses the builds of dir under o: the folder as given and the working directory
// it is taken from, the root, and the files given in place of the disk's.
func cacheKey(dir string, o *options) stepcache.Key {
	wd, _ := os.Getwd()
	k := stepcache.NewKey("kustomize-build").String(wd).String(dir).String(o.root)
	names := make([]string, 0, len(o.files))
	for n := range o.files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		k.String(n).Bytes(o.files[n])
	}
	return k.Sum()
}

// lookup returns the output and notices kept under key when fs answers every question of the
// kept journal as it did then.
func lookup(c *stepcache.Cache, key stepcache.Key, fs filesys.FileSystem) (*cached, bool) {
	data, ok := c.Get(key)
	if !ok {
		return nil, false
	}
	var e cached
	if gob.NewDecoder(bytes.NewReader(data)).Decode(&e) != nil {
		return nil, false
	}
	for _, q := range e.Journal {
		if answer(fs, q.Op, q.Path) != q.Answer {
			return nil, false
		}
	}
	return &e, true
}

// keep stores a successful build's result with its journal.
func keep(c *stepcache.Cache, key stepcache.Key, j *journalFS, out []byte, notices []string) {
	if j.unkept {
		return
	}
	var b bytes.Buffer
	if gob.NewEncoder(&b).Encode(cached{Journal: j.queries, Out: out, Notices: notices}) == nil {
		_ = c.Put(key, b.Bytes())
	}
}

// answer asks fs the question op about path again and returns the digest of its answer.
func answer(fs filesys.FileSystem, op, path string) [sha256.Size]byte {
	switch op {
	case "read":
		data, err := fs.ReadFile(path)
		return digest(string(data), errText(err))
	case "exists":
		return digest(strconv.FormatBool(fs.Exists(path)))
	case "isdir":
		return digest(strconv.FormatBool(fs.IsDir(path)))
	case "readdir":
		names, err := fs.ReadDir(path)
		return digest(append(names, errText(err))...)
	case "cleanedabs":
		d, f, err := fs.CleanedAbs(path)
		return digest(string(d), f, errText(err))
	case "glob":
		m, err := fs.Glob(path)
		return digest(append(m, errText(err))...)
	}
	return [sha256.Size]byte{} // an unknown question never matches a kept digest
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return "error: " + err.Error()
}

// digest hashes parts, each prefixed by its length.
func digest(parts ...string) [sha256.Size]byte {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(strconv.Itoa(len(p)) + ":"))
		h.Write([]byte(p))
	}
	var out [sha256.Size]byte
	copy(out[:], h.Sum(nil))
	return out
}

// journalFS is what kustomize sees: the sandbox, with every question and the digest of its answer
// recorded. Writes, walks and opened files are not journalled: a build that uses them is not kept.
type journalFS struct {
	filesys.FileSystem
	queries []query
	seen    map[string]bool
	unkept  bool
}

func newJournal(fs filesys.FileSystem) *journalFS {
	return &journalFS{FileSystem: fs, seen: map[string]bool{}}
}

func (j *journalFS) note(op, path string, sum [sha256.Size]byte) {
	if k := op + "\x00" + path; !j.seen[k] {
		j.seen[k] = true
		j.queries = append(j.queries, query{Op: op, Path: path, Answer: sum})
	}
}

func (j *journalFS) ReadFile(p string) ([]byte, error) {
	data, err := j.FileSystem.ReadFile(p)
	j.note("read", p, digest(string(data), errText(err)))
	return data, err
}

func (j *journalFS) Exists(p string) bool {
	ok := j.FileSystem.Exists(p)
	j.note("exists", p, digest(strconv.FormatBool(ok)))
	return ok
}

func (j *journalFS) IsDir(p string) bool {
	ok := j.FileSystem.IsDir(p)
	j.note("isdir", p, digest(strconv.FormatBool(ok)))
	return ok
}

func (j *journalFS) ReadDir(p string) ([]string, error) {
	names, err := j.FileSystem.ReadDir(p)
	j.note("readdir", p, digest(append(slices.Clone(names), errText(err))...))
	return names, err
}

func (j *journalFS) CleanedAbs(p string) (filesys.ConfirmedDir, string, error) {
	d, f, err := j.FileSystem.CleanedAbs(p)
	j.note("cleanedabs", p, digest(string(d), f, errText(err)))
	return d, f, err
}

func (j *journalFS) Glob(pattern string) ([]string, error) {
	m, err := j.FileSystem.Glob(pattern)
	j.note("glob", pattern, digest(append(slices.Clone(m), errText(err))...))
	return m, err
}

func (j *journalFS) Open(p string) (filesys.File, error) {
	j.unkept = true
	return j.FileSystem.Open(p)
}

func (j *journalFS) Walk(p string, fn filepath.WalkFunc) error {
	j.unkept = true
	return j.FileSystem.Walk(p, fn)
}

func (j *journalFS) Create(p string) (filesys.File, error) {
	j.unkept = true
	return j.FileSystem.Create(p)
}

func (j *journalFS) WriteFile(p string, data []byte) error {
	j.unkept = true
	return j.FileSystem.WriteFile(p, data)
}

func (j *journalFS) Mkdir(p string) error     { j.unkept = true; return j.FileSystem.Mkdir(p) }
func (j *journalFS) MkdirAll(p string) error  { j.unkept = true; return j.FileSystem.MkdirAll(p) }
func (j *journalFS) RemoveAll(p string) error { j.unkept = true; return j.FileSystem.RemoveAll(p) }
