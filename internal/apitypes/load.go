package apitypes

import (
	"context"
	"errors"
	"fmt"
	"os"
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

// universe is what was read from the API packages: every type by identity, and the
// group/version of each package that has a +groupName marker.
type universe struct {
	roots         []*loader.Package
	types         map[typeIdent]*markers.TypeInfo
	groupVersions map[*loader.Package]schema.GroupVersion
}

// load loads every package below dir/apisDir with controller-tools' loader and collects
// their types and markers, as operator-sdk's generator does.
func load(ctx context.Context, dir, apisDir string) (*universe, error) {
	abs, err := filepath.Abs(filepath.Join(dir, apisDir))
	if err != nil {
		return nil, err
	}
	modDir, _ := filepath.Abs(dir)
	if err := confined(modDir, apisDir); err != nil {
		return nil, err
	}
	cfg := &packages.Config{Context: ctx, Dir: modDir, Env: offlineEnv(modDir)}
	roots, err := loader.LoadRootsWithConfig(cfg, abs+"/...")
	if err != nil {
		return nil, fmt.Errorf("loading the Go packages in %s: %w", apisDir, err)
	}
	reg, err := newRegistry()
	if err != nil {
		return nil, err
	}
	u := &universe{roots: roots, types: map[typeIdent]*markers.TypeInfo{}, groupVersions: map[*loader.Package]schema.GroupVersion{}}
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
			root.AddError(err)
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
			root.AddError(err)
		}
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
			if e.Kind == packages.TypeError || unresolvedImport(e.Msg) {
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

// unresolvedImport reports whether a list error is about an import go list could not find offline.
func unresolvedImport(msg string) bool {
	for _, s := range []string{"no required module provides package", "module lookup disabled", "missing go.sum entry", "cannot find module providing package", "is not in std"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// offlineEnv is the environment go list runs in: no network, no toolchain switch, go.mod never
// updated, no C compiler.
func offlineEnv(modDir string) []string {
	mod := "-mod=readonly"
	if _, err := os.Stat(filepath.Join(modDir, "vendor", "modules.txt")); err == nil {
		mod = "-mod=vendor"
	}
	var flags []string
	for _, f := range strings.Fields(os.Getenv("GOFLAGS")) {
		if !strings.HasPrefix(f, "-mod=") && !strings.HasPrefix(f, "--mod=") {
			flags = append(flags, f)
		}
	}
	flags = append(flags, mod)
	// CGO_ENABLED=0: a cgo file of the repository must not make go list run the C compiler on
	// it (#include of any file, of /dev/zero). GOWORK=off: a go.work is not the module's.
	return append(os.Environ(), "GOPROXY=off", "GOTOOLCHAIN=local", "CGO_ENABLED=0", "GOWORK=off", "GOFLAGS="+strings.Join(flags, " "))
}
