package emit

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/opack/opack/internal/finding"
	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	"golang.org/x/mod/semver"
)

// Property types of a catalog bundle that declare dependencies, which OLM v1 does not resolve.
const (
	PropertyPackageRequired = "olm.package.required"
	PropertyGVKRequired     = "olm.gvk.required"
	PropertyConstraint      = "olm.constraint"
)

// Rule ids of the OLM v1 installability check.
const (
	RuleAPIServices  = "olmv1/apiservice-definitions"
	RuleWebhooks     = "olmv1/webhook-definitions"
	RuleDependencies = "olmv1/dependencies"
	RuleInstallModes = "olmv1/install-modes"
)

// Property is a bundle property as a catalog's olm.bundle carries it (the shape of catalog.Property).
type Property struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}

// Problem is one reason OLM v1 (operator-controller) would refuse to install a bundle: an error
// finding with one of the olmv1/ rules above.
type Problem = finding.Finding

// problem returns the error finding of rule.
func problem(rule, msg string) Problem {
	return Problem{Severity: finding.SeverityError, Rule: rule, Message: msg}
}

// describe formats p as "message [rule]".
func describe(p Problem) string { return p.Message + " [" + p.Rule + "]" }

// CheckOption configures CheckOLMv1.
type CheckOption func(*checkOptions)

type checkOptions struct {
	webhooks   bool
	minVersion string
}

// OLMv1WebhooksVersion is the first operator-controller release that installs bundles with webhook
// definitions by default: its WebhookProviderCertManager and WebhookProviderOpenshiftServiceCA feature
// gates became GA and on by default there (operator-controller#2267). v1.0.0 to v1.2.x refuse them
// ("webhookDefinitions are not supported", internal/operator-controller/rukpak/convert/registryv1.go
// at v1.2.0); v1.3.0 to v1.5.x install them only with one of those alpha gates on.
const OLMv1WebhooksVersion = "v1.6.0"

// WithWebhookSupport declares that operator-controller runs with a webhook feature gate on
// (WebhookProviderCertManager or WebhookProviderOpenshiftServiceCA), so webhook definitions are accepted.
func WithWebhookSupport(on bool) CheckOption { return func(o *checkOptions) { o.webhooks = on } }

// WithMinOLMVersion gives the oldest operator-controller release the bundle must install on (default:
// v1.0.0, the oldest opack supports). From OLMv1WebhooksVersion on, webhook definitions are accepted.
func WithMinOLMVersion(v string) CheckOption { return func(o *checkOptions) { o.minVersion = v } }

// CheckOLMv1 lists why operator-controller would refuse the bundle with this CSV and these catalog
// properties: owned API service definitions, webhook definitions (unless the webhook feature gate is on),
// dependencies (olm.package.required, olm.gvk.required, olm.constraint, and the CSV's required CRDs and
// API services, which become olm.gvk.required in the catalog), and no AllNamespaces install mode. The result
// is sorted; it is empty when OLM v1 can install the bundle.
func CheckOLMv1(csv *v1alpha1.ClusterServiceVersion, props []Property, opts ...CheckOption) []Problem {
	var o checkOptions
	for _, opt := range opts {
		opt(&o)
	}
	var out []Problem
	if csv != nil {
		out = append(out, checkCSV(csv, o)...)
	}
	out = append(out, checkDependencies(csv, props)...)
	sort.Slice(out, func(i, j int) bool {
		if out[i].Rule != out[j].Rule {
			return out[i].Rule < out[j].Rule
		}
		return out[i].Message < out[j].Message
	})
	return out
}

func checkCSV(csv *v1alpha1.ClusterServiceVersion, o checkOptions) []Problem {
	var out []Problem
	if owned := csv.Spec.APIServiceDefinitions.Owned; len(owned) > 0 {
		names := make([]string, len(owned))
		for i, a := range owned {
			names[i] = a.Version + "." + a.Group
		}
		out = append(out, problem(RuleAPIServices, fmt.Sprintf("the CSV owns API services (%s): OLM v1 refuses bundles with apiservicedefinitions", strings.Join(names, ", "))))
	}
	webhooksOK := o.webhooks || (semver.IsValid(o.minVersion) && semver.Compare(o.minVersion, OLMv1WebhooksVersion) >= 0)
	if wh := csv.Spec.WebhookDefinitions; len(wh) > 0 && !webhooksOK {
		names := make([]string, len(wh))
		for i, w := range wh {
			names[i] = w.GenerateName
		}
		p := problem(RuleWebhooks, fmt.Sprintf("the CSV defines webhooks (%s): operator-controller before %s refuses webhookdefinitions (v1.3.0 to v1.5 install them only with the WebhookProviderCertManager or WebhookProviderOpenshiftServiceCA feature gate on; %s and later install them, with cert-manager's API on the cluster)", strings.Join(names, ", "), OLMv1WebhooksVersion, OLMv1WebhooksVersion))
		p.Fix = fmt.Sprintf("set deploy.olmv1.minOLMVersion: %s when every cluster runs that operator-controller or newer, or deploy.olmv1.webhooks: true when yours runs with a webhook feature gate", OLMv1WebhooksVersion)
		out = append(out, p)
	}
	all := false
	for _, m := range csv.Spec.InstallModes {
		if m.Type == v1alpha1.InstallModeTypeAllNamespaces && m.Supported {
			all = true
		}
	}
	if !all {
		out = append(out, problem(RuleInstallModes, "the CSV does not support the AllNamespaces install mode, the only one OLM v1 installs with: set installModes AllNamespaces supported: true"))
	}
	return out
}

func checkDependencies(csv *v1alpha1.ClusterServiceVersion, props []Property) []Problem {
	seen := map[string]bool{}
	var out []Problem
	add := func(what, via string) {
		if key := what; !seen[key] {
			seen[key] = true
			out = append(out, problem(RuleDependencies, fmt.Sprintf("the bundle depends on %s (%s): OLM v1 does not resolve dependencies; install it separately and drop the dependency", what, via)))
		}
	}
	for _, p := range props {
		switch p.Type {
		case PropertyPackageRequired:
			var v struct {
				PackageName  string `json:"packageName"`
				VersionRange string `json:"versionRange"`
				Version      string `json:"version"` // the olm.package form of metadata/dependencies.yaml
			}
			if json.Unmarshal(p.Value, &v) != nil {
				add("a package ("+string(p.Value)+")", p.Type)
				continue
			}
			add(strings.TrimSpace(fmt.Sprintf("package %s %s", v.PackageName, v.VersionRange+v.Version)), p.Type)
		case PropertyGVKRequired:
			var v struct{ Group, Version, Kind string }
			if json.Unmarshal(p.Value, &v) != nil {
				add("an API ("+string(p.Value)+")", p.Type)
				continue
			}
			add(gvkString(v.Group, v.Version, v.Kind), p.Type)
		case PropertyConstraint:
			add("a constraint "+string(p.Value), p.Type)
		}
	}
	if csv == nil {
		return out
	}
	for _, r := range csv.Spec.CustomResourceDefinitions.Required {
		group := r.Name
		if _, g, ok := strings.Cut(r.Name, "."); ok {
			group = g
		}
		add(gvkString(group, r.Version, r.Kind), "spec.customresourcedefinitions.required")
	}
	for _, r := range csv.Spec.APIServiceDefinitions.Required {
		add(gvkString(r.Group, r.Version, r.Kind), "spec.apiservicedefinitions.required")
	}
	return out
}

func gvkString(group, version, kind string) string {
	if group == "" {
		return "API " + version + " " + kind
	}
	return "API " + group + "/" + version + " " + kind
}

// ErrNotInstallable is wrapped by CheckTarget's error when OLM v1 cannot install the bundle.
var ErrNotInstallable = errors.New("the bundle cannot be installed by OLM v1")

// CheckTarget turns problems into the verdict for target: with v1 alone they are an error (wrapping
// ErrNotInstallable), with both generations warnings (OLM v0 can still install the bundle), with v0 nothing.
func CheckTarget(target Target, problems []Problem) (warnings []Problem, err error) {
	if len(problems) == 0 || !target.V1() {
		return nil, nil
	}
	if target == TargetBoth {
		return problems, nil
	}
	msgs := make([]string, len(problems))
	for i, p := range problems {
		msgs[i] = describe(p)
	}
	return nil, fmt.Errorf("%w: %s (emit for OLM v0 with --olm v0, or fix the bundle)", ErrNotInstallable, strings.Join(msgs, "; "))
}
