package olmharness

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"
)

// Bundle is a registry+v1 bundle made for a test: a ClusterServiceVersion whose install strategy is one
// Deployment (the kubelet reports it available; its image never runs) and the CRDs it owns. Its upgrade
// fields (replaces, skips, the olm.skipRange annotation) are those a catalog entry of it would carry, so
// that OLM reads the same graph from the bundle as from the catalog.
type Bundle struct {
	Package, Name, Version string // Name is the CSV's metadata.name
	Replaces               string
	Skips                  []string
	SkipRange              string
	// Channels are the bundle's channels (metadata/annotations.yaml); default "stable".
	Channels []string
	// CRDs are the CRDs it owns, as YAML or JSON documents.
	CRDs [][]byte
}

// Write writes the bundle into dir: manifests/ (the CSV, each CRD) and metadata/annotations.yaml.
func (b Bundle) Write(dir string) error {
	owned := make([]map[string]any, 0, len(b.CRDs))
	files := map[string][]byte{}
	for i, data := range b.CRDs {
		var crd struct {
			Metadata struct{ Name string } `json:"metadata"`
			Spec     struct {
				Names    struct{ Kind string } `json:"names"`
				Version  string                `json:"version"`
				Versions []struct {
					Name    string `json:"name"`
					Storage bool   `json:"storage"`
				} `json:"versions"`
			} `json:"spec"`
		}
		if err := yaml.Unmarshal(data, &crd); err != nil {
			return fmt.Errorf("reading CRD %d of bundle %s: %w", i, b.Name, err)
		}
		version := crd.Spec.Version
		for _, v := range crd.Spec.Versions {
			if v.Storage || version == "" {
				version = v.Name
			}
		}
		owned = append(owned, map[string]any{"name": crd.Metadata.Name, "kind": crd.Spec.Names.Kind, "version": version,
			"displayName": crd.Spec.Names.Kind})
		files[fmt.Sprintf("manifests/crd-%d.yaml", i)] = data
	}
	csv, err := yaml.Marshal(b.csv(owned))
	if err != nil {
		return fmt.Errorf("encoding the CSV of %s: %w", b.Name, err)
	}
	files["manifests/"+b.Package+".clusterserviceversion.yaml"] = csv
	channels := b.Channels
	if len(channels) == 0 {
		channels = []string{"stable"}
	}
	files["metadata/annotations.yaml"] = []byte(fmt.Sprintf(`annotations:
  operators.operatorframework.io.bundle.mediatype.v1: registry+v1
  operators.operatorframework.io.bundle.manifests.v1: manifests/
  operators.operatorframework.io.bundle.metadata.v1: metadata/
  operators.operatorframework.io.bundle.package.v1: %s
  operators.operatorframework.io.bundle.channels.v1: %s
  operators.operatorframework.io.bundle.channel.default.v1: %s
`, b.Package, strings.Join(channels, ","), channels[0]))
	for name, data := range files {
		if err := writeFile(filepath.Join(dir, name), string(data)); err != nil {
			return err
		}
	}
	return nil
}

func (b Bundle) csv(owned []map[string]any) map[string]any {
	meta := map[string]any{"name": b.Name, "annotations": map[string]any{"capabilities": "Basic Install"}}
	if b.SkipRange != "" {
		meta["annotations"].(map[string]any)["olm.skipRange"] = b.SkipRange
	}
	deployment := b.Package + "-controller"
	labels := map[string]any{"app": deployment}
	spec := map[string]any{
		"displayName": b.Package,
		"version":     b.Version,
		"installModes": []map[string]any{{"type": "OwnNamespace", "supported": true}, {"type": "SingleNamespace", "supported": true},
			{"type": "MultiNamespace", "supported": false}, {"type": "AllNamespaces", "supported": true}},
		"customresourcedefinitions": map[string]any{"owned": owned},
		"install": map[string]any{"strategy": "deployment", "spec": map[string]any{
			"deployments": []map[string]any{{"name": deployment, "spec": map[string]any{
				"replicas": 1,
				"selector": map[string]any{"matchLabels": labels},
				"template": map[string]any{"metadata": map[string]any{"labels": labels}, "spec": map[string]any{
					"containers": []map[string]any{{"name": "manager", "image": "example.invalid/" + b.Package + ":" + b.Version}}}},
			}}}}},
	}
	if b.Replaces != "" {
		spec["replaces"] = b.Replaces
	}
	if len(b.Skips) > 0 {
		spec["skips"] = b.Skips
	}
	return map[string]any{"apiVersion": "operators.coreos.com/v1alpha1", "kind": "ClusterServiceVersion", "metadata": meta, "spec": spec}
}

// writeFile writes data to file, making its folder.
func writeFile(file, data string) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return fmt.Errorf("making the folder of %s: %w", file, err)
	}
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", file, err)
	}
	return nil
}
