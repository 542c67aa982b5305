package olmharness

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestE2EOLMv0Starts starts the real olm-operator and catalog-operator on a fresh kube-apiserver and
// checks that each reconciles an object of its own and that both stay up: olm-operator fills an
// OperatorGroup's status.namespaces, catalog-operator reports the connection state of a CatalogSource
// with an address (nothing listens there).
func TestE2EOLMv0Starts(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test: runs kube-apiserver, etcd and OLM v0's controllers; run without -short")
	}
	c := StartCluster(t)
	start := time.Now()
	o := StartOLMv0(t, c, OLMv0Releases[0], nil)
	c.Kubectl(t, "create", "namespace", "og-test")
	for _, tc := range []struct {
		name, manifest, path string
		done                 func(obj map[string]any) (bool, string)
	}{{
		name: "olm-operator fills an OperatorGroup's status.namespaces",
		manifest: `apiVersion: operators.coreos.com/v1
kind: OperatorGroup
metadata: {name: og, namespace: og-test}
spec: {targetNamespaces: [og-test]}
`,
		path: "/apis/operators.coreos.com/v1/namespaces/og-test/operatorgroups/og",
		done: func(obj map[string]any) (bool, string) {
			got := fmt.Sprint(field(obj, "status", "namespaces"))
			return cmp.Diff("[og-test]", got) == "", "status.namespaces " + got
		},
	}, {
		name: "catalog-operator reports a CatalogSource's connection state",
		manifest: `apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata: {name: nowhere, namespace: og-test}
spec: {sourceType: grpc, address: "127.0.0.1:1"}
`,
		path: "/apis/operators.coreos.com/v1alpha1/namespaces/og-test/catalogsources/nowhere",
		done: func(obj map[string]any) (bool, string) {
			state := fmt.Sprint(field(obj, "status", "connectionState", "lastObservedState"))
			addr := fmt.Sprint(field(obj, "status", "connectionState", "address"))
			return addr == "127.0.0.1:1" && state != "" && state != "<nil>", "connectionState " + addr + " " + state
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			applyManifest(t, c, tc.manifest)
			took := c.Eventually(t, 2*time.Minute, tc.name, func(ctx context.Context) (bool, string, error) {
				var obj map[string]any
				if _, err := c.GetJSON(ctx, tc.path, &obj); err != nil {
					return false, "", err
				}
				ok, state := tc.done(obj)
				return ok, state, nil
			})
			t.Logf("%s: %v after the object was applied (%v after start)", tc.name, took.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
		})
	}
	for _, p := range []*Process{o.OLMOperator, o.CatalogOperator} {
		if !p.Running() {
			t.Errorf("%s exited: %s", p.Name, p.Tail(4096))
		}
	}
}

// field returns the value at path in a decoded JSON object, or nil.
func field(obj map[string]any, path ...string) any {
	var v any = obj
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}
