package emit

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"sigs.k8s.io/yaml"
)

// crdFS holds the OLM CRDs the emitted objects are checked against (see crds/SOURCE.md).
//
//go:embed crds/olmv0/*.yaml crds/olmv1/*.yaml crds/imagepolicy/*.yaml
var crdFS embed.FS

// crdVersion is the compiled schema of one served version of a CRD.
type crdVersion struct {
	namespaced bool
	validator  apiservervalidation.SchemaValidator
	structural *structuralschema.Structural
	cel        *cel.Validator
}

// Schemas validates objects of the kinds defined by a set of CRDs, the way the API server does on create:
// type and object metadata, OpenAPI schema, unknown (pruned) fields, list-type invariants and CEL rules.
type Schemas struct {
	versions map[schema.GroupVersionKind]*crdVersion
}

var (
	olmSchemasOnce sync.Once
	olmSchemas     *Schemas
	olmSchemasErr  error
)

// OLMSchemas returns the schemas of the OLM v0 (operators.coreos.com) and OLM v1 (olm.operatorframework.io)
// kinds opack emits, compiled once from the embedded CRDs.
func OLMSchemas() (*Schemas, error) {
	olmSchemasOnce.Do(func() {
		olmSchemas, olmSchemasErr = LoadSchemas(crdFS, "crds")
	})
	return olmSchemas, olmSchemasErr
}

// LoadSchemas compiles every CRD (apiextensions.k8s.io/v1, one per .yaml file) below dir in fsys.
func LoadSchemas(fsys fs.FS, dir string) (*Schemas, error) {
	s := &Schemas{versions: map[schema.GroupVersionKind]*crdVersion{}}
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".yaml" {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		if err := s.add(data); err != nil {
			return fmt.Errorf("loading CRD %s: %w", p, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Schemas) add(data []byte) error {
	var v1 apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(data, &v1); err != nil {
		return err
	}
	for _, v := range v1.Spec.Versions {
		if !v.Served || v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		var props apiextensions.JSONSchemaProps
		if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, &props, nil); err != nil {
			return fmt.Errorf("converting the schema of version %s: %w", v.Name, err)
		}
		cv, err := compileVersion(&props)
		if err != nil {
			return fmt.Errorf("compiling version %s: %w", v.Name, err)
		}
		cv.namespaced = v1.Spec.Scope == apiextensionsv1.NamespaceScoped
		gvk := schema.GroupVersionKind{Group: v1.Spec.Group, Version: v.Name, Kind: v1.Spec.Names.Kind}
		s.versions[gvk] = cv
	}
	return nil
}

func compileVersion(props *apiextensions.JSONSchemaProps) (*crdVersion, error) {
	validator, _, err := apiservervalidation.NewSchemaValidator(props)
	if err != nil {
		return nil, err
	}
	structural, err := structuralschema.NewStructural(props)
	if err != nil {
		return nil, err
	}
	return &crdVersion{
		validator:  validator,
		structural: structural,
		cel:        cel.NewValidator(structural, true, celconfig.PerCallLimit),
	}, nil
}

// Kinds lists the group/version/kinds the schemas cover, sorted.
func (s *Schemas) Kinds() []schema.GroupVersionKind {
	out := make([]schema.GroupVersionKind, 0, len(s.versions))
	for gvk := range s.versions {
		out = append(out, gvk)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// Covers reports whether the schemas define the object's kind.
func (s *Schemas) Covers(gvk schema.GroupVersionKind) bool { return s.versions[gvk] != nil }

// Validate checks obj as the API server would when it is created: the CRD's structural defaults are
// applied to a copy first, then metadata, schema, unknown fields, list types and CEL rules are checked.
// The result names every offending field; it is empty when obj is valid.
func (s *Schemas) Validate(ctx context.Context, obj *unstructured.Unstructured) field.ErrorList {
	gvk := obj.GroupVersionKind()
	cv := s.versions[gvk]
	if cv == nil {
		return field.ErrorList{field.NotSupported(field.NewPath("kind"), gvk.String(), s.kindNames())}
	}
	u, err := normalize(obj.Object)
	if err != nil {
		return field.ErrorList{field.Invalid(nil, gvk.Kind, err.Error())}
	}
	structuraldefaulting.Default(u, cv.structural)

	var errs field.ErrorList
	obj2 := &unstructured.Unstructured{Object: u}
	errs = append(errs, validation.ValidateObjectMetaAccessor(obj2, cv.namespaced, validation.NameIsDNSSubdomain, field.NewPath("metadata"))...)
	errs = append(errs, apiservervalidation.ValidateCustomResource(nil, u, cv.validator)...)
	errs = append(errs, schemaobjectmeta.Validate(nil, u, cv.structural, false)...)
	errs = append(errs, listtype.ValidateListSetsAndMaps(nil, cv.structural, u)...)
	for _, p := range pruning.PruneWithOptions(runtime.DeepCopyJSON(u), cv.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true}) {
		errs = append(errs, field.Forbidden(field.NewPath(p), "unknown field: the "+gvk.Kind+" schema does not declare it (the API server would drop it)"))
	}
	if blocking(errs) {
		return errs // the API server skips the CEL rules too, until these are fixed
	}
	celErrs, _ := cv.cel.Validate(ctx, nil, cv.structural, u, nil, celconfig.RuntimeCELCostBudget)
	return append(errs, celErrs...)
}

// blocking reports whether errs hold an error after which the API server skips the CEL rules
// (k8s.io/apiextensions-apiserver/pkg/registry/customresource hasBlockingErr).
func blocking(errs field.ErrorList) bool {
	for _, err := range errs {
		switch err.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return true
		}
	}
	return false
}

// normalize deep-copies an object through JSON the way the API server decodes it (whole numbers
// become int64), whatever decoder produced it.
func normalize(obj map[string]any) (map[string]any, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var u map[string]any
	if err := utiljson.Unmarshal(data, &u); err != nil {
		return nil, err
	}
	return u, nil
}

func (s *Schemas) kindNames() []string {
	var names []string
	for _, gvk := range s.Kinds() {
		names = append(names, gvk.GroupVersion().String()+", Kind="+gvk.Kind)
	}
	return names
}

// FormatErrors joins field errors into one message, one error per line after the first.
func FormatErrors(errs field.ErrorList) string {
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "; ")
}
