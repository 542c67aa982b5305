package sign

import (
	"bytes"
	"crypto"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"go.podman.io/image/v5/docker/policyconfiguration"
	"go.podman.io/image/v5/docker/reference"
)

// Requirement types of containers-policy.json(5).
const (
	ReqAcceptAnything = "insecureAcceptAnything"
	ReqReject         = "reject"
	ReqSigstoreSigned = "sigstoreSigned"
	ReqSignedBy       = "signedBy"
)

// signedIdentity types of containers-policy.json(5).
const (
	IdentityMatchRepoDigestOrExact = "matchRepoDigestOrExact"
	IdentityMatchRepository        = "matchRepository"
	IdentityMatchExact             = "matchExact"
	IdentityExactReference         = "exactReference"
	IdentityExactRepository        = "exactRepository"
	IdentityRemap                  = "remapIdentity"
)

// Policy is what a node requires of the images it pulls, as a containers policy.json says it for
// the docker transport: requirements per scope (a repository, a namespace, a registry, *.domain),
// and a default. Every requirement of the scope that applies must be met.
type Policy struct {
	Default []Requirement
	Scopes  map[string][]Requirement
	// Source names where the policy came from, for messages.
	Source string
}

// Requirement is one requirement of a scope.
type Requirement struct {
	Type string
	// Keys verify the signatures of a sigstoreSigned requirement: any one of them.
	Keys     []Verifier
	Identity Identity
}

// Identity is a sigstoreSigned requirement's signedIdentity: what the reference a signature claims
// must be, given the reference the image is pulled by.
type Identity struct {
	Type             string `json:"type"`
	DockerReference  string `json:"dockerReference,omitempty"`
	DockerRepository string `json:"dockerRepository,omitempty"`
	Prefix           string `json:"prefix,omitempty"`
	SignedPrefix     string `json:"signedPrefix,omitempty"`
}

// KeyPolicy is the policy of opack verify --key and catalog validate --verify-signatures KEY: every
// image signed by one of keys, claiming the reference it is pulled by (matchRepoDigestOrExact).
func KeyPolicy(source string, keys ...crypto.PublicKey) (*Policy, error) {
	req := Requirement{Type: ReqSigstoreSigned, Identity: Identity{Type: IdentityMatchRepoDigestOrExact}}
	for _, k := range keys {
		v, err := NewKeyVerifier(k)
		if err != nil {
			return nil, err
		}
		req.Keys = append(req.Keys, v)
	}
	return &Policy{Default: []Requirement{req}, Source: source}, nil
}

// policyJSON is the shape of containers-policy.json(5).
type policyJSON struct {
	Default    []json.RawMessage                       `json:"default"`
	Transports map[string]map[string][]json.RawMessage `json:"transports"`
}

type requirementJSON struct {
	Type           string    `json:"type"`
	KeyPath        string    `json:"keyPath"`
	KeyPaths       []string  `json:"keyPaths"`
	KeyData        []byte    `json:"keyData"`
	KeyDatas       [][]byte  `json:"keyDatas"`
	Fulcio         any       `json:"fulcio"`
	PKI            any       `json:"pki"`
	RekorPath      string    `json:"rekorPublicKeyPath"`
	RekorData      []byte    `json:"rekorPublicKeyData"`
	SignedIdentity *Identity `json:"signedIdentity"`
}

// ParsePolicy reads a containers policy.json (file is its path: a relative keyPath is read from
// its folder). The docker transport's scopes and the default are kept; requirements opack cannot
// check are refused with the reason: GPG signatures (signedBy), keyless sigstore (fulcio, pki),
// Rekor.
func ParsePolicy(data []byte, file string) (*Policy, error) {
	var pj policyJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&pj); err != nil {
		return nil, fmt.Errorf("reading policy %s: %w", file, err)
	}
	if pj.Default == nil {
		return nil, fmt.Errorf("reading policy %s: no default requirements (containers/image refuses such a policy)", file)
	}
	p := &Policy{Scopes: map[string][]Requirement{}, Source: file}
	var err error
	if p.Default, err = parseRequirements(pj.Default, file); err != nil {
		return nil, fmt.Errorf("reading policy %s: default: %w", file, err)
	}
	for scope, reqs := range pj.Transports["docker"] {
		if p.Scopes[scope], err = parseRequirements(reqs, file); err != nil {
			return nil, fmt.Errorf("reading policy %s: transports.docker[%q]: %w", file, scope, err)
		}
		if len(p.Scopes[scope]) == 0 {
			return nil, fmt.Errorf("reading policy %s: transports.docker[%q]: no requirements", file, scope)
		}
	}
	return p, nil
}

func parseRequirements(raw []json.RawMessage, file string) ([]Requirement, error) {
	out := make([]Requirement, 0, len(raw))
	for i, r := range raw {
		var typ struct{ Type string }
		if err := json.Unmarshal(r, &typ); err == nil && typ.Type == ReqSignedBy {
			return nil, fmt.Errorf("requirement %d: GPG signatures (signedBy) are not checked by opack: use sigstoreSigned", i)
		}
		var rj requirementJSON
		dec := json.NewDecoder(bytes.NewReader(r))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rj); err != nil {
			return nil, fmt.Errorf("requirement %d: %w", i, err)
		}
		req, err := rj.requirement(filepath.Dir(file))
		if err != nil {
			return nil, fmt.Errorf("requirement %d (%s): %w", i, rj.Type, err)
		}
		out = append(out, req)
	}
	return out, nil
}

func (rj requirementJSON) requirement(dir string) (Requirement, error) {
	req := Requirement{Type: rj.Type}
	switch rj.Type {
	case ReqAcceptAnything, ReqReject:
		return req, nil
	case ReqSigstoreSigned:
	default:
		return req, fmt.Errorf("unknown requirement type %q", rj.Type)
	}
	switch {
	case rj.Fulcio != nil, rj.PKI != nil:
		return req, errors.New("keyless signatures (fulcio, pki) need Fulcio's and Rekor's roots and are not checked by opack offline: give keyPath or keyData")
	case rj.RekorPath != "" || rj.RekorData != nil:
		return req, errors.New("a Rekor key: opack checks no transparency log offline; drop rekorPublicKeyPath/Data to check the key alone")
	}
	for _, path := range append(nonEmpty(rj.KeyPath), rj.KeyPaths...) {
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		k, err := LoadPublicKey(path)
		if err != nil {
			return req, err
		}
		if err := req.addKey(k); err != nil {
			return req, err
		}
	}
	for _, data := range append(nonEmptyBytes(rj.KeyData), rj.KeyDatas...) {
		k, err := ParsePublicKey(data)
		if err != nil {
			return req, fmt.Errorf("keyData: %w", err)
		}
		if err := req.addKey(k); err != nil {
			return req, err
		}
	}
	if len(req.Keys) == 0 {
		return req, errors.New("no key: give keyPath or keyData")
	}
	req.Identity = Identity{Type: IdentityMatchRepoDigestOrExact}
	if rj.SignedIdentity != nil {
		req.Identity = *rj.SignedIdentity
	}
	return req, req.Identity.check()
}

func (r *Requirement) addKey(k crypto.PublicKey) error {
	v, err := NewKeyVerifier(k)
	if err != nil {
		return err
	}
	r.Keys = append(r.Keys, v)
	return nil
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

func nonEmptyBytes(b []byte) [][]byte {
	if b == nil {
		return nil
	}
	return [][]byte{b}
}

func (id Identity) check() error {
	switch id.Type {
	case IdentityMatchRepoDigestOrExact, IdentityMatchRepository, IdentityMatchExact:
		return nil
	case IdentityExactReference:
		r, err := reference.ParseNormalizedNamed(id.DockerReference)
		if err != nil || reference.IsNameOnly(r) {
			return fmt.Errorf("signedIdentity exactReference: %q is no reference with a tag or digest", id.DockerReference)
		}
		return nil
	case IdentityExactRepository:
		if _, err := reference.ParseNormalizedNamed(id.DockerRepository); err != nil {
			return fmt.Errorf("signedIdentity exactRepository: %w", err)
		}
		return nil
	case IdentityRemap:
		if id.Prefix == "" || id.SignedPrefix == "" {
			return errors.New("signedIdentity remapIdentity: give prefix and signedPrefix")
		}
		return nil
	}
	return fmt.Errorf("unknown signedIdentity type %q", id.Type)
}

// Lookup returns the requirements of the scope that applies to the image ref (a reference with a
// tag or a digest) and that scope ("" for the default), as containers/image looks a docker image
// up: the reference itself, its repository, each parent namespace, the registry, *.domain
// wildcards, then the default.
func (p *Policy) Lookup(ref reference.Named) (string, []Requirement, error) {
	id, err := policyconfiguration.DockerReferenceIdentity(ref)
	if err != nil {
		return "", nil, err
	}
	if reqs, ok := p.Scopes[id]; ok {
		return id, reqs, nil
	}
	for _, ns := range policyconfiguration.DockerReferenceNamespaces(ref) {
		if reqs, ok := p.Scopes[ns]; ok {
			return ns, reqs, nil
		}
	}
	if reqs, ok := p.Scopes[""]; ok {
		return "", reqs, nil
	}
	return "", p.Default, nil
}

// Verifies reports whether the requirements demand a signature (rather than accept or reject
// every image).
func Verifies(reqs []Requirement) bool {
	for _, r := range reqs {
		if r.Type == ReqSigstoreSigned {
			return true
		}
	}
	return false
}

// matches reports whether a signature claiming sigRef is accepted for the image pulled as intended
// under id, as containers/image decides it (policy_reference_match.go).
func (id Identity) matches(intended reference.Named, sigRef string) bool {
	sig, err := reference.ParseNormalizedNamed(sigRef)
	if err != nil {
		return false
	}
	switch id.Type {
	case IdentityMatchExact:
		return !reference.IsNameOnly(intended) && !reference.IsNameOnly(sig) && sig.String() == intended.String()
	case IdentityMatchRepoDigestOrExact, "":
		return repoDigestOrExact(intended, sig)
	case IdentityMatchRepository:
		return sig.Name() == intended.Name()
	case IdentityExactReference:
		want, err := reference.ParseNormalizedNamed(id.DockerReference)
		return err == nil && !reference.IsNameOnly(want) && !reference.IsNameOnly(sig) && sig.String() == want.String()
	case IdentityExactRepository:
		want, err := reference.ParseNormalizedNamed(id.DockerRepository)
		return err == nil && sig.Name() == want.Name()
	case IdentityRemap:
		remapped, err := id.remap(intended)
		return err == nil && repoDigestOrExact(remapped, sig)
	}
	return false
}

func repoDigestOrExact(intended, sig reference.Named) bool {
	if reference.IsNameOnly(sig) {
		return false
	}
	switch intended.(type) {
	case reference.Tagged:
		return sig.String() == intended.String()
	case reference.Canonical:
		return sig.Name() == intended.Name()
	}
	return false
}

func (id Identity) remap(ref reference.Named) (reference.Named, error) {
	name := ref.Name()
	if name != id.Prefix && !(strings.HasPrefix(name, id.Prefix) && len(name) > len(id.Prefix) && name[len(id.Prefix)] == '/') {
		return ref, nil
	}
	return reference.ParseNamed(strings.Replace(ref.String(), id.Prefix, id.SignedPrefix, 1))
}

// LoadPolicy reads what --verify-signatures and --policy name: a PEM public key (every image
// signed by it: KeyPolicy) or a containers policy.json, from a file or env://NAME.
func LoadPolicy(ref string) (*Policy, error) {
	data, err := readKey(ref)
	if err != nil {
		return nil, err
	}
	if bytes.Contains(data, []byte("-----BEGIN ")) {
		k, err := ParsePublicKey(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ref, err)
		}
		return KeyPolicy(ref, k)
	}
	return ParsePolicy(data, ref)
}
