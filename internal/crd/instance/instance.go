// Package instance checks existing objects (custom resources) against a CRD upgrade as OLM v0 does
// before it updates a CRD: each object is validated, with the API server's own code (OpenAPI schema,
// then CEL rules), against the new schema of every version served before and after the upgrade; and an
// object whose own version stops being served is named, as the API server then answers 404 for it at
// that version.
package instance

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
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"

	"github.com/opack/opack/internal/crd/load"
)

// Kind says what an upgrade does to an existing object.
type Kind int

// Kinds of Problem.
const (
	// Invalid: the object fails the new schema (OpenAPI validation); OLM v0 fails the upgrade. Also
	// a version whose new schema cannot be validated against at all.
	Invalid Kind = iota
	// CELInvalid: the object violates the new schema's x-kubernetes-validations.
	CELInvalid
	// Unserved: the object's own version stays in the CRD but is no longer served.
	Unserved
	// Removed: the object's own version is removed from the CRD.
	Removed
)

// Problem is what the upgrade does to one existing object at one version.
type Problem struct {
	Kind Kind
	// Version is the CRD version the object is read at; Path the first field that fails
	// ("spec.versions" for Unserved and Removed); File where the object came from.
	Version, Path, File string
	Message             string
	// Converted: the object was read at another version than its own through the new CRD's
	// conversion webhook, which opack does not run: the object the webhook gives may differ, so
	// the problem is uncertain (OLM v0 reports such objects as warnings too).
	Converted bool
}

// versionValidator validates objects against one version's schema: OpenAPI, then CEL.
type versionValidator struct {
	schema     apiservervalidation.SchemaValidator
	structural *structuralschema.Structural
	cel        *cel.Validator
}

func newVersionValidator(s *apiextv1.JSONSchemaProps) (*versionValidator, error) {
	internal, err := load.SchemaToInternal(s)
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

// Check checks each existing object of the CRD's kind against the new schema of every version served
// in both CRDs (OLM v0 lists objects at each such version, converted by the API server, and validates
// them; with None conversion only apiVersion changes), and names the objects whose own version is no
// longer served. When the new CRD converts with a webhook, objects read at another version than their
// own cannot be predicted: those problems are Converted.
func Check(ctx context.Context, oc, nc *apiextv1.CustomResourceDefinition, objs []load.Instance) []Problem {
	out := unreadable(oc, nc, objs)
	var versions []*apiextv1.CustomResourceDefinitionVersion
	for i := range nc.Spec.Versions {
		nv := &nc.Spec.Versions[i]
		if ov := findVersion(oc, nv.Name); ov != nil && ov.Served && nv.Served && versionSchema(nv) != nil {
			versions = append(versions, nv)
		}
	}
	if len(versions) == 0 {
		return out
	}
	validators := make([]*versionValidator, len(versions))
	for i, v := range versions {
		vv, err := newVersionValidator(versionSchema(v))
		if err != nil {
			out = append(out, Problem{Kind: Invalid, Version: v.Name, Message: "cannot build the schema validator: " + err.Error()})
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
			converted := inst.Object.GroupVersionKind().Version != v.Name && !isNoneConversion(nc)
			out = append(out, validators[i].check(ctx, inst, nc.Spec.Group+"/"+v.Name, v.Name, converted)...)
		}
	}
	return out
}

// unreadable names the existing objects whose own version (the first form given) is served before the
// upgrade and not after: the API server answers 404 for them at that version, though they stay stored.
func unreadable(oc, nc *apiextv1.CustomResourceDefinition, objs []load.Instance) []Problem {
	var out []Problem
	for _, group := range groupInstances(objs, nc.Spec.Group, nc.Spec.Names.Kind) {
		inst := group[0]
		own := inst.Object.GroupVersionKind().Version
		ov, nv := findVersion(oc, own), findVersion(nc, own)
		if ov == nil || !ov.Served || (nv != nil && nv.Served) {
			continue
		}
		kind, why := Unserved, "is no longer served"
		if nv == nil {
			kind, why = Removed, "is removed"
		}
		out = append(out, Problem{Kind: kind, Version: own, Path: "spec.versions", File: inst.File,
			Message: fmt.Sprintf("existing %s created as %s/%s becomes unreadable at %s: %s, so the API server answers 404 (not found) for it there; clients must read it at a served version (%s)",
				instanceName(inst.Object), nc.Spec.Group, own, own, own+" "+why, strings.Join(servedVersions(nc), ", "))})
	}
	return out
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
func groupInstances(objs []load.Instance, group, kind string) [][]load.Instance {
	index := map[string]int{}
	var out [][]load.Instance
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
func pickVersion(group []load.Instance, version string) load.Instance {
	for _, inst := range group {
		if inst.Object.GroupVersionKind().Version == version {
			return inst
		}
	}
	return group[0]
}

// check validates inst, read at apiVersion (version of the CRD), with the OpenAPI schema, then the CEL rules.
func (vv *versionValidator) check(ctx context.Context, inst load.Instance, apiVersion, version string, converted bool) []Problem {
	obj := make(map[string]interface{}, len(inst.Object.Object))
	for k, v := range inst.Object.Object {
		obj[k] = v
	}
	obj["apiVersion"] = apiVersion
	name := instanceName(inst.Object)
	var out []Problem
	if errs := apiservervalidation.ValidateCustomResource(nil, obj, vv.schema); len(errs) > 0 {
		out = append(out, Problem{Kind: Invalid, Version: version, File: inst.File, Path: errs[0].Field, Converted: converted,
			Message: fmt.Sprintf("existing %s read as %s: updated validation is too restrictive: %s (OLM v0 fails the upgrade; the API server keeps the object readable and accepts writes that leave these fields unchanged or make them valid)", name, apiVersion, joinErrs(errs))})
	}
	if vv.cel == nil {
		return out
	}
	if errs := vv.celErrors(ctx, obj); len(errs) > 0 {
		out = append(out, Problem{Kind: CELInvalid, Version: version, File: inst.File, Path: errs[0].Field, Converted: converted,
			Message: fmt.Sprintf("existing %s read as %s violates x-kubernetes-validations: %s", name, apiVersion, joinErrs(errs))})
	}
	return out
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

// findVersion, versionSchema and isNoneConversion read a CRD as internal/crd does.

func findVersion(c *apiextv1.CustomResourceDefinition, name string) *apiextv1.CustomResourceDefinitionVersion {
	for i := range c.Spec.Versions {
		if c.Spec.Versions[i].Name == name {
			return &c.Spec.Versions[i]
		}
	}
	return nil
}

func versionSchema(v *apiextv1.CustomResourceDefinitionVersion) *apiextv1.JSONSchemaProps {
	if v.Schema == nil {
		return nil
	}
	return v.Schema.OpenAPIV3Schema
}

// isNoneConversion reports whether the CRD converts between versions by rewriting apiVersion only.
func isNoneConversion(c *apiextv1.CustomResourceDefinition) bool {
	return c.Spec.Conversion == nil || c.Spec.Conversion.Strategy == "" || c.Spec.Conversion.Strategy == apiextv1.NoneConverter
}
