package image

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

func isBlobGet(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/blobs/sha256:")
}

// corruptBlobs serves every blob with its first byte flipped: a registry (or proxy) that lies
// about content.
func corruptBlobs(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isBlobGet(r) {
			next.ServeHTTP(w, r)
			return
		}
		rec := &bufferedResponse{header: http.Header{}, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		body := rec.body.Bytes()
		if len(body) > 0 {
			body[0] ^= 0xff
		}
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.status)
		_, _ = w.Write(body)
	})
}

type bufferedResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedResponse) Header() http.Header         { return b.header }
func (b *bufferedResponse) Write(p []byte) (int, error) { return b.body.Write(p) }
func (b *bufferedResponse) WriteHeader(status int)      { b.status = status }

// TestUnpackFromFaultyRegistry: pulls retry transient failures and refuse content whose digest
// does not match, leaving nothing behind.
func TestUnpackFromFaultyRegistry(t *testing.T) {
	bundle, err := Bundle(t.Context(), bundleDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		wrap    func(http.Handler) http.Handler
		f       *flaky
		wantErr string
	}{
		{name: "500 on blob GETs, then fine", f: &flaky{left: 2, mode: "500", match: isBlobGet}},
		{name: "connection reset on blob GETs, then fine", f: &flaky{left: 2, mode: "reset", match: isBlobGet}},
		{name: "blobs that do not match their digest", wrap: corruptBlobs, wantErr: "error verifying sha256 checksum"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var pushing atomic.Bool
			pushing.Store(true)
			wrap := func(next http.Handler) http.Handler {
				faulty := next
				if tc.f != nil {
					faulty = tc.f.wrap(next)
				}
				if tc.wrap != nil {
					faulty = tc.wrap(next)
				}
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if pushing.Load() {
						next.ServeHTTP(w, r)
						return
					}
					faulty.ServeHTTP(w, r)
				})
			}
			host := newRegistry(t, wrap)
			p, err := NewRegistryPublisher(host+"/demo/bundle:v1", testOptions()...)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Publish(t.Context(), bundle); err != nil {
				t.Fatal(err)
			}
			pushing.Store(false)
			dst := filepath.Join(t.TempDir(), "out")
			_, err = Unpack(t.Context(), host+"/demo/bundle:v1", dst, testOptions()...)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Unpack() error = %v, want it to mention %q", err, tc.wantErr)
				}
				if _, statErr := os.Stat(dst); statErr == nil {
					ents, _ := os.ReadDir(dst)
					if len(ents) > 0 {
						t.Errorf("a refused pull left %d entries in %s", len(ents), dst)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("Unpack() error = %v after %d injected failures", err, tc.f.failed)
			}
			if tc.f.failed == 0 {
				t.Error("the faulty registry never failed a request; the test did not exercise retries")
			}
			data, err := os.ReadFile(filepath.Join(dst, "metadata", "annotations.yaml"))
			if err != nil || !bytes.Contains(data, []byte("operators.operatorframework.io.bundle.package.v1")) {
				t.Errorf("unpacked annotations.yaml = %q, %v", data, err)
			}
		})
	}
}
