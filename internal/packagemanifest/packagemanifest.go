package packagemanifest

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/operator-framework/api/pkg/manifests"
	apivalidation "github.com/operator-framework/api/pkg/validation"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/manifest"
)

// Rules of the findings of loading a package manifest.
const (
	RulePackage = "operator-registry/package-manifest" // operator-registry's import checks
	RuleLoad    = "operator-sdk/load"                  // a version folder operator-sdk's loader refuses
)

// FindPackageFile returns the package manifest at the top of dir (<pkg>.package.yaml, or any YAML file
// holding packageName and channels), "" when there is none.
func FindPackageFile(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	var candidates []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || strings.HasPrefix(n, ".") {
			continue
		}
		if strings.HasSuffix(n, ".package.yaml") || strings.HasSuffix(n, ".package.yml") || n == "package.yaml" {
			return filepath.Join(dir, n)
		}
		if strings.HasSuffix(n, ".yaml") || strings.HasSuffix(n, ".yml") || strings.HasSuffix(n, ".json") {
			candidates = append(candidates, filepath.Join(dir, n))
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "manifests")); err == nil && fi.IsDir() {
		return ""
	}
	for _, path := range candidates {
		if _, err := readPackageManifest(path); err == nil {
			return path
		}
	}
	return ""
}

func readPackageManifest(path string) (*manifests.PackageManifest, error) {
	raw, err := manifest.ReadBytes(path)
	if err != nil {
		return nil, err
	}
	var pkg manifests.PackageManifest
	if err := sigsyaml.Unmarshal(raw, &pkg); err != nil {
		return nil, fmt.Errorf("decoding package manifest %s: %w", path, err)
	}
	if pkg.PackageName == "" && len(pkg.Channels) == 0 {
		return nil, fmt.Errorf("%s is not a package manifest (no packageName, no channels)", path)
	}
	return &pkg, nil
}

// Package is a package-manifest folder: the package file and one bundle per version folder.
type Package struct {
	dir      string
	pkgFile  string
	pkg      *manifests.PackageManifest
	Versions []*Bundle // one per version folder that loaded
}

// LoadPackageDir reads the package file and each version folder (exactly one CSV each, as operator-registry
// requires); problems are findings.
func LoadPackageDir(dir, pkgFile string, pc *ParseCache) (*Package, []finding.Finding) {
	pkg, err := readPackageManifest(pkgFile)
	if err != nil {
		return nil, []finding.Finding{finding.Errorf(pkgFile, "", RulePackage, "%v", err)}
	}
	pd := &Package{dir: dir, pkgFile: pkgFile, pkg: pkg}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, []finding.Finding{finding.Errorf(dir, "", RulePackage, "reading %s: %v", dir, err)}
	}
	var out []finding.Finding
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		vdir := filepath.Join(dir, e.Name())
		lb, fs := loadVersionDir(vdir, pc)
		out = append(out, fs...)
		if lb != nil {
			pd.Versions = append(pd.Versions, lb)
		}
	}
	return pd, out
}

// loadVersionDir loads one version folder as a registry+v1 bundle.
func loadVersionDir(vdir string, pc *ParseCache) (*Bundle, []finding.Finding) {
	lb := &Bundle{dir: vdir, manifestsDir: vdir, MediaType: MediaTypeRegistryV1, files: newFileCache(pc),
		ObjFile: map[*unstructured.Unstructured]string{}, CRDFile: map[string]string{}, CRDSrc: map[any]*SourceFile{}}
	entries, err := os.ReadDir(vdir)
	if err != nil {
		return nil, []finding.Finding{finding.Errorf(vdir, "", RulePackage, "reading %s: %v", vdir, err)}
	}
	var csvs []string
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		f, err := lb.files.get(filepath.Join(vdir, e.Name()))
		if err == nil && f.Obj != nil && f.Obj.GetKind() == "ClusterServiceVersion" {
			csvs = append(csvs, e.Name())
		}
	}
	if len(csvs) != 1 {
		return nil, []finding.Finding{finding.Errorf(vdir, "", RulePackage,
			"version folder %s holds %d ClusterServiceVersions %v; a package-manifest version folder holds exactly one", vdir, len(csvs), csvs)}
	}
	if err := lb.load(); err != nil {
		return nil, []finding.Finding{finding.Errorf(vdir, "", RuleLoad, "%v", err)}
	}
	return lb, nil
}

// ImportFindings checks what operator-registry checks when it imports a package manifest: channels, each
// channel's currentCSV, and replaces naming CSVs of the package.
func (pd *Package) ImportFindings() []finding.Finding {
	object := finding.ObjectName("PackageManifest", pd.pkg.PackageName)
	var out []finding.Finding
	for _, res := range apivalidation.PackageManifestValidator.Validate(pd.pkg) {
		for _, e := range res.Errors {
			out = append(out, finding.Finding{Severity: finding.SeverityError, File: pd.pkgFile, Object: object, Rule: RulePackage, Message: e.Error()})
		}
		for _, e := range res.Warnings {
			out = append(out, finding.Finding{Severity: finding.SeverityWarning, File: pd.pkgFile, Object: object, Rule: RulePackage, Message: e.Error()})
		}
	}
	csvs := pd.csvNames()
	for _, ch := range pd.pkg.Channels {
		if ch.CurrentCSVName != "" && csvs[ch.CurrentCSVName] == nil {
			out = append(out, finding.Errorf(pd.pkgFile, object, RulePackage,
				"channel %q: currentCSV %s is not in the package: add its version folder or point the channel at an existing CSV (%s)",
				ch.Name, ch.CurrentCSVName, strings.Join(slices.Sorted(maps.Keys(csvs)), ", ")))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(csvs)) {
		lb := csvs[name]
		if r := lb.Manifests.CSV.Spec.Replaces; r != "" && csvs[r] == nil {
			out = append(out, finding.Errorf(lb.CSVFile, lb.CSVObject(), RulePackage,
				"spec.replaces names %s, which is not in the package: add its version folder or fix spec.replaces", r))
		}
	}
	return out
}

func (pd *Package) csvNames() map[string]*Bundle {
	out := map[string]*Bundle{}
	for _, lb := range pd.Versions {
		out[lb.Manifests.CSV.GetName()] = lb
	}
	return out
}

// channelsOf returns, sorted, the channels whose replaces chain from currentCSV reaches csv.
func (pd *Package) channelsOf(csv string) []string {
	csvs := pd.csvNames()
	var out []string
	for _, ch := range pd.pkg.Channels {
		seen := map[string]bool{}
		for cur := ch.CurrentCSVName; cur != "" && !seen[cur]; {
			seen[cur] = true
			if cur == csv {
				out = append(out, ch.Name)
				break
			}
			lb := csvs[cur]
			if lb == nil {
				break
			}
			cur = lb.Manifests.CSV.Spec.Replaces
		}
	}
	sort.Strings(out)
	return out
}
