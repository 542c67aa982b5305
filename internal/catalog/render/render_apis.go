package render

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// apiKey is an API a bundle provides or requires (opm's registry.APIKey).
type apiKey struct {
	Group   string
	Version string
	Kind    string
	Plural  string
}

func (k apiKey) String() string {
	return fmt.Sprintf("%s/%s/%s (%s)", k.Group, k.Version, k.Kind, k.Plural)
}

func sortedAPIKeys(m map[apiKey]struct{}) []apiKey {
	keys := make([]apiKey, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
	return keys
}

// definitionKey is an entry of a CSV's owned/required CRDs or API services.
type definitionKey struct {
	Group   string `json:"group"`
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	Version string `json:"version"`
}

type definitions struct {
	Owned    []definitionKey `json:"owned"`
	Required []definitionKey `json:"required"`
}

func (b *registryBundle) specDefinitions(key string) (definitions, error) {
	var d definitions
	raw, ok := b.spec[key]
	if !ok || isJSONNull(raw) {
		return d, nil
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		return d, fmt.Errorf("ClusterServiceVersion %s: spec.%s: %w", b.name, key, err)
	}
	return d, nil
}

// crdSpec is the part of a CustomResourceDefinition (v1 or v1beta1) that names its APIs.
type crdSpec struct {
	Spec struct {
		Group   string `json:"group"`
		Version string `json:"version"`
		Names   struct {
			Kind   string `json:"kind"`
			Plural string `json:"plural"`
		} `json:"names"`
		Versions []struct {
			Name string `json:"name"`
		} `json:"versions"`
	} `json:"spec"`
}

// providedAPIs are the versions of every CRD in the bundle and the CSV's owned API services.
func (b *registryBundle) providedAPIs() (map[apiKey]struct{}, error) {
	provided := map[apiKey]struct{}{}
	for _, o := range b.objects {
		gvk := o.GroupVersionKind()
		if gvk.Kind != "CustomResourceDefinition" || (gvk.Version != "v1" && gvk.Version != "v1beta1") {
			continue
		}
		raw, err := o.MarshalJSON()
		if err != nil {
			return nil, err
		}
		var crd crdSpec
		if err := json.Unmarshal(raw, &crd); err != nil {
			return nil, fmt.Errorf("error decoding %s CRD %s: %v", gvk.Version, o.GetName(), err)
		}
		s := crd.Spec
		for _, v := range s.Versions {
			provided[apiKey{Group: s.Group, Version: v.Name, Kind: s.Names.Kind, Plural: s.Names.Plural}] = struct{}{}
		}
		if gvk.Version == "v1beta1" && s.Version != "" {
			provided[apiKey{Group: s.Group, Version: s.Version, Kind: s.Names.Kind, Plural: s.Names.Plural}] = struct{}{}
		}
	}
	apis, err := b.specDefinitions("apiservicedefinitions")
	if err != nil {
		return nil, fmt.Errorf("error getting apiservice definitions: %s", err)
	}
	for _, a := range apis.Owned {
		provided[apiKey{Group: a.Group, Version: a.Version, Kind: a.Kind, Plural: a.Name}] = struct{}{}
	}
	return provided, nil
}

// requiredAPIs are the CSV's required CRDs and API services.
func (b *registryBundle) requiredAPIs() (map[apiKey]struct{}, error) {
	required := map[apiKey]struct{}{}
	crds, err := b.specDefinitions("customresourcedefinitions")
	if err != nil {
		return nil, err
	}
	for _, c := range crds.Required {
		plural, group, ok := strings.Cut(c.Name, ".")
		if !ok {
			return nil, fmt.Errorf("couldn't parse plural.group from crd name: %s", c.Name)
		}
		required[apiKey{Group: group, Version: c.Version, Kind: c.Kind, Plural: plural}] = struct{}{}
	}
	apis, err := b.specDefinitions("apiservicedefinitions")
	if err != nil {
		return nil, err
	}
	for _, a := range apis.Required {
		required[apiKey{Group: a.Group, Version: a.Version, Kind: a.Kind, Plural: a.Name}] = struct{}{}
	}
	return required, nil
}

// allProvidedAPIsInBundle checks that every CRD the CSV owns is among the bundle's CRDs.
func (b *registryBundle) allProvidedAPIsInBundle() error {
	provided, err := b.providedAPIs()
	if err != nil {
		return err
	}
	crds, err := b.specDefinitions("customresourcedefinitions")
	if err != nil {
		return err
	}
	for _, c := range crds.Owned {
		plural, group, ok := strings.Cut(c.Name, ".")
		if !ok {
			return fmt.Errorf("couldn't parse plural.group from crd name: %s", c.Name)
		}
		k := apiKey{Group: group, Version: c.Version, Kind: c.Kind, Plural: plural}
		if _, ok := provided[k]; !ok {
			found := make([]string, 0, len(provided))
			for _, p := range sortedAPIKeys(provided) {
				found = append(found, p.String())
			}
			return fmt.Errorf("couldn't find %s in bundle. found: [%s]", k, strings.Join(found, " "))
		}
	}
	return nil
}
