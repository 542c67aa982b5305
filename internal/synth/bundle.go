package synth

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"
)

// csv builds the ClusterServiceVersion of bundle b.
func (p *pkgModel) csv(b bundleModel) obj {
	var owned, alm []any
	for _, kind := range p.kinds {
		owned = append(owned, obj{"name": strings.ToLower(kind) + "s." + p.group, "version": "v1", "kind": kind,
			"displayName": kind, "description": kind + " is a synthetic resource."})
		alm = append(alm, obj{"apiVersion": p.group + "/v1", "kind": kind, "metadata": obj{"name": "example"}, "spec": obj{}})
	}
	almJSON, _ := yaml.YAMLToJSON(mustYAML(alm))
	annotations := obj{"alm-examples": string(almJSON), "capabilities": "Basic Install",
		"containerImage": p.image("controller", b), "operators.operatorframework.io/builder": "synth"}
	if b.skipRange != "" {
		annotations["olm.skipRange"] = b.skipRange
	}
	spec := obj{
		"displayName": p.name, "description": "A synthetic operator for benchmarks.", "version": b.version,
		"maturity": "stable", "minKubeVersion": "1.25.0", "keywords": []any{"synthetic"},
		"provider":    obj{"name": "Synth"},
		"maintainers": []any{obj{"name": "Synth", "email": "synth@example.com"}},
		"installModes": []any{
			obj{"type": "OwnNamespace", "supported": true}, obj{"type": "SingleNamespace", "supported": true},
			obj{"type": "MultiNamespace", "supported": false}, obj{"type": "AllNamespaces", "supported": true},
		},
		"customresourcedefinitions": obj{"owned": owned},
		"install":                   obj{"strategy": "deployment", "spec": p.install(b)},
		"relatedImages":             []any{obj{"name": "controller", "image": p.image("controller", b)}},
	}
	if b.replaces != "" {
		spec["replaces"] = b.replaces
	}
	if len(b.skips) > 0 {
		spec["skips"] = toAny(b.skips)
	}
	return obj{
		"apiVersion": "operators.coreos.com/v1alpha1", "kind": "ClusterServiceVersion",
		"metadata": obj{"name": b.name, "namespace": "placeholder", "annotations": annotations},
		"spec":     spec,
	}
}

func (p *pkgModel) install(b bundleModel) obj {
	var rules []any
	for _, kind := range p.kinds {
		plural := strings.ToLower(kind) + "s"
		rules = append(rules, obj{"apiGroups": []any{p.group}, "resources": []any{plural, plural + "/status", plural + "/finalizers"},
			"verbs": []any{"create", "delete", "get", "list", "patch", "update", "watch"}})
	}
	sa := p.name + "-controller-manager"
	container := obj{
		"name": "manager", "image": p.image("controller", b), "args": []any{"--leader-elect"},
		"resources": obj{"limits": obj{"cpu": "500m", "memory": "128Mi"}, "requests": obj{"cpu": "10m", "memory": "64Mi"}},
		"env":       []any{obj{"name": "WATCH_NAMESPACE", "valueFrom": obj{"fieldRef": obj{"fieldPath": "metadata.annotations['olm.targetNamespaces']"}}}},
	}
	return obj{
		"clusterPermissions": []any{obj{"serviceAccountName": sa, "rules": rules}},
		"permissions": []any{obj{"serviceAccountName": sa, "rules": []any{obj{"apiGroups": []any{""},
			"resources": []any{"configmaps", "events"}, "verbs": []any{"create", "get", "list", "patch"}}}}},
		"deployments": []any{obj{"name": p.name + "-controller-manager", "spec": obj{
			"replicas": 1,
			"selector": obj{"matchLabels": obj{"control-plane": "controller-manager"}},
			"template": obj{
				"metadata": obj{"labels": obj{"control-plane": "controller-manager"}},
				"spec":     obj{"serviceAccountName": sa, "containers": []any{container}},
			},
		}}},
	}
}

// image returns a digest reference derived from the names, so it is stable and unique.
func (p *pkgModel) image(what string, b bundleModel) string {
	sum := sha256.Sum256([]byte(p.name + "/" + what + "/" + b.version))
	return "quay.io/synth/" + p.name + "-" + what + "@sha256:" + hex.EncodeToString(sum[:])
}

func (p *pkgModel) annotations() obj {
	return obj{"annotations": obj{
		"operators.operatorframework.io.bundle.mediatype.v1":       "registry+v1",
		"operators.operatorframework.io.bundle.manifests.v1":       "manifests/",
		"operators.operatorframework.io.bundle.metadata.v1":        "metadata/",
		"operators.operatorframework.io.bundle.package.v1":         p.name,
		"operators.operatorframework.io.bundle.channels.v1":        "stable",
		"operators.operatorframework.io.bundle.channel.default.v1": "stable",
	}}
}

func writeBundle(dir string, p *pkgModel, b bundleModel) error {
	files := map[string]any{
		filepath.Join("manifests", p.name+".clusterserviceversion.yaml"): p.csv(b),
		filepath.Join("metadata", "annotations.yaml"):                    p.annotations(),
	}
	for k := range p.kinds {
		c := p.crd(k, b)
		files[filepath.Join("manifests", c["metadata"].(obj)["name"].(string)+".yaml")] = c
	}
	for name, v := range files {
		if err := writeFile(filepath.Join(dir, name), mustYAML(v)); err != nil {
			return err
		}
	}
	return nil
}

func mustYAML(v any) []byte {
	data, err := yaml.Marshal(v)
	if err != nil {
		panic(err) // only maps, slices and scalars built here
	}
	return data
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}
