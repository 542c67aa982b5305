package synth

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

type obj = map[string]any

// crd builds the CRD of kind k as bundle b ships it: the same base schema in every bundle of
// the package, plus one optional field per earlier release, so every upgrade edge is safe.
func (p *pkgModel) crd(k int, b bundleModel) obj {
	kind := p.kinds[k]
	plural := strings.ToLower(kind) + "s"
	rng := rand.New(rand.NewPCG(p.seed, uint64(k)))
	spec := schemaObject(rng, p.cfg.SchemaDepth, p.cfg.SchemaWidth)
	props := spec["properties"].(obj)
	for j := 1; j <= b.index; j++ {
		props[fmt.Sprintf("addedIn%d", j)] = obj{"type": "string", "description": fmt.Sprintf("Added in 1.%d.0.", j)}
	}
	status := schemaObject(rng, 2, 3)
	return obj{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata": obj{
			"name":        plural + "." + p.group,
			"annotations": obj{"controller-gen.kubebuilder.io/version": "v0.16.1"},
		},
		"spec": obj{
			"group": p.group,
			"names": obj{"kind": kind, "listKind": kind + "List", "plural": plural, "singular": strings.ToLower(kind)},
			"scope": "Namespaced",
			"versions": []any{obj{
				"name": "v1", "served": true, "storage": true,
				"subresources": obj{"status": obj{}},
				"schema": obj{"openAPIV3Schema": obj{
					"type":        "object",
					"description": kind + " is a synthetic resource.",
					"properties": obj{
						"apiVersion": obj{"type": "string"},
						"kind":       obj{"type": "string"},
						"metadata":   obj{"type": "object"},
						"spec":       spec,
						"status":     status,
					},
				}},
			}},
		},
	}
}

// schemaObject returns an object schema of the given depth with width properties.
func schemaObject(rng *rand.Rand, depth, width int) obj {
	props := obj{}
	var required []any
	for i := range width {
		name := fmt.Sprintf("field%d", i)
		if depth > 1 && rng.IntN(3) == 0 {
			props[name] = schemaObject(rng, depth-1, width)
		} else {
			props[name] = schemaLeaf(rng)
		}
		if rng.IntN(4) == 0 {
			required = append(required, name)
		}
	}
	s := obj{"type": "object", "properties": props, "description": "A synthetic object with several fields."}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func schemaLeaf(rng *rand.Rand) obj {
	switch rng.IntN(5) {
	case 0:
		return obj{"type": "string", "enum": []any{"Alpha", "Beta", "Gamma"}, "default": "Alpha"}
	case 1:
		return obj{"type": "integer", "format": "int32", "minimum": 0, "maximum": 1000}
	case 2:
		return obj{"type": "boolean", "description": "Turns a synthetic feature on."}
	case 3:
		return obj{"type": "array", "items": obj{"type": "string", "maxLength": 63}, "maxItems": 16}
	default:
		return obj{"type": "string", "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "maxLength": 253}
	}
}
