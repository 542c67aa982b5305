package bundle

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/blang/semver/v4"
	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	"sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/kustomize"
	"github.com/opack/opack/internal/manifest"
	"github.com/opack/opack/internal/version"
)

// Mode says what Generate does with the bundle it builds.
type Mode int

const (
	// ModeWrite replaces the bundle folder atomically and writes the Dockerfile.
	ModeWrite Mode = iota
	// ModeCheck writes nothing and reports (Result.Changed, Result.Diff) how disk differs.
	ModeCheck
	// ModeStdout writes nothing and puts the manifests stream in Result.Stdout.
	ModeStdout
)

// Options configure Generate. The zero value of every field is operator-sdk's default except
// where noted; Package is required.
type Options struct {
	// ProjectDir holds the PROJECT file read for Package and Layout when they are empty ("." when empty).
	ProjectDir     string
	Package        string // bundle package name (operator-sdk: --package or PROJECT projectName)
	Layout         string // PROJECT layout chain; "unknown" when neither set nor in PROJECT
	Version        string // strict semver; "" keeps the base CSV's name and version
	Channels       string // comma-separated; "alpha" when empty
	DefaultChannel string

	// Input is read as the object stream when set (stdin given as "-"); InputName names it in errors.
	Input     io.Reader
	InputName string
	// InputDir is read recursively when set and Input is nil.
	InputDir string
	// KustomizeDir holds bases/<pkg>.clusterserviceversion.yaml; when neither Input nor InputDir is
	// set it is also the kustomization built in-process. "config/manifests" when empty.
	KustomizeDir string
	// AllowRemote lets the kustomization name http(s) URLs (fetched by opack); the build is
	// otherwise offline and reads nothing outside ProjectRoot.
	AllowRemote bool
	// ProjectRoot bounds what the kustomize build reads; kustomize.ProjectRoot of KustomizeDir
	// when empty.
	ProjectRoot string
	// Kustomize adds options to the kustomize build (a step cache: kustomize.WithCache).
	Kustomize []kustomize.Option

	OutputDir            string // "bundle" when empty
	Dockerfile           string // "bundle.Dockerfile" when empty; COPY paths are relative to its folder
	ExtraServiceAccounts []string

	Manifests, Metadata bool // generate only these parts; neither set means both
	KeepMetadata        bool // operator-sdk --overwrite=false: keep existing metadata files
	KeepUnknown         bool // keep files in manifests/ this run does not generate

	CreatedAt       string           // forces the createdAt annotation (RFC 3339)
	SourceDateEpoch string           // $SOURCE_DATE_EPOCH, used for a new createdAt when set
	Now             func() time.Time // clock for a new createdAt; time.Now when nil
	Builder         string           // builder annotation and label; version.Builder() when empty

	Resolver Resolver // when set, image tags are pinned to digests through it
	Mode     Mode

	// APIsDir, when set and the manifests come from the kustomization of a Go project, runs
	// `generate kustomize-manifests` first, as operator-sdk's `make bundle` does: the base CSV is
	// regenerated from the Go API types below ProjectDir/APIsDir and the kustomization is built
	// with it. The base file is written in ModeWrite only, when it changed.
	APIsDir string
	// BaseInputDir and BaseOutputDir are the folders the kustomize-manifests step reads the base
	// from and writes it to (operator-sdk's --input-dir and --output-dir); KustomizeDir when empty.
	BaseInputDir, BaseOutputDir string
	// Base, when set, holds base files (BaseFromGoTypes) read in place of those on disk when the
	// kustomization is built; Generate sets it from APIsDir.
	Base *BaseResult
}

// Result is what Generate built and did.
type Result struct {
	OutputDir  string
	CSV        *v1alpha1.ClusterServiceVersion // nil when manifests were not generated
	Files      []File                          // generated bundle files, CSV first
	Dockerfile *File                           // nil when metadata was not generated
	Dropped    []Dropped                       // input objects neither written nor used
	Warnings   []string
	Notices    []string    // kustomize's deprecation notices, by file (kustomize.WithNotices)
	Removed    []string    // files of a previous run removed from manifests/ (or that would be, in check mode)
	Kept       []string    // such files kept because of KeepUnknown, or because the generator did not write them
	Changed    bool        // disk differed from the generated bundle (write mode: so it was written)
	Diff       string      // unified diff, disk → generated
	Stdout     []byte      // stdout mode: the manifests stream
	Base       *BaseResult // the kustomize-manifests step, when it ran
	// Tree is the bundle folder's full new content (slash-separated path → bytes): what was
	// written, or would be in check mode; nil in stdout mode.
	Tree map[string][]byte
}

func (o *Options) defaults() error {
	if o.ProjectDir == "" {
		o.ProjectDir = "."
	}
	if o.Package == "" || o.Layout == "" {
		p, ok, err := ReadProject(o.ProjectDir)
		if err != nil {
			return err
		}
		if o.Package == "" && ok {
			o.Package = p.Name
		}
		if o.Layout == "" {
			o.Layout = p.Layout
		}
	}
	if o.Package == "" {
		return fmt.Errorf("no package name: set --package (or projectName in %s)", filepath.Join(o.ProjectDir, "PROJECT"))
	}
	if o.Version != "" {
		v, err := semver.Parse(o.Version)
		if err != nil {
			if _, err2 := semver.Parse(strings.TrimPrefix(o.Version, "v")); strings.HasPrefix(o.Version, "v") && err2 == nil {
				return fmt.Errorf("--version %q is not a semantic version: drop the leading v (--version %s)", o.Version, o.Version[1:])
			}
			return fmt.Errorf("--version %q is not a semantic version (e.g. 0.0.1): %w", o.Version, err)
		}
		if v.String() != o.Version {
			return fmt.Errorf("--version %q contains bad values (parses to %s)", o.Version, v)
		}
	}
	if !o.Manifests && !o.Metadata {
		o.Manifests, o.Metadata = true, true
	}
	def := func(s *string, d string) {
		if *s == "" {
			*s = d
		}
	}
	def(&o.Layout, "unknown")
	def(&o.Channels, "alpha")
	def(&o.KustomizeDir, filepath.Join("config", "manifests"))
	def(&o.OutputDir, "bundle")
	def(&o.Dockerfile, "bundle.Dockerfile")
	def(&o.Builder, version.Builder())
	def(&o.InputName, "-")
	if o.Now == nil {
		o.Now = time.Now
	}
	return nil
}

// Generate builds the bundle from the input objects as operator-sdk's `generate bundle` does,
// then writes it, checks it against disk or renders it for stdout, as opts.Mode says.
// On any error nothing on disk has changed.
func Generate(ctx context.Context, opts Options) (*Result, error) {
	if err := opts.defaults(); err != nil {
		return nil, err
	}
	if err := checkOutputDir(&opts); err != nil {
		return nil, err
	}
	disk, err := readTree(opts.OutputDir)
	if err != nil {
		return nil, err
	}
	res := &Result{OutputDir: opts.OutputDir}
	if err := regenerateBase(ctx, &opts, res); err != nil {
		return nil, err
	}
	if w := defaultChannelWarning(opts.Channels, opts.DefaultChannel); opts.Metadata && w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	if opts.Manifests {
		if err := generateManifests(ctx, &opts, disk, res); err != nil {
			return nil, err
		}
	}
	if opts.Mode == ModeStdout {
		res.Stdout = stdoutStream(res.Files)
		return res, nil
	}
	tree := planTree(&opts, disk, res)
	if opts.Metadata {
		if err := generateMetadata(&opts, disk, tree, res); err != nil {
			return nil, err
		}
	}
	res.Tree = tree
	if err := check(&opts, disk, tree, res); err != nil || opts.Mode == ModeCheck {
		baseCheck(res)
		return res, err
	}
	if res.Changed { // an unchanged bundle is not rewritten, so file times stay put
		if err := write(ctx, &opts, tree, res); err != nil {
			return res, err
		}
	}
	if res.Base != nil {
		return res, writeFiles(ctx, res.Base.Files)
	}
	return res, nil
}

// readInput returns the input objects: the stream, the folder, or the kustomization built in-process.
func readInput(ctx context.Context, o *Options, res *Result) ([]manifest.Doc, error) {
	switch {
	case o.Input != nil:
		docs, err := manifest.Decode(o.Input, o.InputName)
		if err != nil {
			return nil, fmt.Errorf("reading manifests: %w (the input must be a YAML or JSON stream of Kubernetes objects)", err)
		}
		if len(docs) == 0 {
			what := "on stdin"
			if o.InputName != "-" {
				what = "in " + o.InputName
			}
			return nil, fmt.Errorf("no objects %s: the input is empty (did the command piped in, e.g. kustomize build, fail?); "+
				"nothing was written", what)
		}
		return docs, nil
	case o.InputDir != "":
		docs, err := manifest.ReadTree(o.InputDir)
		if err != nil {
			return nil, fmt.Errorf("reading manifests: %w", err)
		}
		docs = withoutKustomizeFiles(docs)
		if len(docs) == 0 {
			return nil, fmt.Errorf("no objects in --input-dir %s: it holds no Kubernetes manifests; nothing was written", o.InputDir)
		}
		return docs, nil
	}
	overlay := map[string][]byte{}
	if o.Base != nil {
		for _, f := range o.Base.Files {
			overlay[f.Name] = f.Data
		}
	}
	kopts := append([]kustomize.Option{kustomize.WithRoot(o.ProjectRoot), kustomize.WithAllowRemote(o.AllowRemote), kustomize.WithFiles(overlay),
		kustomize.WithNotices(func(n string) { res.Notices = append(res.Notices, n) })}, o.Kustomize...)
	out, err := kustomize.Build(ctx, o.KustomizeDir, kopts...)
	if err != nil {
		return nil, err
	}
	docs, err := manifest.Decode(bytes.NewReader(out), "kustomize build "+o.KustomizeDir)
	if err == nil && len(docs) == 0 {
		err = fmt.Errorf("kustomize build %s gave no objects: list the operator's manifests under resources in its kustomization", o.KustomizeDir)
	}
	return docs, err
}

// withoutKustomizeFiles drops kustomize's own files (kustomization.yaml, kustomizeconfig.yaml)
// from a folder read with --input-dir; they describe manifests rather than being ones.
func withoutKustomizeFiles(docs []manifest.Doc) []manifest.Doc {
	out := docs[:0:0]
	for _, d := range docs {
		switch filepath.Base(d.File) {
		case "kustomization.yaml", "kustomization.yml", "Kustomization", "kustomizeconfig.yaml", "kustomizeconfig.yml":
			continue
		}
		out = append(out, d)
	}
	return out
}

func generateManifests(ctx context.Context, o *Options, disk map[string][]byte, res *Result) error {
	docs, err := readInput(ctx, o, res)
	if err != nil {
		return err
	}
	c, err := collect(docs)
	if err != nil {
		return err
	}
	base, fromDefault, err := baseCSV(c, o.Package, o.KustomizeDir, o.Base)
	if err != nil {
		return err
	}
	if fromDefault {
		res.Warnings = append(res.Warnings, defaultBaseWarning(c, o.Package, o.KustomizeDir))
	}
	if len(c.Deployments) == 0 {
		res.Warnings = append(res.Warnings, "the input has no Deployment: the ClusterServiceVersion's install strategy has no "+
			"deployments, so OLM cannot install the bundle (the operator's Deployment must be among the input objects)")
	}
	csv, warnings, err := buildCSV(c, base, csvInput{pkg: o.Package, version: o.Version, builder: o.Builder,
		layout: o.Layout, extraSAs: o.ExtraServiceAccounts})
	res.Warnings = append(res.Warnings, warnings...)
	if err != nil {
		return err
	}
	if o.Resolver != nil {
		if err := pinImages(ctx, o.Resolver, csv); err != nil {
			return err
		}
	}
	csvName := ManifestsDir + "/" + strings.ToLower(o.Package) + ".clusterserviceversion.yaml"
	// The CSV is rendered while the other manifests are: both are YAML encodings of objects the
	// other does not touch, each tens of milliseconds on a large repository.
	var csvData []byte
	var csvErr error
	rendered := make(chan struct{})
	go func() {
		defer close(rendered)
		csvData, csvErr = renderCSV(csv, o, disk[csvName])
	}()
	split := splitRBAC(c, csvServiceAccounts(c, o.ExtraServiceAccounts))
	objs, dropped := manifestObjects(c, split, csvServiceAccounts(c, o.ExtraServiceAccounts))
	files, err := renderManifests(objs)
	<-rendered
	if csvErr != nil {
		return csvErr
	}
	if err != nil {
		return err
	}
	res.CSV = csv
	res.Dropped = dropped
	res.Files = append(res.Files, File{Name: csvName, Data: csvData, Kind: csv.Kind, Object: csv.Name})
	res.Files = append(res.Files, files...)
	if c.Scorecard != nil && c.Scorecard.Metadata.Name != "" {
		data, err := yaml.Marshal(c.Scorecard)
		if err != nil {
			return fmt.Errorf("encoding the scorecard configuration: %w", err)
		}
		res.Files = append(res.Files, File{Name: ScorecardConfig, Data: data, Kind: "Configuration", Object: c.Scorecard.Metadata.Name})
	}
	return nil
}

// defaultChannelWarning reports a default channel that is not among the bundle's channels.
// operator-sdk writes such a bundle without a word; OLM only accepts it when another bundle of
// the package is in that channel.
func defaultChannelWarning(channels, def string) string {
	if def == "" {
		return ""
	}
	for _, c := range strings.Split(channels, ",") {
		if strings.TrimSpace(c) == def {
			return ""
		}
	}
	return fmt.Sprintf("default channel %q is not one of the bundle's channels (%s): the package's default channel must "+
		"hold a bundle, so add it to --channels unless another bundle of the package is in it", def, channels)
}

// defaultBaseWarning says which base CSV was looked for and, when the input holds CSVs of
// other packages, which --package would use them.
func defaultBaseWarning(c *collection, pkg, kustomizeDir string) string {
	msg := fmt.Sprintf("no base ClusterServiceVersion for package %q: looked for a CSV named %s.* in the input", pkg, pkg)
	if len(c.CSVs) == 0 {
		msg += " and for " + filepath.Join(kustomizeDir, "bases", pkg+".clusterserviceversion.yaml")
	}
	msg += "; building one from defaults"
	if len(c.CSVs) > 0 {
		names := make([]string, len(c.CSVs))
		for i := range c.CSVs {
			names[i] = c.CSVs[i].GetName()
		}
		msg += fmt.Sprintf(" and ignoring the input's ClusterServiceVersion %s (its name must start with %q: "+
			"check --package or rename the base CSV)", strings.Join(names, ", "), pkg+".")
	}
	return msg
}

// stdoutStream renders the manifests as operator-sdk's --stdout does: each document as
// "\n---\n" + its trimmed YAML, so the stream starts with an empty line, as operator-sdk's does.
func stdoutStream(files []File) []byte {
	var b bytes.Buffer
	for _, f := range files {
		if path.Dir(f.Name) != ManifestsDir {
			continue
		}
		b.WriteString("\n---\n")
		b.Write(bytes.TrimSpace(f.Data))
	}
	b.WriteString("\n")
	return b.Bytes()
}
