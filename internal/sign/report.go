package sign

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/opack/opack/internal/escape"
	"github.com/opack/opack/internal/image"
)

// predicateTypes are cosign's short names of predicate types (cosign verify-attestation --type).
var predicateTypes = map[string]string{
	"slsaprovenance":   "https://slsa.dev/provenance/v0.2",
	"slsaprovenance02": "https://slsa.dev/provenance/v0.2",
	"slsaprovenance1":  "https://slsa.dev/provenance/v1",
	"spdx":             "https://spdx.dev/Document",
	"spdxjson":         "https://spdx.dev/Document",
	"cyclonedx":        "https://cyclonedx.org/bom",
	"link":             "https://in-toto.io/Link/v1",
	"openvex":          "https://openvex.dev/ns",
}

// PredicateType resolves cosign's short name of a predicate type (slsaprovenance1, spdxjson, ...)
// or takes a URI as it is.
func PredicateType(s string) (string, error) {
	if t, ok := predicateTypes[s]; ok {
		return t, nil
	}
	if strings.Contains(s, "://") {
		return s, nil
	}
	return "", fmt.Errorf("unknown predicate type %q: give a URI or one of slsaprovenance1, slsaprovenance02, spdxjson, cyclonedx, link, openvex", s)
}

// VerifyImages verifies each image against policy (Verify) and, for the images it verifies with
// keys, their attestations (VerifyAttestations with the same keys); an image lacking an accepted
// attestation of a type in require is not verified.
func VerifyImages(ctx context.Context, images image.Puller, refs []string, policy *Policy, require []string) ([]*Result, error) {
	var out []*Result
	for _, ref := range refs {
		res, err := Verify(ctx, images, ref, policy)
		if err != nil {
			return nil, err
		}
		out = append(out, res)
		named, _ := PolicyReference(ref)
		_, reqs, _ := policy.Lookup(named)
		var keys []Verifier
		for _, r := range reqs {
			keys = append(keys, r.Keys...)
		}
		if len(keys) > 0 && res.Digest != "" {
			if res.Attestations, err = VerifyAttestations(ctx, images, ref, res.Digest, keys); err != nil {
				return nil, err
			}
		}
		for _, t := range require {
			if res.Verified && !hasAttestation(res.Attestations, t) {
				res.Verified, res.Problem, res.Reason = false, ProblemUnsigned, "no verified attestation of type "+t
			}
		}
	}
	return out, nil
}

func hasAttestation(checks []AttestationCheck, t string) bool {
	for _, c := range checks {
		if c.Accepted && c.PredicateType == t {
			return true
		}
	}
	return false
}

// WriteResults writes results as text (one line per image, indented lines for its signatures and
// attestations) or as one JSON document; every string from a registry or the command line goes
// through the format's escaping.
func WriteResults(w io.Writer, results []*Result, format string) error {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Verified bool      `json:"verified"`
			Images   []*Result `json:"images"`
		}{allVerified(results), results})
	}
	for _, r := range results {
		scope := r.Scope
		if scope == "" {
			scope = "default"
		}
		if r.Verified {
			fmt.Fprintf(w, "verified %s (%s, scope %s: %s)\n", escape.Text(r.Image), escape.Text(r.Digest), escape.Text(scope), strings.Join(r.Requirements, ", "))
		} else {
			fmt.Fprintf(w, "NOT VERIFIED %s (%s): %s: %s\n", escape.Text(r.Image), escape.Text(r.Digest), r.Problem, escape.Text(r.Reason))
		}
		for _, s := range r.Signatures {
			fmt.Fprintf(w, "  signature %s: %s\n", escape.Text(s.Attachment), describeSig(s))
		}
		for _, a := range r.Attestations {
			state := "verified, key " + a.Key
			if !a.Accepted {
				state = "not accepted: " + a.Reason
			}
			fmt.Fprintf(w, "  attestation %s %s: %s\n", escape.Text(a.PredicateType), escape.Text(a.Attachment), escape.Text(state))
		}
	}
	return nil
}

func describeSig(s SignatureCheck) string {
	if s.Accepted {
		return escape.Text(fmt.Sprintf("accepted, key %s, claims %s", s.Key, s.Identity))
	}
	return escape.Text("not accepted: " + s.Reason)
}

func allVerified(rs []*Result) bool {
	for _, r := range rs {
		if !r.Verified {
			return false
		}
	}
	return true
}
