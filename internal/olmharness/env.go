package olmharness

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// OLMv0Env is a cluster running OLM v0 with the harness's node (kubelet and service router): it installs
// what a CatalogSource's image serves, as a cluster with OLM v0 would.
type OLMv0Env struct {
	*Cluster
	Kubelet *Kubelet
	OLM     *OLMv0
	Version string
}

// StartOLMv0Env starts a cluster, the kubelet (with OLM v0 release version's own images), the service
// router and OLM v0 release version, extra added to catalog-operator's arguments (e.g.
// --install-plan-retry-timeout).
//
// Deviation from a cluster: the API server runs without webhook admission. The operators OLM installs
// here never run (their images are never run: the kubelet only reports their Deployments available), so
// nothing would answer the admission webhooks OLM registers for them; creating their custom resources
// would fail otherwise.
func StartOLMv0Env(t testing.TB, version string, extra ...string) *OLMv0Env {
	t.Helper()
	c := StartCluster(t, "--disable-admission-plugins", "MutatingAdmissionWebhook,ValidatingAdmissionWebhook")
	k := StartKubelet(t, c, OLMv0Images(t, c, version))
	router, err := StartServiceRouter(k)
	if err != nil {
		t.Fatal(err)
	}
	// catalog-operator reaches the catalog pods' Services through the router (see ServiceRouter).
	o := StartOLMv0(t, c, version, []string{"GRPC_PROXY=socks5://" + router.Addr, "NO_PROXY=", "no_proxy="}, extra...)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("kubelet:\n%s", strings.Join(k.Events(), "\n"))
		}
	})
	return &OLMv0Env{Cluster: c, Kubelet: k, OLM: o, Version: version}
}

// Subscription is an operator subscribed to through OLM v0: a namespace of its own holding a
// CatalogSource of the catalog image, an OperatorGroup targeting that namespace alone (OwnNamespace: the
// CSV is not copied into other namespaces, so several subscriptions of one package can run side by side,
// each in its own namespace) and the Subscription.
type Subscription struct {
	Namespace string
	// CatalogImage is the CatalogSource's spec.image: a catalog image as opack builds it (opm's serve
	// cache inside, no opm binary), served by OLM's own opm (grpcPodConfig.extractContent).
	CatalogImage string
	// CatalogNamespace, when set, is the namespace of a CatalogSource "catalog" already made with
	// CatalogSource (OLMNamespace, OLM v0's global catalog namespace, serves every namespace: one catalog pod
	// for many subscriptions); Subscribe then makes none and CatalogImage is not used.
	CatalogNamespace string
	Package          string
	Channel          string
	// StartingCSV is the release to install first; empty: the channel head.
	StartingCSV string
	// Manual: installPlanApproval Manual (each InstallPlan waits for ApproveInstallPlan); else Automatic.
	Manual bool
}

// Subscribe creates each subscription's namespace, CatalogSource (named "catalog", unless
// CatalogNamespace names one), OperatorGroup and Subscription (named after the package), as an operator
// author's deploy manifests do; several at once in one apply.
func (e *OLMv0Env) Subscribe(t testing.TB, subs ...Subscription) {
	t.Helper()
	var namespaces, objects strings.Builder
	for _, s := range subs {
		approval := "Automatic"
		if s.Manual {
			approval = "Manual"
		}
		starting := ""
		if s.StartingCSV != "" {
			starting = fmt.Sprintf("\n  startingCSV: %q", s.StartingCSV)
		}
		fmt.Fprintf(&namespaces, "apiVersion: v1\nkind: Namespace\nmetadata: {name: %q}\n---\n", s.Namespace)
		catalogNS := s.CatalogNamespace
		if catalogNS == "" {
			catalogNS = s.Namespace
			objects.WriteString(catalogSourceManifest(s.Namespace, s.CatalogImage) + "---\n")
		}
		fmt.Fprintf(&objects, `apiVersion: operators.coreos.com/v1
kind: OperatorGroup
metadata: {name: own, namespace: %[1]q}
spec: {targetNamespaces: [%[1]q]}
---
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: %[2]q, namespace: %[1]q}
spec:
  name: %[2]q
  channel: %[3]q
  source: catalog
  sourceNamespace: %[4]q
  installPlanApproval: %[5]s%[6]s
---
`, s.Namespace, s.Package, s.Channel, catalogNS, approval, starting)
	}
	// kubectl applies in order: the namespaces exist before what they hold.
	applyManifest(t, e.Cluster, namespaces.String()+objects.String())
}

// CatalogSource creates CatalogSource "catalog" of image in namespace (which must exist), served by
// OLM's own opm from the image's content (grpcPodConfig.extractContent).
func (e *OLMv0Env) CatalogSource(t testing.TB, namespace, image string) {
	t.Helper()
	applyManifest(t, e.Cluster, catalogSourceManifest(namespace, image))
}

func catalogSourceManifest(namespace, image string) string {
	return fmt.Sprintf(`apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata: {name: catalog, namespace: %q}
spec:
  sourceType: grpc
  image: %q
  grpcPodConfig:
    extractContent: {catalogDir: /configs, cacheDir: /tmp/cache}
`, namespace, image)
}

// CSVStatus is what OLM v0 reports of a ClusterServiceVersion.
type CSVStatus struct {
	Phase, Reason, Message string
}

// CSV returns the status of CSV name in ns, and whether it exists.
func (c *Cluster) CSV(ctx context.Context, ns, name string) (CSVStatus, bool, error) {
	var csv struct {
		Status CSVStatus `json:"status"`
	}
	found, err := c.GetJSON(ctx, fmt.Sprintf("/apis/operators.coreos.com/v1alpha1/namespaces/%s/clusterserviceversions/%s", ns, name), &csv)
	return csv.Status, found, err
}

// CSVs returns the phase of every CSV in ns by name (copied CSVs of other namespaces are not listed:
// OLM labels them olm.copiedFrom).
func (c *Cluster) CSVs(ctx context.Context, ns string) (map[string]string, error) {
	var list struct {
		Items []struct {
			Metadata struct {
				Name   string
				Labels map[string]string
			} `json:"metadata"`
			Status CSVStatus `json:"status"`
		} `json:"items"`
	}
	if _, err := c.GetJSON(ctx, fmt.Sprintf("/apis/operators.coreos.com/v1alpha1/namespaces/%s/clusterserviceversions", ns), &list); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, csv := range list.Items {
		if csv.Metadata.Labels["olm.copiedFrom"] == "" {
			out[csv.Metadata.Name] = csv.Status.Phase
		}
	}
	return out, nil
}

// InstallPlan is what OLM v0 wrote of an InstallPlan.
type InstallPlan struct {
	Namespace, Name string
	CSVs            []string // spec.clusterServiceVersionNames
	Approved        bool
	Phase           string
	// Message is the message of its conditions (a failed plan's reason).
	Message string
	Created time.Time
}

// InstallPlans returns the InstallPlans of ns (of every namespace when ns is empty), oldest first.
func (c *Cluster) InstallPlans(ctx context.Context, ns string) ([]InstallPlan, error) {
	var list struct {
		Items []struct {
			Metadata struct {
				Namespace, Name   string
				CreationTimestamp time.Time `json:"creationTimestamp"`
			} `json:"metadata"`
			Spec struct {
				ClusterServiceVersionNames []string `json:"clusterServiceVersionNames"`
				Approved                   bool     `json:"approved"`
			} `json:"spec"`
			Status struct {
				Phase      string
				Message    string
				Conditions []struct{ Type, Status, Reason, Message string }
			} `json:"status"`
		} `json:"items"`
	}
	path := "/apis/operators.coreos.com/v1alpha1/installplans"
	if ns != "" {
		path = fmt.Sprintf("/apis/operators.coreos.com/v1alpha1/namespaces/%s/installplans", ns)
	}
	if _, err := c.GetJSON(ctx, path, &list); err != nil {
		return nil, err
	}
	out := make([]InstallPlan, 0, len(list.Items))
	for _, ip := range list.Items {
		p := InstallPlan{Namespace: ip.Metadata.Namespace, Name: ip.Metadata.Name, CSVs: ip.Spec.ClusterServiceVersionNames, Approved: ip.Spec.Approved,
			Phase: ip.Status.Phase, Message: ip.Status.Message, Created: ip.Metadata.CreationTimestamp}
		for _, cond := range ip.Status.Conditions {
			if cond.Message != "" {
				p.Message = strings.TrimSpace(p.Message + " " + cond.Reason + ": " + cond.Message)
			}
		}
		out = append(out, p)
	}
	// Names are install-XXXXX: order by creation, then name, as a reviewer reads them.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Created.Before(out[j-1].Created); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out, nil
}

// ApproveInstallPlan approves the InstallPlan name of ns, as `kubectl patch` by a cluster admin would.
func (c *Cluster) ApproveInstallPlan(ctx context.Context, ns, name string) error {
	return c.Patch(ctx, fmt.Sprintf("/apis/operators.coreos.com/v1alpha1/namespaces/%s/installplans/%s", ns, name), []byte(`{"spec":{"approved":true}}`))
}

// SubscriptionStatus is what OLM v0 reports of a Subscription.
type SubscriptionStatus struct {
	State, CurrentCSV, InstalledCSV string
	// Conditions are the conditions whose status is True, as "Type Reason: Message".
	Conditions []string
}

// Subscription returns the status of Subscription name in ns.
func (c *Cluster) Subscription(ctx context.Context, ns, name string) (SubscriptionStatus, error) {
	var sub struct {
		Status struct {
			State, CurrentCSV, InstalledCSV string
			Conditions                      []struct{ Type, Status, Reason, Message string }
		} `json:"status"`
	}
	if _, err := c.GetJSON(ctx, fmt.Sprintf("/apis/operators.coreos.com/v1alpha1/namespaces/%s/subscriptions/%s", ns, name), &sub); err != nil {
		return SubscriptionStatus{}, err
	}
	s := SubscriptionStatus{State: sub.Status.State, CurrentCSV: sub.Status.CurrentCSV, InstalledCSV: sub.Status.InstalledCSV}
	for _, cond := range sub.Status.Conditions {
		if cond.Status == "True" {
			s.Conditions = append(s.Conditions, fmt.Sprintf("%s %s: %s", cond.Type, cond.Reason, cond.Message))
		}
	}
	return s, nil
}

// OLMv1Env is a cluster running OLM v1 (catalogd and operator-controller) with the harness's node: it
// installs what a ClusterCatalog's image serves, as a cluster with OLM v1 would.
type OLMv1Env struct {
	*Cluster
	Kubelet *Kubelet
	OLM     *OLMv1
	Version string
}

// StartOLMv1Env starts a cluster, the kubelet and the newest OLM v1 release (OLMv1Releases[0]), pulling
// images from registry (host:port, plain HTTP) through a registries.conf marking it insecure.
func StartOLMv1Env(t testing.TB, registry string) *OLMv1Env {
	t.Helper()
	return StartOLMv1EnvOf(t, OLMv1Releases[0], registry)
}

// StartOLMv1EnvOf is StartOLMv1Env with OLM v1 release version.
func StartOLMv1EnvOf(t testing.TB, version, registry string) *OLMv1Env {
	t.Helper()
	c := StartCluster(t)
	k := StartKubelet(t, c, nil)
	conf := filepath.Join(c.Dir, "registries.conf")
	if err := writeFile(conf, fmt.Sprintf("[[registry]]\nlocation = %q\ninsecure = true\n", registry)); err != nil {
		t.Fatal(err)
	}
	return &OLMv1Env{Cluster: c, Kubelet: k, OLM: StartOLMv1(t, c, version, conf), Version: version}
}

// Catalog creates ClusterCatalog name of image and waits until catalogd serves it.
func (e *OLMv1Env) Catalog(t testing.TB, name, image string) {
	t.Helper()
	applyManifest(t, e.Cluster, fmt.Sprintf(`apiVersion: olm.operatorframework.io/v1
kind: ClusterCatalog
metadata: {name: %q}
spec:
  source:
    type: Image
    image: {ref: %q}
`, name, image))
	e.Eventually(t, 3*time.Minute, "ClusterCatalog "+name+" Serving", func(ctx context.Context) (bool, string, error) {
		cond, err := e.Condition(ctx, "/apis/olm.operatorframework.io/v1/clustercatalogs/"+name, "Serving")
		return cond.Status == "True", fmt.Sprintf("%+v", cond), err
	})
}

// Extension is a ClusterExtension and what it installs with: a namespace of its own and a service
// account bound to cluster-admin (the installer's permissions are not what these tests check).
type Extension struct {
	Name, Namespace, Package string
	// Catalog selects the ClusterCatalog by name; empty: every catalog.
	Catalog string
	// Version is spec.source.catalog.version (an exact version or a range); empty: any.
	Version  string
	Channels []string
	// UpgradeConstraintPolicy is CatalogProvided (the default) or SelfCertified.
	UpgradeConstraintPolicy string
}

// Install creates each extension's namespace, service account and binding, and the ClusterExtension;
// several at once in one apply.
func (e *OLMv1Env) Install(t testing.TB, xs ...Extension) {
	t.Helper()
	var setup, extensions strings.Builder
	for _, x := range xs {
		fmt.Fprintf(&setup, `apiVersion: v1
kind: Namespace
metadata: {name: %[1]q}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: installer, namespace: %[1]q}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: %[2]q}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects:
- {kind: ServiceAccount, name: installer, namespace: %[1]q}
---
`, x.Namespace, x.Name+"-installer")
		extensions.WriteString(extensionManifest(x) + "---\n")
	}
	// kubectl applies in order: the namespace and service account exist before the extension.
	applyManifest(t, e.Cluster, setup.String()+extensions.String())
}

// SetVersion changes ClusterExtension x's spec.source.catalog.version (empty: unpinned).
func (e *OLMv1Env) SetVersion(t testing.TB, x Extension, version string) {
	t.Helper()
	e.SetVersions(t, version, x)
}

// SetVersions changes spec.source.catalog.version of several ClusterExtensions in one apply.
func (e *OLMv1Env) SetVersions(t testing.TB, version string, xs ...Extension) {
	t.Helper()
	var b strings.Builder
	for _, x := range xs {
		x.Version = version
		b.WriteString(extensionManifest(x) + "---\n")
	}
	applyManifest(t, e.Cluster, b.String())
}

func extensionManifest(x Extension) string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: olm.operatorframework.io/v1\nkind: ClusterExtension\nmetadata: {name: %q}\nspec:\n  namespace: %q\n", x.Name, x.Namespace)
	fmt.Fprintf(&b, "  serviceAccount: {name: installer}\n  source:\n    sourceType: Catalog\n    catalog:\n      packageName: %q\n", x.Package)
	if x.Version != "" {
		fmt.Fprintf(&b, "      version: %q\n", x.Version)
	}
	if len(x.Channels) > 0 {
		fmt.Fprintf(&b, "      channels: [%s]\n", quoteAll(x.Channels))
	}
	if x.Catalog != "" {
		fmt.Fprintf(&b, "      selector:\n        matchLabels: {olm.operatorframework.io/metadata.name: %q}\n", x.Catalog)
	}
	if x.UpgradeConstraintPolicy != "" {
		fmt.Fprintf(&b, "      upgradeConstraintPolicy: %q\n", x.UpgradeConstraintPolicy)
	}
	return b.String()
}

func quoteAll(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// ExtensionStatus is what operator-controller reports of a ClusterExtension.
type ExtensionStatus struct {
	// Bundle and Version are status.install.bundle: what is installed.
	Bundle, Version string
	Installed       Condition
	Progressing     Condition
	Generation      int64
	// ObservedGeneration is the Progressing condition's: the spec generation it judged.
	ObservedGeneration int64
}

// Condition is a status condition.
type Condition struct {
	Type, Status, Reason, Message string
	ObservedGeneration            int64 `json:"observedGeneration"`
}

// extensionObject is what Extension and Extensions read of a ClusterExtension.
type extensionObject struct {
	Metadata struct {
		Name       string
		Generation int64
	} `json:"metadata"`
	Status struct {
		Install struct {
			Bundle struct{ Name, Version string }
		} `json:"install"`
		Conditions []Condition
	} `json:"status"`
}

func (obj *extensionObject) status() ExtensionStatus {
	s := ExtensionStatus{Bundle: obj.Status.Install.Bundle.Name, Version: obj.Status.Install.Bundle.Version, Generation: obj.Metadata.Generation}
	for _, cond := range obj.Status.Conditions {
		switch cond.Type {
		case "Installed":
			s.Installed = cond
		case "Progressing":
			s.Progressing = cond
			s.ObservedGeneration = cond.ObservedGeneration
		}
	}
	return s
}

// Extension returns the status of ClusterExtension name.
func (c *Cluster) Extension(ctx context.Context, name string) (ExtensionStatus, error) {
	var obj extensionObject
	if _, err := c.GetJSON(ctx, "/apis/olm.operatorframework.io/v1/clusterextensions/"+name, &obj); err != nil {
		return ExtensionStatus{}, err
	}
	return obj.status(), nil
}

// Extensions returns the status of every ClusterExtension by name (one request, for many extensions).
func (c *Cluster) Extensions(ctx context.Context) (map[string]ExtensionStatus, error) {
	var list struct{ Items []extensionObject }
	if _, err := c.GetJSON(ctx, "/apis/olm.operatorframework.io/v1/clusterextensions", &list); err != nil {
		return nil, err
	}
	out := make(map[string]ExtensionStatus, len(list.Items))
	for i := range list.Items {
		out[list.Items[i].Metadata.Name] = list.Items[i].status()
	}
	return out, nil
}

// Condition returns the status condition typ of the object at the API path (zero when missing).
func (c *Cluster) Condition(ctx context.Context, path, typ string) (Condition, error) {
	var obj struct {
		Status struct{ Conditions []Condition } `json:"status"`
	}
	if _, err := c.GetJSON(ctx, path, &obj); err != nil {
		return Condition{}, err
	}
	for _, cond := range obj.Status.Conditions {
		if cond.Type == typ {
			return cond, nil
		}
	}
	return Condition{}, nil
}
