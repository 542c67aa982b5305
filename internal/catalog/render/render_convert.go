package render

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/opack/opack/internal/fbc"
)

// toFBC converts a registry+v1 bundle to an olm.bundle blob exactly as opm render does
// (operator-registry alpha/action/render.go bundleToDeclcfg and
// pkg/registry ObjectsAndPropertiesFromBundle).
func (b *registryBundle) toFBC() (*fbc.Bundle, error) {
	objs, props, err := b.objectsAndProperties()
	if err != nil {
		return nil, fmt.Errorf("get properties for bundle %q: %v", b.name, err)
	}
	related, err := b.relatedImages()
	if err != nil {
		return nil, fmt.Errorf("get related images for bundle %q: %v", b.name, err)
	}
	csvJSON, err := json.Marshal(b.csv)
	if err != nil {
		return nil, fmt.Errorf("marshal CSV JSON for bundle %q: %v", b.name, err)
	}
	return &fbc.Bundle{
		Schema:        fbc.SchemaBundle,
		Name:          b.name,
		Package:       b.pkg,
		Image:         b.image,
		Properties:    props,
		RelatedImages: related,
		Objects:       objs,
		CsvJSON:       string(csvJSON),
	}, nil
}

func (b *registryBundle) objectsAndProperties() ([]string, []fbc.Property, error) {
	providedGVKs := map[fbc.GVK]struct{}{}
	requiredGVKs := map[fbc.GVK]struct{}{}
	var pkgProp *fbc.Property
	var others, pkgRequired []fbc.Property

	for i, p := range b.properties {
		switch p.Type {
		case fbc.TypeGVK:
			var v fbc.GVK
			if err := json.Unmarshal(p.Value, &v); err != nil {
				return nil, nil, fbc.PropertyParseError{Index: i, Type: p.Type, Err: err}
			}
			providedGVKs[v] = struct{}{}
		case fbc.TypePackage:
			var v fbc.PackageProperty
			if err := json.Unmarshal(p.Value, &v); err != nil {
				return nil, nil, fbc.PropertyParseError{Index: i, Type: p.Type, Err: err}
			}
			np := fbc.MustBuildProperty(fbc.TypePackage, v)
			pkgProp = &np
		default:
			others = append(others, p)
		}
	}
	for i, p := range b.dependencies {
		switch p.Type {
		case fbc.TypeGVK:
			var v fbc.GVK
			if err := json.Unmarshal(p.Value, &v); err != nil {
				return nil, nil, fbc.PropertyParseError{Index: i, Type: p.Type, Err: err}
			}
			requiredGVKs[v] = struct{}{}
		case fbc.TypePackage:
			var v fbc.PackageProperty
			if err := json.Unmarshal(p.Value, &v); err != nil {
				return nil, nil, fbc.PropertyParseError{Index: i, Type: p.Type, Err: err}
			}
			pkgRequired = append(pkgRequired, fbc.NewPackageRequiredProperty(v.PackageName, v.Version))
		default:
			others = append(others, p)
		}
	}

	version, err := b.version()
	if err != nil {
		return nil, nil, fmt.Errorf("get version: %v", err)
	}
	release, err := b.release()
	if err != nil {
		return nil, nil, fmt.Errorf("get release: %v", err)
	}
	provided, err := b.providedAPIs()
	if err != nil {
		return nil, nil, fmt.Errorf("get provided apis: %v", err)
	}
	for k := range provided {
		providedGVKs[fbc.GVK{Group: k.Group, Kind: k.Kind, Version: k.Version}] = struct{}{}
	}
	required, err := b.requiredAPIs()
	if err != nil {
		return nil, nil, fmt.Errorf("get required apis: %v", err)
	}
	for k := range required {
		requiredGVKs[fbc.GVK{Group: k.Group, Kind: k.Kind, Version: k.Version}] = struct{}{}
	}

	var props []fbc.Property
	objects := make([]string, 0, len(b.objects))
	for _, o := range b.objects {
		data, err := json.Marshal(o)
		if err != nil {
			return nil, nil, fmt.Errorf("marshal object %s/%s (%s) to json: %v", o.GetName(), o.GetNamespace(), o.GroupVersionKind(), err)
		}
		props = append(props, fbc.NewBundleObjectProperty(data))
		objects = append(objects, string(data))
	}
	if pkgProp == nil {
		np := fbc.MustBuildProperty(fbc.TypePackage, fbc.PackageProperty{PackageName: b.pkg, Version: version, Release: release})
		pkgProp = &np
	}
	props = append(props, *pkgProp)
	for g := range providedGVKs {
		props = append(props, fbc.NewGVKProperty(g.Group, g.Version, g.Kind))
	}
	for g := range requiredGVKs {
		props = append(props, fbc.NewGVKRequiredProperty(g.Group, g.Version, g.Kind))
	}
	props = append(props, pkgRequired...)
	props = append(props, others...)
	sort.SliceStable(props, func(i, j int) bool {
		if props[i].Type != props[j].Type {
			return props[i].Type < props[j].Type
		}
		return string(props[i].Value) < string(props[j].Value)
	})
	return objects, props, nil
}

// relatedImages are the CSV's spec.relatedImages, then the bundle image and the images of
// the CSV's deployments (containers and init containers) not already listed, unnamed.
func (b *registryBundle) relatedImages() ([]fbc.RelatedImage, error) {
	var related []fbc.RelatedImage
	if raw, ok := b.spec["relatedImages"]; ok && !isJSONNull(raw) {
		if err := json.Unmarshal(raw, &related); err != nil {
			return nil, err
		}
	}
	seen := map[string]bool{}
	for _, ri := range related {
		seen[ri.Image] = true
	}
	if b.image != "" && !seen[b.image] {
		related = append(related, fbc.RelatedImage{Image: b.image})
	}
	images, err := b.operatorImages()
	if err != nil {
		return nil, err
	}
	for _, img := range images {
		if !seen[img] {
			related = append(related, fbc.RelatedImage{Image: img})
		}
		seen[img] = true
	}
	return related, nil
}

// operatorImages are the images of the CSV's deployment install strategy, sorted.
func (b *registryBundle) operatorImages() ([]string, error) {
	raw, ok := b.spec["install"]
	if !ok || isJSONNull(raw) {
		return nil, nil
	}
	type container struct {
		Image string `json:"image"`
	}
	var install struct {
		Strategy string `json:"strategy"`
		Spec     struct {
			Deployments []struct {
				Spec struct {
					Template struct {
						Spec struct {
							Containers     []container `json:"containers"`
							InitContainers []container `json:"initContainers"`
						} `json:"spec"`
					} `json:"template"`
				} `json:"spec"`
			} `json:"deployments"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(raw, &install); err != nil {
		return nil, err
	}
	if install.Strategy != "deployment" {
		return nil, nil
	}
	set := map[string]struct{}{}
	for _, d := range install.Spec.Deployments {
		for _, c := range d.Spec.Template.Spec.Containers {
			set[c.Image] = struct{}{}
		}
		for _, c := range d.Spec.Template.Spec.InitContainers {
			set[c.Image] = struct{}{}
		}
	}
	images := make([]string, 0, len(set))
	for img := range set {
		images = append(images, img)
	}
	sort.Strings(images)
	return images, nil
}
