package validate

import (
	"fmt"
	"reflect"
	"regexp"

	apivalidation "github.com/operator-framework/api/pkg/validation"
	apierrors "github.com/operator-framework/api/pkg/validation/errors"
	k8svalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/packagemanifest"
)

// Rules of the findings operator-sdk's `bundle validate` reports.
const (
	RuleLoad     = packagemanifest.RuleLoad
	RulePackage  = packagemanifest.RulePackage // operator-registry's package-manifest import rules
	RuleFormat   = "operator-sdk/format"
	RuleContent  = "operator-sdk/content"
	RuleBundle   = "operator-sdk/bundle"
	RuleCSV      = "operator-sdk/csv"
	RuleCRD      = "operator-sdk/crd"
	RuleOptional = "operator-sdk/optional/" // + validator name
)

// supportedKinds are the kinds a registry+v1 bundle may hold besides CSVs and CRDs (operator-registry's
// supported_resources.go).
var supportedKinds = map[string]bool{
	"ClusterServiceVersion": true, "CustomResourceDefinition": true, "Secret": true, "ClusterRole": true,
	"ClusterRoleBinding": true, "ConfigMap": true, "ServiceAccount": true, "Service": true, "Role": true,
	"RoleBinding": true, "PrometheusRule": true, "ServiceMonitor": true, "PodDisruptionBudget": true,
	"PriorityClass": true, "VerticalPodAutoscaler": true, "ConsoleYAMLSample": true, "ConsoleQuickStart": true,
	"ConsoleCLIDownload": true, "ConsoleLink": true, "ConsolePlugin": true, "NetworkPolicy": true,
}

// located is an operator-framework/api result with the file and object its findings belong to.
type located struct {
	result apierrors.ManifestResult
	rule   string
	file   string
	object string
}

// contentResults is operator-sdk's ValidateBundleContent: object checks, then BundleValidator,
// ClusterServiceVersionValidator and CustomResourceDefinitionValidator (crdResults computed by the caller),
// with the object errors merged into the CSV's result. Helm bundles get none of these, as in operator-sdk.
func (lb *loadedBundle) contentResults(crdResults []located) []located {
	if lb.MediaType == packagemanifest.MediaTypeHelm {
		return nil
	}
	b := lb.Manifests
	var out []located
	for _, r := range apivalidation.BundleValidator.Validate(b) {
		out = append(out, located{result: r, rule: RuleBundle, file: lb.CSVFile, object: lb.CSVObject()})
	}
	if b.CSV != nil {
		for _, r := range apivalidation.ClusterServiceVersionValidator.Validate(b.CSV) {
			out = append(out, located{result: r, rule: RuleCSV, file: lb.CSVFile, object: lb.CSVObject()})
		}
	}
	out = append(out, crdResults...)
	return mergeResults(out, b.Name, lb.objectErrors())
}

// objectErrors checks every object but CSVs and CRDs: a kind registry+v1 does not support, or metadata the
// API server would refuse (a namespace, a bad name). Each error keeps its object's file.
func (lb *loadedBundle) objectErrors() []located {
	var out []located
	for _, u := range lb.Manifests.Objects {
		gvk := u.GroupVersionKind()
		if gvk.Kind == "ClusterServiceVersion" || gvk.Kind == "CustomResourceDefinition" {
			continue
		}
		var e apierrors.Error
		if lb.MediaType == packagemanifest.MediaTypeRegistryV1 && !supportedKinds[gvk.Kind] {
			e = apierrors.ErrInvalidBundle(fmt.Sprintf("unsupported media type %s for bundle object", lb.MediaType), gvk)
		} else if err := validateObjectMeta(u); err != nil {
			e = apierrors.ErrFailedValidation(err.Error(), u.GetName())
		} else {
			continue
		}
		out = append(out, located{result: apierrors.ManifestResult{Name: lb.Manifests.Name, Errors: []apierrors.Error{e}},
			rule: RuleContent, file: lb.ObjFile[u], object: finding.ObjectName(gvk.Kind, u.GetName())})
	}
	return out
}

// mergeResults is operator-sdk's appendResult: object errors join the first result named like the bundle
// (the CSV's), after its own errors; without one they come last.
func mergeResults(out []located, name string, objErrs []located) []located {
	if len(objErrs) == 0 {
		return out
	}
	for i, r := range out {
		if r.result.Name == name {
			merged := append(append([]located{}, out[:i+1]...), objErrs...)
			return append(merged, out[i+1:]...)
		}
	}
	return append(out, objErrs...)
}

// validateObjectMeta is operator-sdk's validateObject: metadata checks with namespaces forbidden.
func validateObjectMeta(u *unstructured.Unstructured) error {
	f := func(string, bool) []string { return nil }
	errs := k8svalidation.ValidateObjectMetaAccessor(metav1.Object(u), false, f, field.NewPath("metadata"))
	if len(errs) > 0 {
		return fmt.Errorf("error validating object: %s. %v", errs.ToAggregate(), u)
	}
	return nil
}

// findings turns located results into findings in operator-sdk's order: per result, warnings then errors.
// Object errors come right after the result they were merged into, as operator-sdk appends them to its errors.
// What operator-framework/api reports in map order is put in a fixed order (stableResult).
func (lb *loadedBundle) findings(ls []located) []finding.Finding {
	var out []finding.Finding
	for _, l := range ls {
		l.result = stableResult(l.result)
		for _, e := range l.result.Warnings {
			out = append(out, lb.finding(l, e, finding.SeverityWarning))
		}
		for _, e := range l.result.Errors {
			out = append(out, lb.finding(l, e, finding.SeverityError))
		}
	}
	return out
}

// finding places one api error: a CRD named by its GVK points at the CRD's file.
func (lb *loadedBundle) finding(l located, e apierrors.Error, sev finding.Severity) finding.Finding {
	e.BadValue = derefValue(e.BadValue)
	f := finding.Finding{Severity: sev, File: l.file, Object: l.object, Rule: l.rule, Message: e.Error()}
	if gvk, ok := e.BadValue.(schema.GroupVersionKind); ok && l.rule == RuleBundle {
		if name, file := lb.crdByGroupKind(gvk.Group, gvk.Kind); file != "" {
			f.File, f.Object = file, finding.ObjectName("CustomResourceDefinition", name)
		}
	}
	return f
}

// derefValue keeps output the same from run to run: operator-framework/api prints bad values with %v, which
// shows pointer addresses (e.g. for spec.preserveUnknownFields, or inside a dump of spec.versions). A pointer
// to a scalar is replaced by the scalar; a value whose dump still holds an address is left out (the error's
// detail repeats it without addresses).
func derefValue(v any) any {
	rv := reflect.ValueOf(v)
	for rv.IsValid() && rv.Kind() == reflect.Pointer && !rv.IsNil() && rv.Elem().Kind() != reflect.Struct && rv.Elem().Kind() != reflect.Map {
		rv = rv.Elem()
	}
	if !rv.IsValid() {
		return v
	}
	if address.MatchString(fmt.Sprintf("%v", rv.Interface())) {
		return nil
	}
	return rv.Interface()
}

var address = regexp.MustCompile(`0x[0-9a-f]{6,}`)

func (lb *loadedBundle) crdByGroupKind(group, kind string) (string, string) {
	b := lb.Manifests
	for _, c := range b.V1CRDs {
		if c.Spec.Group == group && c.Spec.Names.Kind == kind {
			return c.Name, lb.CRDFile[c.Name]
		}
	}
	for _, c := range b.V1beta1CRDs {
		if c.Spec.Group == group && c.Spec.Names.Kind == kind {
			return c.Name, lb.CRDFile[c.Name]
		}
	}
	return "", ""
}
