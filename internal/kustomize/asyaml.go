package kustomize

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/parallel"
)

// asYAML is resmap's AsYaml — each resource as YAML, "---" between them — with the resources encoded in
// parallel (they share nothing while being read) and each through resourceYAML.
func asYAML(m resmap.ResMap) ([]byte, error) {
	resources := m.Resources()
	outs := make([][]byte, len(resources))
	errs := make([]error, len(resources))
	parallel.ForEach(context.Background(), len(resources), nil, func(j int) {
		outs[j], errs[j] = resourceYAML(resources[j])
	})
	var buf bytes.Buffer
	for j, out := range outs {
		if errs[j] != nil {
			obj, _ := resources[j].Map()
			return nil, fmt.Errorf("%#v: %w", obj, errs[j])
		}
		if j > 0 {
			buf.WriteString("---\n")
		}
		buf.Write(out)
	}
	return buf.Bytes(), nil
}

// resourceYAML is Resource.AsYAML without its first round trip. Kustomize encodes the resource's
// YAML node as text, decodes that text into a map (yaml.v3), encodes the map as JSON and the JSON
// as YAML (sigs.k8s.io/yaml). The node is decoded into the map directly here, by the same decoder:
// the text step only restates the node (a third of a build's encoding CPU on large CRDs).
// The text step is not always a restatement: yaml.v3 writes a folded scalar (">") whose lines are
// indented further with a line break more than it read (kustomize prints that), so a resource
// holding a folded scalar, like one whose node is not a mapping or that the decoder refuses, takes
// kustomize's own path.
// TestCorpusResourceYAML and TestResourceYAML hold the two to byte equality.
func resourceYAML(r *resource.Resource) ([]byte, error) {
	n := r.YNode()
	if n == nil || n.Kind != kyaml.MappingNode || hasFolded(n) {
		return r.AsYAML()
	}
	m := map[string]interface{}{}
	if err := n.Decode(&m); err != nil {
		return r.AsYAML()
	}
	j, err := json.Marshal(m)
	if err != nil {
		return r.AsYAML()
	}
	return yaml.JSONToYAML(j)
}

// hasFolded reports whether a scalar below n is in folded style.
func hasFolded(n *kyaml.Node) bool {
	if n.Kind == kyaml.ScalarNode && n.Style&kyaml.FoldedStyle != 0 {
		return true
	}
	for _, c := range n.Content {
		if hasFolded(c) {
			return true
		}
	}
	return false
}
