package kustomize

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// EscapeError is a kustomize build that reached for a path outside the project root: a
// resource such as ../../outside, or a folder or file symlinked out of the tree.
type EscapeError struct {
	Path, Root string
}

func (e *EscapeError) Error() string {
	return fmt.Sprintf("%s is outside the project %s; opack builds only what lies inside the project (copy it in)", display(e.Path), display(e.Root))
}

// sandbox is a kustomize file system that refuses every path outside root, lexically and, on
// disk, after resolving symlinks; every kustomization it reads is checked for remote references
// first (see checkRemote).
type sandbox struct {
	filesys.FileSystem
	root        string // absolute, symlinks resolved when on disk
	onDisk      bool
	allowRemote bool
	ctx         context.Context
	client      *http.Client
	fetched     map[string][]byte // --allow-remote: URLs' content, by the local name given them
	refused     error             // the first remote entry refused or failed to fetch (kustomize hides it)
	notices     []string          // kustomize's deprecation notices, by file (noteDeprecated)
	noticed     map[string]bool
	openAPI     bool // a kustomization read names an OpenAPI schema (runSchemaAware)
}

// noteDeprecated keeps the deprecation notices kustomize prints for the kustomization k read from
// p, once each, naming the file (relative to the project root): kustomize writes them straight to
// the process's stderr, where they would say neither which file nor reach a cached result.
func (s *sandbox) noteDeprecated(p string, k *types.Kustomization) {
	msgs := k.CheckDeprecatedFields()
	if msgs == nil {
		return
	}
	name := display(p)
	if rel, err := filepath.Rel(s.root, resolveExisting(abs(p))); err == nil && filepath.IsLocal(rel) {
		name = filepath.ToSlash(rel)
	}
	for _, m := range *msgs {
		n := name + ": " + strings.TrimPrefix(m, "# Warning: ")
		if !s.noticed[n] {
			s.noticed[n] = true
			s.notices = append(s.notices, n)
		}
	}
}

func newSandbox(ctx context.Context, fs filesys.FileSystem, root string, onDisk, allowRemote bool) (*sandbox, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if onDisk {
		if abs, err = filepath.EvalSymlinks(abs); err != nil {
			return nil, fmt.Errorf("resolving the project root %s: %w", root, err)
		}
	}
	return &sandbox{FileSystem: fs, root: abs, onDisk: onDisk, allowRemote: allowRemote,
		ctx: ctx, client: &http.Client{}, fetched: map[string][]byte{}, noticed: map[string]bool{}}, nil
}

// check refuses p when it lies outside the root. A path that does not exist is resolved through
// its nearest existing ancestor.
func (s *sandbox) check(p string) error {
	abs, err := filepath.Abs(p)
	if err != nil {
		return err
	}
	real := abs
	if s.onDisk {
		real = resolveExisting(abs)
	}
	if rel, err := filepath.Rel(s.root, real); err != nil || (rel != "." && !filepath.IsLocal(rel)) {
		return &EscapeError{Path: p, Root: s.root}
	}
	return nil
}

// resolveExisting resolves the symlinks of abs's longest existing prefix and appends the rest.
func resolveExisting(abs string) string {
	var rest []string
	for p := abs; ; p = filepath.Dir(p) {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(append([]string{r}, rest...)...)
		} else if !errors.Is(err, os.ErrNotExist) || p == filepath.Dir(p) {
			return abs
		}
		rest = append([]string{filepath.Base(p)}, rest...)
	}
}

func (s *sandbox) Create(p string) (filesys.File, error) {
	if err := s.check(p); err != nil {
		return nil, err
	}
	return s.FileSystem.Create(p)
}

func (s *sandbox) Mkdir(p string) error     { return s.guard(p, s.FileSystem.Mkdir) }
func (s *sandbox) MkdirAll(p string) error  { return s.guard(p, s.FileSystem.MkdirAll) }
func (s *sandbox) RemoveAll(p string) error { return s.guard(p, s.FileSystem.RemoveAll) }
func (s *sandbox) IsDir(p string) bool      { return s.check(p) == nil && s.FileSystem.IsDir(p) }
func (s *sandbox) Exists(p string) bool {
	if _, ok := s.fetched[abs(p)]; ok {
		return true
	}
	return s.check(p) == nil && s.FileSystem.Exists(p)
}

func abs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}
func (s *sandbox) guard(p string, f func(string) error) error {
	if err := s.check(p); err != nil {
		return err
	}
	return f(p)
}

func (s *sandbox) Open(p string) (filesys.File, error) {
	if err := s.check(p); err != nil {
		return nil, err
	}
	return s.FileSystem.Open(p)
}

func (s *sandbox) ReadDir(p string) ([]string, error) {
	if err := s.check(p); err != nil {
		return nil, err
	}
	return s.FileSystem.ReadDir(p)
}

func (s *sandbox) CleanedAbs(p string) (filesys.ConfirmedDir, string, error) {
	if _, ok := s.fetched[abs(p)]; ok {
		return filesys.ConfirmedDir(filepath.Dir(abs(p))), filepath.Base(p), nil
	}
	if err := s.check(p); err != nil {
		return "", "", err
	}
	d, f, err := s.FileSystem.CleanedAbs(p)
	if err == nil {
		err = s.check(string(d))
	}
	return d, f, err
}

func (s *sandbox) Glob(pattern string) ([]string, error) {
	ms, err := s.FileSystem.Glob(pattern)
	var in []string
	for _, m := range ms {
		if s.check(m) == nil {
			in = append(in, m)
		}
	}
	return in, err
}

func (s *sandbox) ReadFile(p string) ([]byte, error) {
	if err := s.check(p); err != nil {
		return nil, err
	}
	if b, ok := s.fetched[abs(p)]; ok {
		return b, nil
	}
	data, err := s.FileSystem.ReadFile(p)
	if err != nil || !isKustomizationName(filepath.Base(p)) {
		return data, err
	}
	var k types.Kustomization
	if yaml.Unmarshal(data, &k) != nil {
		return data, nil // kustomize reports the syntax error itself
	}
	s.noteDeprecated(p, &k)
	if k.OpenAPI != nil {
		s.openAPI = true
	}
	urls, err := remoteEntries(p, &k, s.allowRemote)
	if err == nil && len(urls) > 0 {
		data, err = s.localize(s.ctx, abs(p), data, urls)
	}
	if err != nil && s.refused == nil {
		s.refused = err // kustomize reports a kustomization it cannot read as missing
	}
	return data, err
}

func (s *sandbox) WriteFile(p string, data []byte) error {
	if err := s.check(p); err != nil {
		return err
	}
	return s.FileSystem.WriteFile(p, data)
}

func (s *sandbox) Walk(p string, fn filepath.WalkFunc) error {
	if err := s.check(p); err != nil {
		return err
	}
	return s.FileSystem.Walk(p, func(q string, info os.FileInfo, err error) error {
		if err == nil {
			if cerr := s.check(q); cerr != nil {
				return cerr
			}
		}
		return fn(q, info, err)
	})
}
