package apitypes

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

// typeIdent names a type by its package and name (controller-tools' crd.TypeIdent).
type typeIdent struct {
	pkg  *loader.Package
	name string
}

// universe is what was read from the API packages: every type by identity, the group/version
// of each package that has a +groupName marker, and the packages by import path.
type universe struct {
	roots         []*loader.Package
	types         map[typeIdent]*markers.TypeInfo
	groupVersions map[*loader.Package]schema.GroupVersion
	byPath        map[string]*loader.Package
	fset          *token.FileSet
}

// load finds and parses every package below dir/apisDir (discover: without the go command) and
// collects their types and markers, as operator-sdk's generator does.
func load(ctx context.Context, dir, apisDir string) (*universe, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	modDir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	d, err := discover(modDir, apisDir)
	if err != nil {
		return nil, err
	}
	return newUniverse(modDir, d.roots, d.fset)
}

// newUniverse collects the types and markers of the API packages roots (parsed into fset).
func newUniverse(modDir string, roots []*loader.Package, fset *token.FileSet) (*universe, error) {
	reg, err := newRegistry()
	if err != nil {
		return nil, err
	}
	u := &universe{roots: roots, types: map[typeIdent]*markers.TypeInfo{}, groupVersions: map[*loader.Package]schema.GroupVersion{},
		byPath: map[string]*loader.Package{}, fset: fset}
	for _, r := range roots {
		u.byPath[r.PkgPath] = r
	}
	u.collect(&markers.Collector{Registry: reg})
	if err := rootErrors(modDir, roots); err != nil {
		return nil, err
	}
	return u, nil
}

// collect is operator-sdk's needTypes, including its quirk: a package marked
// +kubebuilder:skip stops the collection of the packages after it.
func (u *universe) collect(col *markers.Collector) {
	for _, root := range u.roots {
		pkgMarkers, err := markers.PackageMarkers(col, root)
		if err != nil {
			u.addError(root, err)
		} else {
			if pkgMarkers.Get("kubebuilder:skip") != nil {
				return
			}
			if name := pkgMarkers.Get("groupName"); name != nil {
				version := root.Name
				if v := pkgMarkers.Get("versionName"); v != nil {
					version = v.(string)
				}
				u.groupVersions[root] = schema.GroupVersion{Group: name.(string), Version: version}
			}
		}
		err = markers.EachType(col, root, func(info *markers.TypeInfo) {
			u.types[typeIdent{pkg: root, name: info.Name}] = info
		})
		if err != nil {
			u.addError(root, err)
		}
	}
}

// addError records a marker error of root as controller-tools' Package.AddError does, with the
// position read from the universe's file set.
func (u *universe) addError(root *loader.Package, err error) {
	var list loader.ErrList
	var pe loader.PositionedError
	switch {
	case errors.As(err, &list):
		for _, e := range list {
			u.addError(root, e)
		}
	case errors.As(err, &pe):
		root.Errors = append(root.Errors, packages.Error{Pos: u.fset.Position(pe.Pos).String(), Msg: pe.Error(), Kind: packages.UnknownError})
	default:
		root.Errors = append(root.Errors, packages.Error{Pos: root.ID + ":-", Msg: err.Error(), Kind: packages.UnknownError})
	}
}

// rootErrors reports the errors of the API packages themselves, each once, with its position
// relative to the project folder. Type errors are tolerated, as operator-sdk tolerates them, and so
// are imports that cannot be resolved offline: markers and doc comments are read from syntax, and
// only types of the API packages are ever looked up.
func rootErrors(dir string, roots []*loader.Package) error {
	seen := map[string]bool{}
	var msgs []string
	for _, root := range roots {
		for _, e := range root.Errors {
			if e.Kind == packages.TypeError {
				continue
			}
			msg := fmt.Sprintf("package %s: %s", root.PkgPath, e.Msg)
			if file, _, _ := strings.Cut(e.Pos, ":"); filepath.IsAbs(file) {
				if rel, err := filepath.Rel(dir, e.Pos); err == nil && !strings.HasPrefix(rel, "..") {
					msg = fmt.Sprintf("%s: %s", rel, e.Msg)
				}
			}
			if !seen[msg] {
				seen[msg] = true
				msgs = append(msgs, msg)
			}
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	sort.Strings(msgs)
	return errors.New("reading the Go API types: " + strings.Join(msgs, "; "))
}
