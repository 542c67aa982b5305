package crd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/semver"

	"github.com/opack/opack/internal/image"

	"github.com/opack/opack/internal/crd/load"
)

// Request is an upgrade check as `opack validate crds` states it.
type Request struct {
	// Old and New are CRD files, folders, bundle folders or (with a Fetcher) bundle image references.
	// Old may be empty when ClusterCRD is set: the cluster's CRDs are then the old side.
	Old, New string
	// ClusterCRD is a `kubectl get crd -o yaml` dump; its status.storedVersions are the stored versions.
	ClusterCRD string
	// StoredVersions, when non-nil, are the live CRDs' status.storedVersions (see WithStoredVersions).
	StoredVersions []string
	// Instances are files or folders of existing objects to validate against the new schemas.
	Instances []string
	// Policy is a policy file (per-rule error, warn, info or off); empty for the defaults.
	Policy string
	// Puller unpacks bundle images; nil refuses image references.
	Puller image.Puller
	// OLMv1MinVersion, when set, is the oldest operator-controller release of the clusters
	// (WithOLMv1MinVersion); unset, only the preflight of v1.4.0 and later is modelled.
	OLMv1MinVersion string
}

// Result is the outcome of Check: the findings and how many CRDs each side held.
type Result struct {
	Findings []Finding
	// Old and New count the CRDs of each side; Compared counts the names found on both sides.
	Old, New, Compared int
}

// Summary says how many CRDs were compared, e.g. "2 CRDs compared (3 old, 2 new)".
func (r *Result) Summary() string {
	noun := "CRDs"
	if r.Compared == 1 {
		noun = "CRD"
	}
	return fmt.Sprintf("%d %s compared (%d old, %d new)", r.Compared, noun, r.Old, r.New)
}

// Check loads what the request names and compares the old CRDs with the new ones. An error means
// the check could not run (a missing path, an unreadable CRD, a bad policy, a side without any CRD);
// findings are the result.
func Check(ctx context.Context, req Request) (*Result, error) {
	var opts []Option
	if req.Policy != "" {
		p, err := LoadPolicy(req.Policy)
		if err != nil {
			return nil, err
		}
		opts = append(opts, WithPolicy(p))
	}
	var cluster *load.Set
	if req.ClusterCRD != "" {
		s, err := load.CRDs(ctx, req.ClusterCRD)
		if err != nil {
			return nil, fmt.Errorf("loading cluster CRDs: %w", err)
		}
		if err := needCRDs(s, "--cluster-crd "+req.ClusterCRD); err != nil {
			return nil, err
		}
		cluster = s
		opts = append(opts, WithClusterCRDs(s.CRDs))
	}
	if req.StoredVersions != nil {
		opts = append(opts, WithStoredVersions(req.StoredVersions...))
	}
	if req.OLMv1MinVersion != "" {
		if !semver.IsValid(req.OLMv1MinVersion) {
			return nil, fmt.Errorf("%q is not an operator-controller release such as %s", req.OLMv1MinVersion, OLMv1PreflightVersion)
		}
		opts = append(opts, WithOLMv1MinVersion(req.OLMv1MinVersion))
	}
	var old *load.Set
	switch {
	case req.Old != "":
		var err error
		// OLD without CRDs is fine: the operator adds its first CRDs, or has none.
		if old, err = loadSide(ctx, req.Old, req.Puller); err != nil {
			return nil, err
		}
	case cluster != nil:
		old = cluster
	default:
		return nil, errors.New("no old CRDs: name OLD or --cluster-crd")
	}
	newSet, err := loadSide(ctx, req.New, req.Puller)
	if err != nil {
		return nil, err
	}
	if len(old.CRDs) > 0 {
		// Every CRD removed is more likely a failed generation or a wrong folder than a release.
		if err := needCRDs(newSet, req.New); err != nil {
			return nil, err
		}
	}
	if len(req.Instances) > 0 {
		objs, err := load.Instances(ctx, req.Instances)
		if err != nil {
			return nil, fmt.Errorf("loading instances: %w", err)
		}
		opts = append(opts, WithInstances(objs), WithContext(ctx))
	}
	return &Result{Findings: CompareSets(old, newSet, opts...), Old: len(old.CRDs), New: len(newSet.CRDs),
		Compared: countCommon(old, newSet)}, nil
}

// needCRDs refuses a side without any CRD: an empty new side (a failed generation, a wrong folder) must
// not pass as "every CRD removed", and cluster CRDs must hold some.
func needCRDs(s *load.Set, what string) error {
	if len(s.CRDs) > 0 {
		return nil
	}
	return fmt.Errorf("%s holds no CustomResourceDefinition, so every CRD would be removed; give a CRD file, a folder of CRDs, or a bundle folder or image", what)
}

// countCommon counts the CRD names found in both sets.
func countCommon(a, b *load.Set) int {
	names := make(map[string]bool, len(a.CRDs))
	for _, c := range a.CRDs {
		names[c.Name] = true
	}
	n := 0
	for _, c := range b.CRDs {
		if names[c.Name] {
			n++
		}
	}
	return n
}

// loadSide loads a path, or unpacks an image reference into a temporary folder first.
func loadSide(ctx context.Context, arg string, p image.Puller) (*load.Set, error) {
	src, err := image.ParseSource(arg)
	if err != nil || !src.IsImage() {
		return load.CRDs(ctx, arg) // a path, or Load's own error about it
	}
	if p == nil {
		return nil, fmt.Errorf("reading %s: no such file or folder", arg)
	}
	tmp, err := os.MkdirTemp("", "opack-crds-")
	if err != nil {
		return nil, fmt.Errorf("pulling bundle image %s: %w", arg, err)
	}
	defer os.RemoveAll(tmp)
	dst := filepath.Join(tmp, "bundle")
	if _, err := p.Unpack(ctx, src.Ref, dst); err != nil {
		return nil, fmt.Errorf("pulling bundle image %s: %w", arg, err)
	}
	s, err := load.CRDs(ctx, dst)
	if err != nil {
		return nil, fmt.Errorf("reading bundle image %s: %w", arg, err)
	}
	for name := range s.Files {
		s.Files[name] = arg + ":" + strings.TrimPrefix(s.Files[name], dst+string(filepath.Separator))
	}
	return s, nil
}
