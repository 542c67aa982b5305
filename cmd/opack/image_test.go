package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/opack/opack/internal/image"
)

const (
	imageBundleDir  = "../../testdata/image/memcached-bundle"
	imageCatalogDir = "../../testdata/image/fbc-list-index"
)

// imageRegistry starts an in-process registry (behind wrap when set) with an empty docker config.
func imageRegistry(t *testing.T, wrap func(http.Handler) http.Handler) string {
	t.Helper()
	t.Setenv("DOCKER_CONFIG", t.TempDir())
	var h http.Handler = registry.New(registry.Logger(log.New(io.Discard, "", 0)))
	if wrap != nil {
		h = wrap(h)
	}
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	u, _ := url.Parse(s.URL)
	return u.Host
}

func runImage(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func registryDigest(t *testing.T, ref string) string {
	t.Helper()
	r, err := name.ParseReference(ref, name.Insecure)
	if err != nil {
		t.Fatal(err)
	}
	d, err := remote.Head(r)
	if err != nil {
		t.Fatal(err)
	}
	return d.Digest.String()
}

func TestImagePushPrintsOnlyTheDigestRef(t *testing.T) {
	host := imageRegistry(t, nil)
	for _, tc := range []struct {
		name string
		args []string
		tag  string
	}{
		{"bundle", []string{"image", "bundle", imageBundleDir}, host + "/demo/bundle:v0.0.1"},
		{"catalog", []string{"image", "catalog", imageCatalogDir, "--platform", "linux/amd64,linux/arm64"}, host + "/demo/catalog:latest"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runImage(append(tc.args, "--tag", tc.tag)...)
			if code != 0 {
				t.Fatalf("exit %d, stderr:\n%s", code, stderr)
			}
			repo := tc.tag[:strings.LastIndex(tc.tag, ":")]
			if want := repo + "@" + registryDigest(t, tc.tag) + "\n"; stdout != want {
				t.Errorf("stdout = %q, want %q", stdout, want)
			}
			if stderr != "" {
				t.Errorf("stderr = %q, want nothing without -v", stderr)
			}
		})
	}
}

func TestImageLayoutAndInspect(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	dir := filepath.Join(t.TempDir(), "oci")
	code, stdout, stderr := runImage("image", "bundle", imageBundleDir, "--tag", "example.com/bundle:v1", "--oci-layout", dir)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	ref := strings.TrimSpace(stdout)
	if !strings.HasPrefix(ref, "oci:"+dir+"@sha256:") {
		t.Fatalf("stdout = %q, want oci:%s@sha256:...", stdout, dir)
	}
	for _, arg := range []string{ref, "oci:" + dir + ":v1"} {
		code, stdout, stderr = runImage("image", "inspect", arg, "-o", "json")
		if code != 0 {
			t.Fatalf("inspect exit %d, stderr:\n%s", code, stderr)
		}
		var r image.Report
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatal(err)
		}
		if "oci:"+dir+"@"+r.Digest != ref || r.Images[0].Created != "2023-11-14T22:13:20Z" {
			t.Errorf("inspect %s: digest %s created %s", arg, r.Digest, r.Images[0].Created)
		}
	}
	code, stdout, _ = runImage("image", "inspect", ref)
	if code != 0 || !strings.Contains(stdout, "operators.operatorframework.io.bundle.package.v1=memcached-operator") {
		t.Errorf("inspect text: exit %d, stdout:\n%s", code, stdout)
	}
}

func TestImageFailuresPrintNoDigest(t *testing.T) {
	forbidManifests := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/manifests/") {
				http.Error(w, `{"errors":[{"code":"DENIED","message":"no"}]}`, http.StatusForbidden)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	host := imageRegistry(t, forbidManifests)
	for _, tc := range []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"push refused", []string{"image", "bundle", imageBundleDir, "--tag", host + "/demo/bundle:v1"}, exitUsage, "pushing " + host + "/demo/bundle:v1"},
		{"registry down", []string{"image", "bundle", imageBundleDir, "--tag", "127.0.0.1:1/demo/bundle:v1"}, exitUsage, "connection refused"},
		{"no tag", []string{"image", "bundle", imageBundleDir}, exitUsage, "--tag is required"},
		{"two outputs", []string{"image", "bundle", imageBundleDir, "--tag", "x/y:z", "--oci-layout", "a", "--tarball", "b"}, exitUsage, "none of the others can be"},
		{"bad label", []string{"image", "bundle", imageBundleDir, "--tag", "x/y:z", "--label", "novalue"}, exitUsage, "want key=value"},
		{"bad platform", []string{"image", "catalog", imageCatalogDir, "--tag", "x/y:z", "--platform", "a/b/c/d"}, exitUsage, "--platform"},
		{"bad output", []string{"image", "inspect", "x/y:z", "-o", "yaml"}, exitUsage, `unknown output format "yaml": use one of text, json`},
		{"missing bundle", []string{"image", "bundle", "nope", "--oci-layout", t.TempDir()}, exitUsage, "reading bundle annotations"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runImage(tc.args...)
			if code != tc.wantCode || stdout != "" || !strings.Contains(stderr, tc.wantErr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, no stdout, stderr containing %q", code, stdout, stderr, tc.wantCode, tc.wantErr)
			}
		})
	}
}

func TestSourceDateEpoch(t *testing.T) {
	if _, err := sourceDateEpoch("yesterday"); err == nil || !strings.Contains(err.Error(), "SOURCE_DATE_EPOCH") {
		t.Errorf("sourceDateEpoch(yesterday) error = %v", err)
	}
	got, err := sourceDateEpoch("")
	if err != nil || got.Unix() != 0 {
		t.Errorf("sourceDateEpoch(\"\") = %v, %v; want the epoch", got, err)
	}
}
