package olmharness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestE2EOLMv1Starts starts the real catalogd and operator-controller on a fresh kube-apiserver and
// checks that each reconciles an object of its own and that both stay up: catalogd reports a
// ClusterCatalog whose image no registry serves as progressing with retries, operator-controller reports
// a ClusterExtension of a package no catalog holds as not installed. It runs each release of
// OLMv1Releases.
func TestE2EOLMv1Starts(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test: runs kube-apiserver, etcd and OLM v1's controllers; run without -short")
	}
	for _, version := range OLMv1Releases {
		t.Run(version, func(t *testing.T) { olmv1Starts(t, version) })
	}
}

func olmv1Starts(t *testing.T, version string) {
	c := StartCluster(t)
	conf := filepath.Join(c.Dir, "registries.conf")
	if err := os.WriteFile(conf, []byte("unqualified-search-registries = []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	o := StartOLMv1(t, c, version, conf)
	c.Kubectl(t, "create", "namespace", "ext-test")
	c.Kubectl(t, "create", "serviceaccount", "installer", "-n", "ext-test")
	for _, tc := range []struct {
		name, manifest, path, condition string
	}{{
		name: "catalogd reports a ClusterCatalog it cannot pull",
		manifest: `apiVersion: olm.operatorframework.io/v1
kind: ClusterCatalog
metadata: {name: nowhere}
spec: {source: {type: Image, image: {ref: "127.0.0.1:1/none/catalog:latest"}}}
`,
		path:      "/apis/olm.operatorframework.io/v1/clustercatalogs/nowhere",
		condition: "Progressing",
	}, {
		name: "operator-controller reports a ClusterExtension it cannot resolve",
		manifest: `apiVersion: olm.operatorframework.io/v1
kind: ClusterExtension
metadata: {name: nothing}
spec: {namespace: ext-test, serviceAccount: {name: installer}, source: {sourceType: Catalog, catalog: {packageName: nothing}}}
`,
		path:      "/apis/olm.operatorframework.io/v1/clusterextensions/nothing",
		condition: "Progressing",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			applyManifest(t, c, tc.manifest)
			took := c.Eventually(t, 2*time.Minute, tc.name, func(ctx context.Context) (bool, string, error) {
				var obj struct {
					Status struct {
						Conditions []struct{ Type, Status, Reason, Message string }
					} `json:"status"`
				}
				if _, err := c.GetJSON(ctx, tc.path, &obj); err != nil {
					return false, "", err
				}
				for _, cond := range obj.Status.Conditions {
					if cond.Type == tc.condition {
						t.Logf("%s=%s reason %s: %s", cond.Type, cond.Status, cond.Reason, cond.Message)
						return true, "", nil
					}
				}
				return false, fmt.Sprint(obj.Status.Conditions), nil
			})
			t.Logf("%s: %v after the object was applied (%v after start)", tc.name, took.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
		})
	}
	for _, p := range []*Process{o.Catalogd, o.OperatorController} {
		if !p.Running() {
			t.Errorf("%s exited: %s", p.Name, p.Tail(4096))
		}
	}
}
