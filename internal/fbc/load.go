package fbc

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/opack/opack/internal/manifest"
)

const indexIgnoreFile = ".indexignore"

// LoadOption configures loading.
type LoadOption func(*loadOptions)

type loadOptions struct {
	sources     *Sources
	dropValues  map[string]bool
	concurrency int
	progress    func(done, total int)
	maxFiles    int
	maxFileSize int64
	eachFile    func(ctx context.Context, path string, cfg *DeclarativeConfig)
	only        func(path string) bool
}

// MaxFileSize is the largest catalog file read (one package of a big catalog with
// olm.bundle.object properties is tens of MB), and MaxFiles the most files of one catalog:
// every reader of catalogs (folders, images, git trees) keeps to both.
const (
	MaxFileSize int64 = 512 << 20
	MaxFiles          = 1_000_000
)

const defaultMaxFileSize = MaxFileSize

// WithConcurrency sets how many files are parsed at once (default GOMAXPROCS).
func WithConcurrency(n int) LoadOption { return func(o *loadOptions) { o.concurrency = n } }

// WithProgress calls fn after each file is parsed (done of total files). fn is called from
// one goroutine at a time.
func WithProgress(fn func(done, total int)) LoadOption {
	return func(o *loadOptions) { o.progress = fn }
}

// WithEachFile calls fn with the blobs of each file as soon as the file has parsed, in the
// goroutine that parsed it (files are parsed in parallel) and before the files are merged. fn
// may drop or cut down what the caller no longer needs (catalog validation keeps only the blobs'
// names), so that a large catalog is checked file by file instead of held whole. fn is not called
// for a file that fails to parse.
func WithEachFile(fn func(ctx context.Context, path string, cfg *DeclarativeConfig)) LoadOption {
	return func(o *loadOptions) { o.eachFile = fn }
}

// WithOnlyFiles loads only the files (paths relative to the catalog root, as WithEachFile names
// them) for which keep is true.
func WithOnlyFiles(keep func(path string) bool) LoadOption {
	return func(o *loadOptions) { o.only = keep }
}

// WithoutPropertyValues replaces the values of bundle properties of the given types with {}
// once loaded (their JSON has been checked), so that a large catalog is validated without
// keeping, say, every olm.csv.metadata in memory. Not for catalogs that will be written out.
func WithoutPropertyValues(types ...string) LoadOption {
	return func(o *loadOptions) {
		o.dropValues = map[string]bool{}
		for _, t := range types {
			o.dropValues[t] = true
		}
	}
}

// withMaxFileSize sets the largest catalog file read, in bytes (default defaultMaxFileSize).
func withMaxFileSize(n int64) LoadOption { return func(o *loadOptions) { o.maxFileSize = n } }

// withMaxFiles sets how many files a catalog folder may hold (default 1,000,000).
func withMaxFiles(n int) LoadOption { return func(o *loadOptions) { o.maxFiles = n } }

func makeLoadOptions(opts []LoadOption) loadOptions {
	o := loadOptions{concurrency: runtime.GOMAXPROCS(0), maxFiles: MaxFiles, maxFileSize: defaultMaxFileSize}
	for _, f := range opts {
		f(&o)
	}
	if o.concurrency < 1 {
		o.concurrency = 1
	}
	return o
}

// LoadError lists the files of a catalog that could not be parsed, sorted by path.
type LoadError struct {
	Files []fileError
}

// fileError is the first problem of one file; Err carries opm's message.
type fileError struct {
	Path string
	Err  error
}

func (e fileError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e fileError) Unwrap() error { return e.Err }

func (e *LoadError) Error() string {
	msgs := make([]string, len(e.Files))
	for i, f := range e.Files {
		msgs[i] = f.Error()
	}
	return strings.Join(msgs, "\n")
}

// LoadDir loads the file-based catalog below dir. Every regular file is parsed (any name or
// extension) except .indexignore files and the paths they ignore; symlinks leaving dir are
// refused. Files are parsed in parallel; the result is in path order.
func LoadDir(ctx context.Context, dir string, opts ...LoadOption) (*DeclarativeConfig, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("loading catalog: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%q is not a directory", dir)
	}
	o := makeLoadOptions(opts)
	files, err := manifest.Files(dir, manifest.WithMaxFiles(o.maxFiles))
	if err != nil {
		return nil, fmt.Errorf("loading catalog %s: %w", dir, err)
	}
	return loadFiles(ctx, os.DirFS(dir), files, o)
}

// loadFS loads the file-based catalog at the root of fsys (for instance an unpacked image layer).
func loadFS(ctx context.Context, fsys fs.FS, opts ...LoadOption) (*DeclarativeConfig, error) {
	o := makeLoadOptions(opts)
	var files []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("loading catalog: %w", err)
	}
	sort.Strings(files)
	return loadFiles(ctx, fsys, files, o)
}

// LoadReader loads one YAML or JSON stream of catalog blobs; name is used in errors.
func LoadReader(r io.Reader, name string) (*DeclarativeConfig, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	cfg, err := ParseStream(data)
	if err != nil {
		return nil, &LoadError{Files: []fileError{{Path: name, Err: err}}}
	}
	return cfg, nil
}

func loadFiles(ctx context.Context, fsys fs.FS, files []string, o loadOptions) (*DeclarativeConfig, error) {
	files, err := filterIgnored(fsys, files)
	if err != nil {
		return nil, err
	}
	if o.only != nil {
		files = slices.DeleteFunc(files, func(f string) bool { return !o.only(f) })
	}
	results := make([]*DeclarativeConfig, len(files))
	errs := make([]error, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < o.concurrency && w < len(files); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i], errs[i] = loadFile(fsys, files[i], o)
				if errs[i] == nil && o.eachFile != nil && ctx.Err() == nil {
					o.eachFile(ctx, files[i], results[i])
				}
				if o.progress != nil {
					mu.Lock()
					done++
					o.progress(done, len(files))
					mu.Unlock()
				}
			}
		}()
	}
	for i := range files {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var le LoadError
	for i, err := range errs {
		if err != nil {
			le.Files = append(le.Files, fileError{Path: files[i], Err: err})
		}
	}
	if len(le.Files) > 0 {
		return nil, &le
	}
	if o.sources != nil {
		for i, c := range results {
			o.sources.add(files[i], c)
		}
	}
	return merge(results), nil
}

func loadFile(fsys fs.FS, name string, o loadOptions) (*DeclarativeConfig, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tooBig := &manifest.LimitError{File: name, What: "file size", Limit: o.maxFileSize}
	if fi, err := f.Stat(); err == nil && fi.Size() > o.maxFileSize {
		return nil, tooBig
	}
	// The file is parsed as it is read, one document at a time (docReader).
	r := &countingReader{r: io.LimitReader(f, o.maxFileSize+1)}
	cfg, err := parseStreamDropping(r, o.dropValues)
	if r.n > o.maxFileSize {
		return nil, tooBig // it grew past the limit while read
	}
	return cfg, err
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// dropValues empties the values of the given property types and copies the other values out
// of the blob they point into, so that the blob can be freed. Calling it again is harmless.
func dropValues(bundles []Bundle, types map[string]bool) {
	for i := range bundles {
		props := bundles[i].Properties
		size := 0
		for _, p := range props {
			if !types[p.Type] {
				size += len(p.Value)
			}
		}
		buf := make([]byte, 0, size)
		for j, p := range props {
			if types[p.Type] {
				props[j].Value = json.RawMessage("{}")
				continue
			}
			start := len(buf)
			buf = append(buf, p.Value...)
			props[j].Value = buf[start:len(buf):len(buf)]
		}
	}
}

func merge(cfgs []*DeclarativeConfig) *DeclarativeConfig {
	var out DeclarativeConfig
	for _, c := range cfgs {
		out.Packages = append(out.Packages, c.Packages...)
		out.Channels = append(out.Channels, c.Channels...)
		out.Bundles = append(out.Bundles, c.Bundles...)
		out.Deprecations = append(out.Deprecations, c.Deprecations...)
		out.Others = append(out.Others, c.Others...)
	}
	return &out
}

// filterIgnored drops .indexignore files and the paths their gitignore-style patterns
// ignore (opm's joelanford/ignore semantics: patterns apply below the folder holding the
// file; the last matching pattern wins).
func filterIgnored(fsys fs.FS, files []string) ([]string, error) {
	var pats []ignorePattern
	for _, f := range files {
		if path.Base(f) != indexIgnoreFile {
			continue
		}
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", f, err)
		}
		pats = append(pats, parseIgnore(string(data), path.Dir(f))...)
	}
	out := files[:0:0]
	for _, f := range files {
		if path.Base(f) == indexIgnoreFile || ignored(pats, filepath.ToSlash(f)) {
			continue
		}
		out = append(out, f)
	}
	return out, nil
}
