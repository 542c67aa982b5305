package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/crdserver"
)

// TestE2EDeployApply applies the demo's deploy/olmv0 and deploy/olmv1 with `kubectl apply -k` to a real,
// fresh kube-apiserver (no namespace made beforehand) holding the OLM CRDs of the oldest and the newest
// OLM release opack claims (testdata/olm-crds/SOURCE.md): first --dry-run=client, then --dry-run=server
// on a fresh cluster, then for real (every object admitted and validated against the installed CRD schemas,
// the Namespace made first), then --dry-run=server again (what a GitOps diff runs), and reads the objects
// back. A server dry run cannot go first on a fresh cluster: it makes no Namespace, so namespaced objects
// are refused with "namespaces ... not found". No OLM controller runs: this proves the manifests are accepted, in order, by each OLM's
// API; TestE2EOLMServe proves the catalog image is served.
func TestE2EDeployApply(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test: builds and runs kube-apiserver and etcd; run without -short")
	}
	kubectl, etcd, kube := applyTools(t)
	p := newPipelineProject(t, "quay.io/example/memcached-operator-bundle", "quay.io/example/memcached-operator-catalog")
	p.build(t, 0, "wrote catalog-template.yaml")
	cfg := filepath.Join(p.dir, "opack.yaml")
	plain, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	withSA := strings.Replace(string(plain), "\n  olmv1:\n", "\n  olmv1:\n    serviceAccount:\n      name: memcached-operator-installer\n", 1)
	if withSA == string(plain) {
		t.Fatalf("%s has no deploy.olmv1 section", cfg)
	}
	// kubectl's order (kustomize's legacy sort: Namespace, RBAC, then the rest by kind), not the files'.
	olmv0 := []string{"namespace/memcached-operator-system", "operatorgroup.operators.coreos.com/memcached-operator",
		"catalogsource.operators.coreos.com/memcached-operator-catalog", "subscription.operators.coreos.com/memcached-operator"}
	olmv1 := []string{"namespace/memcached-operator-system", "clustercatalog.olm.operatorframework.io/memcached-operator-catalog",
		"clusterextension.olm.operatorframework.io/memcached-operator"}
	olmv1SA := []string{"namespace/memcached-operator-system", "serviceaccount/memcached-operator-installer",
		"role.rbac.authorization.k8s.io/memcached-operator-installer-installer",
		"clusterrole.rbac.authorization.k8s.io/memcached-operator-installer-installer",
		"rolebinding.rbac.authorization.k8s.io/memcached-operator-installer",
		"clusterrolebinding.rbac.authorization.k8s.io/memcached-operator-installer",
		"clustercatalog.olm.operatorframework.io/memcached-operator-catalog",
		"clusterextension.olm.operatorframework.io/memcached-operator"}
	for _, tc := range []struct {
		name      string
		crds      []string
		olmv1Fail string // what the server says of the OLM v1 manifests without an installer service account ("" accepts)
	}{
		{name: "oldest: OLM v0.26.0 and OLM v1 v1.0.0", crds: []string{"olmv0-v0.26.0", "olmv1-v1.0.0"}, olmv1Fail: "spec.serviceAccount: Required value"},
		{name: "newest: OLM v0.46.0 and OLM v1 v1.11.0", crds: []string{"olmv0-v0.46.0", "olmv1-v1.11.0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := startKube(t, etcd, kube, kubectl, tc.crds)
			k.apply(t, p.dir, "olmv0", olmv0)
			p.expect(t, 0, "", "emit", "-f", cfg)
			if tc.olmv1Fail != "" {
				k.refused(t, p.dir, "olmv1", tc.olmv1Fail)
			} else {
				k.apply(t, p.dir, "olmv1", olmv1)
			}
			writeFile(t, cfg, withSA)
			p.expect(t, 0, "", "emit", "-f", cfg)
			k.apply(t, p.dir, "olmv1", olmv1SA)
			writeFile(t, cfg, string(plain))
			p.expect(t, 0, "", "emit", "-f", cfg)
		})
	}
}

// applyTools finds kubectl and etcd and builds kube-apiserver; it skips without them, unless CI is set.
func applyTools(t *testing.T) (kubectl, etcd, kube string) {
	t.Helper()
	fail := t.Skipf
	if os.Getenv("CI") != "" {
		fail = t.Fatalf
	}
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		fail("SKIPPED: kubectl is not installed; `make test-deps` installs it (apt-get install kubectl)")
	}
	if etcd, err = crdserver.Etcd(); err != nil {
		fail("SKIPPED: %v", err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	if kube, err = crdserver.BuildKube(ctx, root); err != nil {
		fail("SKIPPED: no kube-apiserver: %v", err)
	}
	return kubectl, etcd, kube
}

// cluster is a fresh kube-apiserver with OLM CRDs, driven by kubectl.
type cluster struct {
	kubectl, kubeconfig string
	srv                 *crdserver.Server
}

func startKube(t *testing.T, etcd, kube, kubectl string, crdSets []string) *cluster {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	srv, err := crdserver.StartKube(ctx, etcd, kube, t.TempDir())
	if err != nil {
		t.Fatalf("starting kube-apiserver: %v", err)
	}
	t.Cleanup(func() { srv.Close() })
	c := &cluster{kubectl: kubectl, kubeconfig: srv.Kubeconfig, srv: srv}
	// What installing OLM makes before any operator: its CRDs and OLM v0's global catalog namespace
	// (upstream's install manifests: namespace olm), where opack's CatalogSource goes by default.
	c.run(t, "create", "namespace", "olm")
	for _, set := range crdSets {
		// create, not apply: the subscriptions CRD is larger than apply's last-applied annotation allows.
		c.run(t, "create", "-f", filepath.Join("testdata", "olm-crds", set))
	}
	if len(crdSets) > 0 {
		c.run(t, "wait", "--for", "condition=Established", "crd", "--all", "--timeout", "120s")
	}
	return c
}

// apply applies deploy/<dir> as a client dry run, for real and as a server dry run, and reads the objects back.
func (c *cluster) apply(t *testing.T, project, dir string, want []string) {
	t.Helper()
	k := filepath.Join(project, "deploy", dir)
	for _, mode := range []string{"--dry-run=client", "", "--dry-run=server"} {
		args := []string{"apply", "-k", k, "-o", "name"}
		if mode != "" {
			args = append(args, mode)
		}
		got := strings.Fields(c.run(t, args...))
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("kubectl apply -k deploy/%s %s objects (-want +got):\n%s", dir, mode, d)
		}
	}
	got := strings.Fields(c.run(t, "get", "-k", k, "-o", "name"))
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("kubectl get -k deploy/%s (-want +got):\n%s", dir, d)
	}
}

// refused checks that the server refuses deploy/<dir> saying want.
func (c *cluster) refused(t *testing.T, project, dir, want string) {
	t.Helper()
	out, err := c.cmd("apply", "-k", filepath.Join(project, "deploy", dir)).CombinedOutput()
	if err == nil || !strings.Contains(string(out), want) {
		t.Errorf("kubectl apply -k deploy/%s: want a refusal saying %q, got %v:\n%s", dir, want, err, out)
	}
}

func (c *cluster) cmd(args ...string) *exec.Cmd {
	return exec.Command(c.kubectl, append([]string{"--kubeconfig", c.kubeconfig}, args...)...)
}

func (c *cluster) run(t *testing.T, args ...string) string {
	t.Helper()
	out, err := c.cmd(args...).Output()
	if err != nil {
		t.Fatalf("kubectl %s: %v\n%s\n%s", strings.Join(args, " "), err, exitStderr(err), c.srv.Logs())
	}
	return string(out)
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
