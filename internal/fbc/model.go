package fbc

import (
	"encoding/json"

	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Schemas of the typed file-based catalog blobs. Any other schema is kept verbatim in
// DeclarativeConfig.Others.
const (
	SchemaPackage      = "olm.package"
	SchemaChannel      = "olm.channel"
	SchemaBundle       = "olm.bundle"
	SchemaDeprecations = "olm.deprecations"
)

// Property types known to OLM (operator-registry alpha/property). Any other type is allowed
// and passed through as an opaque JSON value.
const (
	TypePackage             = "olm.package"
	TypeGVK                 = "olm.gvk"
	TypeGVKRequired         = "olm.gvk.required"
	TypePackageRequired     = "olm.package.required"
	TypeBundleObject        = "olm.bundle.object"
	TypeCSVMetadata         = "olm.csv.metadata"
	TypeConstraint          = "olm.constraint"
	TypeChannel             = "olm.channel"
	TypeMaxOpenShiftVersion = "olm.maxOpenShiftVersion"
)

// DeclarativeConfig is a file-based catalog (FBC) as a set of blobs, in the shape opm's
// declcfg.DeclarativeConfig has. Order of the slices is the load order (deterministic:
// files sorted by path, documents in file order); the writers sort as opm does.
type DeclarativeConfig struct {
	Packages     []Package
	Channels     []Channel
	Bundles      []Bundle
	Deprecations []Deprecation
	// Others holds blobs of any other schema, kept verbatim (as opm re-encodes them:
	// keys sorted, HTML not escaped).
	Others []Meta
}

// Meta is one catalog blob of any schema: the three indexing keys (matched
// case-insensitively on load) and the blob itself as compact JSON.
type Meta struct {
	Schema  string
	Package string
	Name    string
	Blob    json.RawMessage
}

// MarshalJSON returns the blob as is.
func (m Meta) MarshalJSON() ([]byte, error) { return m.Blob, nil }

// Package is an olm.package blob. Field order is opm's (it is the JSON output order).
type Package struct {
	Schema         string     `json:"schema"`
	Name           string     `json:"name"`
	DefaultChannel string     `json:"defaultChannel"`
	Icon           *Icon      `json:"icon,omitempty"`
	Description    string     `json:"description,omitempty"`
	Properties     []Property `json:"properties,omitempty"`
}

// Icon is a package icon; Data is base64 in JSON.
type Icon struct {
	Data      []byte `json:"base64data"`
	MediaType string `json:"mediatype"`
}

// Channel is an olm.channel blob: an ordered list of upgrade-graph entries of one package.
type Channel struct {
	Schema     string         `json:"schema"`
	Name       string         `json:"name"`
	Package    string         `json:"package"`
	Entries    []ChannelEntry `json:"entries"`
	Properties []Property     `json:"properties,omitempty"`
}

// ChannelEntry is one bundle of a channel with its incoming upgrade edges: the bundle it
// replaces, the bundles it skips and the semver range of versions it skips.
type ChannelEntry struct {
	Name      string   `json:"name"`
	Replaces  string   `json:"replaces,omitempty"`
	Skips     []string `json:"skips,omitempty"`
	SkipRange string   `json:"skipRange,omitempty"`
}

// Bundle is an olm.bundle blob.
type Bundle struct {
	Schema        string         `json:"schema"`
	Name          string         `json:"name,omitempty"`
	Package       string         `json:"package,omitempty"`
	Image         string         `json:"image"`
	Properties    []Property     `json:"properties,omitempty"`
	RelatedImages []RelatedImage `json:"relatedImages,omitempty"`

	// CsvJSON is the ClusterServiceVersion among Objects (as JSON), "" if none.
	CsvJSON string `json:"-"`
	// Objects are the manifests carried in olm.bundle.object properties, each as JSON,
	// in property order. Filled by the loader; writers ignore it.
	Objects []string `json:"-"`
}

// RelatedImage is an image the bundle's operator uses. Name is not omitempty (opm writes `name: ""`).
type RelatedImage struct {
	Name  string `json:"name"`
	Image string `json:"image"`
}

// Deprecation is an olm.deprecations blob: deprecation notices for one package.
type Deprecation struct {
	Schema  string             `json:"schema"`
	Package string             `json:"package"`
	Entries []DeprecationEntry `json:"entries"`
}

// DeprecationEntry deprecates the package, a channel or a bundle of the package.
type DeprecationEntry struct {
	Reference PackageScopedReference `json:"reference"`
	Message   string                 `json:"message"`
}

// PackageScopedReference names an object of the package by schema and name; Name is empty
// when Schema is olm.package.
type PackageScopedReference struct {
	Schema string `json:"schema"`
	Name   string `json:"name,omitempty"`
}

// Property is a typed value attached to a package, channel or bundle. Value is raw JSON;
// use the Parse* helpers (property.go) for the typed forms below.
type Property struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}

// PackageProperty is the value of olm.package: the bundle's package and version (and
// optional release, a dot-separated list of prerelease-style identifiers).
type PackageProperty struct {
	PackageName string `json:"packageName"`
	Version     string `json:"version"`
	Release     string `json:"release,omitzero"`
}

// GVK is the value of olm.gvk (a provided API) and olm.gvk.required (a required API).
type GVK struct {
	Group   string `json:"group"`
	Kind    string `json:"kind"`
	Version string `json:"version"`
}

// PackageRequired is the value of olm.package.required: another package in a blang/semver range.
type PackageRequired struct {
	PackageName  string `json:"packageName"`
	VersionRange string `json:"versionRange"`
}

// BundleObject is the value of olm.bundle.object: one manifest, base64 in JSON.
type BundleObject struct {
	Data []byte `json:"data"`
}

// ChannelProperty is the value of the internal olm.channel property.
type ChannelProperty struct {
	ChannelName string `json:"channelName"`
	Priority    int    `json:"priority"`
}

// CSVMetadata is the value of olm.csv.metadata: the parts of a ClusterServiceVersion a
// catalog serves instead of the whole CSV. Field order and tags are opm's.
type CSVMetadata struct {
	Annotations               map[string]string                  `json:"annotations,omitempty"`
	APIServiceDefinitions     v1alpha1.APIServiceDefinitions     `json:"apiServiceDefinitions,omitempty"`
	CustomResourceDefinitions v1alpha1.CustomResourceDefinitions `json:"crdDescriptions,omitempty"`
	Description               string                             `json:"description,omitempty"`
	DisplayName               string                             `json:"displayName,omitempty"`
	InstallModes              []v1alpha1.InstallMode             `json:"installModes,omitempty"`
	Keywords                  []string                           `json:"keywords,omitempty"`
	Labels                    map[string]string                  `json:"labels,omitempty"`
	Links                     []v1alpha1.AppLink                 `json:"links,omitempty"`
	Maintainers               []v1alpha1.Maintainer              `json:"maintainers,omitempty"`
	Maturity                  string                             `json:"maturity,omitempty"`
	MinKubeVersion            string                             `json:"minKubeVersion,omitempty"`
	NativeAPIs                []metav1.GroupVersionKind          `json:"nativeAPIs,omitempty"`
	Provider                  v1alpha1.AppLink                   `json:"provider,omitempty"`
}

// Constraint is the value of olm.constraint: a failure message plus exactly one of the
// constraint kinds. opm treats it as opaque; opack reads it for dependency checks.
type Constraint struct {
	FailureMessage string              `json:"failureMessage,omitempty"`
	GVK            *GVK                `json:"gvk,omitempty"`
	Package        *PackageRequired    `json:"package,omitempty"`
	Cel            *CelConstraint      `json:"cel,omitempty"`
	All            *CompoundConstraint `json:"all,omitempty"`
	Any            *CompoundConstraint `json:"any,omitempty"`
	Not            *CompoundConstraint `json:"not,omitempty"`
}

// CelConstraint is a CEL rule evaluated against bundle properties.
type CelConstraint struct {
	Rule string `json:"rule"`
}

// CompoundConstraint groups constraints under all/any/not.
type CompoundConstraint struct {
	Constraints []Constraint `json:"constraints"`
}

// String formats k as apimachinery's GroupVersionKind does.
func (k GVK) String() string { return k.Group + "/" + k.Version + ", Kind=" + k.Kind }

// PackageNames is the set of packages cfg holds a blob of (an olm.package, a channel, a bundle, a
// deprecation, or another blob naming its package; "" for other blobs that name none).
func (cfg *DeclarativeConfig) PackageNames() map[string]bool {
	out := map[string]bool{}
	for _, p := range cfg.Packages {
		out[p.Name] = true
	}
	for _, c := range cfg.Channels {
		out[c.Package] = true
	}
	for _, b := range cfg.Bundles {
		out[b.Package] = true
	}
	for _, d := range cfg.Deprecations {
		out[d.Package] = true
	}
	for _, o := range cfg.Others {
		out[o.Package] = true
	}
	return out
}
