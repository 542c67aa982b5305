package kustomize

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/openapi"

	"github.com/opack/opack/internal/stepcache"
)

// Option configures Build.
type Option func(*options)

type options struct {
	root        string
	allowRemote bool
	files       map[string][]byte
	notice      func(string)
	cache       *stepcache.Cache
}

// WithNotices has the build give notice each deprecation notice kustomize prints for a
// kustomization it reads ("config/default/kustomization.yaml: 'patchesJson6902' is deprecated.
// Please use 'patches' instead. ..."), in the order read, once each. Kustomize also writes them
// to the process's stderr itself; the caller decides where they go.
func WithNotices(notice func(string)) Option { return func(o *options) { o.notice = notice } }

// WithRoot sets the project root the build may read below (default: ProjectRoot of the
// kustomization folder).
func WithRoot(root string) Option { return func(o *options) { o.root = root } }

// WithAllowRemote lets kustomizations name http(s) URLs, which opack fetches itself; git
// repositories stay refused (kustomize would run git).
func WithAllowRemote(allow bool) Option { return func(o *options) { o.allowRemote = allow } }

// Build runs the kustomization in dir on the real file system and returns the YAML stream.
//
// The build is sandboxed: it reads nothing outside the project root (no ".." out of it, no
// symlink leading out: *EscapeError), fetches nothing (a URL or git repository in a
// kustomization is a *RemoteError naming the file and the entry, unless WithAllowRemote) and runs
// no program (plugins, helm and exec functions stay disabled, git repositories are refused).
func Build(ctx context.Context, dir string, opts ...Option) ([]byte, error) {
	return build(ctx, filesys.MakeFsOnDisk(), true, dir, opts)
}

// BuildFS is Build on any kustomize file system (an in-memory one in tests), sandboxed
// lexically. A failed build returns a *BuildError naming the file (and line) at fault when
// kustomize's error says which.
func BuildFS(ctx context.Context, fs filesys.FileSystem, dir string, opts ...Option) ([]byte, error) {
	return build(ctx, fs, false, dir, opts)
}

func build(ctx context.Context, fs filesys.FileSystem, onDisk bool, dir string, opts []Option) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var o options
	for _, f := range opts {
		f(&o)
	}
	if o.root == "" {
		o.root = ProjectRoot(dir)
	}
	if o.files != nil {
		fs = overlayFS{FileSystem: fs, files: o.files}
	}
	newSB := func() (*sandbox, error) { return newSandbox(ctx, fs, o.root, onDisk, o.allowRemote) }
	sb, err := newSB()
	if err != nil {
		return nil, err
	}
	cache := o.cache
	if o.allowRemote {
		cache = nil // what a URL serves is not in the journal
	}
	var key stepcache.Key
	if cache != nil {
		key = cacheKey(dir, &o)
		if e, ok := lookup(cache, key, sb); ok {
			o.tell(e.Notices)
			return e.Out, nil
		}
		if sb, err = newSB(); err != nil { // the lookup's questions leave notices behind
			return nil, err
		}
	}
	sb, j, resMap, err := runSchemaAware(dir, sb, newSB)
	if sb == nil {
		return nil, err
	}
	o.tell(sb.notices)
	if sb.refused != nil {
		return nil, sb.refused
	}
	if err != nil {
		return nil, explain(fs, dir, err)
	}
	out, err := asYAML(resMap)
	if err != nil {
		return nil, fmt.Errorf("encoding kustomization %s: %w", dir, err)
	}
	if cache != nil {
		keep(cache, key, j, out, sb.notices)
	}
	return out, nil
}

// tell gives the notices to the caller's WithNotices.
func (o *options) tell(notices []string) {
	if o.notice != nil {
		for _, n := range notices {
			o.notice(n)
		}
	}
}

// run is krusty's Run with its panics made errors: kustomize panics on some inputs a repository
// can hold (a resource name with a comma, under a namePrefix, panics its prefix transformer),
// and a build must report those, never crash.
func run(kopts *krusty.Options, sb filesys.FileSystem, dir string) (res resmap.ResMap, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("kustomize build %s failed inside kustomize (panic: %v); a resource's name, namespace or kind "+
				"may hold a character kustomize cannot handle (such as a comma or a newline): rename it", dir, p)
		}
	}()
	return krusty.MakeKustomizer(kopts).Run(sb, dir)
}

// ProjectRoot is the folder a kustomization in dir belongs to: the nearest ancestor of dir
// (itself included) holding opack.yaml, PROJECT, go.mod or .git; without one, the folder holding
// the nearest ancestor named config (the kubebuilder layout), else dir itself.
func ProjectRoot(dir string) string {
	a, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for d := a; ; d = filepath.Dir(d) {
		for _, marker := range []string{"opack.yaml", "PROJECT", "go.mod", ".git"} {
			if _, err := os.Lstat(filepath.Join(d, marker)); err == nil {
				return d
			}
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	for d := a; d != filepath.Dir(d); d = filepath.Dir(d) {
		if filepath.Base(d) == "config" {
			return filepath.Dir(d)
		}
	}
	return a
}

// runSchemaAware runs kustomize on dir through sb, alone on kustomize's schema state (see
// schemaMu); a build that names a schema of its own runs again on a fresh sandbox from the
// reset schema state, as a kustomize process of its own would. It returns the journal of the run
// it kept and its sandbox (nil when no sandbox could be made).
func runSchemaAware(dir string, sb *sandbox, fresh func() (*sandbox, error)) (*sandbox, *journalFS, resmap.ResMap, error) {
	schemaMu.Lock()
	defer schemaMu.Unlock()
	j := newJournal(sb)
	resMap, err := run(kustomizeOptions(), j, dir)
	if !sb.openAPI {
		return sb, j, resMap, err
	}
	openapi.ResetOpenAPI()
	defer openapi.ResetOpenAPI()
	if sb, err = fresh(); err != nil {
		return nil, nil, nil, err
	}
	j = newJournal(sb)
	resMap, err = run(kustomizeOptions(), j, dir)
	return sb, j, resMap, err
}

// kustomizeOptions are the kustomize CLI's build options.
func kustomizeOptions() *krusty.Options {
	kopts := krusty.MakeDefaultOptions()
	// Unspecified honours a kustomization's sortOptions and otherwise uses the legacy order,
	// which is what the kustomize CLI prints.
	kopts.Reorder = krusty.ReorderOptionUnspecified
	return kopts
}
