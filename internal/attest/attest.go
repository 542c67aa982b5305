// Package attest writes the in-toto statements opack attaches to the images it releases: SLSA v1
// provenance (what was built, from which source, project file and inputs, by which opack) and an
// SPDX 2.3 SBOM of a bundle (its manifests and every image it makes a cluster pull, by digest).
// Both are deterministic: the same build gives the same bytes (no clock, sorted lists), so signing
// them again adds nothing. The statements are plain JSON written here by hand: the in-toto and SPDX
// Go libraries bring protobuf types or large dependency trees for a few structs.
package attest

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
)

// Statement and predicate types.
const (
	StatementType = "https://in-toto.io/Statement/v1"
	// PredicateSLSAProvenance is SLSA provenance v1 (cosign verify-attestation --type slsaprovenance1).
	PredicateSLSAProvenance = "https://slsa.dev/provenance/v1"
	// PredicateSPDX is an SPDX document (cosign verify-attestation --type spdxjson).
	PredicateSPDX = "https://spdx.dev/Document"
	// BuildType names opack's release build in provenance: its externalParameters are the project
	// file, the version and the images pushed.
	BuildType = "https://opack.dev/build/release/v1"
)

// Subject is an image the statement is about: its repository and manifest digest.
type Subject struct {
	Repository string
	Digest     string
}

// SubjectOf splits REPO@sha256:... into a Subject.
func SubjectOf(ref string) (Subject, error) {
	d, err := name.NewDigest(ref)
	if err != nil {
		return Subject{}, fmt.Errorf("attesting %q: name the image by digest: %w", ref, err)
	}
	return Subject{Repository: d.Context().Name(), Digest: d.DigestStr()}, nil
}

type statement struct {
	Type          string          `json:"_type"`
	Subject       []subjectJSON   `json:"subject"`
	PredicateType string          `json:"predicateType"`
	Predicate     json.RawMessage `json:"predicate"`
}

type subjectJSON struct {
	Name   string            `json:"name"`
	Digest map[string]string `json:"digest"`
}

// digestMap turns sha256:HEX into {"sha256": "HEX"}.
func digestMap(d string) map[string]string {
	alg, hex, ok := strings.Cut(d, ":")
	if !ok {
		return nil
	}
	return map[string]string{alg: hex}
}

func marshalStatement(subjects []Subject, predicateType string, predicate any) ([]byte, error) {
	pred, err := json.Marshal(predicate)
	if err != nil {
		return nil, err
	}
	st := statement{Type: StatementType, PredicateType: predicateType, Predicate: pred}
	for _, s := range subjects {
		st.Subject = append(st.Subject, subjectJSON{Name: s.Repository, Digest: digestMap(s.Digest)})
	}
	sort.Slice(st.Subject, func(i, j int) bool { return st.Subject[i].Name < st.Subject[j].Name })
	return json.Marshal(st)
}
