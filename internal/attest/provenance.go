package attest

import (
	"sort"
)

// BuilderID names opack as the builder of its provenance. The provenance is what the build says of
// itself (SLSA Build L1): the signing key lives where the build runs.
const BuilderID = "https://opack.dev/opack"

// Provenance describes one release build of opack.yaml.
type Provenance struct {
	// Subjects are the images built and pushed (the bundle, the catalogs).
	Subjects []Subject
	// OpackVersion is the version of the opack that built them.
	OpackVersion string
	// Package, Version and ProjectFile (relative to the project) with its digest (sha256:...).
	Package, Version           string
	ProjectFile, ProjectDigest string
	// Source is the git repository and commit the project was built from; nil when unknown.
	Source *Source
	// SourceDateEpoch is the SOURCE_DATE_EPOCH of the build ("" when unset).
	SourceDateEpoch string
	// Inputs are the images the build read (catalog bases, released bundles, the previous
	// release), by digest.
	Inputs []Input
}

// Source is a git checkout.
type Source struct {
	// Repository is the remote URL (origin) when known; Commit the commit checked out.
	Repository, Commit string
	// Dirty is true when the worktree had changes not committed.
	Dirty bool
}

// Input is one resolved dependency: an image by digest, or a file.
type Input struct {
	Name, URI, Digest string
}

type resourceDescriptor struct {
	Name        string            `json:"name,omitempty"`
	URI         string            `json:"uri,omitempty"`
	Digest      map[string]string `json:"digest,omitempty"`
	Annotations map[string]any    `json:"annotations,omitempty"`
}

type provenancePredicate struct {
	BuildDefinition struct {
		BuildType            string               `json:"buildType"`
		ExternalParameters   map[string]any       `json:"externalParameters"`
		InternalParameters   map[string]any       `json:"internalParameters,omitempty"`
		ResolvedDependencies []resourceDescriptor `json:"resolvedDependencies,omitempty"`
	} `json:"buildDefinition"`
	RunDetails struct {
		Builder struct {
			ID      string            `json:"id"`
			Version map[string]string `json:"version,omitempty"`
		} `json:"builder"`
	} `json:"runDetails"`
}

// Statement is the SLSA v1 provenance statement of p.
func (p Provenance) Statement() ([]byte, error) {
	var pred provenancePredicate
	bd := &pred.BuildDefinition
	bd.BuildType = BuildType
	bd.ExternalParameters = map[string]any{"project": p.ProjectFile, "package": p.Package, "version": p.Version}
	if p.SourceDateEpoch != "" {
		bd.InternalParameters = map[string]any{"SOURCE_DATE_EPOCH": p.SourceDateEpoch}
	}
	if s := p.Source; s != nil {
		src := resourceDescriptor{Name: "source", Digest: map[string]string{"gitCommit": s.Commit}}
		if s.Repository != "" {
			src.URI = "git+" + s.Repository + "@" + s.Commit
			bd.ExternalParameters["source"] = s.Repository
		}
		if s.Dirty {
			src.Annotations = map[string]any{"dirty": true}
		}
		bd.ResolvedDependencies = append(bd.ResolvedDependencies, src)
	}
	if p.ProjectDigest != "" {
		bd.ResolvedDependencies = append(bd.ResolvedDependencies, resourceDescriptor{Name: p.ProjectFile, Digest: digestMap(p.ProjectDigest)})
	}
	inputs := append([]Input(nil), p.Inputs...)
	sort.Slice(inputs, func(i, j int) bool { return inputs[i].URI+inputs[i].Name < inputs[j].URI+inputs[j].Name })
	for _, in := range inputs {
		bd.ResolvedDependencies = append(bd.ResolvedDependencies, resourceDescriptor{Name: in.Name, URI: in.URI, Digest: digestMap(in.Digest)})
	}
	pred.RunDetails.Builder.ID = BuilderID
	pred.RunDetails.Builder.Version = map[string]string{"opack": p.OpackVersion}
	return marshalStatement(p.Subjects, PredicateSLSAProvenance, pred)
}
