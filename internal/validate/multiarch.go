package validate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/google/go-containerregistry/pkg/v1/remote/transport"
	"github.com/google/go-containerregistry/pkg/v1/types"

	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/image"
)

// RuleMultiArch is the rule of the multiarch validator's findings.
const RuleMultiArch = "operator-sdk/optional/multiarch"

const (
	archLabel = "operatorframework.io/arch."
	osLabel   = "operatorframework.io/os."
)

// Platform is an OS and CPU architecture an image provides.
type Platform struct{ OS, Architecture string }

func (p Platform) String() string { return p.OS + "/" + p.Architecture }

// PlatformInspector returns the platforms an image reference provides.
type PlatformInspector interface {
	Platforms(ctx context.Context, ref string) ([]Platform, error)
}

// ImageInspector reads platforms through an image.Puller (a registry, an OCI layout; no docker): the
// platforms of an image index, or the OS and architecture of a single image's config. Results are cached for
// the inspector's lifetime, so an image shared by many bundles is read once.
type ImageInspector struct {
	Puller image.Puller // nil: image.NewPuller()
	mu     sync.Mutex
	cache  map[string]*inspection
}

// RegistryInspector is the ImageInspector's former name.
type RegistryInspector = ImageInspector

type inspection struct {
	once      sync.Once
	platforms []Platform
	err       error
}

// Platforms implements PlatformInspector.
func (ri *ImageInspector) Platforms(ctx context.Context, ref string) ([]Platform, error) {
	ri.mu.Lock()
	if ri.cache == nil {
		ri.cache = map[string]*inspection{}
	}
	if ri.Puller == nil {
		ri.Puller = image.NewPuller()
	}
	in, ok := ri.cache[ref]
	if !ok {
		in = &inspection{}
		ri.cache[ref] = in
	}
	ri.mu.Unlock()
	in.once.Do(func() { in.platforms, in.err = ri.inspect(ctx, ref) })
	return in.platforms, in.err
}

func (ri *ImageInspector) inspect(ctx context.Context, ref string) ([]Platform, error) {
	r, err := ri.Puller.Inspect(ctx, ref)
	if err != nil {
		// The registry's own answer names the reference already.
		var terr *transport.Error
		if errors.As(err, &terr) {
			err = terr
		}
		return nil, fmt.Errorf("reading %s: %w", ref, err)
	}
	var out []Platform
	for _, img := range r.Images {
		os, arch, _ := strings.Cut(img.Platform, "/")
		arch, _, _ = strings.Cut(arch, "/") // no variant
		if !types.MediaType(r.MediaType).IsIndex() {
			out = append(out, Platform{OS: os, Architecture: arch}) // a single image: its config, as it is
			continue
		}
		if os != "" && os != "unknown" && arch != "" && arch != "unknown" {
			out = append(out, Platform{OS: os, Architecture: arch})
		}
	}
	return out, nil
}

// runMultiArch checks that every image of the CSV provides each OS/architecture the CSV's
// operatorframework.io/os.* and arch.* labels claim (linux and amd64 when there is none), as operator-sdk's
// multiarch validator does, but deterministically and through the registry API.
func runMultiArch(ctx context.Context, r *bundleRun) []finding.Finding {
	csv := r.lb.Manifests.CSV
	file, object := r.lb.CSVFile, r.lb.CSVObject()
	inspector := r.cfg.inspector
	if inspector == nil {
		inspector = r.cfg.defaultInspector()
	}
	oses, arches := claimedPlatforms(csv.GetLabels())
	managers, others := csvImages(r)
	var out []finding.Finding
	provided := map[string][]Platform{}
	for _, img := range append(append([]string{}, managers...), others...) {
		ps, err := inspector.Platforms(ctx, img)
		if err != nil {
			out = append(out, finding.Warnf(file, object, RuleMultiArch, "unable to inspect the image (%s): %v", img, err))
			continue
		}
		provided[img] = ps
	}
	missing := map[string][]string{}
	for _, img := range sortedKeys(provided) {
		for _, o := range oses {
			for _, a := range arches {
				if !hasPlatform(provided[img], o, a) {
					key := o + "." + a
					missing[key] = append(missing[key], img)
				}
			}
		}
	}
	for _, key := range sortedKeys(missing) {
		out = append(out, finding.Errorf(file, object, RuleMultiArch,
			"not all images specified are providing the support described via the CSV labels. Note that (OS.architecture): (%s) was not found for the image(s) %v; build the images for it or remove the label",
			key, missing[key]))
	}
	out = append(out, unlabelledPlatforms(file, object, csv.GetLabels(), managers, provided)...)
	return out
}

// claimedPlatforms returns the OSes and architectures the CSV labels as supported, sorted.
func claimedPlatforms(labels map[string]string) (oses, arches []string) {
	for k, v := range labels {
		if v != "supported" {
			continue
		}
		if strings.HasPrefix(k, archLabel) {
			arches = append(arches, strings.TrimPrefix(k, archLabel))
		}
		if strings.HasPrefix(k, osLabel) {
			oses = append(oses, strings.TrimPrefix(k, osLabel))
		}
	}
	if len(oses) == 0 {
		oses = []string{"linux"}
	}
	if len(arches) == 0 {
		arches = []string{"amd64"}
	}
	sort.Strings(oses)
	sort.Strings(arches)
	return oses, arches
}

// csvImages returns the manager images (containers named manager, else every container but kube-rbac-proxy)
// and the other deployment and related images, each sorted and without duplicates.
func csvImages(r *bundleRun) (managers, others []string) {
	csv := r.lb.Manifests.CSV
	m, o := map[string]bool{}, map[string]bool{}
	for _, d := range csv.Spec.InstallStrategy.StrategySpec.DeploymentSpecs {
		found := false
		for _, c := range d.Spec.Template.Spec.Containers {
			if c.Name == "manager" {
				m[c.Image], found = true, true
			}
		}
		if !found {
			for _, c := range d.Spec.Template.Spec.Containers {
				if c.Name != "kube-rbac-proxy" {
					m[c.Image] = true
				}
			}
		}
		for _, c := range d.Spec.Template.Spec.Containers {
			o[c.Image] = true
		}
	}
	for _, ri := range csv.Spec.RelatedImages {
		o[ri.Image] = true
	}
	for img := range m {
		delete(o, img)
	}
	delete(m, "")
	delete(o, "")
	return sortedKeys(m), sortedKeys(o)
}

// unlabelledPlatforms warns when a manager image provides platforms the CSV does not label.
func unlabelledPlatforms(file, object string, labels map[string]string, managers []string, provided map[string][]Platform) []finding.Finding {
	archs, oses := map[string]bool{}, map[string]bool{}
	for _, img := range managers {
		for _, p := range provided[img] {
			archs[p.Architecture], oses[p.OS] = true, true
		}
	}
	// Without any arch (os) label OLM assumes amd64 (linux), so those need no label then.
	claimedOS, claimedArch := claimedPlatforms(labels)
	var out []finding.Finding
	var missingArch, missingOS []string
	for _, a := range sortedKeys(archs) {
		if !slices.Contains(claimedArch, a) {
			missingArch = append(missingArch, a)
		}
	}
	for _, o := range sortedKeys(oses) {
		if !slices.Contains(claimedOS, o) {
			missingOS = append(missingOS, o)
		}
	}
	if len(missingArch) > 0 {
		out = append(out, finding.Warnf(file, object, RuleMultiArch,
			"check if the CSV is missing the label (%s<value>) for the Arch(s): %q. Your manager image(s) %q provide this support; label every supported architecture or the operator is not listed for it",
			archLabel, missingArch, managers))
	}
	if len(missingOS) > 0 {
		out = append(out, finding.Warnf(file, object, RuleMultiArch,
			"check if the CSV is missing the label (%s<value>) for the OS(s): %q. Your manager image(s) %q provide this support; label every supported OS or the operator is not listed for it",
			osLabel, missingOS, managers))
	}
	return out
}

func hasPlatform(ps []Platform, os, arch string) bool {
	for _, p := range ps {
		if p.OS == os && p.Architecture == arch {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
