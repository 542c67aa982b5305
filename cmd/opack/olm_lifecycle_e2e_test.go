package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/opack/opack/internal/olmharness"
	"github.com/opack/opack/internal/olmtest"
)

// TestE2EOLMv0Lifecycle has the real OLM v0 (olm-operator and catalog-operator of
// operator-lifecycle-manager v0.46.0 and v0.26.0, the newest and the oldest opack claims, as processes on
// a real kube-apiserver) install what `opack build
// --push` released: the go/v4 sample as `make demo` builds it, its images pushed to a docker-registry
// on 127.0.0.1 (the image names of opack.yaml name that registry: nothing is edited after the build),
// deploy/olmv0 applied unchanged with kubectl. The harness plays only the node (internal/olmharness:
// the catalog pod and the bundle unpack Job run from their pod specs with the real opm, copy-content and
// cpb; the operator's Deployment is reported available); catalog-operator resolves the Subscription,
// unpacks the bundle and writes the InstallPlan, olm-operator moves the CSV to Succeeded.
func TestE2EOLMv0Lifecycle(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test: runs kube-apiserver, etcd, docker-registry and OLM v0's controllers; run without -short")
	}
	olmtest.RequireRoot(t)
	t.Setenv("DOCKER_CONFIG", t.TempDir()) // no credentials of the host
	for _, version := range olmharness.OLMv0Releases {
		t.Run(version, func(t *testing.T) { olmv0Lifecycle(t, version) })
	}
}

// olmv0Lifecycle runs TestE2EOLMv0Lifecycle's phases on OLM v0 release version.
func olmv0Lifecycle(t *testing.T, version string) {
	began := time.Now()
	host := startPipelineRegistry(t)
	// The API server runs without webhook admission (olmharness.StartOLMv0Env): the operator never runs.
	// A retry timeout of 20 s instead of upstream's 1 min: the refused upgrade below fails sooner.
	e := olmharness.StartOLMv0Env(t, version, "--install-plan-retry-timeout", "20s")
	c := e.Cluster
	// The sample's bundle ships a ServiceMonitor: OLM v0 installs it only where the Prometheus Operator's
	// API exists (else the InstallPlan fails: "api-server resource not found installing ServiceMonitor
	// ...: GroupVersionKind monitoring.coreos.com/v1, Kind=ServiceMonitor not found on the cluster"). The
	// cluster gets that API as the Prometheus Operator would install it; here a permissive stand-in.
	applyText(t, c, serviceMonitorCRD)
	c.Kubectl(t, "wait", "--for", "condition=Established", "crd/servicemonitors.monitoring.coreos.com", "--timeout", "60s")
	t.Logf("cluster, registry and OLM v0 up after %v", time.Since(began).Round(time.Millisecond))

	p := newLifecycleProject(t, host+"/example/operator-bundle", host+"/example/operator-catalog")
	p.push = true
	p.build(t, 0, "wrote catalog-template.yaml")
	ns, first := p.ns, p.csvName(t)
	phase := time.Now()
	c.Kubectl(t, "apply", "-k", filepath.Join(p.dir, "deploy", "olmv0"))
	csvPhase(t, c, ns, first, "Succeeded", 3*time.Minute)
	t.Logf("v0.0.1: CSV %s Succeeded %v after kubectl apply", first, time.Since(phase).Round(time.Millisecond))
	installPlans(t, c, ns)
	c.Kubectl(t, "get", "crd/"+p.crd, "-o", "name")
	c.Kubectl(t, "get", "deployments", "-n", ns, "-o", "name")

	// An object of the CRD, then 0.0.2 with a compatible CRD change (a new optional field): OLM upgrades
	// through a new InstallPlan, 0.0.2 Succeeded and 0.0.1 gone.
	applyText(t, c, p.cr)
	p.addOptionalField(t)
	p.build(t, 0, "wrote catalog", "--version", "0.0.2")
	second := p.csvName(t)
	phase = time.Now()
	c.Kubectl(t, "apply", "-k", filepath.Join(p.dir, "deploy", "olmv0"))
	csvPhase(t, c, ns, second, "Succeeded", 3*time.Minute)
	t.Logf("v0.0.2: CSV %s Succeeded %v after kubectl apply", second, time.Since(phase).Round(time.Millisecond))
	c.Eventually(t, 2*time.Minute, "CSV "+first+" deleted", func(ctx context.Context) (bool, string, error) {
		_, found, err := c.CSV(ctx, ns, first)
		return !found, "still there", err
	})
	t.Logf("v0.0.2: CSV %s gone %v after kubectl apply", first, time.Since(phase).Round(time.Millisecond))
	if n := len(installPlans(t, c, ns)); n < 2 {
		t.Errorf("%d InstallPlans after the upgrade, want one per release", n)
	}
	if got := p.serverField(t, c); !strings.Contains(got, e2eField) {
		t.Errorf("the CRD on the server has no spec.%s of 0.0.2: %s", e2eField, got)
	}
	before := c.Kubectl(t, "get", p.kind+"."+strings.SplitN(p.crd, ".", 2)[1], p.crName, "-n", ns, "-o", "jsonpath={.spec}")

	// 0.0.3 makes the field required: the object lacks it. opack refuses the release naming the field;
	// waived and pushed anyway, OLM v0 refuses the InstallPlan naming the CRD, and the object and 0.0.2
	// stay as they were.
	pushRefusedRelease(t, p)
	third := p.csvName(t)
	phase = time.Now()
	c.Kubectl(t, "apply", "-k", filepath.Join(p.dir, "deploy", "olmv0"))
	var failed string
	c.Eventually(t, 3*time.Minute, "the InstallPlan of "+third+" Failed", func(ctx context.Context) (bool, string, error) {
		plans := installPlanStates(ctx, c, ns)
		for _, ip := range plans {
			if strings.Contains(ip, third) && strings.Contains(ip, " Failed") {
				failed = ip
				return true, "", nil
			}
		}
		return false, strings.Join(plans, "; "), nil
	})
	t.Logf("v0.0.3: InstallPlan Failed %v after kubectl apply: %s", time.Since(phase).Round(time.Millisecond), failed)
	if !strings.Contains(failed, p.crd) {
		t.Errorf("the failed InstallPlan does not name the CRD %s: %s", p.crd, failed)
	}
	// What real OLM v0 leaves: 0.0.3's CSV is created (its steps before the CRD's ran) and 0.0.2's is
	// Replacing, but 0.0.2 is neither deleted nor changed, and the CRD and the object stay as they were.
	for _, csv := range []string{second, third} {
		st, found, err := c.CSV(t.Context(), ns, csv)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("v0.0.3: CSV %s found=%v phase %s (%s: %s)", csv, found, st.Phase, st.Reason, st.Message)
		if csv == second && !found {
			t.Errorf("CSV %s was deleted by the refused upgrade", csv)
		}
	}
	p.unchanged(t, c, before)
}

// csvName returns the name of the CSV of the bundle the project's last build wrote.
func (lp *lifecycleProject) csvName(t *testing.T) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(lp.dir, "bundle", "manifests", "*.clusterserviceversion.yaml"))
	if len(files) != 1 {
		t.Fatalf("bundle/manifests holds %d CSVs, want 1", len(files))
	}
	return str(readYAMLMap(t, files[0]), "metadata", "name")
}

// serverField returns the spec schema of the CRD's storage version on the server (JSON).
func (lp *lifecycleProject) serverField(t *testing.T, c *olmharness.Cluster) string {
	t.Helper()
	return c.Kubectl(t, "get", "crd", lp.crd, "-o", "jsonpath={.spec.versions[?(@.storage==true)].schema.openAPIV3Schema.properties.spec}")
}

// unchanged checks, after a refused upgrade, that the CRD on the server does not require the field and
// that the object's spec is before.
func (lp *lifecycleProject) unchanged(t *testing.T, c *olmharness.Cluster, before string) {
	t.Helper()
	if got := c.Kubectl(t, "get", "crd", lp.crd, "-o", "jsonpath={.spec.versions[?(@.storage==true)].schema.openAPIV3Schema.properties.spec.required}"); strings.Contains(got, e2eField) {
		t.Errorf("the CRD on the server requires spec.%s after the refused upgrade (required %s)", e2eField, got)
	}
	after := c.Kubectl(t, "get", lp.kind+"."+strings.SplitN(lp.crd, ".", 2)[1], lp.crName, "-n", lp.ns, "-o", "jsonpath={.spec}")
	if after != before {
		t.Errorf("the object's spec changed in the refused upgrade:\nbefore %s\nafter  %s", before, after)
	}
}

// installPlanStates lists the namespace's InstallPlans: CSVs, phase and the message of a failed one.
func installPlanStates(ctx context.Context, c *olmharness.Cluster, ns string) []string {
	ips, err := c.InstallPlans(ctx, ns)
	if err != nil {
		return []string{err.Error()}
	}
	var out []string
	for _, ip := range ips {
		s := fmt.Sprintf("%s %v %s", ip.Name, ip.CSVs, ip.Phase)
		if ip.Message != "" {
			s += " (" + ip.Message + ")"
		}
		out = append(out, s)
	}
	return out
}

// pushRefusedRelease builds 0.0.3, whose CRD makes spec.opackE2eNote required: opack must refuse it
// naming the field and a crd-upgrade rule; the rule is then waived in opack.yaml and the release built
// (and pushed) anyway, for OLM to judge.
func pushRefusedRelease(t *testing.T, p *lifecycleProject) {
	t.Helper()
	p.requireField(t)
	out := p.build(t, exitFindings, e2eField, "--version", "0.0.3")
	rule := regexp.MustCompile(e2eField + `[^\n]*\[([a-z-]+)\]`).FindStringSubmatch(out)
	if rule == nil {
		t.Fatalf("opack build --version 0.0.3 names no crd-upgrade rule on spec.%s:\n%s", e2eField, out)
	}
	t.Logf("v0.0.3: opack refuses it: %s", firstLine(out, e2eField))
	cfg := filepath.Join(p.dir, "opack.yaml")
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	waiver := fmt.Sprintf("- {rule: crd-upgrade/%s, crd: %s, reason: \"pushed anyway to see OLM refuse it\"}\n", rule[1], p.crd)
	if text := string(data); strings.Contains(text, "\nwaivers:\n") {
		writeFile(t, cfg, strings.Replace(text, "\nwaivers:\n", "\nwaivers:\n"+waiver, 1))
	} else {
		writeFile(t, cfg, text+"waivers:\n"+waiver)
	}
	p.build(t, 0, "wrote catalog", "--version", "0.0.3")
}

// firstLine returns the first line of text containing sub.
func firstLine(text, sub string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, sub) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// applyText applies a manifest given as text.
func applyText(t *testing.T, c *olmharness.Cluster, manifest string) {
	t.Helper()
	cmd := c.KubectlCmd("apply", "-f", "-")
	cmd.Stdin = strings.NewReader(manifest)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("kubectl apply: %v\n%s", err, out)
	}
}

// editFile replaces the first old in file with new.
func editFile(t *testing.T, file, old, new string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s does not contain %q", file, old)
	}
	writeFile(t, file, strings.Replace(string(data), old, new, 1))
}

// csvPhase waits until the CSV reaches phase, and fails on phase Failed.
func csvPhase(t *testing.T, c *olmharness.Cluster, ns, name, want string, timeout time.Duration) {
	t.Helper()
	c.Eventually(t, timeout, fmt.Sprintf("CSV %s/%s phase %s", ns, name, want), func(ctx context.Context) (bool, string, error) {
		var csv struct {
			Status struct {
				Phase, Reason, Message string
				RequirementStatus      []struct{ Kind, Name, Status, Message string } `json:"requirementStatus"`
			} `json:"status"`
		}
		found, err := c.GetJSON(ctx, fmt.Sprintf("/apis/operators.coreos.com/v1alpha1/namespaces/%s/clusterserviceversions/%s", ns, name), &csv)
		if err != nil {
			return false, "", err
		}
		if !found {
			return false, "no CSV; " + subscriptionState(ctx, c, ns), nil
		}
		// Real OLM v0 fails a Succeeded CSV for RequirementsNotMet ("requirements no longer met") while
		// what it requires is being applied, and from Failed checks them again and moves it to
		// Succeeded once they are met (olm/operator.go, CSVPhaseFailed): only another reason ends it.
		if csv.Status.Phase == "Failed" && want != "Failed" && csv.Status.Reason != "RequirementsNotMet" {
			return false, "", fmt.Errorf("CSV %s Failed: %s %s", name, csv.Status.Reason, csv.Status.Message)
		}
		state := fmt.Sprintf("phase %s (%s: %s)", csv.Status.Phase, csv.Status.Reason, csv.Status.Message)
		for _, r := range csv.Status.RequirementStatus {
			if r.Status != "Present" {
				state += fmt.Sprintf("; %s %s %s: %s", r.Kind, r.Name, r.Status, r.Message)
			}
		}
		return csv.Status.Phase == want, state, nil
	})
}

// subscriptionState sums up the namespace's Subscriptions, for a waiting test's message.
func subscriptionState(ctx context.Context, c *olmharness.Cluster, ns string) string {
	var subs struct {
		Items []struct {
			Metadata struct{ Name string } `json:"metadata"`
			Status   struct {
				State, CurrentCSV string
				Conditions        []struct{ Type, Status, Reason, Message string }
			} `json:"status"`
		} `json:"items"`
	}
	if _, err := c.GetJSON(ctx, fmt.Sprintf("/apis/operators.coreos.com/v1alpha1/namespaces/%s/subscriptions", ns), &subs); err != nil {
		return err.Error()
	}
	var b strings.Builder
	for _, s := range subs.Items {
		fmt.Fprintf(&b, "subscription %s: state %q currentCSV %q", s.Metadata.Name, s.Status.State, s.Status.CurrentCSV)
		for _, cond := range s.Status.Conditions {
			if cond.Status == "True" {
				fmt.Fprintf(&b, "; %s %s %s", cond.Type, cond.Reason, cond.Message)
			}
		}
	}
	return b.String()
}

// installPlans logs the namespace's InstallPlans: which CSVs each installed and its phase.
func installPlans(t *testing.T, c *olmharness.Cluster, ns string) []string {
	t.Helper()
	out := installPlanStates(t.Context(), c, ns)
	t.Logf("InstallPlans in %s: %v", ns, out)
	if len(out) == 0 {
		t.Errorf("no InstallPlan in %s", ns)
	}
	return out
}

// serviceMonitorCRD stands in for the Prometheus Operator's ServiceMonitor CRD: the API exists, any
// spec is accepted.
const serviceMonitorCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: servicemonitors.monitoring.coreos.com
spec:
  group: monitoring.coreos.com
  names: {kind: ServiceMonitor, listKind: ServiceMonitorList, plural: servicemonitors, singular: servicemonitor}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`

// TestE2EOLMv1Lifecycle has the real OLM v1 (catalogd and operator-controller of each release of
// olmharness.OLMv1Releases, v1.11.0 and v1.2.0, as processes on a real kube-apiserver) take what `opack
// build --push` released, deploy/olmv1 applied unchanged: catalogd pulls the catalog image from the
// docker-registry on 127.0.0.1 (a registries.conf entry lets containers/image speak plain HTTP to it; the
// image names are opack.yaml's) and serves it, then operator-controller resolves the ClusterExtension
// against it and installs the bundle with Helm.
//
// The go/v4 sample's bundle has webhooks. operator-controller v1.11.0 (feature gate
// WebhookProviderCertManager, GA and on by default) installs them with cert-manager Certificates and
// Issuers, and without cert-manager's API on the cluster retries forever ("no matches for kind
// \"Certificate\" in version \"cert-manager.io/v1\""); the cluster gets that API as cert-manager would
// install it (permissive stand-ins: cert-manager itself does not run, the kubelet reports the operator's
// Deployment available). operator-controller v1.2.0 has no webhook support: it refuses the sample as
// opack's olmv1/webhook-definitions finding says, and then runs the lifecycle on the sample with its
// webhooks removed from config/default, as an author targeting it would. v1.2.0 requires
// spec.serviceAccount: opack.yaml names one, and operator-controller installs with the RBAC opack derives
// from the CSV (not cluster-admin).
func TestE2EOLMv1Lifecycle(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test: runs kube-apiserver, etcd, docker-registry and OLM v1's controllers; run without -short")
	}
	olmtest.RequireRoot(t) // the controllers' service account token is mounted in a mount namespace of their own
	t.Setenv("DOCKER_CONFIG", t.TempDir())
	for _, version := range olmharness.OLMv1Releases {
		t.Run(version, func(t *testing.T) { olmv1Lifecycle(t, version) })
	}
}

// olmv1Lifecycle runs TestE2EOLMv1Lifecycle's phases on OLM v1 release version.
func olmv1Lifecycle(t *testing.T, version string) {
	began := time.Now()
	host := startPipelineRegistry(t)
	c := olmharness.StartOLMv1EnvOf(t, version, host).Cluster
	for _, kind := range []string{"Certificate", "Issuer"} {
		applyText(t, c, strings.NewReplacer("KIND", kind, "PLURAL", strings.ToLower(kind)+"s").Replace(certManagerCRD))
	}
	applyText(t, c, serviceMonitorCRD) // see TestE2EOLMv0Lifecycle: OLM v1 needs the API as OLM v0 does
	t.Logf("cluster, registry and OLM v1 %s up after %v", version, time.Since(began).Round(time.Millisecond))

	webhooks := version != "v1.2.0"
	if !webhooks && !refusedWebhooks(t, c, host) {
		webhooks = true // the project has none: the lifecycle runs on it as it is
	}
	p := newLifecycleProject(t, host+"/example/operator-bundle", host+"/example/operator-catalog")
	p.push = true
	if version != olmharness.OLMv1Releases[0] {
		serviceAccount(t, p.pipelineProject) // spec.serviceAccount is required before v1.11.0
	}
	var first []string
	if !webhooks {
		if !p.sample {
			t.Skipf("SKIP: %s has webhooks, which operator-controller %s refuses (see refusedWebhooks)", p.dir, version)
		}
		withoutWebhooks(t, p.pipelineProject)
		// The committed bundle holds the webhook Service: opack deletes it (and only it) when told to.
		first = append(first, "--prune")
	}
	// The author declares the oldest operator-controller of their clusters: this release. From v1.6.0
	// on, opack must not warn about webhooks (and the real controller must install them).
	editFile(t, filepath.Join(p.dir, "opack.yaml"), "  olmv1:\n", "  olmv1:\n    minOLMVersion: "+version+"\n")
	out := p.build(t, 0, "wrote catalog-template.yaml", first...)
	ext := "/apis/olm.operatorframework.io/v1/clusterextensions/" + p.extension
	phase := time.Now()
	c.Kubectl(t, "apply", "-k", filepath.Join(p.dir, "deploy", "olmv1"))
	c.Eventually(t, 3*time.Minute, "ClusterCatalog Serving", func(ctx context.Context) (bool, string, error) {
		cond, err := c.Condition(ctx, "/apis/olm.operatorframework.io/v1/clustercatalogs/"+p.catalog, "Serving")
		return cond.Status == "True", fmt.Sprintf("%+v", cond), err
	})
	t.Logf("v0.0.1: ClusterCatalog Serving %v after kubectl apply", time.Since(phase).Round(time.Millisecond))
	var last string
	c.Eventually(t, 3*time.Minute, "ClusterExtension Installed", func(ctx context.Context) (bool, string, error) {
		x, err := c.Extension(ctx, p.extension)
		last = fmt.Sprintf("installed %q; Installed %+v; Progressing %+v", x.Version, x.Installed, x.Progressing)
		if strings.Contains(x.Progressing.Message, "no matches for kind") {
			return false, "", fmt.Errorf("an API the bundle needs is missing: %s", last)
		}
		// Progressing=Succeeded: the release is installed and operator-controller watches it (an
		// installer that cannot list what it installed stays Retrying with Installed=True).
		return x.Installed.Status == "True" && x.Progressing.Reason == "Succeeded", last, err
	})
	t.Logf("v0.0.1: %s, %v after kubectl apply", last, time.Since(phase).Round(time.Millisecond))
	if !strings.Contains(last, `installed "0.0.1"`) {
		t.Errorf("the ClusterExtension did not install 0.0.1: %s", last)
	}
	if w := firstLine(out, "olmv1/webhook-definitions"); w != "" {
		t.Errorf("opack warns that operator-controller %s refuses the webhooks (deploy.olmv1.minOLMVersion: %s), and it installed them: %s", version, version, w)
	}
	c.Kubectl(t, "get", "crd/"+p.crd, "-o", "name")
	c.Kubectl(t, "get", "deployments", "-n", p.ns, "-o", "name")
	if webhooks && p.sample {
		c.Kubectl(t, "get", "certificate.cert-manager.io/memcached-operator-controller-manager-service-cert", "-n", p.ns, "-o", "name")
	}

	// 0.0.2 with a compatible CRD change: catalogd serves the new catalog image, operator-controller
	// resolves the ClusterExtension to 0.0.2 and upgrades the Helm release.
	p.addOptionalField(t)
	p.build(t, 0, "wrote catalog", "--version", "0.0.2")
	phase = time.Now()
	c.Kubectl(t, "apply", "-k", filepath.Join(p.dir, "deploy", "olmv1"))
	c.Eventually(t, 3*time.Minute, "ClusterExtension installs 0.0.2", func(ctx context.Context) (bool, string, error) {
		x, err := c.Extension(ctx, p.extension)
		return x.Version == "0.0.2" && x.Progressing.Reason == "Succeeded", fmt.Sprintf("installed %q; Progressing %+v", x.Version, x.Progressing), err
	})
	t.Logf("v0.0.2: ClusterExtension installed 0.0.2 %v after kubectl apply", time.Since(phase).Round(time.Millisecond))
	if got := p.serverField(t, c); !strings.Contains(got, e2eField) {
		t.Errorf("the CRD on the server has no spec.%s of 0.0.2: %s", e2eField, got)
	}

	// 0.0.3 makes the field required: opack refuses it; waived and pushed, operator-controller's CRD
	// upgrade-safety preflight refuses it, and 0.0.2 stays installed. No object is created: the preflight
	// compares the schemas only (and the operator's webhooks, which nothing serves here, would refuse
	// creating one).
	pushRefusedRelease(t, p)
	phase = time.Now()
	c.Kubectl(t, "apply", "-k", filepath.Join(p.dir, "deploy", "olmv1"))
	c.Eventually(t, 3*time.Minute, "the preflight refuses 0.0.3", func(ctx context.Context) (bool, string, error) {
		prog, err := c.Condition(ctx, ext, "Progressing")
		last = fmt.Sprintf("%+v", prog)
		return strings.Contains(prog.Message, "0.0.3") && strings.Contains(prog.Message, p.crd), last, err
	})
	t.Logf("v0.0.3: refused %v after kubectl apply: %s", time.Since(phase).Round(time.Millisecond), last)
	if got := c.Kubectl(t, "get", "crd", p.crd, "-o", "jsonpath={.spec.versions[?(@.storage==true)].schema.openAPIV3Schema.properties.spec.required}"); strings.Contains(got, e2eField) {
		t.Errorf("the CRD on the server requires spec.%s after the refused upgrade", e2eField)
	}
	x, err := c.Extension(t.Context(), p.extension)
	if err != nil || x.Version != "0.0.2" || x.Installed.Status != "True" {
		t.Errorf("after the refused upgrade: installed %q, Installed %+v (%v); want 0.0.2 installed", x.Version, x.Installed, err)
	}
	t.Logf("v0.0.3: Installed %+v", x.Installed)
}

// refusedWebhooks builds the go/v4 sample as it is (its bundle has a defaulting and a validating webhook)
// for OLM v1 v1.2.0, which has no webhook support: opack must warn olmv1/webhook-definitions, and the real
// operator-controller must refuse the bundle for that reason. The extension and its catalog are then
// deleted, as an author would before installing the release without webhooks. It reports whether the
// project has webhooks (a project of OPACK_E2E_PROJECT may have none).
func refusedWebhooks(t *testing.T, c *olmharness.Cluster, host string) bool {
	t.Helper()
	p := newLifecycleProject(t, host+"/webhooks/operator-bundle", host+"/webhooks/operator-catalog")
	p.push = true
	serviceAccount(t, p.pipelineProject)
	out := p.build(t, 0, "wrote catalog-template.yaml")
	warning := firstLine(out, "olmv1/webhook-definitions")
	// Only the extension and the catalog go: without kube-controller-manager a Namespace never finishes
	// terminating, and the next release reuses the namespace, its service account and RBAC.
	remove := []string{"delete", "clusterextension/" + p.extension, "clustercatalog/" + p.catalog, "--wait=true", "--timeout=120s"}
	if warning == "" && !p.sample {
		return false // nothing applied yet
	}
	if warning == "" {
		t.Fatalf("opack build does not warn olmv1/webhook-definitions for the sample's webhooks:\n%s", out)
	}
	phase := time.Now()
	c.Kubectl(t, "apply", "-k", filepath.Join(p.dir, "deploy", "olmv1"))
	var last string
	c.Eventually(t, 3*time.Minute, "operator-controller refuses the webhooks", func(ctx context.Context) (bool, string, error) {
		x, err := c.Extension(ctx, p.extension)
		last = fmt.Sprintf("installed %q; Progressing %+v; Installed %+v", x.Version, x.Progressing, x.Installed)
		if x.Version != "" {
			return false, "", fmt.Errorf("v1.2.0 installed a bundle with webhooks: %s", last)
		}
		return strings.Contains(strings.ToLower(x.Progressing.Message), "webhook"), last, err
	})
	t.Logf("webhooks: opack warns %q; operator-controller refused %v after kubectl apply: %s", warning, time.Since(phase).Round(time.Millisecond), last)
	c.Kubectl(t, remove...)
	return true
}

// withoutWebhooks removes the webhooks from the sample's config/default (the webhook resources and the
// manager's webhook patch, and the replacements that need the webhook Service).
func withoutWebhooks(t *testing.T, p *pipelineProject) {
	t.Helper()
	k := filepath.Join(p.dir, "config", "default", "kustomization.yaml")
	editFile(t, k, "- ../webhook\n", "")
	editFile(t, k, "- path: manager_webhook_patch.yaml\n  target:\n    kind: Deployment\n", "")
	data, err := os.ReadFile(k)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(data), " - source: # Uncomment the following block if you have any webhook")
	if i < 0 {
		t.Fatalf("%s has no webhook replacements", k)
	}
	writeFile(t, k, string(data[:i]))
}

// serviceAccount names the service account OLM v1 installs with in opack.yaml.
func serviceAccount(t *testing.T, p *pipelineProject) {
	t.Helper()
	editFile(t, filepath.Join(p.dir, "opack.yaml"), "    # serviceAccount:", "    serviceAccount: {name: memcached-operator-installer}\n    # serviceAccount:")
}

// certManagerCRD stands in for cert-manager's CRDs (KIND, PLURAL): the API exists, any spec is accepted.
const certManagerCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: PLURAL.cert-manager.io
spec:
  group: cert-manager.io
  names: {kind: KIND, listKind: KINDList, plural: PLURAL}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`
