package emit

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/sign"
)

func testPublicKey(t *testing.T) string {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	pem, err := sign.PublicKeyPEM(&k.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem)
}

func TestRenderImagePolicy(t *testing.T) {
	key := testPublicKey(t)
	spec := Spec{Package: "memcached-operator", ImagePolicy: &ImagePolicy{Entries: []PolicyEntry{
		{Name: "memcached-operator", Scopes: []string{"quay.io/example/memcached-operator-bundle", "quay.io/example/memcached-operator-catalog"}, PublicKey: key},
		{Name: "memcached-operator-trust-1", Scopes: []string{"docker.io/example"}, PublicKey: key, MatchPolicy: MatchRepository},
	}}}
	files, err := Render(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	want := []string{
		"imagepolicy-nodes/policy.json", "imagepolicy-nodes/memcached-operator.yaml",
		"imagepolicy-openshift/memcached-operator.yaml", "imagepolicy-openshift/memcached-operator-trust-1.yaml", "imagepolicy-openshift/kustomization.yaml",
		"imagepolicy-sigstore/memcached-operator.yaml", "imagepolicy-sigstore/memcached-operator-trust-1.yaml", "imagepolicy-sigstore/kustomization.yaml",
	}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Fatalf("files (-want +got):\n%s", diff)
	}
	// The nodes' policy reads back as the policy opack verify --policy enforces.
	p, err := sign.ParsePolicy(files[0].Data, "policy.json")
	if err != nil {
		t.Fatal(err)
	}
	for ref, scope := range map[string]string{
		"quay.io/example/memcached-operator-bundle@sha256:" + strings.Repeat("a", 64): "quay.io/example/memcached-operator-bundle",
		"docker.io/example/memcached:v1":                                              "docker.io/example",
		"quay.io/other/x:v1":                                                          "",
	} {
		named, _ := sign.PolicyReference(ref)
		got, reqs, _ := p.Lookup(named)
		if got != scope || (scope != "") != sign.Verifies(reqs) {
			t.Errorf("policy.json: %s falls in scope %q (verifies %v), want %q", ref, got, sign.Verifies(reqs), scope)
		}
	}
	sig := string(files[5].Data)
	for _, g := range []string{"glob: quay.io/example/memcached-operator-bundle@*\n", "glob: quay.io/example/memcached-operator-bundle:*\n"} {
		if !strings.Contains(sig, g) {
			t.Errorf("policy-controller policy lacks glob %s:\n%s", g, sig)
		}
	}
	if !strings.Contains(string(files[6].Data), "glob: index.docker.io/example/**\n") {
		t.Errorf("a docker.io scope is not globbed as policy-controller names Docker Hub images:\n%s", files[6].Data)
	}
}

// TestRenderImagePolicyRefusesWhatTheAPIServerRefuses: OpenShift's CRD validates scopes with CEL;
// the same rules run before anything is written.
func TestRenderImagePolicyRefusesWhatTheAPIServerRefuses(t *testing.T) {
	spec := Spec{Package: "p", ImagePolicy: &ImagePolicy{Entries: []PolicyEntry{{Name: "p", Scopes: []string{"bundle"}, PublicKey: testPublicKey(t)}}}}
	_, err := Render(context.Background(), spec)
	if err == nil || !strings.Contains(err.Error(), "fully qualified domain name") {
		t.Errorf("Render with scope %q = %v, want the CRD's CEL refusal", "bundle", err)
	}
}
