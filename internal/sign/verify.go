package sign

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"go.podman.io/image/v5/docker/reference"

	"github.com/opack/opack/internal/image"
)

// Problem classifies why an image is not accepted.
type Problem string

// Problems.
const (
	// ProblemUnsigned: no signature at all.
	ProblemUnsigned Problem = "unsigned"
	// ProblemUntrusted: signatures, none by a key the policy trusts, or altered since signed.
	ProblemUntrusted Problem = "untrusted"
	// ProblemMismatch: a trusted signature, for another image (digest) or another reference
	// (identity): a signature copied onto another image, or an image re-tagged elsewhere.
	ProblemMismatch Problem = "mismatch"
	// ProblemRejected: the policy rejects every image of the scope.
	ProblemRejected Problem = "rejected"
)

// SignatureCheck is one signature found for an image and what became of it.
type SignatureCheck struct {
	// Attachment is where it was found (REPO:sha256-<hex>.sig or a referrer REPO@sha256:...).
	Attachment string `json:"attachment"`
	Referrer   bool   `json:"referrer,omitempty"`
	// Key is the key that verified it; Identity and Digest what it claims (once verified).
	Key      string `json:"key,omitempty"`
	Identity string `json:"identity,omitempty"`
	Digest   string `json:"digest,omitempty"`
	Accepted bool   `json:"accepted"`
	Reason   string `json:"reason,omitempty"`
	problem  Problem
	layer    image.AttachedLayer
}

// Result is what Verify found for one image.
type Result struct {
	// Image is the reference as given; Digest the manifest digest it resolves to.
	Image  string `json:"image"`
	Digest string `json:"digest,omitempty"`
	// Scope is the policy scope that applied ("" for the default) and Requirements its types.
	Scope        string   `json:"scope"`
	Requirements []string `json:"requirements"`
	// Verified is true when every requirement is met; Problem and Reason say why not.
	Verified     bool               `json:"verified"`
	Problem      Problem            `json:"problem,omitempty"`
	Reason       string             `json:"reason,omitempty"`
	Signatures   []SignatureCheck   `json:"signatures"`
	Attestations []AttestationCheck `json:"attestations,omitempty"`
}

// Verify checks the image ref against policy as a node's containers/image does with
// use-sigstore-attachments: the signatures attached to the manifest ref resolves to (the
// sha256-<hex>.sig tag, and referrers where the registry serves them) are read through images,
// each verified with the keys of the scope's sigstoreSigned requirements, its payload read
// strictly, its digest compared with the manifest's and its identity with ref by the requirement's
// signedIdentity. An error is returned only when the image or its signatures cannot be read.
func Verify(ctx context.Context, images image.Puller, ref string, policy *Policy) (*Result, error) {
	named, err := PolicyReference(ref)
	if err != nil {
		return nil, err
	}
	scope, reqs, err := policy.Lookup(named)
	if err != nil {
		return nil, err
	}
	res := &Result{Image: ref, Scope: scope, Signatures: []SignatureCheck{}}
	for _, r := range reqs {
		res.Requirements = append(res.Requirements, r.Type)
	}
	atts, err := images.Attachments(ctx, ref, image.AttachSignatures)
	if err != nil {
		return nil, err
	}
	res.Digest = atts.Digest
	sigs := signaturesOf(atts)
	res.Verified = true
	for _, req := range reqs {
		for _, s := range sigs {
			s.Accepted, s.problem, s.Reason, s.Key, s.Identity, s.Digest = false, "", "", "", "", ""
		}
		if ok, problem, reason := req.check(named, atts.Digest, sigs); !ok {
			res.Verified, res.Problem, res.Reason = false, problem, reason
			break
		}
	}
	for _, s := range sigs {
		res.Signatures = append(res.Signatures, *s)
	}
	return res, nil
}

// PolicyReference reads ref as containers/image names the image for its policy: normalized
// (docker.io/library/...), :latest when it has neither tag nor digest, and the digest alone when it
// has both (as CRI-O pulls such a reference).
func PolicyReference(ref string) (reference.Named, error) {
	if image.IsLocalRef(ref) {
		return nil, fmt.Errorf("%s: signatures are checked on images in a registry, named as a node pulls them", ref)
	}
	named, err := reference.ParseNormalizedNamed(ref)
	if err != nil {
		return nil, fmt.Errorf("parsing %q: %w", ref, err)
	}
	if c, ok := named.(reference.Canonical); ok {
		if _, tagged := named.(reference.NamedTagged); tagged {
			return reference.WithDigest(reference.TrimNamed(named), c.Digest())
		}
		return named, nil
	}
	return reference.TagNameOnly(named), nil
}

// signaturesOf lists one SignatureCheck per signature layer of the attachments.
func signaturesOf(atts *image.Attachments) []*SignatureCheck {
	var out []*SignatureCheck
	for _, a := range atts.Found {
		for _, l := range a.Layers {
			out = append(out, &SignatureCheck{Attachment: a.Ref, Referrer: a.Referrer, layer: l})
		}
	}
	return out
}

// check evaluates one requirement; sigs are annotated with what became of each.
func (r Requirement) check(named reference.Named, digest string, sigs []*SignatureCheck) (bool, Problem, string) {
	switch r.Type {
	case ReqAcceptAnything:
		return true, "", ""
	case ReqReject:
		return false, ProblemRejected, "the policy rejects every image of this scope"
	}
	if len(sigs) == 0 {
		return false, ProblemUnsigned, "no signature: no " + image.AttachSignatures + " attachment in the registry"
	}
	worst, accepted := ProblemUntrusted, false
	var reasons []string
	for _, s := range sigs {
		s.problem, s.Reason = r.checkOne(named, digest, s)
		s.Accepted = s.problem == ""
		accepted = accepted || s.Accepted
		if s.problem == ProblemMismatch {
			worst = ProblemMismatch
		}
		if s.Reason != "" {
			reasons = append(reasons, s.Reason)
		}
	}
	if accepted {
		return true, "", ""
	}
	return false, worst, fmt.Sprintf("%d signature(s), none accepted: %s", len(sigs), strings.Join(dedupe(reasons), "; "))
}

func (r Requirement) checkOne(named reference.Named, digest string, s *SignatureCheck) (Problem, string) {
	l := s.layer
	if l.MediaType != SimpleSigningMediaType {
		return ProblemUntrusted, fmt.Sprintf("a layer of media type %s, not a sigstore signature", l.MediaType)
	}
	raw, err := base64.StdEncoding.DecodeString(l.Annotations[SignatureAnnotation])
	if err != nil || len(raw) == 0 {
		return ProblemUntrusted, "a signature layer without a signature annotation"
	}
	var key Verifier
	for _, k := range r.Keys {
		if k.Verify(l.Data, raw, l.Annotations) == nil {
			key = k
			break
		}
	}
	if key == nil {
		return ProblemUntrusted, "not signed by a key the policy trusts (another key, or altered since signed)"
	}
	s.Key = key.String()
	c, err := parsePayload(l.Data)
	if err != nil {
		return ProblemUntrusted, "a signed payload containers/image refuses: " + err.Error()
	}
	s.Identity, s.Digest = c.DockerReference, c.ManifestDigest
	if c.ManifestDigest != digest {
		return ProblemMismatch, fmt.Sprintf("signed for manifest %s, not %s", c.ManifestDigest, digest)
	}
	if !r.Identity.matches(named, c.DockerReference) {
		return ProblemMismatch, fmt.Sprintf("claims to be %s, which %s does not accept for %s", c.DockerReference, r.Identity.describe(), named)
	}
	return "", ""
}

func (id Identity) describe() string {
	if id.Type == "" {
		return "signedIdentity " + IdentityMatchRepoDigestOrExact
	}
	return "signedIdentity " + id.Type
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
