package check

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"go.podman.io/image/v5/docker/reference"

	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/image"
	"github.com/opack/opack/internal/parallel"
	"github.com/opack/opack/internal/sign"
)

// Rules of the signature gate: what a node enforcing the policy does with each image installing the
// catalog's channel heads makes it pull.
const (
	RuleSignUnsigned   = "sign/unsigned"
	RuleSignUntrusted  = "sign/untrusted"
	RuleSignMismatch   = "sign/mismatch"
	RuleSignRejected   = "sign/rejected"
	RuleSignTag        = "sign/tag-reference"
	RuleSignUnread     = "sign/unreadable"
	RuleSignNotCovered = "sign/not-covered"
)

// actorNodes is who refuses an image its policy does not accept: the container runtime of the
// nodes (CRI-O through containers/image), at pull time.
const actorNodes = "nodes"

// NodeImage is an image a node pulls to install a catalog's channel heads, with what makes it pull
// it.
type NodeImage struct {
	Ref string
	// Uses say who names the image: "catalog image", "bundle B", "relatedImage N of bundle B",
	// "container C of deployment D of bundle B".
	Uses []string
	// Bundles are the bundles naming it (for findings' objects).
	Bundles []string
}

// NodeImages lists the images installing the channel heads of cfg makes a node pull: the catalog
// image itself (catalogRef, when the catalog is an image), each head's bundle image (OLM v0 unpacks
// it in a Job), its relatedImages and the containers and init containers of its CSV's deployments
// (when the catalog carries the CSV), each once, sorted.
func NodeImages(cfg *fbc.DeclarativeConfig, catalogRef string) []NodeImage {
	byRef := map[string]*NodeImage{}
	add := func(ref, use, bundle string) {
		if ref == "" {
			return
		}
		ni := byRef[ref]
		if ni == nil {
			ni = &NodeImage{Ref: ref}
			byRef[ref] = ni
		}
		if !contains(ni.Uses, use) {
			ni.Uses = append(ni.Uses, use)
		}
		if bundle != "" && !contains(ni.Bundles, bundle) {
			ni.Bundles = append(ni.Bundles, bundle)
		}
	}
	add(catalogRef, "catalog image", "")
	heads := map[string]bool{}
	for _, ch := range cfg.Channels {
		for _, h := range graph.Heads(ch.Entries) {
			heads[ch.Package+"/"+h] = true
		}
	}
	for _, b := range cfg.Bundles {
		if !heads[b.Package+"/"+b.Name] {
			continue
		}
		add(b.Image, "bundle image of "+b.Name, b.Name)
		for _, ri := range b.RelatedImages {
			switch {
			case ri.Image == b.Image:
			case ri.Name == "":
				add(ri.Image, "relatedImage of "+b.Name, b.Name)
			default:
				add(ri.Image, fmt.Sprintf("relatedImage %q of %s", ri.Name, b.Name), b.Name)
			}
		}
		for _, c := range csvContainers(b.CsvJSON) {
			add(c[1], c[0]+" of "+b.Name, b.Name)
		}
	}
	out := make([]NodeImage, 0, len(byRef))
	for _, ni := range byRef {
		sort.Strings(ni.Uses)
		sort.Strings(ni.Bundles)
		out = append(out, *ni)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Ref < out[j].Ref })
	return out
}

// csvContainers returns [use, image] for each container and init container of the CSV's
// deployments.
func csvContainers(csvJSON string) [][2]string {
	if csvJSON == "" {
		return nil
	}
	var csv struct {
		Spec struct {
			Install struct {
				Spec struct {
					Deployments []struct {
						Name string `json:"name"`
						Spec struct {
							Template struct {
								Spec struct {
									Containers     []struct{ Name, Image string } `json:"containers"`
									InitContainers []struct{ Name, Image string } `json:"initContainers"`
								} `json:"spec"`
							} `json:"template"`
						} `json:"spec"`
					} `json:"deployments"`
				} `json:"spec"`
			} `json:"install"`
		} `json:"spec"`
	}
	if json.Unmarshal([]byte(csvJSON), &csv) != nil {
		return nil
	}
	var out [][2]string
	for _, d := range csv.Spec.Install.Spec.Deployments {
		for _, c := range append(d.Spec.Template.Spec.InitContainers, d.Spec.Template.Spec.Containers...) {
			out = append(out, [2]string{fmt.Sprintf("container %q of deployment %q", c.Name, d.Name), c.Image})
		}
	}
	return out
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// SignatureOption configures VerifySignatures.
type SignatureOption func(*signatureOptions)

type signatureOptions struct {
	file        string
	signedLater map[string]string
	notCovered  bool
}

// SignedAtPush names images this run signs when it pushes them (the release being built): they
// are not read from a registry; why says by whom, for the summary.
func SignedAtPush(refs map[string]string) SignatureOption {
	return func(o *signatureOptions) { o.signedLater = refs }
}

// SignatureFile is the file the findings point at.
func SignatureFile(file string) SignatureOption { return func(o *signatureOptions) { o.file = file } }

// WarnNotCovered reports images no scope of the policy requires a signature for (a warning: a
// node pulls them unverified).
func WarnNotCovered() SignatureOption { return func(o *signatureOptions) { o.notCovered = true } }

// VerifySignatures checks every image of imgs against policy as a node enforcing it would
// (sign.Verify, read through images), in parallel, and returns one finding per image a node would
// refuse or cannot be checked as pulled: unsigned, signed by a key the policy does not trust or
// altered, a signature of another image or reference, rejected by the policy, or named by a tag
// (a node verifies the digest the tag points to when it pulls, not the one checked here).
func VerifySignatures(ctx context.Context, images image.Puller, imgs []NodeImage, policy *sign.Policy, opts ...SignatureOption) []finding.Finding {
	var o signatureOptions
	for _, opt := range opts {
		opt(&o)
	}
	per := make([][]finding.Finding, len(imgs))
	parallel.ForEach(ctx, len(imgs), nil, func(i int) { per[i] = o.verifyOne(ctx, images, imgs[i], policy) })
	var out []finding.Finding
	for _, fs := range per {
		out = append(out, fs...)
	}
	return out
}

func (o *signatureOptions) verifyOne(ctx context.Context, images image.Puller, ni NodeImage, policy *sign.Policy) []finding.Finding {
	what := fmt.Sprintf("%s (%s)", ni.Ref, strings.Join(ni.Uses, ", "))
	object := strings.Join(ni.Bundles, ", ")
	mk := func(sev finding.Severity, rule, fix, format string, args ...any) finding.Finding {
		f := finding.Errorf(o.file, object, rule, format, args...)
		f.Severity, f.Fix, f.Actors = sev, fix, []string{actorNodes}
		return f
	}
	if _, ok := o.signedLater[ni.Ref]; ok {
		return nil
	}
	named, err := sign.PolicyReference(ni.Ref)
	if err != nil {
		return []finding.Finding{mk(finding.SeverityError, RuleSignUnread, "name the image by a registry reference", "%s: %v", what, err)}
	}
	scope, reqs, err := policy.Lookup(named)
	if err != nil {
		return []finding.Finding{mk(finding.SeverityError, RuleSignUnread, "", "%s: %v", what, err)}
	}
	if !sign.Verifies(reqs) && !hasReject(reqs) {
		if o.notCovered {
			return []finding.Finding{mk(finding.SeverityWarning, RuleSignNotCovered, "add a policy scope (opack.yaml signing.trust) with the key that signs it",
				"%s: no scope of %s requires a signature: a node pulls it without checking one", what, policy.Source)}
		}
		return nil
	}
	var out []finding.Finding
	if _, digested := named.(reference.Canonical); !digested {
		out = append(out, mk(finding.SeverityError, RuleSignTag, "pin the image by digest (REPO@sha256:...; opack.yaml images: digest)",
			"%s is named by tag: a node verifies the signature of the digest the tag points to when it pulls, which may not be the one checked now", what))
	}
	res, err := sign.Verify(ctx, images, ni.Ref, policy)
	if err != nil {
		return append(out, mk(finding.SeverityError, RuleSignUnread, "check that the image exists and the registry is reachable with your credentials",
			"%s: reading its signatures: %v", what, err))
	}
	if res.Verified {
		return out
	}
	rule, fix := problemRule(res.Problem, scope)
	return append(out, mk(finding.SeverityError, rule, fix, "%s: a node enforcing %s (scope %q) refuses it: %s", what, policy.Source, scope, res.Reason))
}

func hasReject(reqs []sign.Requirement) bool {
	for _, r := range reqs {
		if r.Type == sign.ReqReject {
			return true
		}
	}
	return false
}

func problemRule(p sign.Problem, scope string) (string, string) {
	switch p {
	case sign.ProblemUnsigned:
		return RuleSignUnsigned, "sign the image (opack image ... --sign, or cosign sign --key) with a key the policy trusts"
	case sign.ProblemMismatch:
		return RuleSignMismatch, "sign the image as it is published (its own digest, in its own repository); a copied or re-tagged image needs its own signature"
	case sign.ProblemRejected:
		return RuleSignRejected, fmt.Sprintf("the policy rejects every image of %q: publish the image elsewhere or change the policy", scope)
	}
	return RuleSignUntrusted, "sign the image with a key the policy trusts, or add the key that signs it to the policy"
}

// VerifyRefSignatures loads the catalog ref (a folder or an image, read through images) and checks
// the images installing its channel heads makes a node pull (NodeImages; the catalog image too when
// ref is one in a registry) against policy. It returns the findings and how many images it checked.
func VerifyRefSignatures(ctx context.Context, ref string, images image.Puller, lopts []fbc.LoadOption, policy *sign.Policy) ([]finding.Finding, int, error) {
	src, err := image.ParseSource(ref)
	if err != nil {
		return nil, 0, err
	}
	cfg, err := fbc.LoadRef(ctx, ref, images, lopts...)
	if err != nil {
		return nil, 0, err
	}
	catalog := ""
	if src.IsImage() && !image.IsLocalRef(src.Ref) {
		catalog = src.Ref
	}
	imgs := NodeImages(cfg, catalog)
	return VerifySignatures(ctx, images, imgs, policy, SignatureFile(ref)), len(imgs), nil
}
