package crd

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/manifest"
)

// Instance is an existing custom resource and the file it came from.
type Instance struct {
	File   string
	Object *unstructured.Unstructured
}

// LoadInstances reads the objects of files and folders (YAML or JSON streams, `kind: List` expanded).
func LoadInstances(ctx context.Context, paths []string, opts ...manifest.Option) ([]Instance, error) {
	var out []Instance
	for _, p := range paths {
		docs, err := readObjectsWith(ctx, p, false, opts, exactNumbers)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			out = append(out, Instance{File: d.File, Object: d.Object})
		}
	}
	return out, nil
}

// exactNumbers re-decodes a document so that integers are int64, as the API server decodes them
// (a YAML decoder into interface{} makes every number a float64, which "format: int64" refuses).
func exactNumbers(d *manifest.Doc) error {
	if len(d.Raw) == 0 {
		return nil
	}
	data, err := yaml.YAMLToJSON(d.Raw)
	if err != nil {
		return fmt.Errorf("reading %s: %w", d, err)
	}
	var m map[string]interface{}
	if err := utiljson.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("reading %s: %w", d, err)
	}
	d.Object = &unstructured.Unstructured{Object: m}
	return nil
}

// versionValidator validates objects against one version's schema: OpenAPI, then CEL.
type versionValidator struct {
	schema     apiservervalidation.SchemaValidator
	structural *structuralschema.Structural
	cel        *cel.Validator
}

func newVersionValidator(s *apiextv1.JSONSchemaProps) (*versionValidator, error) {
	internal, err := schemaToInternal(s)
	if err != nil {
		return nil, err
	}
	sv, _, err := apiservervalidation.NewSchemaValidator(internal)
	if err != nil {
		return nil, err
	}
	v := &versionValidator{schema: sv}
	if st, err := structuralschema.NewStructural(internal); err == nil {
		v.structural = st
		v.cel = cel.NewValidator(st, true, celconfig.PerCallLimit)
	}
	return v, nil
}

// validateInstances checks each existing object of the CRD's kind against the new schema of every
// version served in both CRDs (OLM v0 lists objects at each such version, converted by the API server,
// and validates them; with None conversion only apiVersion changes). When the new CRD converts with a
// webhook, objects read at another version than their own cannot be predicted: those findings are at
// most warnings, as in OLM v0.
func validateInstances(ctx context.Context, oc, nc *apiextv1.CustomResourceDefinition, objs []Instance, emit func(change)) {
	unreadable(oc, nc, objs, emit)
	var versions []*apiextv1.CustomResourceDefinitionVersion
	for i := range nc.Spec.Versions {
		nv := &nc.Spec.Versions[i]
		if ov := findVersion(oc, nv.Name); ov != nil && ov.Served && nv.Served && versionSchema(nv) != nil {
			versions = append(versions, nv)
		}
	}
	if len(versions) == 0 {
		return
	}
	validators := make([]*versionValidator, len(versions))
	for i, v := range versions {
		vv, err := newVersionValidator(versionSchema(v))
		if err != nil {
			emit(change{Finding: Finding{Rule: RuleInstanceInvalid, Version: v.Name,
				Message: "cannot build the schema validator: " + err.Error()}})
			continue
		}
		validators[i] = vv
	}
	for _, group := range groupInstances(objs, nc.Spec.Group, nc.Spec.Names.Kind) {
		for i, v := range versions {
			if validators[i] == nil {
				continue
			}
			inst := pickVersion(group, v.Name)
			ceiling := SeverityOff
			if inst.Object.GroupVersionKind().Version != v.Name && !isNoneConversion(nc) {
				ceiling = SeverityWarning
			}
			validators[i].check(ctx, inst, nc.Spec.Group+"/"+v.Name, v.Name, ceiling, emit)
		}
	}
}

// unreadable names the existing objects whose own version (the first form given) is served before the
// upgrade and not after: the API server answers 404 for them at that version, though they stay stored.
func unreadable(oc, nc *apiextv1.CustomResourceDefinition, objs []Instance, emit func(change)) {
	for _, group := range groupInstances(objs, nc.Spec.Group, nc.Spec.Names.Kind) {
		inst := group[0]
		own := inst.Object.GroupVersionKind().Version
		ov, nv := findVersion(oc, own), findVersion(nc, own)
		if ov == nil || !ov.Served || (nv != nil && nv.Served) {
			continue
		}
		rule, why := RuleVersionUnserved, "is no longer served"
		if nv == nil {
			rule, why = RuleVersionRemoved, "is removed"
		}
		emit(change{Finding: Finding{Rule: rule, Version: own, Path: "spec.versions", File: inst.File,
			Message: fmt.Sprintf("existing %s created as %s/%s becomes unreadable at %s: %s, so the API server answers 404 (not found) for it there; clients must read it at a served version (%s)",
				instanceName(inst.Object), nc.Spec.Group, own, own, own+" "+why, strings.Join(servedVersions(nc), ", "))}})
	}
}

func servedVersions(c *apiextv1.CustomResourceDefinition) []string {
	var out []string
	for _, v := range c.Spec.Versions {
		if v.Served {
			out = append(out, v.Name)
		}
	}
	if len(out) == 0 {
		out = append(out, "none")
	}
	return out
}

// groupInstances collects the objects of one kind by namespace and name: the same object given at
// several versions (as the API server would list it at each) is one group.
func groupInstances(objs []Instance, group, kind string) [][]Instance {
	index := map[string]int{}
	var out [][]Instance
	for i, inst := range objs {
		gvk := inst.Object.GroupVersionKind()
		if gvk.Group != group || gvk.Kind != kind {
			continue
		}
		key := inst.Object.GetNamespace() + "/" + inst.Object.GetName()
		if inst.Object.GetName() == "" {
			key = "#" + strconv.Itoa(i)
		}
		j, ok := index[key]
		if !ok {
			j = len(out)
			index[key] = j
			out = append(out, nil)
		}
		out[j] = append(out[j], inst)
	}
	return out
}

// pickVersion returns the object as given at version, or else its first form (to be converted).
func pickVersion(group []Instance, version string) Instance {
	for _, inst := range group {
		if inst.Object.GroupVersionKind().Version == version {
			return inst
		}
	}
	return group[0]
}

func (vv *versionValidator) check(ctx context.Context, inst Instance, apiVersion, version string, ceiling Severity, emit func(change)) {
	obj := make(map[string]interface{}, len(inst.Object.Object))
	for k, v := range inst.Object.Object {
		obj[k] = v
	}
	obj["apiVersion"] = apiVersion
	name := instanceName(inst.Object)
	if errs := apiservervalidation.ValidateCustomResource(nil, obj, vv.schema); len(errs) > 0 {
		emit(change{ceiling: ceiling, Finding: Finding{Rule: RuleInstanceInvalid, Version: version, File: inst.File,
			Path: errs[0].Field, Message: fmt.Sprintf("existing %s read as %s: updated validation is too restrictive: %s (OLM v0 fails the upgrade; the API server keeps the object readable and accepts writes that leave these fields unchanged or make them valid)", name, apiVersion, joinErrs(errs))}})
	}
	if vv.cel == nil {
		return
	}
	errs := vv.celErrors(ctx, obj)
	if len(errs) > 0 {
		emit(change{ceiling: ceiling, Finding: Finding{Rule: RuleInstanceCELInvalid, Version: version, File: inst.File,
			Path: errs[0].Field, Message: fmt.Sprintf("existing %s read as %s violates x-kubernetes-validations: %s", name, apiVersion, joinErrs(errs))}})
	}
}

func (vv *versionValidator) celErrors(ctx context.Context, obj map[string]interface{}) (errs field.ErrorList) {
	defer func() {
		if r := recover(); r != nil {
			errs = field.ErrorList{field.InternalError(nil, fmt.Errorf("evaluating CEL rules: %v", r))}
		}
	}()
	errs, _ = vv.cel.Validate(ctx, nil, vv.structural, obj, nil, celconfig.RuntimeCELCostBudget)
	return errs
}

func instanceName(u *unstructured.Unstructured) string {
	n := u.GetName()
	if ns := u.GetNamespace(); ns != "" {
		n = ns + "/" + n
	}
	return u.GetKind() + " " + n
}

func joinErrs(errs field.ErrorList) string {
	s := make([]string, len(errs))
	for i, e := range errs {
		s[i] = e.Error()
	}
	sort.Strings(s)
	return strings.Join(s, "; ")
}
