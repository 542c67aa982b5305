package config

import (
	"gopkg.in/yaml.v3"
)

// The versioned identity of opack.yaml.
const (
	APIVersion  = "opack.dev/v1alpha1"
	Kind        = "Project"
	DefaultFile = "opack.yaml"
)

// Catalog image bases.
const (
	// BaseScratch builds the catalog image FROM scratch: the FBC only, served by OLM's own opm.
	BaseScratch = "scratch"
)

// Catalog modes.
const (
	CatalogModeTemplate = "template"
	CatalogModeFBC      = "fbc"
)

// Install plan approvals of an OLM v0 Subscription.
const (
	ApprovalAutomatic = "Automatic"
	ApprovalManual    = "Manual"
)

// Project is the content of opack.yaml. Paths are relative to the folder holding the file.
type Project struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	// Package is the OLM package name (operator-sdk's projectName).
	Package string `yaml:"package"`
	// Version is the release being built (strict semver, no leading v). Leave it empty to take it from
	// VersionFrom or from --version.
	Version     string      `yaml:"version,omitempty"`
	VersionFrom VersionFrom `yaml:"versionFrom,omitempty"`
	// Channels the bundle is published in; DefaultChannel defaults to the first.
	Channels       []string `yaml:"channels,omitempty"`
	DefaultChannel string   `yaml:"defaultChannel,omitempty"`
	// KustomizeDir is the kustomize folder the bundle is generated from (default config/manifests).
	KustomizeDir string `yaml:"kustomizeDir,omitempty"`
	// KustomizeManifests is operator-sdk's `generate kustomize manifests` step, run in memory
	// before the bundle is generated, as its Makefile runs it.
	KustomizeManifests KustomizeManifests `yaml:"kustomizeManifests,omitempty"`
	Bundle             Bundle             `yaml:"bundle"`
	Catalogs           []Catalog          `yaml:"catalogs"`
	Previous           Previous           `yaml:"previous,omitempty"`
	Outputs            Outputs            `yaml:"outputs,omitempty"`
	Deploy             Deploy             `yaml:"deploy,omitempty"`
	Waivers            []Waiver           `yaml:"waivers,omitempty"`
	Migrations         []Migration        `yaml:"migrations,omitempty"`
	Images             []ImageAlias       `yaml:"images,omitempty"`
	// Signing signs the images build pushes (--sign) and adds the image policy to the deploy
	// manifests.
	Signing *Signing `yaml:"signing,omitempty"`
	// Name names a bundle of bundles (default its package).
	Name string `yaml:"name,omitempty"`
	// Bundles lists the bundles of a repository that builds several (one per profile of its
	// Makefile): each entry holds that bundle's fields, over the top-level ones. Build, check and
	// release them together (Parts).
	Bundles []Project `yaml:"bundles,omitempty"`

	// File is the path opack.yaml was read from, Dir the project folder (set by Load).
	File string `yaml:"-"`
	Dir  string `yaml:"-"`

	root *yaml.Node // the decoded document, for line numbers
	// defaultChannelSet records that defaultChannel was given (the bundle then carries it).
	defaultChannelSet bool
	// parts are the bundles of bundles, each a project of its own (nil for one bundle); index
	// is a part's place in bundles plus one (0: the project itself).
	parts []*Project
	index int
}

// Parts returns the bundles the project builds: the entries of bundles, each with the
// top-level fields it does not set, or the project itself.
func (p *Project) Parts() []*Project {
	if len(p.parts) > 0 {
		return p.parts
	}
	return []*Project{p}
}

// Multi reports whether the project builds several bundles.
func (p *Project) Multi() bool { return len(p.parts) > 0 }

// BundleDefaultChannel is the default channel the bundle's metadata names: defaultChannel when
// opack.yaml gives it, none otherwise (as operator-sdk generate bundle without --default-channel).
func (p *Project) BundleDefaultChannel() string {
	if p.defaultChannelSet || p.root == nil {
		return p.DefaultChannel
	}
	return ""
}

// VersionFrom says where the version comes from when Version is empty.
type VersionFrom struct {
	// GitTag takes the highest semver tag pointing at HEAD.
	GitTag *GitTag `yaml:"gitTag,omitempty"`
	// File reads the version from a file holding only it (e.g. VERSION).
	File string `yaml:"file,omitempty"`
}

// GitTag configures reading the version from git tags.
type GitTag struct {
	// Prefix is stripped from the tag (default "v": tag v1.2.3 is version 1.2.3).
	Prefix *string `yaml:"prefix,omitempty"`
}

// Bundle configures the generated bundle and its image.
type Bundle struct {
	// Dir is the bundle folder (default bundle).
	Dir string `yaml:"dir,omitempty"`
	// Image is the bundle image repository, tagged v<version> (e.g. quay.io/me/op-bundle), or a reference
	// template using {{.Version}} (e.g. quay.io/me/op-bundle:{{.Version}}).
	Image string `yaml:"image"`
	// Dockerfile is the bundle Dockerfile build writes (default bundle.Dockerfile, or
	// <dir>.Dockerfile for each of several bundles); its COPY paths are relative to its folder.
	Dockerfile string `yaml:"dockerfile,omitempty"`
	// ExtraServiceAccounts are service accounts besides the deployments' whose roles go into the
	// CSV (operator-sdk generate bundle --extra-service-accounts).
	ExtraServiceAccounts []string `yaml:"extraServiceAccounts,omitempty"`
}

// KustomizeManifests configures the kustomize-manifests step (operator-sdk generate kustomize
// manifests): the base CSV is read, its owned CRD descriptions regenerated from the Go API types
// (Go projects), and the bundle generated from it; config/ is not edited.
type KustomizeManifests struct {
	// Skip turns the step off (a Makefile that does not run it).
	Skip bool `yaml:"skip,omitempty"`
	// APIsDir is the root of the Go API types (default api).
	APIsDir string `yaml:"apisDir,omitempty"`
	// InputDir and OutputDir are where the base is read from and written to (default kustomizeDir).
	InputDir  string `yaml:"inputDir,omitempty"`
	OutputDir string `yaml:"outputDir,omitempty"`
}

// Catalog is one file-based catalog the bundle is added to (e.g. one per OpenShift version).
type Catalog struct {
	// Name identifies the catalog (default <package>-catalog when there is one catalog).
	Name string `yaml:"name,omitempty"`
	// Template is the catalog template (basic or semver) the bundle is added to (default
	// catalog-template.yaml for a single catalog, catalog-templates/<name>.yaml otherwise).
	Template string `yaml:"template,omitempty"`
	// Dir is the rendered FBC folder (default catalog, or catalogs/<name> when there are several).
	Dir string `yaml:"dir,omitempty"`
	// File, in template mode, is the rendered catalog as one YAML file in place of Dir (as
	// `opm alpha render-template basic -o yaml T > FILE` writes it: catalog/v4.12/catalog.yaml
	// beside catalog/v4.12/catalog-template.yaml, one catalog per OpenShift release).
	File string `yaml:"file,omitempty"`
	// Image is the catalog image reference; without a tag it is tagged v<version>; {{.Version}} works too.
	Image string `yaml:"image"`
	// Mode is template (default: Template is rendered into Dir) or fbc: Dir is a file-based catalog
	// kept as it is, with no template; build adds each new release to it (an olm.bundle and a new
	// head of each channel) and changes nothing else.
	Mode string `yaml:"mode,omitempty"`
	// BundleFile, in fbc mode, is the file of Dir a new release's olm.bundle is written to
	// ({{.Version}} and {{.Package}} are replaced, e.g. bundle-v{{.Version}}.yaml); empty: appended
	// to the file holding the package's newest bundle.
	BundleFile string `yaml:"bundleFile,omitempty"`
	// Base is the catalog image's base: scratch (default) or an image holding opm (e.g.
	// quay.io/operator-framework/opm:v1.55.0) that serves the catalog itself.
	Base string `yaml:"base,omitempty"`
	// ServeCache puts opm's pre-built serve cache into the image under /tmp/cache (default true), so
	// opm serve starts without building it and with its integrity checked. Without it, a scratch
	// image needs OLM v0 >= v0.35.0 (deploy.olmv0.minOLMVersion), and an opm base builds the cache at
	// every start.
	ServeCache *bool `yaml:"serveCache,omitempty"`
}

// Source is the file or folder a catalog is maintained in: its template, or in fbc mode its folder.
func (c Catalog) Source() string {
	if c.Mode == CatalogModeFBC {
		return c.Dir
	}
	return c.Template
}

// Rendered is where the rendered catalog is written: File, else Dir.
func (c Catalog) Rendered() string {
	if c.File != "" {
		return c.File
	}
	return c.Dir
}

// HasServeCache reports whether the catalog image carries opm's serve cache.
func (c Catalog) HasServeCache() bool { return c.ServeCache == nil || *c.ServeCache }

// Previous names the release the CRD upgrade check compares against. Empty: the highest version below
// the one being built in the channels of the catalog.
type Previous struct {
	// Version is a release already in the catalog.
	Version string `yaml:"version,omitempty"`
	// Image is a bundle image; Dir a bundle folder.
	Image string `yaml:"image,omitempty"`
	Dir   string `yaml:"dir,omitempty"`
	// None declares there is no previous release (the first release of a package).
	None bool `yaml:"none,omitempty"`
}

// Outputs configures where build writes.
type Outputs struct {
	// Dir receives images (OCI layouts) and reports (default _output).
	Dir string `yaml:"dir,omitempty"`
	// Deploy receives the OLM manifests, olmv0/ and olmv1/ (default deploy).
	Deploy string `yaml:"deploy,omitempty"`
}

// Waiver accepts one reviewed finding so it no longer fails the build.
type Waiver struct {
	// Rule is the finding's rule id.
	Rule string `yaml:"rule"`
	// CRD and Path narrow the waiver to one CRD and one field path (both optional).
	CRD  string `yaml:"crd,omitempty"`
	Path string `yaml:"path,omitempty"`
	// Reason says why the finding is acceptable; it is required.
	Reason string `yaml:"reason"`
}

// Migration declares that the stored objects of a CRD were migrated off a version and the version
// was removed from status.storedVersions on every cluster, so removing it from the CRD is safe.
type Migration struct {
	CRD     string `yaml:"crd"`
	Version string `yaml:"version"`
	Reason  string `yaml:"reason,omitempty"`
}

// ImageAlias overrides an image of the kustomize input when the bundle is generated, like kustomize's
// images transformer (`kustomize edit set image`), but in memory: config/ is never edited.
type ImageAlias struct {
	Name string `yaml:"name"`
	// Dir is the folder whose kustomization the edit applies to (the Makefile's `cd DIR && kustomize
	// edit set image`); empty: every kustomization the build reaches that lists the image, else
	// the one that is built.
	Dir     string `yaml:"dir,omitempty"`
	NewName string `yaml:"newName,omitempty"`
	// NewTag may use {{.Version}}, the version being built.
	NewTag string `yaml:"newTag,omitempty"`
	Digest string `yaml:"digest,omitempty"`
}

// Root is the decoded YAML document of the project file (nil for a Project not decoded from one):
// the pipeline edits the file's version in place through it.
func (p *Project) Root() *yaml.Node { return p.root }
