package emit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/opack/opack/internal/manifest"
	"github.com/opack/opack/internal/safetemplate"
	"github.com/opack/opack/templates"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Folders of the deploy output, one per OLM generation.
const (
	DirOLMv0 = "olmv0"
	DirOLMv1 = "olmv1"
)

// KustomizationFile is the name of the kustomization written into each folder.
const KustomizationFile = "kustomization.yaml"

// File is one rendered file.
type File struct {
	// Path is slash-separated and relative to the deploy folder, e.g. "olmv0/subscription.yaml".
	Path string
	Data []byte
	// Object is the file's object; nil for kustomization.yaml.
	Object *unstructured.Unstructured
}

// Option configures Render.
type Option func(*options)

type options struct {
	templates fs.FS
	schemas   *Schemas
}

// WithTemplates renders from fsys (holding olmv0/*.yaml.tmpl and/or olmv1/*.yaml.tmpl) instead of the
// built-in templates, e.g. a project's own copies. A folder fsys has no templates for keeps the built-in ones.
func WithTemplates(fsys fs.FS) Option { return func(o *options) { o.templates = fsys } }

// WithSchemas validates against s instead of the embedded OLM CRDs.
func WithSchemas(s *Schemas) Option { return func(o *options) { o.schemas = s } }

// Render executes the templates of every generation spec configures and validates each object. Files come
// back sorted by path: for each folder its objects, one per file (templates that render to nothing, such as
// an unconfigured ServiceAccount, are left out), then its kustomization.yaml.
func Render(ctx context.Context, spec Spec, opts ...Option) ([]File, error) {
	o := options{templates: templates.FS}
	for _, opt := range opts {
		opt(&o)
	}
	if o.schemas == nil {
		s, err := OLMSchemas()
		if err != nil {
			return nil, fmt.Errorf("loading the OLM CRD schemas: %w", err)
		}
		o.schemas = s
	}
	var out []File
	var errs []error
	for _, dir := range []string{DirOLMv0, DirOLMv1} {
		if (dir == DirOLMv0 && spec.OLMv0 == nil) || (dir == DirOLMv1 && spec.OLMv1 == nil) {
			continue
		}
		files, err := renderDir(ctx, o, dir, spec)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, files...)
	}
	if spec.ImagePolicy != nil && len(spec.ImagePolicy.Entries) > 0 {
		files, err := renderImagePolicy(ctx, o, spec)
		if err != nil {
			errs = append(errs, err)
		}
		out = append(out, files...)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	sort.SliceStable(out, func(i, j int) bool { return dirOf(out[i].Path) < dirOf(out[j].Path) })
	return out, nil
}

func dirOf(p string) string { d, _, _ := strings.Cut(p, "/"); return d }

func renderDir(ctx context.Context, o options, dir string, spec Spec) ([]File, error) {
	names, err := fs.Glob(o.templates, dir+"/*.yaml.tmpl")
	if err != nil {
		return nil, err
	}
	if len(names) == 0 && o.templates != fs.FS(templates.FS) {
		// Custom templates may cover one generation only; the other keeps the built-in ones.
		o.templates = templates.FS
		if names, err = fs.Glob(o.templates, dir+"/*.yaml.tmpl"); err != nil {
			return nil, err
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("rendering %s: no %s/*.yaml.tmpl templates found", dir, dir)
	}
	sort.Strings(names)
	var files []File
	var errs []error
	for _, name := range names {
		f, err := renderFile(ctx, o, name, spec)
		switch {
		case err != nil:
			errs = append(errs, err)
		case f != nil:
			files = append(files, *f)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return append(files, kustomization(dir, files)), nil
}

func renderFile(ctx context.Context, o options, name string, spec Spec) (*File, error) {
	src, err := fs.ReadFile(o.templates, name)
	if err != nil {
		return nil, err
	}
	t, err := safetemplate.Parse(path.Base(name), string(src), funcs) // a project's templates are the repository's: budgeted
	if err != nil {
		return nil, fmt.Errorf("parsing template %s: %w", name, err)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, spec); err != nil {
		return nil, fmt.Errorf("executing template %s: %w", name, err)
	}
	data := bytes.TrimSpace(buf.Bytes())
	if len(data) == 0 || !hasContent(data) {
		return nil, nil
	}
	data = append(data, '\n')
	out := strings.TrimSuffix(name, ".tmpl")
	docs, err := manifest.Decode(bytes.NewReader(data), out)
	if err != nil {
		return nil, fmt.Errorf("template %s rendered invalid YAML: %w", name, err)
	}
	if len(docs) != 1 {
		return nil, fmt.Errorf("template %s rendered %d objects; each template must render exactly one", name, len(docs))
	}
	obj := docs[0].Object
	if err := validateObject(ctx, o.schemas, obj); err != nil {
		return nil, fmt.Errorf("%s: %w", docs[0], err)
	}
	return &File{Path: out, Data: data, Object: obj}, nil
}

// hasContent reports whether data holds anything but comments and blank lines.
func hasContent(data []byte) bool {
	for _, line := range strings.Split(string(data), "\n") {
		if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "#") && l != "---" {
			return true
		}
	}
	return false
}

// applyOrder ranks kinds so that what an object needs is created before it: the Namespace, then the
// identities and RBAC, the catalog, and what installs from it.
var applyOrder = map[string]int{
	"Namespace": 0, "ServiceAccount": 1, "Role": 2, "ClusterRole": 3, "RoleBinding": 4, "ClusterRoleBinding": 5,
	"CatalogSource": 6, "ClusterCatalog": 6, "OperatorGroup": 7, "Subscription": 8, "ClusterExtension": 8,
}

// kustomization lists files in apply order (a custom template's unknown kind goes last).
func kustomization(dir string, files []File) File {
	ordered := append([]File(nil), files...)
	rank := func(f File) int {
		if r, ok := applyOrder[f.Object.GetKind()]; ok {
			return r
		}
		return len(applyOrder)
	}
	sort.SliceStable(ordered, func(i, j int) bool { return rank(ordered[i]) < rank(ordered[j]) })
	var b strings.Builder
	b.WriteString("# Generated by opack from opack.yaml: apply this folder with kubectl apply -k, Argo CD or Flux.\n")
	b.WriteString("# Resources are listed in the order a fresh cluster accepts them.\n")
	b.WriteString("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n")
	for _, f := range ordered {
		fmt.Fprintf(&b, "- %s\n", path.Base(f.Path))
	}
	return File{Path: dir + "/" + KustomizationFile, Data: []byte(b.String())}
}
