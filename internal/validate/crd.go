package validate

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	apierrors "github.com/operator-framework/api/pkg/validation/errors"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsv1beta1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/kube-openapi/pkg/validation/spec"

	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/packagemanifest"
)

// Rules of the API server's CRD checks.
const (
	RuleAPIServerCRD = "apiserver/crd"
	RuleCRDFormat    = "apiserver/crd-format"
	RuleCRDV1beta1   = "apiserver/crd-v1beta1"
)

// crdScheme knows the apiextensions types and their conversions; built on first use (only bundles with
// CRDs need it).
var crdScheme = sync.OnceValue(func() *runtime.Scheme {
	s := runtime.NewScheme()
	install.Install(s)
	return s
})

// crdChecks validates every CRD of the bundle once, as the API server validates a create request, and splits
// the errors: those operator-framework/api reports (operator-sdk's CustomResourceDefinitionValidator, which
// drops every error whose field mentions openAPIV3Schema or status) become operator-sdk results in its order
// (v1beta1 CRDs first), the others become API server findings.
func (lb *loadedBundle) crdChecks(ctx context.Context, k8sVersion string, cache *crdCache) ([]located, []finding.Finding) {
	var sdk []located
	var server []finding.Finding
	add := func(name string, src *packagemanifest.SourceFile, convert func(*apiextensions.CustomResourceDefinition) error, v1beta1 bool) {
		file, object := lb.CRDFile[name], finding.ObjectName("CustomResourceDefinition", name)
		if src != nil {
			file = src.Path
		}
		if v1beta1 {
			server = append(server, v1beta1Finding(file, object, k8sVersion))
		}
		key := cache.key(src, k8sVersion)
		result, serverFindings, ok := cache.get(ctx, key, file, object)
		if !ok {
			defer cache.release(key) // a panic below must not leave other bundles waiting
			internal := &apiextensions.CustomResourceDefinition{}
			if err := convert(internal); err != nil {
				result.Add(apierrors.ErrInvalidParse("error converting crd", err))
			} else {
				result, serverFindings = validateInternalCRD(ctx, internal, file, object)
			}
			cache.put(key, result, serverFindings)
		}
		if v1beta1 && !atLeast(k8sVersion, 1, 22) {
			serverFindings = asWarnings(serverFindings, "before Kubernetes 1.22 the API server accepts it as apiextensions.k8s.io/v1beta1; from 1.22 on it is rejected")
		}
		sdk = append(sdk, located{result: result, rule: RuleCRD, file: file, object: object})
		server = append(server, serverFindings...)
	}
	for _, crd := range lb.Manifests.V1beta1CRDs {
		apiextensionsv1beta1.SetObjectDefaults_CustomResourceDefinition(crd)
		add(crd.Name, lb.CRDSrc[crd], func(in *apiextensions.CustomResourceDefinition) error {
			return crdScheme().Converter().Convert(crd, in, nil)
		}, true)
	}
	for _, crd := range lb.Manifests.V1CRDs {
		// A CRD shared across the run's bundles (packagemanifest.ParseCache) is defaulted already: this only reads it.
		apiextensionsv1.SetObjectDefaults_CustomResourceDefinition(crd)
		add(crd.Name, lb.CRDSrc[crd], func(in *apiextensions.CustomResourceDefinition) error {
			return crdScheme().Converter().Convert(crd, in, nil)
		}, false)
	}
	return sdk, server
}

// validateInternalCRD runs the API server's create validation once and splits its errors.
func validateInternalCRD(ctx context.Context, crd *apiextensions.CustomResourceDefinition, file, object string) (apierrors.ManifestResult, []finding.Finding) {
	prepareForCreate(crd)
	var result apierrors.ManifestResult
	var server []finding.Finding
	for _, err := range crdvalidation.ValidateCustomResourceDefinition(ctx, crd) {
		if !strings.Contains(err.Field, "openAPIV3Schema") && !strings.Contains(err.Field, "status") {
			result.Add(apierrors.NewError(apierrors.ErrorType(err.Type), err.Error(), err.Field, err.BadValue))
			continue
		}
		if strings.HasPrefix(err.Field, "status") {
			continue // the API server sets status on create; an error there follows from one in spec
		}
		server = append(server, finding.Finding{Severity: finding.SeverityError, File: file, Object: object, Rule: RuleAPIServerCRD,
			Message: "the API server rejects this CRD: " + err.Error()})
	}
	if result.HasError() {
		result.Name = crd.GetName()
	}
	// The API server validates schema properties in map order: sort its errors so that runs agree.
	sort.SliceStable(server, func(i, j int) bool { return server[i].Message < server[j].Message })
	for _, format := range unrecognizedFormats(crd) {
		server = append(server, finding.Finding{Severity: finding.SeverityWarning, File: file, Object: object, Rule: RuleCRDFormat,
			Message: fmt.Sprintf("unrecognized format %q: the API server warns and does not validate it; use a format Kubernetes knows or a pattern", format)})
	}
	return result, server
}

// asWarnings downgrades errors to warnings, adding why.
func asWarnings(fs []finding.Finding, why string) []finding.Finding {
	out := make([]finding.Finding, len(fs))
	for i, f := range fs {
		if f.Severity == finding.SeverityError {
			f.Severity = finding.SeverityWarning
			f.Message += " (" + why + ")"
		}
		out[i] = f
	}
	return out
}

// prepareForCreate sets the status the API server sets on create (the storage version is stored).
func prepareForCreate(crd *apiextensions.CustomResourceDefinition) {
	crd.Status = apiextensions.CustomResourceDefinitionStatus{}
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			crd.Status.StoredVersions = append(crd.Status.StoredVersions, v.Name)
			break
		}
	}
}

// unrecognizedFormats lists, sorted and without duplicates, the formats the API server warns about on create.
func unrecognizedFormats(crd *apiextensions.CustomResourceDefinition) []string {
	seen := map[string]bool{}
	compat := environment.DefaultCompatibilityVersion()
	check := func(s *apiextensions.JSONSchemaProps) bool {
		if s.Format != "" {
			sp := &spec.Schema{SchemaProps: spec.SchemaProps{Format: s.Format, Type: []string{s.Type}}}
			for _, f := range apiservervalidation.GetUnrecognizedFormats(sp, compat) {
				seen[f] = true
			}
		}
		return false
	}
	if crd.Spec.Validation != nil && crd.Spec.Validation.OpenAPIV3Schema != nil {
		crdvalidation.SchemaHas(crd.Spec.Validation.OpenAPIV3Schema, check)
	}
	for _, v := range crd.Spec.Versions {
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			crdvalidation.SchemaHas(v.Schema.OpenAPIV3Schema, check)
		}
	}
	out := make([]string, 0, len(seen))
	for f := range seen {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// v1beta1Finding reports an apiextensions.k8s.io/v1beta1 CRD: removed in Kubernetes 1.22, so an error when the
// target version (k8s-version) is 1.22 or later, a warning otherwise.
func v1beta1Finding(file, object, k8sVersion string) finding.Finding {
	f := finding.Finding{Severity: finding.SeverityWarning, File: file, Object: object, Rule: RuleCRDV1beta1,
		Message: "apiextensions.k8s.io/v1beta1 CustomResourceDefinition was removed in Kubernetes 1.22; convert it to apiextensions.k8s.io/v1 (spec.versions[].schema, structural schema)"}
	if atLeast(k8sVersion, 1, 22) {
		f.Severity = finding.SeverityError
	}
	return f
}
