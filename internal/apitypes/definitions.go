package apitypes

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"
	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

// Options say where the API types are and which kinds the project owns.
type Options struct {
	Dir     string                    // the project (module) folder; "." when empty
	APIsDir string                    // the API root below Dir, e.g. "api" or "apis"
	GVKs    []schema.GroupVersionKind // the PROJECT file's resources, groups fully qualified
}

// Apply updates csv's owned CRD descriptions from the Go API types, as operator-sdk v1.42.3's
// `generate kustomize manifests` does (ApplyDefinitionsForKeysGo). It returns operator-sdk's
// warnings: a missing API folder, kinds whose Go type was not found.
func Apply(ctx context.Context, csv *v1alpha1.ClusterServiceVersion, o Options) (warnings []string, err error) {
	if o.Dir == "" {
		o.Dir = "."
	}
	if _, err := os.Stat(filepath.Join(o.Dir, o.APIsDir)); errors.Is(err, fs.ErrNotExist) {
		w := fmt.Sprintf("skipping definitions parsing: APIs root dir %q does not exist", o.APIsDir)
		if o.APIsDir == "api" {
			if st, err := os.Stat(filepath.Join(o.Dir, "apis")); err == nil && st.IsDir() {
				w += " (the project has apis/: pass --apis-dir apis)"
			}
		}
		return []string{w}, nil
	}
	u, err := load(ctx, o.Dir, o.APIsDir)
	if err != nil {
		return nil, err
	}
	want := make(map[schema.GroupVersionKind]bool, len(o.GVKs))
	for _, gvk := range o.GVKs {
		want[gvk] = true
	}
	defs := map[schema.GroupVersionKind]definition{}
	for ident, info := range u.types {
		gv, ok := u.groupVersions[ident.pkg]
		if !ok || !want[gv.WithKind(ident.name)] {
			continue
		}
		gvk := gv.WithKind(ident.name)
		d, err := u.describe(gvk, ident, info)
		if err != nil {
			return nil, fmt.Errorf("reading the Go type %s.%s: %w", ident.pkg.PkgPath, ident.name, err)
		}
		defs[gvk] = d
		delete(want, gvk)
	}
	for _, gvk := range o.GVKs {
		if want[gvk] {
			warnings = append(warnings, fmt.Sprintf("skipping definitions parsing for API %s: Go type not found", gvk))
		}
	}
	merge(csv, defs)
	return warnings, nil
}

// definition is one generated owned CRD description and its marker order.
type definition struct {
	order int
	crd   v1alpha1.CRDDescription
}

// describe is operator-sdk's buildCRDDescriptionFromType.
func (u *universe) describe(gvk schema.GroupVersionKind, ident typeIdent, kind *markers.TypeInfo) (definition, error) {
	d := definition{order: math.MaxInt32, crd: v1alpha1.CRDDescription{
		Description: kind.Doc, DisplayName: displayName(gvk.Kind), Version: gvk.Version, Kind: gvk.Kind,
	}}
	for _, vals := range kind.Markers {
		for _, m := range vals {
			switch m := m.(type) {
			case Description:
				if m.Order != nil {
					d.order = *m.Order
				}
				if m.DisplayName != "" {
					d.crd.DisplayName = m.DisplayName
				}
				refs, err := m.Resources.references()
				if err != nil {
					return definition{}, err
				}
				d.crd.Resources = append(d.crd.Resources, refs...)
			case crdmarkers.Resource:
				if m.Path != "" {
					d.crd.Name = m.Path + "." + gvk.Group
				}
			}
		}
	}
	if d.crd.Name == "" {
		d.crd.Name = pluralize(strings.ToLower(gvk.Kind)) + "." + gvk.Group
	}
	sortResources(d.crd.Resources)
	spec, err := u.descriptors(ident.pkg, kind, "spec")
	if err != nil {
		return definition{}, err
	}
	for _, s := range spec {
		d.crd.SpecDescriptors = append(d.crd.SpecDescriptors, v1alpha1.SpecDescriptor(s))
	}
	status, err := u.descriptors(ident.pkg, kind, "status")
	if err != nil {
		return definition{}, err
	}
	for _, s := range status {
		d.crd.StatusDescriptors = append(d.crd.StatusDescriptors, v1alpha1.StatusDescriptor(s))
	}
	return d, nil
}

// merge is operator-sdk's updateDefinitionsByKey: generated descriptions are bucketed by order
// and sorted; base descriptions of other kinds keep their index as order.
func merge(csv *v1alpha1.ClusterServiceVersion, defs map[schema.GroupVersionKind]definition) {
	buckets := map[int][]v1alpha1.CRDDescription{}
	for _, d := range defs {
		buckets[d.order] = append(buckets[d.order], d.crd)
	}
	for _, b := range buckets {
		sort.Slice(b, lessCRD(b))
	}
	owned := csv.Spec.CustomResourceDefinitions.Owned
	for i, c := range owned {
		gvk := schema.GroupVersionKind{Group: groupOf(c.Name), Version: c.Version, Kind: c.Kind}
		if _, ok := defs[gvk]; !ok {
			buckets[i] = append(buckets[i], c)
		}
	}
	orders := make([]int, 0, len(buckets))
	for o := range buckets {
		orders = append(orders, o)
	}
	sort.Ints(orders)
	csv.Spec.CustomResourceDefinitions.Owned = make([]v1alpha1.CRDDescription, 0, len(buckets))
	for _, o := range orders {
		csv.Spec.CustomResourceDefinitions.Owned = append(csv.Spec.CustomResourceDefinitions.Owned, buckets[o]...)
	}
}

// groupOf is everything after the first dot of a CRD name.
func groupOf(name string) string {
	if _, g, ok := strings.Cut(name, "."); ok {
		return g
	}
	return name
}

func lessCRD(d []v1alpha1.CRDDescription) func(i, j int) bool {
	return func(i, j int) bool {
		if d[i].Name != d[j].Name {
			return d[i].Name < d[j].Name
		}
		if d[i].Kind != d[j].Kind {
			return d[i].Kind < d[j].Kind
		}
		return version.CompareKubeAwareVersionStrings(d[i].Version, d[j].Version) > 0
	}
}

func sortResources(rs []v1alpha1.APIResourceReference) {
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].Name != rs[j].Name {
			return rs[i].Name < rs[j].Name
		}
		if rs[i].Kind != rs[j].Kind {
			return rs[i].Kind < rs[j].Kind
		}
		return version.CompareKubeAwareVersionStrings(rs[i].Version, rs[j].Version) > 0
	})
}
