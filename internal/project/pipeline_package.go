package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/opack/opack/internal/rootfs"
)

// checkPackage refuses to build a package other than the repository's: the committed bundle's
// metadata and the committed base CSV name the package they were made for, and a build of
// another (a package: in opack.yaml taken from PROJECT while the Makefile passes --package) would
// publish a bundle nobody asked for, its CSV made from defaults.
func (r *run) checkPackage() error {
	p := r.p
	if _, err := os.Stat(r.path(p.KustomizeDir)); errors.Is(err, fs.ErrNotExist) {
		return stepErr(StepGenerate, p.KustomizeDir, fmt.Errorf("kustomizeDir %s does not exist", p.KustomizeDir),
			"create it (opack generate kustomize-manifests writes operator-sdk's), or set kustomizeDir in "+p.File+" to the folder make bundle builds")
	}
	if m := r.o.makefilePackage; m.name != "" && m.name != p.Package && !p.Multi() {
		return stepErr(StepGenerate, m.at, fmt.Errorf("the Makefile's make bundle builds package %s (generate bundle --package) and %s builds package %s: this build would publish another package", m.name, p.File, p.Package),
			fmt.Sprintf("set package: %s in %s, or change the Makefile's --package if the package really changes", m.name, p.File))
	}
	var ann struct {
		Annotations map[string]string `json:"annotations"`
	}
	annFile := path.Join(p.Bundle.Dir, "metadata", "annotations.yaml")
	if err := rootfs.ReadYAML(r.path(annFile), &ann); err == nil {
		if got := ann.Annotations["operators.operatorframework.io.bundle.package.v1"]; got != "" && got != p.Package {
			return stepErr(StepGenerate, annFile, fmt.Errorf("the committed bundle is package %s and %s builds package %s: this build would publish another package", got, p.File, p.Package),
				fmt.Sprintf("set package: %s in %s, or, if the package really changes, delete %s first", got, p.File, p.Bundle.Dir))
		}
	}
	bases := path.Join(p.KustomizeManifests.InputDir, "bases")
	real, err := rootfs.Resolve(p.Dir, bases)
	if err != nil {
		return stepErr(StepGenerate, bases, err, "")
	}
	entries, err := os.ReadDir(real)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return stepErr(StepGenerate, bases, err, "")
	}
	var others []string
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".clusterserviceversion.yaml")
		if !ok || e.IsDir() {
			continue
		}
		if name == p.Package {
			return nil
		}
		others = append(others, name)
	}
	if len(others) == 0 {
		return nil
	}
	sort.Strings(others)
	return stepErr(StepGenerate, path.Join(bases, others[0]+".clusterserviceversion.yaml"),
		fmt.Errorf("the committed base CSV is for package %s and %s builds package %s, for which %s holds no base: this build would publish another package, its CSV made from defaults",
			strings.Join(others, ", "), p.File, p.Package, filepath.ToSlash(bases)),
		fmt.Sprintf("set package: %s in %s (the Makefile's generate bundle --package), or add %s", others[0], p.File, path.Join(bases, p.Package+".clusterserviceversion.yaml")))
}

// BuildMakefilePackage gives the package the project's Makefile passes to generate bundle (and
// where): a build of another package is refused, as one of another committed bundle or base CSV is.
func BuildMakefilePackage(name, at string) BuildOption {
	return func(o *buildOptions) { o.makefilePackage = namedAt{name: name, at: at} }
}

// namedAt is a value read from a file, with its position.
type namedAt struct{ name, at string }
