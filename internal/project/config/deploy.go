package config

// Deploy configures the manifests that point a cluster's OLM at the catalog.
type Deploy struct {
	// OLM selects the generations to emit for: v0, v1 or both (default).
	OLM string `yaml:"olm,omitempty"`
	// Catalog names the catalog (of Catalogs) the manifests point at (default: the first).
	Catalog string `yaml:"catalog,omitempty"`
	// Templates is a folder with olmv0/*.yaml.tmpl and olmv1/*.yaml.tmpl replacing the built-in templates.
	Templates string `yaml:"templates,omitempty"`
	OLMv0     OLMv0  `yaml:"olmv0,omitempty"`
	OLMv1     OLMv1  `yaml:"olmv1,omitempty"`
}

// OLMv0 configures the CatalogSource, OperatorGroup and Subscription.
type OLMv0 struct {
	// Namespace the operator is installed into (default <package>-system).
	Namespace string `yaml:"namespace,omitempty"`
	// CreateNamespace emits the Namespace object (default true), so kubectl apply -k works on a fresh
	// cluster; false when the namespace is managed elsewhere.
	CreateNamespace *bool `yaml:"createNamespace,omitempty"`
	// MinOLMVersion is the oldest OLM v0 release the CatalogSource must work on (default v0.26.0, the
	// first with grpcPodConfig.extractContent). A scratch catalog image without serve cache needs
	// v0.35.0: OLM serves extractContent without cacheDir since v0.33.0, and with the read-only root
	// filesystem of v0.33.0+ only since v0.35.0.
	MinOLMVersion string `yaml:"minOLMVersion,omitempty"`
	// TargetNamespaces the operator watches; empty means all namespaces.
	TargetNamespaces []string `yaml:"targetNamespaces,omitempty"`
	// OperatorGroup is the OperatorGroup's name (default <package>).
	OperatorGroup string        `yaml:"operatorGroup,omitempty"`
	CatalogSource CatalogSource `yaml:"catalogSource,omitempty"`
	// Subscription is the Subscription's name (default <package>).
	Subscription string `yaml:"subscription,omitempty"`
	// Channel subscribed to (default: the default channel).
	Channel string `yaml:"channel,omitempty"`
	// Approval of install plans: Automatic (default) or Manual.
	Approval string `yaml:"approval,omitempty"`
	// StartingCSV is the CSV to install first (optional), e.g. <package>.v1.2.3.
	StartingCSV string `yaml:"startingCSV,omitempty"`
}

// CatalogSource configures the OLM v0 CatalogSource.
type CatalogSource struct {
	// Name (default: the catalog's name).
	Name string `yaml:"name,omitempty"`
	// Namespace (default olm; openshift-marketplace on OpenShift).
	Namespace   string `yaml:"namespace,omitempty"`
	DisplayName string `yaml:"displayName,omitempty"`
	Publisher   string `yaml:"publisher,omitempty"`
	// PollInterval is how often OLM looks for a new image behind the tag (a duration, default 10m);
	// "0" disables polling. Never set for a digest reference.
	PollInterval  string        `yaml:"pollInterval,omitempty"`
	GRPCPodConfig GRPCPodConfig `yaml:"grpcPodConfig,omitempty"`
}

// GRPCPodConfig configures the catalog pod.
type GRPCPodConfig struct {
	// SecurityContextConfig is restricted (default) or legacy.
	SecurityContextConfig string            `yaml:"securityContextConfig,omitempty"`
	NodeSelector          map[string]string `yaml:"nodeSelector,omitempty"`
	PriorityClassName     string            `yaml:"priorityClassName,omitempty"`
	MemoryTarget          string            `yaml:"memoryTarget,omitempty"`
	// ExtractContent makes OLM copy the FBC (and the serve cache the image holds) out of the image and
	// serve it with its own opm. Default: true exactly when the catalog base is scratch (such an image
	// cannot serve itself, so false is refused there).
	ExtractContent *bool `yaml:"extractContent,omitempty"`
}

// OLMv1 configures the ClusterCatalog, ClusterExtension and optional installer service account.
type OLMv1 struct {
	Catalog   ClusterCatalog   `yaml:"catalog,omitempty"`
	Extension ClusterExtension `yaml:"extension,omitempty"`
	// CreateNamespace emits the Namespace object of the extension's namespace (default true).
	CreateNamespace *bool `yaml:"createNamespace,omitempty"`
	// ServiceAccount, when set, emits a ServiceAccount and its RBAC and names it in the ClusterExtension
	// (operator-controller releases before serviceAccount was deprecated require one).
	ServiceAccount *ServiceAccount `yaml:"serviceAccount,omitempty"`
	// MinOLMVersion is the oldest operator-controller release of the clusters (default: the oldest opack
	// supports, v1.0.0); from v1.6.0 on, operator-controller installs bundles with webhooks.
	MinOLMVersion string `yaml:"minOLMVersion,omitempty"`
	// Webhooks declares that operator-controller runs with a webhook feature gate
	// (WebhookProviderCertManager or WebhookProviderOpenshiftServiceCA, alpha in v1.3.0 to v1.5), so
	// bundles with webhook definitions are installable.
	Webhooks bool `yaml:"webhooks,omitempty"`
}

// ClusterCatalog configures the OLM v1 ClusterCatalog.
type ClusterCatalog struct {
	// Name (default: the catalog's name).
	Name     string `yaml:"name,omitempty"`
	Priority int32  `yaml:"priority,omitempty"`
	// PollIntervalMinutes (default 10 for a tag reference; 0 disables; never set for a digest reference).
	PollIntervalMinutes *int `yaml:"pollIntervalMinutes,omitempty"`
}

// ClusterExtension configures the OLM v1 ClusterExtension.
type ClusterExtension struct {
	// Name (default <package>).
	Name string `yaml:"name,omitempty"`
	// Namespace the extension is installed into (default: deploy.olmv0.namespace's default, <package>-system).
	Namespace string `yaml:"namespace,omitempty"`
	// Channels to follow (default: all).
	Channels []string `yaml:"channels,omitempty"`
	// Version is a semver range, e.g. ">=1.0.0 <2.0.0" (default: the newest).
	Version string `yaml:"version,omitempty"`
	// UpgradeConstraintPolicy is CatalogProvided (default) or SelfCertified.
	UpgradeConstraintPolicy string `yaml:"upgradeConstraintPolicy,omitempty"`
	// SelectCatalog restricts resolution to this project's ClusterCatalog (default true).
	SelectCatalog *bool `yaml:"selectCatalog,omitempty"`
}

// ServiceAccount is the installer identity of the ClusterExtension. With only a name, its RBAC is
// derived from the bundle's CSV (a ClusterRole and a Role in the install namespace, both named
// <name>-installer); with clusterRole alone, that existing ClusterRole is bound; with rules, a
// ClusterRole of those rules is emitted.
type ServiceAccount struct {
	Name string `yaml:"name"`
	// ClusterRole bound to the account (default <name>-installer); with Rules, it is emitted too.
	ClusterRole string       `yaml:"clusterRole,omitempty"`
	Rules       []PolicyRule `yaml:"rules,omitempty"`
	// Derive is set by the defaults when neither ClusterRole nor Rules were given.
	Derive bool `yaml:"-"`
}

// PolicyRule is an RBAC rule (rbac.authorization.k8s.io/v1 PolicyRule).
type PolicyRule struct {
	APIGroups       []string `yaml:"apiGroups,omitempty"`
	Resources       []string `yaml:"resources,omitempty"`
	ResourceNames   []string `yaml:"resourceNames,omitempty"`
	Verbs           []string `yaml:"verbs"`
	NonResourceURLs []string `yaml:"nonResourceURLs,omitempty"`
}
