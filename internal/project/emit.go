package project

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/opack/opack/internal/bundle"
	"github.com/opack/opack/internal/emit"
	"github.com/opack/opack/internal/image"
	"github.com/opack/opack/internal/project/config"
	"github.com/opack/opack/internal/rootfs"
	"golang.org/x/mod/semver"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// EmitOption configures DeployFiles and Emit.
type EmitOption func(*emitOptions)

type emitOptions struct {
	version      string
	target       emit.Target
	catalogImage string
	git          config.GitTags
	bundleDir    string // overrides bundle.dir for the OLM v1 check (opack build's staged bundle)
}

// EmitVersion overrides the version (--version); it names the images.
func EmitVersion(v string) EmitOption { return func(o *emitOptions) { o.version = v } }

// EmitTarget overrides deploy.olm (--olm).
func EmitTarget(t emit.Target) EmitOption { return func(o *emitOptions) { o.target = t } }

// EmitCatalogImage makes the manifests point at ref (e.g. the catalog image just pushed, by digest)
// instead of the reference opack.yaml gives.
func EmitCatalogImage(ref string) EmitOption { return func(o *emitOptions) { o.catalogImage = ref } }

// EmitBundleDir checks the OLM v1 installability of the bundle in dir instead of bundle.dir (opack
// build passes the bundle it just generated, before it is written into the project).
func EmitBundleDir(dir string) EmitOption { return func(o *emitOptions) { o.bundleDir = dir } }

// EmitGit replaces the git reader used to read the version from tags (tests).
func EmitGit(g config.GitTags) EmitOption { return func(o *emitOptions) { o.git = g } }

// EmitResult is what Emit wrote.
type EmitResult struct {
	// Dir is the deploy folder; Files the written files relative to it, sorted.
	Dir   string
	Files []string
	// Warnings are problems that do not stop the emit: OLM v1 installability with --olm both, or a
	// skipped check.
	Warnings []string
}

// DeployFiles renders and validates the deploy manifests of p in memory. For an OLM v1 target it first
// checks that the bundle in bundle.dir can be installed by OLM v1: an error with --olm v1, warnings with both.
func DeployFiles(ctx context.Context, p *config.Project, opts ...EmitOption) ([]emit.File, []string, error) {
	o := emitOptions{git: config.ReadGitTags}
	for _, opt := range opts {
		opt(&o)
	}
	target := o.target
	if target == "" {
		t, err := emit.ParseTarget(p.Deploy.OLM)
		if err != nil {
			return nil, nil, err
		}
		target = t
	}
	spec, err := emitSpec(ctx, p, target, o)
	if err != nil {
		return nil, nil, err
	}
	var warnings []string
	if target.V1() {
		w, err := checkOLMv1(ctx, p, target, o.bundleDir)
		if err != nil {
			return nil, nil, err
		}
		warnings = w
	}
	var ropts []emit.Option
	if p.Deploy.Templates != "" {
		tdir := filepath.Join(p.Dir, p.Deploy.Templates)
		if fi, err := os.Stat(tdir); err != nil || !fi.IsDir() {
			return nil, nil, fmt.Errorf("deploy.templates: %s is not a folder of olmv0/ and olmv1/ templates", tdir)
		}
		tfs, err := rootfs.FS(tdir) // symlinks out of the folder, FIFOs and devices refused
		if err != nil {
			return nil, nil, fmt.Errorf("deploy.templates: %w", err)
		}
		ropts = append(ropts, emit.WithTemplates(tfs))
	}
	files, err := emit.Render(ctx, spec, ropts...)
	if err != nil {
		return nil, nil, fmt.Errorf("rendering the deploy manifests: %w", err)
	}
	return files, warnings, nil
}

// Emit renders the deploy manifests of p and writes them into outputs.deploy, replacing olmv0/ and
// olmv1/ atomically (nothing is written when any object is invalid).
func Emit(ctx context.Context, p *config.Project, opts ...EmitOption) (*EmitResult, error) {
	files, warnings, err := DeployFiles(ctx, p, opts...)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(p.Dir, p.Outputs.Deploy)
	if err := emit.Write(dir, files); err != nil {
		return nil, err
	}
	res := &EmitResult{Dir: dir, Warnings: warnings}
	for _, f := range files {
		res.Files = append(res.Files, f.Path)
	}
	return res, nil
}

// checkOLMv1 runs the OLM v1 installability check on the bundle folder, when there is one.
func checkOLMv1(ctx context.Context, p *config.Project, target emit.Target, dir string) ([]string, error) {
	if dir == "" {
		dir = filepath.Join(p.Dir, p.Bundle.Dir)
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return []string{fmt.Sprintf("no bundle in %s: the OLM v1 installability check was skipped (run opack build first)", dir)}, nil
	}
	b, err := bundle.Load(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("checking OLM v1 installability: %w", err)
	}
	props, err := bundleProperties(dir)
	if err != nil {
		return nil, fmt.Errorf("checking OLM v1 installability: %w", err)
	}
	problems := emit.CheckOLMv1(b.CSV, props, emit.WithWebhookSupport(p.Deploy.OLMv1.Webhooks),
		emit.WithMinOLMVersion(p.Deploy.OLMv1.MinOLMVersion))
	warn, err := emit.CheckTarget(target, problems)
	if err != nil {
		return nil, fmt.Errorf("checking bundle %s: %w", dir, err)
	}
	out := make([]string, len(warn))
	for i, w := range warn {
		out[i] = fmt.Sprintf("OLM v1 cannot install the bundle in %s: %s [%s]", dir, w.Message, w.Rule)
	}
	return out, nil
}

// bundleProperties returns the dependency properties of a bundle folder as a catalog carries them:
// metadata/dependencies.yaml entries (olm.package and olm.gvk become olm.package.required and
// olm.gvk.required, as opm render converts them) and metadata/properties.yaml entries.
func bundleProperties(dir string) ([]emit.Property, error) {
	var deps struct {
		Dependencies []emit.Property `json:"dependencies"`
	}
	if err := rootfs.ReadYAML(filepath.Join(dir, "metadata", "dependencies.yaml"), &deps); err != nil {
		return nil, err
	}
	var props struct {
		Properties []emit.Property `json:"properties"`
	}
	if err := rootfs.ReadYAML(filepath.Join(dir, "metadata", "properties.yaml"), &props); err != nil {
		return nil, err
	}
	out := props.Properties
	for _, d := range deps.Dependencies {
		switch d.Type {
		case "olm.package":
			d.Type = emit.PropertyPackageRequired
		case "olm.gvk":
			d.Type = emit.PropertyGVKRequired
		}
		out = append(out, d)
	}
	return out, nil
}

// emitSpec builds the emit.Spec of p for target.
func emitSpec(ctx context.Context, p *config.Project, target emit.Target, o emitOptions) (emit.Spec, error) {
	cat, ok := p.CatalogNamed(p.Deploy.Catalog)
	if !ok {
		return emit.Spec{}, fmt.Errorf("deploy.catalog %q names no catalog", p.Deploy.Catalog)
	}
	image := o.catalogImage
	if image != "" {
		if _, err := name.ParseReference(image, name.StrictValidation); err != nil {
			return emit.Spec{}, fmt.Errorf("catalog image %q: %w", image, err)
		}
	} else {
		version, err := p.ResolveVersion(ctx, config.WithVersion(o.version), config.WithGit(o.git))
		if err != nil {
			return emit.Spec{}, err
		}
		if image, err = p.CatalogImage(cat, version); err != nil {
			return emit.Spec{}, err
		}
	}
	digest := strings.Contains(image, "@")
	spec := emit.Spec{Package: p.Package, Catalog: emit.Catalog{Image: image, Scratch: cat.Base == config.BaseScratch}}
	if p.Signing != nil {
		version, err := p.ResolveVersion(ctx, config.WithVersion(o.version), config.WithGit(o.git))
		if err != nil {
			return emit.Spec{}, err
		}
		entries, _, err := imagePolicy(p, version)
		if err != nil {
			return emit.Spec{}, fmt.Errorf("signing: %w", err)
		}
		spec.ImagePolicy = &emit.ImagePolicy{Entries: entries}
	}
	if target.V0() {
		v0, err := olmv0Spec(p, cat, spec.Catalog, digest)
		if err != nil {
			return emit.Spec{}, err
		}
		spec.OLMv0 = v0
	}
	if target.V1() {
		v1, err := olmv1Spec(ctx, p, digest, o.bundleDir)
		if err != nil {
			return emit.Spec{}, err
		}
		spec.OLMv1 = v1
	}
	return spec, nil
}

func olmv0Spec(p *config.Project, c config.Catalog, cat emit.Catalog, digest bool) (*emit.OLMv0, error) {
	v0 := p.Deploy.OLMv0
	cs := v0.CatalogSource
	poll := cs.PollInterval
	if digest || poll == "0" {
		poll = "" // a digest never changes
	}
	extract, cacheDir, err := extractContent(p, c, cat)
	if err != nil {
		return nil, err
	}
	return &emit.OLMv0{
		Namespace:        v0.Namespace,
		CreateNamespace:  v0.CreateNamespace == nil || *v0.CreateNamespace,
		OperatorGroup:    v0.OperatorGroup,
		TargetNamespaces: v0.TargetNamespaces,
		CatalogSource: emit.CatalogSource{
			Name: cs.Name, Namespace: cs.Namespace, DisplayName: cs.DisplayName, Publisher: cs.Publisher,
			PollInterval: poll,
			GRPCPodConfig: emit.GRPCPodConfig{
				SecurityContextConfig: cs.GRPCPodConfig.SecurityContextConfig,
				NodeSelector:          cs.GRPCPodConfig.NodeSelector,
				PriorityClassName:     cs.GRPCPodConfig.PriorityClassName,
				MemoryTarget:          cs.GRPCPodConfig.MemoryTarget,
				ExtractContent:        extract,
				CacheDir:              cacheDir,
			},
		},
		Subscription: emit.Subscription{Name: v0.Subscription, Channel: v0.Channel, Approval: v0.Approval, StartingCSV: v0.StartingCSV},
	}, nil
}

// extractContent decides spec.grpcPodConfig.extractContent of the CatalogSource from the catalog
// image: only a cacheDir the image holds, and no extractContent without cacheDir unless the project
// declares an OLM that serves it.
func extractContent(p *config.Project, c config.Catalog, cat emit.Catalog) (bool, string, error) {
	cs := p.Deploy.OLMv0.CatalogSource
	extract := cat.Scratch
	if x := cs.GRPCPodConfig.ExtractContent; x != nil {
		if cat.Scratch && !*x {
			return false, "", fmt.Errorf("deploy.olmv0.catalogSource.grpcPodConfig.extractContent: false, but catalog %s is built FROM scratch and holds no opm to serve itself: drop the setting, or set its base to an opm image", c.Name)
		}
		extract = *x
	}
	if !extract {
		return false, "", nil
	}
	if c.HasServeCache() {
		return true, image.ServeCacheDir, nil
	}
	min := p.Deploy.OLMv0.MinOLMVersion
	if min != "" && !semver.IsValid(min) {
		return false, "", fmt.Errorf("deploy.olmv0.minOLMVersion %q is not a version such as %s", min, config.MinOLMVersionNoCacheDir)
	}
	if min == "" || semver.Compare(min, config.MinOLMVersionNoCacheDir) < 0 {
		return false, "", fmt.Errorf("catalog %s has serveCache: false, and OLM serves extractContent without a cacheDir only since %s (deploy.olmv0.minOLMVersion is %q): set serveCache: true (recommended), or deploy.olmv0.minOLMVersion: %s if every cluster runs that OLM or newer", c.Name, config.MinOLMVersionNoCacheDir, min, config.MinOLMVersionNoCacheDir)
	}
	return true, "", nil
}

func olmv1Spec(ctx context.Context, p *config.Project, digest bool, bundleDir string) (*emit.OLMv1, error) {
	v1 := p.Deploy.OLMv1
	poll := 0
	if v1.Catalog.PollIntervalMinutes != nil && !digest {
		poll = *v1.Catalog.PollIntervalMinutes
	}
	out := &emit.OLMv1{
		Catalog: emit.ClusterCatalog{Name: v1.Catalog.Name, Priority: v1.Catalog.Priority, PollIntervalMinutes: poll},
		Extension: emit.ClusterExtension{
			Name: v1.Extension.Name, Namespace: v1.Extension.Namespace, Channels: v1.Extension.Channels,
			Version: v1.Extension.Version, UpgradeConstraintPolicy: v1.Extension.UpgradeConstraintPolicy,
			SelectCatalog: v1.Extension.SelectCatalog == nil || *v1.Extension.SelectCatalog,
		},
		CreateNamespace: v1.CreateNamespace == nil || *v1.CreateNamespace,
	}
	if sa := v1.ServiceAccount; sa != nil {
		esa := &emit.ServiceAccount{Name: sa.Name, ClusterRole: sa.ClusterRole}
		for _, r := range sa.Rules {
			esa.Rules = append(esa.Rules, rbacv1.PolicyRule{APIGroups: r.APIGroups, Resources: r.Resources, ResourceNames: r.ResourceNames, Verbs: r.Verbs, NonResourceURLs: r.NonResourceURLs})
		}
		if sa.Derive {
			var err error
			if esa.Rules, esa.NamespaceRules, err = installerRBAC(ctx, p, bundleDir); err != nil {
				return nil, err
			}
		}
		out.ServiceAccount = esa
	}
	return out, nil
}

// installerRBAC derives the installer service account's rules from the bundle in dir (default bundle.dir).
func installerRBAC(ctx context.Context, p *config.Project, dir string) (cluster, namespaced []rbacv1.PolicyRule, err error) {
	if dir == "" {
		dir = filepath.Join(p.Dir, p.Bundle.Dir)
	}
	b, err := bundle.Load(ctx, dir)
	if err != nil {
		return nil, nil, fmt.Errorf("deriving the RBAC of deploy.olmv1.serviceAccount from the bundle (run opack build first, or give clusterRole or rules): %w", err)
	}
	var crds []string
	for _, c := range b.CRDs {
		crds = append(crds, c.Object.GetName())
	}
	var others []*unstructured.Unstructured
	for _, o := range b.Others {
		others = append(others, o.Object)
	}
	cluster, namespaced = emit.InstallerRBAC(p.Deploy.OLMv1.Extension.Name, b.CSV, crds, others)
	return cluster, namespaced, nil
}

// EmitFile loads the project file at path and emits its deploy manifests (opack emit).
func EmitFile(ctx context.Context, path string, opts ...EmitOption) (*EmitResult, error) {
	p, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	if !p.Multi() {
		return Emit(ctx, p, opts...)
	}
	// several bundles: each emits into its own deploy folder; Files are then below the project
	out := &EmitResult{Dir: "."}
	for _, part := range p.Parts() {
		res, err := Emit(ctx, part, opts...)
		if err != nil {
			return nil, fmt.Errorf("bundle %s: %w", part.Name, err)
		}
		for _, f := range res.Files {
			out.Files = append(out.Files, filepath.ToSlash(filepath.Join(part.Outputs.Deploy, filepath.FromSlash(f))))
		}
		for _, w := range res.Warnings {
			out.Warnings = append(out.Warnings, "bundle "+part.Name+": "+w)
		}
	}
	return out, nil
}
