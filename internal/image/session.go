package image

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// session is what the registry calls of one operation share: one HTTP transport (its connections
// are reused), go-containerregistry's puller and pusher (the token and ping of each repository are
// reused), and which repositories serve the referrers API.
type session struct {
	rt     http.RoundTripper
	puller *remote.Puller
	pusher *remote.Pusher
	mu     sync.Mutex
	// noReferrers are the repositories whose registry answered that it serves no referrers API.
	noReferrers map[string]bool
	// resolved are the digest references whose manifest was read (and checked) in the session.
	resolved map[string]v1.Hash
}

// Session returns opts with a session added: every registry call made with the result shares
// connections, authentication and what the registry answered about the referrers API, instead of
// each starting afresh (a signature's attach, read-back and verification are a dozen calls to one
// repository). It is bound to ctx.
func Session(ctx context.Context, opts ...Option) ([]Option, error) {
	o := makeOptions(opts...)
	if o.session != nil {
		return opts, nil
	}
	s := &session{rt: o.httpTransport(), noReferrers: map[string]bool{}, resolved: map[string]v1.Hash{}}
	o.session = s
	ro := o.remoteOptions(ctx)
	var err error
	if s.puller, err = remote.NewPuller(ro...); err != nil {
		return nil, fmt.Errorf("opening a registry session: %w", err)
	}
	if s.pusher, err = remote.NewPusher(ro...); err != nil {
		return nil, fmt.Errorf("opening a registry session: %w", err)
	}
	return append(append([]Option(nil), opts...), func(o *options) { o.session = s }), nil
}

// Pushing records in the session of opts that ref (REPO@DIGEST) names that digest: the image is
// being pushed by this operation, so reading what is attached to it needs no request for the image
// itself (which may not be in the registry yet). It does nothing without a session.
func Pushing(opts []Option, ref string) error {
	o := makeOptions(opts...)
	if o.session == nil {
		return nil
	}
	d, err := name.NewDigest(ref)
	if err != nil {
		return err
	}
	h, err := v1.NewHash(d.DigestStr())
	if err != nil {
		return err
	}
	o.session.mu.Lock()
	defer o.session.mu.Unlock()
	o.session.resolved[ref] = h
	return nil
}

// NoReferrers reports whether the session of opts found that the registry of ref's repository
// serves no OCI referrers API (false when it does, or has not been asked yet).
func NoReferrers(opts []Option, ref string) bool {
	o := makeOptions(opts...)
	r, err := name.ParseReference(ref)
	if o.session == nil || err != nil {
		return false
	}
	o.session.mu.Lock()
	defer o.session.mu.Unlock()
	return o.session.noReferrers[r.Context().Name()]
}
