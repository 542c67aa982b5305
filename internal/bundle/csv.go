package bundle

import (
	"encoding/json"
	"fmt"

	"github.com/blang/semver/v4"
	"github.com/operator-framework/api/pkg/lib/version"
	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	"github.com/operator-framework/api/pkg/validation"
	corev1 "k8s.io/api/core/v1"
)

// CSV annotation keys opack sets.
const (
	AnnotationCreatedAt     = "createdAt"
	AnnotationALMExamples   = "alm-examples"
	AnnotationBuilder       = "operators.operatorframework.io/builder"
	AnnotationProjectLayout = "operators.operatorframework.io/project_layout"
)

// csvInput is what buildCSV needs beyond the collected objects.
type csvInput struct {
	pkg, version, builder, layout string
	extraSAs                      []string
}

// buildCSV applies the collected objects to base the way operator-sdk does
// (clusterserviceversion.go generate + updaters.go ApplyTo), except that base relatedImages are
// merged instead of dropped and a base without annotations is accepted. createdAt is left to the caller.
func buildCSV(c *collection, base *v1alpha1.ClusterServiceVersion, in csvInput) (*v1alpha1.ClusterServiceVersion, []string, error) {
	csv := base.DeepCopy()
	if in.version != "" {
		v, err := semver.Parse(in.version)
		if err != nil {
			return nil, nil, err
		}
		csv.SetName(in.pkg + ".v" + in.version)
		csv.Spec.Version = version.OperatorVersion{Version: v}
	}
	detected, warnings, err := findRelatedImages(c)
	if err != nil {
		return nil, nil, err
	}
	merged, w := mergeRelatedImages(detected, csv.Spec.RelatedImages)
	csv.Spec.RelatedImages = merged
	warnings = append(warnings, w...)

	if csv.GetAnnotations() == nil {
		csv.SetAnnotations(map[string]string{})
	}
	if csv.Spec.InstallStrategy.StrategyName == "" {
		csv.Spec.InstallStrategy.StrategyName = v1alpha1.InstallStrategyNameDeployment
	}
	if csv.Spec.InstallStrategy.StrategyName == v1alpha1.InstallStrategyNameDeployment {
		split := splitRBAC(c, csvServiceAccounts(c, in.extraSAs))
		spec := &csv.Spec.InstallStrategy.StrategySpec
		spec.Permissions = split.Permissions
		spec.ClusterPermissions = split.ClusterPermissions
		spec.DeploymentSpecs = []v1alpha1.StrategyDeploymentSpec{}
		for _, d := range c.Deployments {
			spec.DeploymentSpecs = append(spec.DeploymentSpecs, v1alpha1.StrategyDeploymentSpec{Name: d.Name, Label: d.Labels, Spec: d.Spec})
		}
	}
	csv.Spec.CustomResourceDefinitions.Owned = ownedCRDs(c, csv.Spec.CustomResourceDefinitions.Owned)
	examples, err := almExamples(c)
	if err != nil {
		return nil, nil, fmt.Errorf("building alm-examples of %s: %w", csv.GetName(), err)
	}
	csv.Annotations[AnnotationALMExamples] = examples
	defs, notes := webhookDefinitions(c)
	csv.Spec.WebhookDefinitions = defs
	warnings = append(warnings, notes...)
	setWatchNamespace(csv)

	w, err = validateCSV(csv)
	warnings = append(warnings, w...)
	if err != nil {
		return nil, warnings, err
	}
	csv.Annotations[AnnotationBuilder] = in.builder
	csv.Annotations[AnnotationProjectLayout] = in.layout
	return csv, warnings, nil
}

// ownedCRDs lists each served version of every input CRD, reusing the base's description of
// the same (name, version, kind).
func ownedCRDs(c *collection, base []v1alpha1.CRDDescription) []v1alpha1.CRDDescription {
	type key struct{ name, version, kind string }
	known := map[key]v1alpha1.CRDDescription{}
	for _, d := range base {
		known[key{d.Name, d.Version, d.Kind}] = d
	}
	var keys []key
	for _, crd := range c.V1CRDs {
		for _, v := range crd.Spec.Versions {
			if v.Served {
				keys = append(keys, key{crd.Name, v.Name, crd.Spec.Names.Kind})
			}
		}
	}
	for _, crd := range c.V1beta1CRDs {
		if len(crd.Spec.Versions) == 0 {
			keys = append(keys, key{crd.Name, crd.Spec.Version, crd.Spec.Names.Kind})
		}
		for _, v := range crd.Spec.Versions {
			if v.Served {
				keys = append(keys, key{crd.Name, v.Name, crd.Spec.Names.Kind})
			}
		}
	}
	out := []v1alpha1.CRDDescription{}
	for _, k := range keys {
		if d, ok := known[k]; ok {
			out = append(out, d)
		} else {
			out = append(out, v1alpha1.CRDDescription{Name: k.name, Version: k.version, Kind: k.kind})
		}
	}
	return out
}

// almExamples renders the custom resources as operator-sdk does: a JSON array indented by two
// spaces, each object with sorted keys.
func almExamples(c *collection) (string, error) {
	examples := []json.RawMessage{}
	for _, cr := range c.CustomResources {
		b, err := json.Marshal(cr.Object.Object)
		if err != nil {
			return "", fmt.Errorf("encoding %s: %w", cr.Doc, err)
		}
		examples = append(examples, b)
	}
	b, err := json.MarshalIndent(examples, "", "  ")
	return string(b), err
}

// setWatchNamespace points every WATCH_NAMESPACE variable at the olm.targetNamespaces annotation.
func setWatchNamespace(csv *v1alpha1.ClusterServiceVersion) {
	for _, dep := range csv.Spec.InstallStrategy.StrategySpec.DeploymentSpecs {
		for _, ctr := range dep.Spec.Template.Spec.Containers {
			for i := range ctr.Env {
				if ctr.Env[i].Name == "WATCH_NAMESPACE" {
					ctr.Env[i] = corev1.EnvVar{Name: "WATCH_NAMESPACE", ValueFrom: &corev1.EnvVarSource{
						FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.annotations['olm.targetNamespaces']"},
					}}
				}
			}
		}
	}
}

// CSVValidationWarning starts the warnings of operator-framework/api's CSV validator in Result.Warnings.
const CSVValidationWarning = "ClusterServiceVersion validation:"

// validateCSV runs operator-framework/api's CSV validator; warnings are returned as text and any
// error fails generation.
func validateCSV(csv *v1alpha1.ClusterServiceVersion) ([]string, error) {
	var warnings, errs []string
	for _, r := range validation.ClusterServiceVersionValidator.Validate(csv) {
		for _, w := range r.Warnings {
			warnings = append(warnings, fmt.Sprintf("%s [%s] %s", CSVValidationWarning, w.Type, w.Detail))
		}
		for _, e := range r.Errors {
			errs = append(errs, fmt.Sprintf("[%s] %s", e.Type, e.Detail))
		}
	}
	if len(errs) > 0 {
		return warnings, fmt.Errorf("the generated ClusterServiceVersion %s is invalid: %v (fix the base CSV or the input objects)", csv.GetName(), errs)
	}
	return warnings, nil
}
