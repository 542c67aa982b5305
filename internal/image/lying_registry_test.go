package image

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

// TestPushToLyingRegistry: a registry that lies about a push. One that answers a manifest PUT
// with another Docker-Content-Digest fails the push (always); a registry that acknowledges blob
// uploads and drops them is caught by the opt-in WithVerify (--verify), which reads everything
// back by digest. Without --verify such a push is reported, as crane reports it.
func TestPushToLyingRegistry(t *testing.T) {
	img, err := Bundle(t.Context(), bundleDir)
	if err != nil {
		t.Fatal(err)
	}
	wrongDigest := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/manifests/") {
				w = &headerOverride{ResponseWriter: w, key: "Docker-Content-Digest", value: "sha256:" + strings.Repeat("0", 64)}
			}
			next.ServeHTTP(w, r)
		})
	}
	dropBlobs := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/blobs/uploads/") {
				w.Header().Set("Docker-Content-Digest", r.URL.Query().Get("digest"))
				w.WriteHeader(http.StatusCreated)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	for _, tc := range []struct {
		name    string
		wrap    func(http.Handler) http.Handler
		verify  bool
		wantErr string
	}{
		{name: "honest", wrap: nil, verify: true},
		{name: "wrong digest header", wrap: wrongDigest, wantErr: "not the digest of the manifest sent"},
		{name: "blobs dropped, not verified", wrap: dropBlobs},
		{name: "blobs dropped, verified", wrap: dropBlobs, verify: true, wantErr: "verifying the push"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			host := newRegistry(t, tc.wrap)
			p, err := NewRegistryPublisher(host+"/demo/bundle:v1", testOptions(WithVerify(tc.verify), WithRetry(1, 0))...)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := p.Publish(t.Context(), img)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("Publish() error = %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || ref != "" {
				t.Fatalf("Publish() = %q, %v; want no reference and an error containing %q", ref, err, tc.wantErr)
			}
			var dm *DigestMismatchError
			if tc.wrap == nil && errors.As(err, &dm) {
				t.Errorf("honest registry reported a digest mismatch")
			}
		})
	}
}

// headerOverride sets one response header just before the status is written.
type headerOverride struct {
	http.ResponseWriter
	key, value string
}

func (h *headerOverride) WriteHeader(status int) {
	h.Header().Set(h.key, h.value)
	h.ResponseWriter.WriteHeader(status)
}
