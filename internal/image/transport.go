package image

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/opack/opack/internal/version"
)

// retryStatusCodes are the HTTP statuses retried with backoff.
var retryStatusCodes = []int{
	http.StatusRequestTimeout, http.StatusTooManyRequests, http.StatusInternalServerError,
	http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout,
}

// maxRetryAfter caps how long a Retry-After header can make a request wait.
const maxRetryAfter = time.Minute

// remoteOptions returns the go-containerregistry options for every registry call.
func (o *options) remoteOptions(ctx context.Context) []remote.Option {
	ro := []remote.Option{
		remote.WithContext(ctx),
		remote.WithAuthFromKeychain(o.keychain),
		remote.WithTransport(o.httpTransport()),
		remote.WithRetryBackoff(o.backoff),
		remote.WithRetryPredicate(o.retryable(ctx)),
		remote.WithRetryStatusCodes(retryStatusCodes...),
		remote.WithUserAgent(version.Builder()),
	}
	if s := o.session; s != nil && s.puller != nil {
		ro = append(ro, remote.Reuse(s.puller), remote.Reuse(s.pusher))
	}
	return ro
}

// httpTransport is the base transport wrapped in the plain-HTTP guard and the Retry-After delay;
// go-containerregistry adds auth and retries on top.
func (o *options) httpTransport() http.RoundTripper {
	if o.session != nil && o.session.rt != nil {
		return o.session.rt
	}
	base := o.transport
	if base == nil {
		t, ok := remote.DefaultTransport.(*http.Transport)
		if !ok {
			t = http.DefaultTransport.(*http.Transport)
		}
		t = t.Clone()
		if o.insecure {
			t.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // --insecure asks for it
		}
		base = t
	}
	return &plainHTTPGuard{insecure: o.insecure, inner: &digestCheck{inner: &retryAfterDelay{inner: base, sleep: o.sleep}}}
}

// plainHTTPGuard refuses plain-HTTP requests to hosts that are not loopback unless insecure is set.
// go-containerregistry would otherwise fall back to HTTP for RFC 1918 addresses.
type plainHTTPGuard struct {
	insecure bool
	inner    http.RoundTripper
}

func (g *plainHTTPGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme == "http" && !g.insecure && !isLoopback(req.URL.Host) {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, fmt.Errorf("refusing plain HTTP to %s: only loopback registries are used without TLS; pass --insecure to allow it", req.URL.Host)
	}
	return g.inner.RoundTrip(req)
}

// retryAfterDelay waits as long as a 429 or 503 response's Retry-After header asks (capped, and
// never past the request's context) before handing the response up to the retrying layer.
type retryAfterDelay struct {
	inner http.RoundTripper
	sleep func(context.Context, time.Duration) error
}

func (r *retryAfterDelay) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.inner.RoundTrip(req)
	if err != nil || (resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable) {
		return resp, err
	}
	if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
		_ = r.sleep(req.Context(), min(d, maxRetryAfter)) // a cancelled context fails the next request
	}
	return resp, nil
}

// parseRetryAfter reads a Retry-After value: delay-seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(v); err == nil {
		return time.Duration(max(s, 0)) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// retryable reports whether a failed registry call is worth another attempt: temporary registry
// errors and dropped connections, as long as ctx (which carries --timeout) is still alive.
func (o *options) retryable(ctx context.Context) func(error) bool {
	return func(err error) bool {
		if err == nil || ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return false
		}
		var temp interface{ Temporary() bool }
		if (errors.As(err, &temp) && temp.Temporary()) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
			errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, net.ErrClosed) {
			fmt.Fprintf(o.log, "retrying after: %v\n", err)
			return true
		}
		return false
	}
}

// deadline adds the context's error to err when the context ended (usually --timeout), so the
// message says why retrying stopped.
func deadline(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		return fmt.Errorf("%w (gave up: %w)", err, cerr)
	}
	return err
}

// digestCheck fails a manifest PUT whose response names another digest (Docker-Content-Digest)
// than the manifest sent: the registry stored something else, so the push did not happen as
// reported. go-containerregistry, like crane, does not look at the header.
type digestCheck struct{ inner http.RoundTripper }

func (d *digestCheck) RoundTrip(req *http.Request) (*http.Response, error) {
	var sent v1.Hash
	if req.Method == http.MethodPut && strings.Contains(req.URL.Path, "/manifests/") && req.GetBody != nil {
		if body, err := req.GetBody(); err == nil {
			sent, _, _ = v1.SHA256(body)
			body.Close()
		}
	}
	resp, err := d.inner.RoundTrip(req)
	if err != nil || sent.Hex == "" || resp.StatusCode/100 != 2 {
		return resp, err
	}
	if got := resp.Header.Get("Docker-Content-Digest"); got != "" && got != sent.String() {
		resp.Body.Close()
		return nil, &DigestMismatchError{URL: req.URL.Redacted(), Sent: sent.String(), Got: got}
	}
	return resp, nil
}

// DigestMismatchError is a registry that acknowledged a manifest under another digest.
type DigestMismatchError struct{ URL, Sent, Got string }

func (e *DigestMismatchError) Error() string {
	return fmt.Sprintf("PUT %s: the registry answered with digest %s, not the digest of the manifest sent (%s): it did not store what was pushed; nothing is reported as pushed", e.URL, e.Got, e.Sent)
}
