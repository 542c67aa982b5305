package image

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// flaky fails the first `left` requests that match with the given mode, then passes requests on.
type flaky struct {
	mu     sync.Mutex
	left   int
	mode   string // "500", "429", "reset"
	match  func(*http.Request) bool
	failed int
}

func (f *flaky) take(r *http.Request) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.left == 0 || (f.match != nil && !f.match(r)) {
		return false
	}
	f.left--
	f.failed++
	return true
}

func (f *flaky) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !f.take(r) {
			next.ServeHTTP(w, r)
			return
		}
		switch f.mode {
		case "429":
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusTooManyRequests)
		case "reset":
			conn, _, err := w.(http.Hijacker).Hijack()
			if err != nil {
				panic(err)
			}
			if tc, ok := conn.(*net.TCPConn); ok {
				tc.SetLinger(0) // RST instead of FIN
			}
			conn.Close()
		default:
			http.Error(w, "flaky", http.StatusInternalServerError)
		}
	})
}

// withSleep replaces the Retry-After wait so tests can see it without waiting.
func withSleep(f func(context.Context, time.Duration) error) Option {
	return func(o *options) { o.sleep = f }
}

func isManifestPut(r *http.Request) bool {
	return r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/manifests/")
}

func isUploadStart(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/blobs/uploads/")
}

func TestPublishRetries(t *testing.T) {
	bundle, err := Bundle(t.Context(), bundleDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		f          *flaky
		wantSleeps []time.Duration
		wantErr    bool
	}{
		{"500 on manifest PUT", &flaky{left: 2, mode: "500", match: isManifestPut}, nil, false},
		{"429 with Retry-After on upload", &flaky{left: 2, mode: "429", match: isUploadStart}, []time.Duration{2 * time.Second, 2 * time.Second}, false},
		{"connection reset", &flaky{left: 2, mode: "reset"}, nil, false},
		{"reset on manifest PUT", &flaky{left: 1, mode: "reset", match: isManifestPut}, nil, false},
		{"500 forever", &flaky{left: -1, mode: "500", match: isManifestPut}, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			host := newRegistry(t, tc.f.wrap)
			var mu sync.Mutex
			var sleeps []time.Duration
			sleep := func(_ context.Context, d time.Duration) error {
				mu.Lock()
				defer mu.Unlock()
				sleeps = append(sleeps, d)
				return nil
			}
			p, err := NewRegistryPublisher(host+"/demo/bundle:v1", testOptions(withSleep(sleep))...)
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.Publish(t.Context(), bundle)
			if tc.wantErr {
				if err == nil || got != "" {
					t.Fatalf("Publish() = %q, %v; want no reference and an error", got, err)
				}
				if tc.f.failed != 3 {
					t.Errorf("attempts = %d, want 3 (WithRetry(3, ...))", tc.f.failed)
				}
				return
			}
			if err != nil {
				t.Fatalf("Publish() error = %v after %d injected failures", err, tc.f.failed)
			}
			if tc.f.failed == 0 || tc.f.left != 0 {
				t.Errorf("injected %d failures, %d left; the flaky wrapper did not fire as planned", tc.f.failed, tc.f.left)
			}
			if d := cmp.Diff(tc.wantSleeps, sleeps); d != "" {
				t.Errorf("Retry-After waits (-want +got):\n%s", d)
			}
		})
	}
}

// TestPublishHonoursTimeout: a registry that keeps answering 503 with a long Retry-After must not
// hold the push past its context's deadline.
func TestPublishHonoursTimeout(t *testing.T) {
	host := newRegistry(t, (&flaky{left: -1, mode: "429"}).wrap)
	bundle, err := Bundle(t.Context(), bundleDir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	p, err := NewRegistryPublisher(host+"/demo/bundle:v1", testOptions(WithRetry(5, 10*time.Millisecond))...)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := p.Publish(ctx, bundle)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Publish() error = %v, want the deadline", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Publish() ignored its context deadline")
	}
}

func TestPlainHTTPGuard(t *testing.T) {
	inner := roundTripFunc(func(*http.Request) (*http.Response, error) { return &http.Response{StatusCode: 200}, nil })
	for _, tc := range []struct {
		url      string
		insecure bool
		wantErr  bool
	}{
		{"http://127.0.0.1:5000/v2/", false, false},
		{"http://127.0.0.2:5000/v2/", false, false},
		{"http://localhost/v2/", false, false},
		{"http://[::1]:5000/v2/", false, false},
		{"http://10.1.2.3:5000/v2/", false, true},
		{"http://192.168.0.10/v2/", false, true},
		{"http://registry.example.com/v2/", false, true},
		{"http://registry.example.com/v2/", true, false},
		{"https://registry.example.com/v2/", false, false},
	} {
		t.Run(tc.url, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, tc.url, nil)
			g := &plainHTTPGuard{insecure: tc.insecure, inner: inner}
			_, err := g.RoundTrip(req)
			if (err != nil) != tc.wantErr {
				t.Errorf("RoundTrip() error = %v, want error: %v", err, tc.wantErr)
			}
			if err != nil && !strings.Contains(err.Error(), "--insecure") {
				t.Errorf("error %q does not name --insecure", err)
			}
		})
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		in     string
		want   time.Duration
		wantOK bool
	}{
		{"", 0, false},
		{"7", 7 * time.Second, true},
		{"-3", 0, true},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{"soon", 0, false},
	} {
		got, ok := parseRetryAfter(tc.in, now)
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.wantOK)
		}
	}
}
