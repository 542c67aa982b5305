package emit

import (
	"fmt"

	rbacv1 "k8s.io/api/rbac/v1"
)

// Target selects which OLM generations manifests are emitted (and checks run) for.
type Target string

// Targets.
const (
	TargetV0   Target = "v0"
	TargetV1   Target = "v1"
	TargetBoth Target = "both"
)

// ParseTarget parses the value of an --olm flag or of deploy.olm in opack.yaml.
func ParseTarget(s string) (Target, error) {
	switch t := Target(s); t {
	case TargetV0, TargetV1, TargetBoth:
		return t, nil
	case "":
		return TargetBoth, nil
	}
	return "", fmt.Errorf("unknown OLM target %q: use v0, v1 or both", s)
}

// V0 reports whether t includes OLM v0.
func (t Target) V0() bool { return t == TargetV0 || t == TargetBoth }

// V1 reports whether t includes OLM v1.
func (t Target) V1() bool { return t == TargetV1 || t == TargetBoth }

// Spec is everything the deploy manifests are rendered from. Callers (internal/project) fill in every
// value, defaults included; a nil OLMv0 or OLMv1 means that generation is not emitted.
type Spec struct {
	// Package is the OLM package name of the operator.
	Package string
	// Catalog is the catalog image the cluster pulls.
	Catalog Catalog
	OLMv0   *OLMv0
	OLMv1   *OLMv1
	// ImagePolicy, when set, adds the image policy folders (imagepolicy-openshift,
	// imagepolicy-sigstore, imagepolicy-nodes).
	ImagePolicy *ImagePolicy
}

// Catalog names the catalog image.
type Catalog struct {
	// Image is the catalog image reference, by tag (polled for updates) or by digest.
	Image string
	// Scratch is true when the catalog image is built FROM scratch: it carries the FBC but no opm to
	// serve it, so OLM v0 must extract the content and serve it with its own opm (grpcPodConfig.extractContent).
	Scratch bool
}

// OLMv0 configures the CatalogSource, OperatorGroup and Subscription.
type OLMv0 struct {
	// Namespace holds the OperatorGroup and the Subscription, i.e. where the operator is installed.
	Namespace string
	// CreateNamespace adds a Namespace object for Namespace.
	CreateNamespace bool
	// OperatorGroup is the OperatorGroup's name; TargetNamespaces empty means all namespaces.
	OperatorGroup    string
	TargetNamespaces []string
	CatalogSource    CatalogSource
	Subscription     Subscription
}

// CatalogSource configures the OLM v0 CatalogSource.
type CatalogSource struct {
	Name        string
	Namespace   string
	DisplayName string
	Publisher   string
	// PollInterval is how often OLM checks the image tag for a new digest (a Go duration, e.g. "10m");
	// empty means never.
	PollInterval  string
	GRPCPodConfig GRPCPodConfig
}

// GRPCPodConfig is the subset of CatalogSource spec.grpcPodConfig opack sets.
type GRPCPodConfig struct {
	SecurityContextConfig string            // legacy or restricted
	NodeSelector          map[string]string // node labels the catalog pod must match
	PriorityClassName     string
	MemoryTarget          string // a quantity, e.g. 512Mi
	// ExtractContent runs OLM's own opm on content copied out of the catalog image (see Catalog.Scratch):
	// the FBC from /configs and, when CacheDir is set, opm's serve cache from CacheDir.
	ExtractContent bool
	CacheDir       string
}

// Subscription configures the OLM v0 Subscription.
type Subscription struct {
	Name        string
	Channel     string
	Approval    string // Automatic or Manual
	StartingCSV string
}

// OLMv1 configures the ClusterCatalog, the ClusterExtension and the optional installer service account.
type OLMv1 struct {
	Catalog   ClusterCatalog
	Extension ClusterExtension
	// CreateNamespace adds a Namespace object for Extension.Namespace.
	CreateNamespace bool
	// ServiceAccount, when set, adds a ServiceAccount, a ClusterRoleBinding (and a ClusterRole when it has
	// rules) and names the account in the ClusterExtension, for operator-controller releases that need one.
	ServiceAccount *ServiceAccount
}

// ClusterCatalog configures the OLM v1 ClusterCatalog.
type ClusterCatalog struct {
	Name     string
	Priority int32
	// PollIntervalMinutes is how often catalogd checks the image tag; 0 means never. It must be 0 for a
	// digest reference (the CRD forbids it).
	PollIntervalMinutes int
}

// ClusterExtension configures the OLM v1 ClusterExtension.
type ClusterExtension struct {
	Name      string
	Namespace string
	Channels  []string
	// Version is a semver range (e.g. ">=1.0.0 <2.0.0"); empty means the newest in the channels.
	Version string
	// UpgradeConstraintPolicy is CatalogProvided (follow the upgrade graph) or SelfCertified.
	UpgradeConstraintPolicy string
	// SelectCatalog restricts resolution to the ClusterCatalog above (by its metadata.name label).
	SelectCatalog bool
}

// ServiceAccount is the installer identity of the ClusterExtension.
type ServiceAccount struct {
	Name string
	// ClusterRole is bound to the account; with Rules, a ClusterRole of that name is emitted too.
	ClusterRole string
	Rules       []rbacv1.PolicyRule
	// NamespaceRules, when set, are emitted as a Role of the name ClusterRole in the extension's
	// namespace, bound to the account.
	NamespaceRules []rbacv1.PolicyRule
}
