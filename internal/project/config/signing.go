package config

import (
	"fmt"
	"strings"

	"go.podman.io/image/v5/docker/reference"
)

// Signing makes opack build --push --sign sign the images it pushes, and the deploy manifests carry
// the image policy a cluster enforces for them (deploy/imagepolicy-*).
type Signing struct {
	// Key is the private key build --push --sign signs with: a cosign key or a PEM key, as a file or
	// env://VAR (default env://OPACK_SIGNING_KEY; --key overrides it). Keep it out of the repository:
	// a CI secret.
	Key string `yaml:"key,omitempty"`
	// PasswordEnv is the environment variable holding a cosign key's password (default
	// COSIGN_PASSWORD).
	PasswordEnv string `yaml:"passwordEnv,omitempty"`
	// PublicKey is the project file holding the public key (cosign.pub) the policy trusts for the
	// bundle and catalog repositories. Required: check and the deploy manifests need it without
	// the private key.
	PublicKey string `yaml:"publicKey"`
	// Attest attaches SLSA provenance and an SPDX SBOM to the images signed (default true).
	Attest *bool `yaml:"attest,omitempty"`
	// Trust names who signs the other images a bundle makes a node pull (its operator and operand
	// images): the images of these scopes must be signed by that key, in the policy and at check.
	Trust []Trust `yaml:"trust,omitempty"`
}

// Trust is one signer of images the project does not build.
type Trust struct {
	// Scopes are repositories, namespaces or registries (containers-policy.json scopes, e.g.
	// quay.io/example/memcached-operator or quay.io/example).
	Scopes []string `yaml:"scopes"`
	// PublicKey is the project file holding the signer's public key.
	PublicKey string `yaml:"publicKey"`
	// SignedIdentity is what the signatures must claim: matchRepoDigestOrExact (default: the
	// repository and tag, as opack and skopeo sign) or matchRepository (the repository only, as
	// cosign sign does).
	SignedIdentity string `yaml:"signedIdentity,omitempty"`
}

// Identities of Trust.SignedIdentity.
const (
	IdentityMatchRepoDigestOrExact = "matchRepoDigestOrExact"
	IdentityMatchRepository        = "matchRepository"
)

// DefaultSigningKey is where build reads the signing key when neither signing.key nor --key names
// it.
const DefaultSigningKey = "env://OPACK_SIGNING_KEY"

// Attests reports whether signed images get their attestations.
func (s *Signing) Attests() bool { return s.Attest == nil || *s.Attest }

func (c *checker) signing() {
	s := c.p.Signing
	if s == nil {
		return
	}
	if s.PublicKey == "" {
		c.addf(at("signing", "publicKey"), "must be set: the project file holding the public key of the signing key (cosign.pub)")
	}
	c.local(at("signing", "publicKey"), s.PublicKey)
	for i, t := range s.Trust {
		if t.PublicKey == "" {
			c.addf(at("signing", "trust", i, "publicKey"), "must be set: the project file holding the signer's public key")
		}
		c.local(at("signing", "trust", i, "publicKey"), t.PublicKey)
		if len(t.Scopes) == 0 {
			c.addf(at("signing", "trust", i, "scopes"), "must list the repositories (or namespaces, registries) this key signs")
		}
		for j, sc := range t.Scopes {
			if err := CheckScope(sc); err != nil {
				c.addf(at("signing", "trust", i, "scopes", j), "%v", err)
			}
		}
		switch t.SignedIdentity {
		case "", IdentityMatchRepoDigestOrExact, IdentityMatchRepository:
		default:
			c.addf(at("signing", "trust", i, "signedIdentity"), "%q: use %s or %s", t.SignedIdentity, IdentityMatchRepoDigestOrExact, IdentityMatchRepository)
		}
	}
}

// CheckScope checks a policy scope as a node reads it: a fully named repository or namespace
// (registry/path, docker.io/library/..., no tag or digest) or a registry host[:port].
func CheckScope(s string) error {
	if s == "" || strings.ContainsAny(s, "@*") || strings.HasSuffix(s, "/") {
		return fmt.Errorf("scope %q: give a registry, a namespace or a repository (registry.example.com/ns/repo), without tag, digest or wildcard", s)
	}
	if !strings.Contains(s, "/") {
		if strings.Contains(s, ".") || strings.Contains(s, ":") || s == "localhost" {
			return nil
		}
		return fmt.Errorf("scope %q: a registry host has a dot or a port (quay.io, localhost:5000)", s)
	}
	named, err := reference.ParseNormalizedNamed(s)
	if err != nil {
		return fmt.Errorf("scope %q: %w", s, err)
	}
	if !reference.IsNameOnly(named) || named.Name() != s {
		return fmt.Errorf("scope %q: write it fully, as a node matches it: %s", s, named.Name())
	}
	return nil
}
