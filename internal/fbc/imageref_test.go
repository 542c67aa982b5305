package fbc

import (
	"testing"

	"go.podman.io/image/v5/docker/reference"
)

// TestSimpleImageRef checks that every reference the fast scanner accepts is valid for opm's
// parser, on references of the goldens and tricky ones.
func TestSimpleImageRef(t *testing.T) {
	refs := []string{
		"quay.io/operator-framework/foo-bundle:v0.1.0", "registry.connect.redhat.com/kubecost/kubecost-operator-manager@sha256:4036cfdc12ba9e18be6ebbd9b091217b5f500c832d7cda2e28903b90274aec06",
		"localhost:5000/a/b:latest", "example.com/a__b/c---d/e.f:tag_1.2-3", "Example.com/a:1", "example.com/A:1", "example.com/a..b:1",
		"example.com/a._b:1", "example.com/a___b:1", "example.com/-a:1", "example.com/a-:1", "example.com/a:", "example.com/a:-x",
		"example.com/a@sha256:abc", "example.com/a@md5:abcd1234abcd1234abcd1234abcd1234", "foo-bundle:v0.1.0", "example.com:/a",
		"example.com/a:b@sha256:4036cfdc12ba9e18be6ebbd9b091217b5f500c832d7cda2e28903b90274aec06", "-example.com/a", "exa_mple.com/a",
	}
	for _, r := range refs {
		_, err := reference.ParseNormalizedNamed(r)
		if simpleImageRef(r) && err != nil {
			t.Errorf("fast scanner accepts %q, which opm refuses: %v", r, err)
		}
		if got := parseImageRef(r); (got == nil) != (err == nil) {
			t.Errorf("parseImageRef(%q) = %v, opm says %v", r, got, err)
		}
	}
}
