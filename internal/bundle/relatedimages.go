package bundle

import (
	"fmt"
	"strings"

	"github.com/operator-framework/api/pkg/operators/v1alpha1"
)

const relatedImagePrefix = "RELATED_IMAGE_"

type foundImage struct {
	name, image, containerRef string
}

// findRelatedImages reads RELATED_IMAGE_* variables of every deployment container (then
// init container), named and deduplicated exactly as operator-sdk does.
func findRelatedImages(c *collection) ([]v1alpha1.RelatedImage, []string, error) {
	var found []*foundImage
	byName := map[string][]*foundImage{}
	byImage := map[string][]*foundImage{}
	seen := map[string]bool{}
	for _, dep := range c.Deployments {
		pod := dep.Spec.Template.Spec
		containers := append(append(pod.Containers[:0:0], pod.Containers...), pod.InitContainers...)
		for _, ctr := range containers {
			ref := dep.Name
			if len(containers) > 1 {
				ref += "-" + ctr.Name
			}
			for _, env := range ctr.Env {
				if !strings.HasPrefix(env.Name, relatedImagePrefix) {
					continue
				}
				if env.ValueFrom != nil {
					return nil, nil, fmt.Errorf("deployment %s, container %s: %s uses valueFrom; related images need a literal value",
						dep.Name, ctr.Name, env.Name)
				}
				name := strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(env.Name, relatedImagePrefix), "_", "-"))
				if seen[name+"-"+env.Value] {
					continue
				}
				seen[name+"-"+env.Value] = true
				f := &foundImage{name: name, image: env.Value, containerRef: ref}
				found = append(found, f)
				byName[name] = append(byName[name], f)
				byImage[env.Value] = append(byImage[env.Value], f)
			}
		}
	}
	var out []v1alpha1.RelatedImage
	var warnings []string
	for _, f := range found {
		name := f.name
		if len(byName[f.name]) > 1 {
			name = f.containerRef + "-" + name
		}
		if same := byImage[f.image]; len(same) > 1 {
			if same[0].name != f.name {
				continue
			}
			name = ""
			warnings = append(warnings, fmt.Sprintf("related image %s is set under several names (first %q); it is listed once with an empty name: use one name for it", f.image, f.name))
		}
		out = append(out, v1alpha1.RelatedImage{Name: name, Image: f.image})
	}
	return out, warnings, nil
}

// mergeRelatedImages keeps the base CSV's relatedImages that detection did not find
// (operator-sdk drops them). A base entry whose name is taken by a different detected image
// is dropped with a warning.
func mergeRelatedImages(detected, base []v1alpha1.RelatedImage) ([]v1alpha1.RelatedImage, []string) {
	out := append([]v1alpha1.RelatedImage(nil), detected...)
	byName := map[string]string{}
	have := map[v1alpha1.RelatedImage]bool{}
	for _, ri := range detected {
		byName[ri.Name] = ri.Image
		have[ri] = true
	}
	var warnings []string
	for _, ri := range base {
		if have[ri] {
			continue
		}
		if img, ok := byName[ri.Name]; ok && ri.Name != "" {
			warnings = append(warnings, fmt.Sprintf("base relatedImage %q (%s) replaced by %s found in a RELATED_IMAGE_ variable", ri.Name, ri.Image, img))
			continue
		}
		have[ri] = true
		out = append(out, ri)
	}
	return out, warnings
}
