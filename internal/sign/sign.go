package sign

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"sync"

	"github.com/google/go-containerregistry/pkg/name"
	"go.podman.io/image/v5/docker/reference"

	"github.com/opack/opack/internal/image"
)

// Request is one image to sign.
type Request struct {
	// Image names the image by digest: REPO@sha256:...
	Image string
	// Identity is the reference the signature claims: REPO:TAG when the image is published under a
	// tag (what containers/image's default signedIdentity, matchRepoDigestOrExact, accepts for a
	// pull by tag and by digest); empty: the repository.
	Identity string
	// Attestations are signed and attached too (cosign attest's format).
	Attestations []Statement
	// Ready, when set, blocks until the image is in the registry and says whether its push failed:
	// Sign then writes the attachments while the image is pushed (their tags need only its digest),
	// and reads them back, or pushes OCI 1.1 referrers (whose subject must exist), only after it.
	// The options must carry an image.Session on which image.Pushing recorded the image.
	Ready func() error
}

// Signed is what Sign wrote and read back.
type Signed struct {
	Image    string `json:"image"`
	Identity string `json:"identity"`
	// Signature and Attestation are the tags of the attachments; SignatureReferrer and
	// AttestationReferrer the OCI 1.1 referrers, where the registry serves the API.
	Signature           string   `json:"signature"`
	SignatureReferrer   string   `json:"signatureReferrer,omitempty"`
	Attestation         string   `json:"attestation,omitempty"`
	AttestationReferrer string   `json:"attestationReferrer,omitempty"`
	Predicates          []string `json:"predicates,omitempty"`
	Key                 string   `json:"key"`
}

// Sign signs the image of req with s: the simple-signing payload of its digest and identity (the
// same bytes for the same image and reference, whatever the run), attached as cosign and
// containers/image attach it, and its attestations; then reads every attachment back from the
// registry and verifies it with s's verifier, and only then reports it signed. Signing an image
// again with the same key adds nothing when the key's signature verifies already (ECDSA
// signatures differ each time: a rebuild does not pile them up). opts are the registry options
// of the push (credentials, retries, --insecure).
func Sign(ctx context.Context, s Signer, req Request, opts ...image.Option) (*Signed, error) {
	d, err := name.NewDigest(req.Image)
	if err != nil {
		return nil, fmt.Errorf("signing %q: name the image by digest: %w", req.Image, err)
	}
	identity := req.Identity
	if identity == "" {
		identity = d.Context().Name()
	}
	if err := sameRepository(d, identity); err != nil {
		return nil, err
	}
	out := &Signed{Image: req.Image, Identity: identity, Key: s.String()}
	if opts, err = image.Session(ctx, opts...); err != nil {
		return nil, err
	}
	puller := image.NewPuller(opts...)
	ready := readyOnce(req.Ready)
	// The signature and the attestations go to tags of their own: both at once.
	var wg sync.WaitGroup
	var attErr error
	if len(req.Attestations) > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out.Attestation, out.AttestationReferrer, attErr = attestImage(ctx, s, d, req.Attestations, puller, opts, ready)
		}()
		for _, st := range req.Attestations {
			out.Predicates = append(out.Predicates, st.PredicateType)
		}
	}
	out.Signature, out.SignatureReferrer, err = signImage(ctx, s, d, identity, puller, opts, ready)
	wg.Wait()
	if err = errors.Join(err, attErr); err != nil {
		return nil, err
	}
	return out, nil
}

// attestImage attaches the statements of d not attached and verified already, and reads them back.
func attestImage(ctx context.Context, s Signer, d name.Digest, sts []Statement, puller image.Puller, opts []image.Option, ready func() error) (string, string, error) {
	v := s.Verifier()
	have, err := VerifyAttestations(ctx, puller, d.Name(), d.DigestStr(), []Verifier{v})
	if err != nil {
		return "", "", fmt.Errorf("reading the attestations of %s: %w", d, err)
	}
	var layers []image.AttachedLayer
	for _, st := range sts {
		if attested(have, st) {
			continue
		}
		l, err := attestationLayer(ctx, s, st)
		if err != nil {
			return "", "", err
		}
		layers = append(layers, l)
	}
	if len(layers) == 0 {
		tag, ref := attachments(have)
		return tag, ref, ready()
	}
	if err := readyForReferrers(d, opts, ready); err != nil {
		return "", "", err
	}
	at, err := image.Attach(ctx, d.Name(), image.AttachAttestations, layers, opts...)
	if err != nil {
		return "", "", fmt.Errorf("attaching the attestations of %s: %w", d, err)
	}
	if err := ready(); err != nil {
		return "", "", err
	}
	if err := readBackAttestations(ctx, puller, d, v, sts, at.Referrer != ""); err != nil {
		return "", "", err
	}
	return at.Tag, at.Referrer, nil
}

// attested reports whether the verified attestations hold st on the tag.
func attested(have []AttestationCheck, st Statement) bool {
	for _, c := range have {
		if c.Accepted && !c.Referrer && c.PredicateType == st.PredicateType && string(c.Statement) == string(st.Data) {
			return true
		}
	}
	return false
}

// attachments are the tag and the referrer the accepted attestations were found on.
func attachments(have []AttestationCheck) (tag, ref string) {
	for _, c := range have {
		switch {
		case !c.Accepted:
		case c.Referrer && ref == "":
			ref = c.Attachment
		case !c.Referrer && tag == "":
			tag = c.Attachment
		}
	}
	return tag, ref
}

// signImage attaches the signature of d (unless s's verifies already) and reads it back.
func signImage(ctx context.Context, s Signer, d name.Digest, identity string, puller image.Puller, opts []image.Option, ready func() error) (string, string, error) {
	payload, err := SimpleSigning(identity, d.DigestStr())
	if err != nil {
		return "", "", err
	}
	v := s.Verifier()
	if tag, ref, ok := alreadySigned(ctx, puller, d, identity, v); ok {
		return tag, ref, ready()
	}
	sig, ann, err := s.Sign(ctx, payload)
	if err != nil {
		return "", "", err
	}
	annotations := map[string]string{SignatureAnnotation: base64.StdEncoding.EncodeToString(sig)}
	for k, val := range ann {
		annotations[k] = val
	}
	layer := image.AttachedLayer{MediaType: SimpleSigningMediaType, Annotations: annotations, Data: payload}
	if err := readyForReferrers(d, opts, ready); err != nil {
		return "", "", err
	}
	at, err := image.Attach(ctx, d.Name(), image.AttachSignatures, []image.AttachedLayer{layer}, opts...)
	if err != nil {
		return "", "", fmt.Errorf("attaching the signature of %s: %w", d, err)
	}
	if err := ready(); err != nil {
		return "", "", err
	}
	if err := readBack(ctx, puller, d, identity, v, at.Referrer != ""); err != nil {
		return "", "", err
	}
	return at.Tag, at.Referrer, nil
}

// alreadySigned reports whether the registry holds a signature of d claiming identity that v
// verifies (on the tag, and as a referrer where the registry serves them).
func alreadySigned(ctx context.Context, puller image.Puller, d name.Digest, identity string, v Verifier) (string, string, bool) {
	res, err := verifyWith(ctx, puller, d, v)
	if err != nil {
		return "", "", false
	}
	var tag, ref string
	for _, c := range res.Signatures {
		if c.Accepted && c.Identity == identity {
			if c.Referrer {
				ref = c.Attachment
			} else {
				tag = c.Attachment
			}
		}
	}
	return tag, ref, tag != ""
}

// readBack verifies, from the registry, that the signature of d claiming identity verifies with
// v, on the tag and (when one was pushed) as a referrer.
func readBack(ctx context.Context, puller image.Puller, d name.Digest, identity string, v Verifier, referrer bool) error {
	res, err := verifyWith(ctx, puller, d, v)
	if err != nil {
		return fmt.Errorf("reading the signature of %s back: %w", d, err)
	}
	onTag, onRef := false, false
	for _, c := range res.Signatures {
		if c.Accepted && c.Identity == identity {
			onTag = onTag || !c.Referrer
			onRef = onRef || c.Referrer
		}
	}
	switch {
	case !onTag:
		return fmt.Errorf("the signature of %s pushed, but the registry does not serve it back on %s (%s): not signed", d, image.AttachSignatures, res.Reason)
	case referrer && !onRef:
		return fmt.Errorf("the signature referrer of %s pushed, but the registry's referrers API does not list it: not signed", d)
	}
	return nil
}

func verifyWith(ctx context.Context, puller image.Puller, d name.Digest, v Verifier) (*Result, error) {
	p := &Policy{Default: []Requirement{{Type: ReqSigstoreSigned, Keys: []Verifier{v}, Identity: Identity{Type: IdentityMatchRepository}}}}
	return Verify(ctx, puller, d.Name(), p)
}

func readBackAttestations(ctx context.Context, puller image.Puller, d name.Digest, v Verifier, want []Statement, referrer bool) error {
	checks, err := VerifyAttestations(ctx, puller, d.Name(), d.DigestStr(), []Verifier{v})
	if err != nil {
		return fmt.Errorf("reading the attestations of %s back: %w", d, err)
	}
	for _, st := range want {
		onTag, onRef := false, false
		for _, c := range checks {
			if c.Accepted && c.PredicateType == st.PredicateType && string(c.Statement) == string(st.Data) {
				onTag = onTag || !c.Referrer
				onRef = onRef || c.Referrer
			}
		}
		if !onTag || (referrer && !onRef) {
			return fmt.Errorf("the %s attestation of %s pushed, but the registry does not serve it back verified: not attested", st.PredicateType, d)
		}
	}
	return nil
}

// sameRepository refuses an identity naming another repository than the image's: a node would
// refuse the signature.
func sameRepository(d name.Digest, identity string) error {
	id, err := reference.ParseNormalizedNamed(identity)
	if err != nil {
		return fmt.Errorf("signing identity %q: %w", identity, err)
	}
	img := mustNamed(d)
	if id.Name() != img.Name() {
		return fmt.Errorf("signing %s as %s: a signature claims the repository the image is published in", d, identity)
	}
	return nil
}

func mustNamed(d name.Digest) reference.Named {
	n, err := PolicyReference(d.Name())
	if err != nil {
		return nil
	}
	return n
}

// readyOnce makes Request.Ready safe to call from both chains, as often as they need; nil is
// always ready.
func readyOnce(ready func() error) func() error {
	if ready == nil {
		return func() error { return nil }
	}
	return sync.OnceValue(ready)
}

// readyForReferrers waits for the image before an attachment that may be pushed as an OCI 1.1
// referrer (whose subject the registry must hold): unless the session found that its registry
// serves no referrers API, a tag alone is written and the wait comes after.
func readyForReferrers(d name.Digest, opts []image.Option, ready func() error) error {
	if image.NoReferrers(opts, d.Name()) {
		return nil
	}
	return ready()
}
