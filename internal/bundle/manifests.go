package bundle

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/parallel"
)

// supportedKinds are the kinds operator-registry v1.59.0 (operator-sdk v1.42.3) accepts in a
// registry+v1 bundle besides the CSV.
var supportedKinds = map[string]bool{
	"ClusterServiceVersion": true, "CustomResourceDefinition": true, "Secret": true, "ClusterRole": true,
	"ClusterRoleBinding": true, "ConfigMap": true, "ServiceAccount": true, "Service": true, "Role": true,
	"RoleBinding": true, "PrometheusRule": true, "ServiceMonitor": true, "PodDisruptionBudget": true,
	"PriorityClass": true, "VerticalPodAutoscaler": true, "ConsoleYAMLSample": true, "ConsoleQuickStart": true,
	"ConsoleCLIDownload": true, "ConsoleLink": true, "ConsolePlugin": true, "NetworkPolicy": true,
}

// IsSupportedKind reports whether a registry+v1 bundle may carry an object of kind.
func IsSupportedKind(kind string) bool { return supportedKinds[kind] }

// File is one generated file.
type File struct {
	// Name is the slash-separated path relative to the bundle folder.
	Name string
	Data []byte
	// Kind and Object name the object the file holds ("" for metadata files).
	Kind, Object string
}

// Dropped is an input object that is neither written nor used in the CSV.
type Dropped struct {
	Source string // the document, e.g. "-, document 3"
	Kind   string
	Name   string
	Reason string
}

// String is the line generate and build print after "dropped: ".
func (d Dropped) String() string {
	return fmt.Sprintf("%s %s (%s): %s", d.Kind, d.Name, d.Source, d.Reason)
}

// outObject is a non-CSV object to write, with what its file name needs.
type outObject struct {
	gvk       schema.GroupVersionKind
	name      string
	crdGroup  string // set for CRDs: file name is <group>_<plural>.yaml
	crdPlural string
	obj       interface{} // typed object or map, namespace already cleared
}

// manifestObjects lists the objects written beside the CSV, in operator-sdk's order: CRDs,
// services, other supported kinds, then RBAC and service accounts the CSV does not cover.
// Unsupported kinds are returned as dropped.
func manifestObjects(c *collection, split rbacSplit, sas map[string]bool) ([]outObject, []Dropped) {
	var out []outObject
	for _, crd := range c.V1CRDs {
		crd.Namespace = ""
		out = append(out, outObject{gvk: crd.GroupVersionKind(), name: crd.Name, crdGroup: crd.Spec.Group, crdPlural: crd.Spec.Names.Plural, obj: crd})
	}
	for _, crd := range c.V1beta1CRDs {
		crd.Namespace = ""
		out = append(out, outObject{gvk: crd.GroupVersionKind(), name: crd.Name, crdGroup: crd.Spec.Group, crdPlural: crd.Spec.Names.Plural, obj: crd})
	}
	for _, s := range c.Services {
		s.Namespace = ""
		out = append(out, typed(s.GroupVersionKind(), s.Name, s))
	}
	var dropped []Dropped
	for _, o := range c.Others {
		u := o.Object.DeepCopy()
		if !IsSupportedKind(u.GetKind()) {
			dropped = append(dropped, Dropped{Source: fmt.Sprintf("%s, document %d", o.Doc.File, o.Doc.Index+1),
				Kind: u.GetKind(), Name: u.GetName(), Reason: "OLM cannot install this kind from a registry+v1 bundle"})
			continue
		}
		u.SetNamespace("")
		out = append(out, typed(u.GroupVersionKind(), u.GetName(), u.Object))
	}
	for _, r := range split.OutRoles {
		r.Namespace = ""
		out = append(out, typed(r.GroupVersionKind(), r.Name, r))
	}
	for _, r := range split.OutClusterRoles {
		r.Namespace = ""
		out = append(out, typed(r.GroupVersionKind(), r.Name, r))
	}
	for _, b := range split.OutRoleBindings {
		b.Namespace = ""
		out = append(out, typed(b.GroupVersionKind(), b.Name, b))
	}
	for _, b := range split.OutClusterRoleBindings {
		b.Namespace = ""
		out = append(out, typed(b.GroupVersionKind(), b.Name, b))
	}
	for _, sa := range c.ServiceAccounts {
		if !sas[sa.Name] {
			sa.Namespace = ""
			out = append(out, typed(sa.GroupVersionKind(), sa.Name, sa))
		}
	}
	return out, dropped
}

func typed(gvk schema.GroupVersionKind, name string, obj interface{}) outObject {
	return outObject{gvk: gvk, name: name, obj: obj}
}

// fileName is operator-sdk's file name for an object.
func (o outObject) fileName() string {
	if o.crdGroup != "" && o.crdPlural != "" {
		return fmt.Sprintf("%s_%s.yaml", o.crdGroup, o.crdPlural)
	}
	if o.gvk.Group == "" {
		return fmt.Sprintf("%s_%s_%s.yaml", o.name, o.gvk.Version, strings.ToLower(o.gvk.Kind))
	}
	return fmt.Sprintf("%s_%s_%s_%s.yaml", o.name, o.gvk.Group, o.gvk.Version, strings.ToLower(o.gvk.Kind))
}

// renderManifests marshals objects into files under manifests/, naming duplicates dup<N>_<name>.
func renderManifests(objs []outObject) ([]File, error) {
	seen := map[string]bool{}
	dups := 0
	files := make([]File, len(objs))
	for i, o := range objs {
		name := o.fileName()
		if seen[name] {
			name = fmt.Sprintf("dup%d_%s", dups, name)
			dups++
		}
		seen[name] = true
		files[i] = File{Name: ManifestsDir + "/" + name, Kind: o.gvk.Kind, Object: o.name}
	}
	// Encoded in parallel (the objects share nothing), CRDs first: a large CRD takes most of the time.
	order := make([]int, 0, len(objs))
	for _, crds := range []bool{true, false} {
		for i, o := range objs {
			if (o.crdGroup != "") == crds {
				order = append(order, i)
			}
		}
	}
	errs := make([]error, len(objs))
	parallel.ForEach(context.Background(), len(order), nil, func(k int) {
		i := order[k]
		files[i].Data, errs[i] = marshalObject(objs[i].obj)
	})
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("encoding %s %s: %w", objs[i].gvk.Kind, objs[i].name, err)
		}
	}
	return files, nil
}

// marshalObject renders an object as operator-sdk does with sigs.k8s.io/yaml. Typed objects
// get "creationTimestamp: null" as the k8s libraries operator-sdk v1.42.3 builds with emit it
// (newer ones omit the zero time).
func marshalObject(obj interface{}) ([]byte, error) {
	if _, ok := obj.(map[string]interface{}); ok {
		return yaml.Marshal(obj)
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]interface{}
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if md, ok := m["metadata"].(map[string]interface{}); ok {
		if _, has := md["creationTimestamp"]; !has {
			md["creationTimestamp"] = nil
		}
	}
	return yaml.Marshal(m)
}
