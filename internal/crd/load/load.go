package load

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/opack/opack/internal/manifest"
)

// Set is the CRDs of one side of an upgrade (a file, a folder or a bundle) and what its CSVs say about them.
type Set struct {
	// CRDs are sorted by name.
	CRDs []*apiextv1.CustomResourceDefinition
	// Files maps a CRD name to the file it came from.
	Files map[string]string
	// Refs are the CRD versions the set's ClusterServiceVersions own or require.
	Refs []VersionRef
	// Grants are the RBAC rules the set's ClusterServiceVersions ask for; HasCSV says whether
	// the set holds one (else nothing is known of the operator's rights).
	Grants []Grant
	HasCSV bool
}

// VersionRef is a CRD version a ClusterServiceVersion owns or requires; OLM v0 refuses the CSV when
// that version is not served.
type VersionRef struct {
	CRD     string
	Version string
	CSV     string
	Owned   bool
}

// CRDs reads the CRDs of path: a CRD file (a YAML or JSON stream, a `kind: List` as kubectl prints it),
// a folder of such files, or a bundle folder (its manifests/). CRDs of apiextensions.k8s.io/v1beta1 are
// converted to v1; other objects are skipped, except ClusterServiceVersions whose owned and required
// CRD versions are kept in Refs. A CRD name defined twice is an error.
func CRDs(ctx context.Context, p string, opts ...manifest.Option) (*Set, error) {
	docs, err := readObjects(ctx, p, true, opts)
	if err != nil {
		return nil, err
	}
	s := &Set{Files: map[string]string{}}
	for _, d := range docs {
		if err := s.add(d); err != nil {
			return nil, err
		}
	}
	sort.Slice(s.CRDs, func(i, j int) bool { return s.CRDs[i].Name < s.CRDs[j].Name })
	sort.Slice(s.Refs, func(i, j int) bool {
		a, b := s.Refs[i], s.Refs[j]
		if a.CRD != b.CRD {
			return a.CRD < b.CRD
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		return a.CSV < b.CSV
	})
	return s, nil
}

func (s *Set) add(d manifest.Doc) error {
	u := d.Object
	switch {
	case isCRD(u):
		c, err := FromUnstructured(u)
		if err != nil {
			return fmt.Errorf("reading %s: %w", d, err)
		}
		if c.Name == "" {
			return fmt.Errorf("reading %s: CustomResourceDefinition without metadata.name", d)
		}
		if prev, dup := s.Files[c.Name]; dup {
			return fmt.Errorf("reading %s: CustomResourceDefinition %s is also defined in %s; keep one", d, c.Name, prev)
		}
		s.Files[c.Name] = d.File
		s.CRDs = append(s.CRDs, c)
	case u.GetKind() == "ClusterServiceVersion" && u.GroupVersionKind().Group == "operators.coreos.com":
		s.Refs = append(s.Refs, csvRefs(u)...)
		s.Grants = append(s.Grants, csvGrants(u.Object)...)
		s.HasCSV = true
	}
	return nil
}

// csvRefs returns the owned and required CRD versions of a CSV.
func csvRefs(u *unstructured.Unstructured) []VersionRef {
	var out []VersionRef
	for _, kind := range []string{"owned", "required"} {
		items, _, _ := unstructured.NestedSlice(u.Object, "spec", "customresourcedefinitions", kind)
		for _, it := range items {
			m, ok := it.(map[string]interface{})
			if !ok {
				continue
			}
			name, _ := m["name"].(string)
			ver, _ := m["version"].(string)
			if name != "" && ver != "" {
				out = append(out, VersionRef{CRD: name, Version: ver, CSV: u.GetName(), Owned: kind == "owned"})
			}
		}
	}
	return out
}

// readObjects reads every object of a file or of the YAML/JSON files below a folder (only manifests/
// of a bundle folder when bundleAware), expanding `kind: List` documents.
func readObjects(ctx context.Context, p string, bundleAware bool, opts []manifest.Option) ([]manifest.Doc, error) {
	return readObjectsWith(ctx, p, bundleAware, opts, nil)
}

// readObjectsWith is readObjects with fix applied to each document before lists are expanded.
func readObjectsWith(ctx context.Context, p string, bundleAware bool, opts []manifest.Option, fix func(*manifest.Doc) error) ([]manifest.Doc, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", p, err)
	}
	if !fi.IsDir() {
		docs, err := manifest.ReadFile(p, opts...)
		if err != nil {
			return nil, err
		}
		return fixAndExpand(docs, fix)
	}
	root := p
	if bundleAware {
		if st, err := os.Stat(filepath.Join(p, "manifests")); err == nil && st.IsDir() {
			root = filepath.Join(p, "manifests")
		}
	}
	files, err := manifest.Files(root, opts...)
	if err != nil {
		return nil, err
	}
	var docs []manifest.Doc
	for _, rel := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		switch strings.ToLower(path.Ext(rel)) {
		case ".yaml", ".yml", ".json":
		default:
			continue
		}
		d, err := manifest.ReadFile(filepath.Join(root, filepath.FromSlash(rel)), opts...)
		if err != nil {
			return nil, err
		}
		if d, err = fixAndExpand(d, fix); err != nil {
			return nil, err
		}
		docs = append(docs, d...)
	}
	return docs, nil
}

func fixAndExpand(docs []manifest.Doc, fix func(*manifest.Doc) error) ([]manifest.Doc, error) {
	if fix != nil {
		for i := range docs {
			if err := fix(&docs[i]); err != nil {
				return nil, err
			}
		}
	}
	return expandLists(docs), nil
}

// expandLists replaces each `kind: List` (or *List) document by its items.
func expandLists(docs []manifest.Doc) []manifest.Doc {
	out := docs[:0:0]
	for _, d := range docs {
		if !d.Object.IsList() {
			out = append(out, d)
			continue
		}
		items, _, _ := unstructured.NestedSlice(d.Object.Object, "items")
		for _, it := range items {
			if m, ok := it.(map[string]interface{}); ok {
				out = append(out, manifest.Doc{File: d.File, Index: d.Index, Object: &unstructured.Unstructured{Object: m}})
			}
		}
	}
	return out
}
