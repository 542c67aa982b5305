package bundle

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	corev1 "k8s.io/api/core/v1"
)

// Resolver turns an image reference into the same repository pinned by digest.
type Resolver interface {
	Resolve(ctx context.Context, ref string) (string, error)
}

// RegistryResolver resolves tags through the registry with docker-config credentials
// (authn.DefaultKeychain). Options are passed to every remote call.
type RegistryResolver struct {
	Options []remote.Option
}

// Resolve implements Resolver with a HEAD request (a GET when the registry refuses HEAD).
func (r RegistryResolver) Resolve(ctx context.Context, ref string) (string, error) {
	parsed, err := name.ParseReference(ref)
	if err != nil {
		return "", fmt.Errorf("parsing image %q: %w", ref, err)
	}
	if d, ok := parsed.(name.Digest); ok {
		return d.String(), nil
	}
	opts := append([]remote.Option{remote.WithContext(ctx), remote.WithAuthFromKeychain(authn.DefaultKeychain)}, r.Options...)
	desc, err := remote.Head(parsed, opts...)
	if err != nil {
		full, gerr := remote.Get(parsed, opts...)
		if gerr != nil {
			return "", fmt.Errorf("resolving image %s to a digest: %w (is the registry reachable and are you logged in?)", ref, gerr)
		}
		desc = &full.Descriptor
	}
	return parsed.Context().Digest(desc.Digest.String()).String(), nil
}

// pinImages replaces every image reference of the CSV (containers, init containers,
// RELATED_IMAGE_* values, relatedImages, the containerImage annotation) by its digest form, and
// lists every container image in relatedImages. Order is stable: existing relatedImages first,
// then containers in deployment order. Any failure names the image and aborts.
func pinImages(ctx context.Context, r Resolver, csv *v1alpha1.ClusterServiceVersion) error {
	cache := map[string]string{}
	pin := func(ref string) (string, error) {
		if ref == "" {
			return ref, nil
		}
		if p, ok := cache[ref]; ok {
			return p, nil
		}
		p, err := r.Resolve(ctx, ref)
		if err != nil {
			return "", err
		}
		cache[ref] = p
		return p, nil
	}
	var err error
	for i := range csv.Spec.RelatedImages {
		if csv.Spec.RelatedImages[i].Image, err = pin(csv.Spec.RelatedImages[i].Image); err != nil {
			return err
		}
	}
	have := map[string]bool{}
	for _, ri := range csv.Spec.RelatedImages {
		have[ri.Image] = true
	}
	deps := csv.Spec.InstallStrategy.StrategySpec.DeploymentSpecs
	for i := range deps {
		pod := &deps[i].Spec.Template.Spec
		for _, list := range [][]corev1.Container{pod.InitContainers, pod.Containers} {
			for j := range list {
				if err := pinContainer(&list[j], pin); err != nil {
					return err
				}
				if img := list[j].Image; img != "" && !have[img] {
					have[img] = true
					csv.Spec.RelatedImages = append(csv.Spec.RelatedImages, v1alpha1.RelatedImage{Name: list[j].Name, Image: img})
				}
			}
		}
	}
	if ci := csv.Annotations["containerImage"]; ci != "" {
		if csv.Annotations["containerImage"], err = pin(ci); err != nil {
			return err
		}
	}
	return nil
}

func pinContainer(c *corev1.Container, pin func(string) (string, error)) error {
	var err error
	if c.Image, err = pin(c.Image); err != nil {
		return err
	}
	for k := range c.Env {
		if strings.HasPrefix(c.Env[k].Name, relatedImagePrefix) && c.Env[k].ValueFrom == nil {
			if c.Env[k].Value, err = pin(c.Env[k].Value); err != nil {
				return err
			}
		}
	}
	return nil
}
