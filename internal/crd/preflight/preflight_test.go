package preflight

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

func str(mods ...func(*apiextv1.JSONSchemaProps)) apiextv1.JSONSchemaProps {
	s := apiextv1.JSONSchemaProps{Type: "string"}
	for _, m := range mods {
		m(&s)
	}
	return s
}

func obj(props map[string]apiextv1.JSONSchemaProps, mods ...func(*apiextv1.JSONSchemaProps)) *apiextv1.JSONSchemaProps {
	s := &apiextv1.JSONSchemaProps{Type: "object", Properties: props}
	for _, m := range mods {
		m(s)
	}
	return s
}

func crd(versions ...apiextv1.CustomResourceDefinitionVersion) *apiextv1.CustomResourceDefinition {
	c := &apiextv1.CustomResourceDefinition{Spec: apiextv1.CustomResourceDefinitionSpec{Scope: apiextv1.NamespaceScoped, Versions: versions}}
	for _, v := range versions {
		if v.Storage {
			c.Status.StoredVersions = []string{v.Name}
		}
	}
	return c
}

func ver(name string, storage bool, spec *apiextv1.JSONSchemaProps) apiextv1.CustomResourceDefinitionVersion {
	return apiextv1.CustomResourceDefinitionVersion{Name: name, Served: true, Storage: storage,
		Schema: &apiextv1.CustomResourceValidation{OpenAPIV3Schema: obj(map[string]apiextv1.JSONSchemaProps{"spec": *spec})}}
}

func one(spec *apiextv1.JSONSchemaProps) *apiextv1.CustomResourceDefinition {
	return crd(ver("v1", true, spec))
}

// refusal is what a test compares of a Refusal.
type refusal struct{ Kind, Version, Path, Check string }

func summarize(rs []Refusal) []refusal {
	var out []refusal
	for _, r := range rs {
		out = append(out, refusal{r.Kind, r.Version, r.Path, r.Check})
	}
	return out
}

// TestCheck holds the model to what crdify (with operator-controller v1.11.0's configuration) and the
// kapp-derived preflight of v1.0-v1.3 do with one change each; internal/crd/agreement holds it to crdify
// on the corpus catalogs, internal/crd TestActorsAgreeWithOLM to the real controllers on CASES.tsv.
func TestCheck(t *testing.T) {
	desc := func(d string) func(*apiextv1.JSONSchemaProps) {
		return func(s *apiextv1.JSONSchemaProps) { s.Description = d }
	}
	enum := func(vals ...string) func(*apiextv1.JSONSchemaProps) {
		return func(s *apiextv1.JSONSchemaProps) {
			for _, v := range vals {
				s.Enum = append(s.Enum, apiextv1.JSON{Raw: []byte(`"` + v + `"`)})
			}
		}
	}
	atomic := "atomic"
	list := func(t *string) func(*apiextv1.JSONSchemaProps) {
		return func(s *apiextv1.JSONSchemaProps) {
			s.Type, s.Items = "array", &apiextv1.JSONSchemaPropsOrArray{Schema: &apiextv1.JSONSchemaProps{Type: "string"}}
			s.XListType = t
		}
	}
	field := func(s apiextv1.JSONSchemaProps) *apiextv1.JSONSchemaProps {
		return obj(map[string]apiextv1.JSONSchemaProps{"f": s})
	}
	same := func(p string, c string) refusal { return refusal{KindSame, "v1", p, c} }
	for _, tc := range []struct {
		name     string
		old, new *apiextv1.CustomResourceDefinition
		crdify   []refusal
		kapp     []refusal
	}{
		{name: "identical", old: one(field(str())), new: one(field(str()))},
		{name: "description: crdify ignores it, kapp refuses it as unknown",
			old: one(field(str(desc("a")))), new: one(field(str(desc("b")))),
			kapp: []refusal{same("^.spec.f", CheckUnhandled)}},
		{name: "enum value added: both allow it",
			old: one(field(str(enum("a")))), new: one(field(str(enum("a", "b"))))},
		{name: "whole enum removed",
			old: one(field(str(enum("a")))), new: one(field(str())),
			crdify: []refusal{same("^.spec.f", "enum")}, kapp: []refusal{same("^.spec.f", "enum")}},
		{name: "type removed (string -> schemaless)",
			old: one(field(str())), new: one(field(apiextv1.JSONSchemaProps{XPreserveUnknownFields: ptr(true)})),
			crdify: []refusal{same("^.spec.f", "type"), same("^.spec.f", CheckUnhandled)},
			kapp:   []refusal{same("^.spec.f", "type"), same("^.spec.f", CheckUnhandled)}},
		{name: "list-type atomic made explicit: unhandled",
			old: one(field(str(list(nil)))), new: one(field(str(list(&atomic)))),
			crdify: []refusal{same("^.spec.f", CheckUnhandled)}, kapp: []refusal{same("^.spec.f", CheckUnhandled)}},
		{name: "field removed",
			old: one(obj(map[string]apiextv1.JSONSchemaProps{"f": str(), "g": str()})), new: one(field(str())),
			crdify: []refusal{{KindCRD, "v1", "^.spec.g", CheckRemoved}, same("^.spec.g", "type")},
			kapp:   []refusal{{KindCRD, "v1", "^.spec.g", CheckRemoved}, same("^.spec.g", CheckRemoved)}},
		{name: "a change inside list items: crdify compares the items alone, kapp the list too",
			old:  one(field(apiextv1.JSONSchemaProps{Type: "array", Items: &apiextv1.JSONSchemaPropsOrArray{Schema: obj(nil)}})),
			new:  one(field(apiextv1.JSONSchemaProps{Type: "array", Items: &apiextv1.JSONSchemaPropsOrArray{Schema: obj(map[string]apiextv1.JSONSchemaProps{"n": str()})}})),
			kapp: []refusal{same("^.spec.f", CheckUnhandled)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.crdify, summarize(Check(tc.old, tc.new, Crdify))); diff != "" {
				t.Errorf("crdify (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.kapp, summarize(Check(tc.old, tc.new, Kapp))); diff != "" {
				t.Errorf("kapp (-want +got):\n%s", diff)
			}
		})
	}
}

// TestServedVersions: crdify compares the served versions of NEW pairwise and drops what OLD's pairs had
// (and nothing at all when NEW converts with a webhook); kapp drops nothing.
func TestServedVersions(t *testing.T) {
	v1 := obj(map[string]apiextv1.JSONSchemaProps{"a": str()})
	v2 := obj(map[string]apiextv1.JSONSchemaProps{"a": {Type: "integer"}})
	old := crd(ver("v1", false, v1), ver("v2", true, v2))
	new := crd(ver("v1", false, v1), ver("v2", true, v2))
	if got := Check(old, new, Crdify); len(got) != 0 {
		t.Errorf("crdify: a difference between served versions OLD already had is dropped, got %v", got)
	}
	if got := summarize(Check(old, new, Kapp)); len(got) == 0 || got[0].Kind != KindServed {
		t.Errorf("kapp: served versions are compared on every upgrade, got %v", got)
	}
	first := crd(ver("v1", true, v1))
	want := []refusal{{KindServed, "v1 -> v2", "^.spec.a", "type"}}
	if diff := cmp.Diff(want, summarize(Check(first, new, Crdify))); diff != "" {
		t.Errorf("crdify, v2 added (-want +got):\n%s", diff)
	}
	hooked := new.DeepCopy()
	hooked.Spec.Conversion = &apiextv1.CustomResourceConversion{Strategy: apiextv1.WebhookConverter}
	if got := Check(first, hooked, Crdify); len(got) != 0 {
		t.Errorf("crdify: NEW converts with a webhook, served versions are not compared; got %v", got)
	}
}

// TestStoredVersionsScopeAndPanics: the checks of the CRD as a whole, and a version without a schema.
func TestStoredVersionsScopeAndPanics(t *testing.T) {
	old := crd(ver("v1alpha1", false, obj(nil)), ver("v1", true, obj(nil)))
	old.Status.StoredVersions = []string{"v1alpha1", "v1"}
	new := crd(ver("v1", true, obj(nil)))
	new.Spec.Scope = apiextv1.ClusterScoped
	for _, p := range []Preflight{Crdify, Kapp} {
		want := []refusal{{KindCRD, "", "spec.scope", "scope"}, {KindCRD, "", "spec.versions", "storedVersionRemoval"}}
		if diff := cmp.Diff(want, summarize(Check(old, new, p))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", p, diff)
		}
	}
	schemaless := crd(apiextv1.CustomResourceDefinitionVersion{Name: "v1", Served: true, Storage: true})
	if got := summarize(Check(schemaless, one(obj(nil)), Crdify)); len(got) != 1 || got[0].Check != CheckPanic {
		t.Errorf("a live version without a schema: crdify panics; got %v", got)
	}
	if got := Check(one(obj(nil)), schemaless, Crdify); got != nil {
		t.Errorf("NEW without a schema is no CRD OLM v1 installs: no verdict; got %v", got)
	}
}

func ptr[T any](v T) *T { return &v }

// TestServedRemovalBelowPreExisting: between served versions, crdify reports every node a newer version
// lacks and drops what OLD's versions already had; a field added below a node the newer version never had
// is new, and TopmostRemovals (which shortens same-version removals) must not hide it.
func TestServedRemovalBelowPreExisting(t *testing.T) {
	withA := func(children map[string]apiextv1.JSONSchemaProps) *apiextv1.JSONSchemaProps {
		return obj(map[string]apiextv1.JSONSchemaProps{"a": *obj(children)})
	}
	v2 := obj(map[string]apiextv1.JSONSchemaProps{"b": str()})
	old := crd(ver("v1", true, withA(map[string]apiextv1.JSONSchemaProps{"x": str()})), ver("v2", false, v2))
	new := crd(ver("v1", true, withA(map[string]apiextv1.JSONSchemaProps{"x": str(), "y": {Type: "boolean"}})), ver("v2", false, v2))
	want := []refusal{{KindServed, "v1 -> v2", "^.spec.a.y", "type"}}
	for _, opts := range [][]Option{nil, {TopmostRemovals()}} {
		if diff := cmp.Diff(want, summarize(Check(old, new, Crdify, opts...))); diff != "" {
			t.Errorf("%d options (-want +got):\n%s", len(opts), diff)
		}
	}
}
