package validate

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/blang/semver/v4"
	apivalidation "github.com/operator-framework/api/pkg/validation"
	apierrors "github.com/operator-framework/api/pkg/validation/errors"
	apiinterfaces "github.com/operator-framework/api/pkg/validation/interfaces"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/opack/opack/internal/finding"
)

// OptionalValidator describes a validator `--select-optional` can select by its labels.
type OptionalValidator struct {
	Name        string
	Labels      map[string]string
	Description string
	api         apiinterfaces.Validator                             // an operator-framework/api validator, or
	run         func(context.Context, *bundleRun) []finding.Finding // one of opack's own
}

// LabelString returns the validator's labels sorted, as "k=v,k=v".
func (v OptionalValidator) LabelString() string {
	var parts []string
	for k, val := range v.Labels {
		parts = append(parts, k+"="+val)
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// OptionalValidators lists the optional validators in the order they run: operator-sdk's (same names and
// labels; `suite=operatorframework` selects operatorhubv2, capabilities, categories, alpha-deprecated-apis and
// good-practices), then opack's multiarch (registry API, no docker) and best-practices.
func OptionalValidators() []OptionalValidator {
	suite := func(name string) map[string]string {
		return map[string]string{"name": name, "suite": "operatorframework"}
	}
	return []OptionalValidator{
		{Name: "operatorhubv2", Labels: suite("operatorhubv2"), api: apivalidation.OperatorHubV2Validator,
			Description: "OperatorHub.io metadata validation"},
		{Name: "capabilities", Labels: suite("capabilities"), api: apivalidation.StandardCapabilitiesValidator,
			Description: "OperatorHub.io capabilities annotation validation"},
		{Name: "categories", Labels: suite("categories"), api: apivalidation.StandardCategoriesValidator,
			Description: "OperatorHub.io categories annotation validation"},
		{Name: "operatorhub", Labels: map[string]string{"name": "operatorhub"}, api: apivalidation.OperatorHubValidator,
			Description: "(deprecated) OperatorHub.io metadata validation; use operatorhubv2, capabilities and categories"},
		{Name: "community", Labels: map[string]string{"name": "community"}, api: apivalidation.CommunityOperatorValidator,
			Description: "(deprecated) Community Operator bundle validation; reads --optional-values index-path="},
		{Name: "alpha-deprecated-apis", Labels: suite("alpha-deprecated-apis"), api: apivalidation.AlphaDeprecatedAPIsValidator,
			Description: "Kubernetes APIs removed in later releases; an error at or after --optional-values k8s-version="},
		{Name: "good-practices", Labels: suite("good-practices"), api: apivalidation.GoodPracticesValidator,
			Description: "operator-framework good practices"},
		{Name: "multiarch", Labels: map[string]string{"name": "multiarch"}, run: runMultiArch,
			Description: "image platforms match the CSV's operatorframework.io/arch.* and os.* labels (registry API)"},
		{Name: "best-practices", Labels: map[string]string{"name": "best-practices", "suite": "opack"}, run: runBestPractices,
			Description: "structural schemas, status subresource, RBAC for status and finalizers, resource requests, minKubeVersion"},
	}
}

// selectValidators parses a label selector and returns the optional validators it selects; a selector that
// selects none is an error, as in operator-sdk.
func selectValidators(selector string) ([]OptionalValidator, error) {
	if strings.TrimSpace(selector) == "" {
		return nil, nil
	}
	sel, err := labels.Parse(selector)
	if err != nil {
		return nil, fmt.Errorf("parsing --select-optional %q: %w", selector, err)
	}
	var out []OptionalValidator
	for _, v := range OptionalValidators() {
		if sel.Matches(labels.Set(v.Labels)) {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("selector %q does not match any validator labels", sel.String())
	}
	return out, nil
}

// optionalResults runs the selected validators on the bundle as operator-sdk does: every object the bundle
// exposes, every object again, and the optional values.
func (r *bundleRun) optionalFindings(ctx context.Context) []finding.Finding {
	if len(r.cfg.optional) == 0 {
		return nil
	}
	b := r.lb.Manifests
	objs := b.ObjectsToValidate()
	for _, o := range b.Objects {
		objs = append(objs, o)
	}
	values := map[string]string{}
	for k, v := range r.cfg.values {
		values[k] = v
	}
	objs = append(objs, values)
	var out []finding.Finding
	for _, v := range r.cfg.optional {
		if v.run != nil {
			out = append(out, v.run(ctx, r)...)
			continue
		}
		out = append(out, r.runAPIValidator(v, objs)...)
	}
	return out
}

// runAPIValidator runs one operator-framework/api validator; a panic in it (operatorhubv2 panics on
// `icon: []`) becomes an error finding on the CSV instead of stopping the run.
func (r *bundleRun) runAPIValidator(v OptionalValidator, objs []any) (out []finding.Finding) {
	rule := RuleOptional + v.Name
	defer func() {
		if p := recover(); p != nil {
			out = append(out, finding.Errorf(r.lb.CSVFile, r.lb.CSVObject(), rule,
				"the %s validator crashed (%v): the CSV holds a value it does not expect, such as an empty list (e.g. icon: []) where an item is required; fix the CSV", v.Name, p))
		}
	}()
	for _, res := range v.api.Validate(objs...) {
		out = append(out, r.resultFindings(res, rule)...)
	}
	return out
}

// resultFindings places an optional validator's result on the CRD it names, else on the CSV.
func (r *bundleRun) resultFindings(res apierrors.ManifestResult, rule string) []finding.Finding {
	l := located{result: res, rule: rule, file: r.lb.CSVFile, object: r.lb.CSVObject()}
	if file, ok := r.lb.CRDFile[res.Name]; ok {
		l.file, l.object = file, finding.ObjectName("CustomResourceDefinition", res.Name)
	}
	return r.lb.findings([]located{l})
}

// atLeast reports whether a Kubernetes version such as "1.25", "v1.25.3" or "1.25.0-rc.1" is at least
// major.minor; an empty or unparsable version is not.
func atLeast(version string, major, minor uint64) bool {
	v, err := semver.ParseTolerant(strings.TrimSpace(version))
	if err != nil {
		return false
	}
	return v.Major > major || (v.Major == major && v.Minor >= minor)
}
