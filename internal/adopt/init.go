package adopt

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/opack/opack/internal/makefile"
	"github.com/opack/opack/internal/project"
	"github.com/opack/opack/internal/project/config"

	"github.com/opack/opack/internal/rootfs"

	"github.com/opack/opack/internal/emit"
	"github.com/opack/opack/internal/manifest"
	"github.com/opack/opack/templates"
	"sigs.k8s.io/yaml"
)

// InitOptions are the choices opack init takes from flags; empty values are read from the project.
type InitOptions struct {
	Package        string
	Version        string
	Channels       []string
	DefaultChannel string
	BundleImage    string // repository, tagged v<version>
	CatalogImage   string // full reference
	OLM            emit.Target
	// KustomizeDir and BundleDir give the kustomize folder and the bundle folder when the
	// Makefile's cannot be read (default: what make bundle uses).
	KustomizeDir, BundleDir string
	// Force overwrites an existing opack.yaml (and Makefile.opack).
	Force bool
	// Makefile also writes Makefile.opack, the drop-in bundle and catalog targets.
	Makefile bool
}

// InitResult says what Init wrote and what it found.
type InitResult struct {
	Project *config.Project
	// Files written, relative to the project folder.
	Files []string
	// Notes are things the user should look at (values guessed, parts of the project missing).
	Notes []string
}

// ErrExists is returned by Init when opack.yaml exists and Force is not set.
var ErrExists = errors.New("already exists")

// scaffold is what Init learns from an operator-sdk / kubebuilder project.
type scaffold struct {
	Package, Domain, Namespace string
	// ProjectName is PROJECT's projectName; Package is what make bundle builds (its --package).
	ProjectName string
	// KustomizeDir and BundleDir are what make bundle builds from and into.
	KustomizeDir, BundleDir string
	// Channels, DefaultChannel and BundlePackage are the committed bundle's
	// (<bundle>/metadata/annotations.yaml).
	Channels       []string
	DefaultChannel string
	BundlePackage  string
	// BaseCSV is the base CSV make bundle builds from, BaseVersion its spec.version.
	BaseCSV, BaseVersion string
	HasManifests         bool
	Make                 makeInfo
	Catalogs             []foundCatalog
	Templates            []foundTemplate
	// foreign lists, for a folder relative to the project, the files in it that opack did not write
	// (nil: the folder is free for opack to replace as a whole).
	foreign func(rel string) []string
	// dir is the project's folder ("" in tests of a scaffold alone).
	dir string
}

// Init writes opack.yaml for the operator-sdk or kubebuilder project in dir, from its PROJECT file,
// config/ (kustomize namespace, config/manifests), bundle/metadata/annotations.yaml (channels) and
// Makefile (VERSION, IMAGE_TAG_BASE) when present, with opts taking precedence. The file is loaded
// back through Load before Init returns, so what it writes is always valid.
func Init(ctx context.Context, dir string, opts InitOptions) (*InitResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, config.DefaultFile)
	if _, err := os.Stat(path); err == nil && !opts.Force {
		return nil, fmt.Errorf("writing %s: %w (pass --force to overwrite it)", path, ErrExists)
	}
	sc, notes, err := readScaffold(ctx, dir, opts)
	if err != nil {
		return nil, err
	}
	var data []byte
	var more []string
	if pr := sc.Make.Profiles; pr != nil && len(pr.Values) > 1 && opts.Package == "" && opts.KustomizeDir == "" && opts.BundleDir == "" {
		notes = nil // each bundle's notes say it for that bundle
		data, more, err = initProfiles(ctx, dir, opts, pr)
	} else {
		if pr != nil {
			notes = append(notes, pr.Note)
		}
		data, more, err = renderInit(sc, opts)
	}
	if err != nil {
		return nil, withNotes(err, append(notes, more...))
	}
	notes = append(notes, more...)
	p, err := config.Decode(data, path)
	if err != nil {
		return nil, fmt.Errorf("the generated %s is invalid (check the flags): %w", config.DefaultFile, err)
	}
	p.SetDir(dir)
	for _, part := range p.Parts() {
		notes = append(notes, pruneNotes(ctx, part)...)
	}
	if err := manifest.WriteFile(path, data, 0o644); err != nil {
		return nil, err
	}
	res := &InitResult{Project: p, Files: []string{config.DefaultFile}, Notes: notes}
	if opts.Makefile {
		mk := filepath.Join(dir, "Makefile.opack")
		if _, err := os.Stat(mk); err == nil && !opts.Force {
			res.Notes = append(res.Notes, "Makefile.opack exists and was kept (pass --force to replace it)")
		} else {
			if err := manifest.WriteFile(mk, templates.Makefile(), 0o644); err != nil {
				return nil, err
			}
			res.Files = append(res.Files, "Makefile.opack")
		}
	}
	return res, nil
}

// initProfiles renders the opack.yaml of a Makefile that builds one bundle per value of a
// variable: each bundle read as make bundle VAR=value builds it.
func initProfiles(ctx context.Context, dir string, opts InitOptions, pr *profiles) ([]byte, []string, error) {
	var notes []string
	if pr.Note != "" {
		notes = append(notes, pr.Note)
	}
	var parts []initData
	for _, v := range pr.Values {
		sc, more, err := readScaffold(ctx, dir, opts, makefile.Override(pr.Var, v))
		if err != nil {
			return nil, notes, fmt.Errorf("make bundle %s=%s: %w", pr.Var, v, err)
		}
		d, more2, err := initPart(sc, opts, v)
		for _, n := range append(more, more2...) {
			notes = append(notes, fmt.Sprintf("bundle %s (%s=%s): %s", v, pr.Var, v, n))
		}
		if err != nil {
			return nil, notes, fmt.Errorf("bundle %s (make bundle %s=%s): %w", v, pr.Var, v, err)
		}
		parts = append(parts, d)
	}
	data, err := renderParts(parts, fmt.Sprintf("make bundle %s=<%s>", pr.Var, strings.Join(pr.Values, "|")))
	return data, notes, err
}

// readScaffold reads what it can of the project: PROJECT, or, in a repository without one (operator-sdk
// generate bundle needs none), a Makefile whose bundle target runs generate bundle.
func readScaffold(ctx context.Context, dir string, opts InitOptions, extra ...makefile.Option) (scaffold, []string, error) {
	sc := scaffold{foreign: func(rel string) []string { return project.ForeignFiles(dir, rel) }, dir: dir}
	var notes []string
	file := filepath.Join(dir, "PROJECT")
	if abs, aerr := filepath.Abs(file); aerr == nil {
		file = abs
	}
	data, err := rootfs.ReadFile(dir, "PROJECT")
	noProject := errors.Is(err, fs.ErrNotExist)
	if err != nil && !noProject {
		return sc, nil, fmt.Errorf("reading the kubebuilder/operator-sdk project file %s: %w", file, errors.Unwrap(err))
	}
	var pf struct {
		ProjectName string `json:"projectName"`
		Domain      string `json:"domain"`
	}
	if err := yaml.Unmarshal(data, &pf); err != nil {
		return sc, nil, fmt.Errorf("reading %s: %w", file, err)
	}
	sc.ProjectName, sc.Domain = pf.ProjectName, pf.Domain
	if sc.Make, err = readMakefile(dir, extra...); err != nil {
		return sc, nil, withNotes(err, sc.Make.Notes)
	}
	if noProject {
		if sc.Make.Recipe == nil {
			return sc, nil, fmt.Errorf("no kubebuilder/operator-sdk project file %s, and no Makefile target running operator-sdk generate bundle: "+
				"run opack init in the operator's root folder, the one holding PROJECT or that Makefile", file)
		}
		notes = append(notes, fmt.Sprintf("no PROJECT file: the bundle is built as operator-sdk generate bundle builds it without one "+
			"(from make %s's flags; no Go API types read for the CSV's descriptors)", sc.Make.Recipe.Target))
	}
	notes = append(notes, sc.Make.Notes...)
	sc.layout(opts)
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(sc.KustomizeDir))); err == nil {
		sc.HasManifests = true
	} else {
		notes = append(notes, fmt.Sprintf("no %s: create it (operator-sdk generate kustomize manifests) before opack build", sc.KustomizeDir))
	}
	var kust struct {
		Namespace string `json:"namespace"`
	}
	if err := rootfs.ReadYAML(filepath.Join(dir, "config", "default", "kustomization.yaml"), &kust); err != nil {
		return sc, nil, err
	}
	sc.Namespace = kust.Namespace
	var ann struct {
		Annotations map[string]string `json:"annotations"`
	}
	if err := rootfs.ReadYAML(filepath.Join(dir, filepath.FromSlash(sc.BundleDir), "metadata", "annotations.yaml"), &ann); err != nil {
		return sc, nil, err
	}
	if ch := ann.Annotations["operators.operatorframework.io.bundle.channels.v1"]; ch != "" {
		sc.Channels = strings.Split(ch, ",")
	}
	sc.DefaultChannel = ann.Annotations["operators.operatorframework.io.bundle.channel.default.v1"]
	sc.BundlePackage = ann.Annotations["operators.operatorframework.io.bundle.package.v1"]
	var base struct {
		Spec struct {
			Version string `json:"version"`
		} `json:"spec"`
	}
	baseDir := sc.KustomizeDir
	if r := sc.Make.Recipe; r != nil && r.Manifests != nil && r.Manifests.OutputDir != "" {
		baseDir = r.Manifests.OutputDir
	}
	sc.BaseCSV = path.Join(baseDir, "bases", sc.Package+".clusterserviceversion.yaml")
	if err := rootfs.ReadYAML(filepath.Join(dir, filepath.FromSlash(sc.BaseCSV)), &base); err == nil {
		sc.BaseVersion = base.Spec.Version
	}
	var more []string
	sc.Catalogs, sc.Templates, more, err = findCatalogs(ctx, dir, sc.Package, sc.BundleDir)
	if err != nil {
		return sc, nil, err
	}
	return sc, append(notes, more...), nil
}

// layout decides the package, the kustomize folder and the bundle folder: the flags, else what
// make bundle uses (its recipe, operator-sdk's defaults), else PROJECT's projectName.
func (sc *scaffold) layout(opts InitOptions) {
	sc.Package, sc.KustomizeDir, sc.BundleDir = sc.ProjectName, config.DefaultKustomizeDir, config.DefaultBundleDir
	if r := sc.Make.Recipe; r != nil {
		sc.Package = first(r.Package, sc.Package)
		sc.KustomizeDir = first(r.BuildDir, r.KustomizeDir, sc.KustomizeDir)
		sc.BundleDir = first(r.OutputDir, path.Join(first(r.Dir, "."), config.DefaultBundleDir))
	}
	sc.Package = first(opts.Package, sc.Package)
	sc.KustomizeDir = first(opts.KustomizeDir, sc.KustomizeDir)
	sc.BundleDir = first(opts.BundleDir, sc.BundleDir)
}

// pruneNotes name the committed files of the bundle folder the first build will want to delete:
// make bundle no longer writes them, and operator-sdk never deletes a manifest.
func pruneNotes(ctx context.Context, p *config.Project) []string {
	if _, err := os.Stat(filepath.Join(p.Dir, filepath.FromSlash(p.Bundle.Dir))); err != nil {
		return nil
	}
	files, err := project.PrunedByFirstBuild(ctx, p)
	if err != nil {
		return []string{fmt.Sprintf("the bundle could not be generated to compare it with the committed %s (opack build will say the same): %v", p.Bundle.Dir, err)}
	}
	if len(files) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("the first opack build will want to delete %d committed file(s) of %s that the bundle no longer holds (operator-sdk never deletes a manifest, so make bundle keeps them): %s; if they are leftovers, run opack build --prune once; if the bundle needs them, add them to %s",
		len(files), p.Bundle.Dir, strings.Join(files, ", "), p.KustomizeDir)}
}

func first(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// quoteYAML renders s as a double-quoted scalar when plain style could change its meaning.
func quoteYAML(s string) string {
	b, _ := yaml.Marshal(s)
	return strings.TrimSuffix(string(b), "\n")
}

// withNotes adds to an error of init the notes it made on the way: what the Makefile held that
// opack could not read is what the user needs to act on the error.
func withNotes(err error, notes []string) error {
	if len(notes) == 0 {
		return err
	}
	return &NotedError{Err: err, notes: notes}
}

// NotedError is an error of init with the notes on what it read before it stopped: each a line of
// its own, quoting the repository (a caller escapes each as one line).
type NotedError struct {
	Err   error
	notes []string
}

func (e *NotedError) Error() string {
	return fmt.Sprintf("%v\nnotes on what opack read:\n  %s", e.Err, strings.Join(e.notes, "\n  "))
}

func (e *NotedError) Unwrap() error { return e.Err }

// Notes are the notes, one line each.
func (e *NotedError) Notes() []string { return e.notes }
