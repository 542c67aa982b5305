package emit

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/operator-framework/api/pkg/operators/v1alpha1"
)

func csvWith(mutate func(*v1alpha1.ClusterServiceVersion)) *v1alpha1.ClusterServiceVersion {
	csv := &v1alpha1.ClusterServiceVersion{}
	csv.Name = "op.v1.0.0"
	csv.Spec.InstallModes = []v1alpha1.InstallMode{
		{Type: v1alpha1.InstallModeTypeOwnNamespace, Supported: true},
		{Type: v1alpha1.InstallModeTypeAllNamespaces, Supported: true},
	}
	if mutate != nil {
		mutate(csv)
	}
	return csv
}

func prop(typ, value string) Property { return Property{Type: typ, Value: json.RawMessage(value)} }

func TestCheckOLMv1(t *testing.T) {
	tests := []struct {
		name     string
		csv      *v1alpha1.ClusterServiceVersion
		props    []Property
		webhooks bool
		min      string   // WithMinOLMVersion
		want     []string // "rule: message substring"
	}{
		{name: "installable", csv: csvWith(nil), props: []Property{prop("olm.package", `{"packageName":"op","version":"1.0.0"}`), prop("olm.gvk", `{"group":"a.io","kind":"A","version":"v1"}`)}},
		{name: "webhooks", csv: csvWith(func(c *v1alpha1.ClusterServiceVersion) {
			c.Spec.WebhookDefinitions = []v1alpha1.WebhookDescription{{GenerateName: "vwidget.kb.io", Type: v1alpha1.ValidatingAdmissionWebhook}}
		}), want: []string{RuleWebhooks + ": the CSV defines webhooks (vwidget.kb.io)"}},
		{name: "webhooks with the feature gate", webhooks: true, csv: csvWith(func(c *v1alpha1.ClusterServiceVersion) {
			c.Spec.WebhookDefinitions = []v1alpha1.WebhookDescription{{GenerateName: "vwidget.kb.io"}}
		})},
		// operator-controller v1.2.0 refuses the go/v4 sample's webhooks, v1.11.0 installs them
		// (TestE2EOLMv1Lifecycle); the gates became GA and on by default in v1.6.0.
		{name: "webhooks on v1.5.3", min: "v1.5.3", csv: csvWith(func(c *v1alpha1.ClusterServiceVersion) {
			c.Spec.WebhookDefinitions = []v1alpha1.WebhookDescription{{GenerateName: "vwidget.kb.io"}}
		}), want: []string{RuleWebhooks + ": the CSV defines webhooks (vwidget.kb.io): operator-controller before v1.6.0 refuses"}},
		{name: "webhooks from v1.6.0", min: "v1.6.0", csv: csvWith(func(c *v1alpha1.ClusterServiceVersion) {
			c.Spec.WebhookDefinitions = []v1alpha1.WebhookDescription{{GenerateName: "vwidget.kb.io"}}
		})},
		{name: "api services", csv: csvWith(func(c *v1alpha1.ClusterServiceVersion) {
			c.Spec.APIServiceDefinitions.Owned = []v1alpha1.APIServiceDescription{{Group: "metrics.example.com", Version: "v1beta1", Kind: "PodMetrics"}}
		}), want: []string{RuleAPIServices + ": the CSV owns API services (v1beta1.metrics.example.com)"}},
		{name: "no AllNamespaces", csv: csvWith(func(c *v1alpha1.ClusterServiceVersion) {
			c.Spec.InstallModes = []v1alpha1.InstallMode{{Type: v1alpha1.InstallModeTypeAllNamespaces, Supported: false}, {Type: v1alpha1.InstallModeTypeOwnNamespace, Supported: true}}
		}), want: []string{RuleInstallModes + ": the CSV does not support the AllNamespaces install mode"}},
		{name: "dependency properties", csv: csvWith(nil), props: []Property{
			prop(PropertyPackageRequired, `{"packageName":"etcd","versionRange":">=0.9.0"}`),
			prop(PropertyGVKRequired, `{"group":"etcd.database.coreos.com","kind":"EtcdCluster","version":"v1beta2"}`),
			prop(PropertyConstraint, `{"cel":{"rule":"true"}}`),
			prop(PropertyPackageRequired, `{"packageName":"etcd","version":">=0.9.0"}`), // dependencies.yaml form, same dependency
		}, want: []string{
			RuleDependencies + `: the bundle depends on API etcd.database.coreos.com/v1beta2 EtcdCluster (olm.gvk.required)`,
			RuleDependencies + `: the bundle depends on a constraint {"cel":{"rule":"true"}} (olm.constraint)`,
			RuleDependencies + `: the bundle depends on package etcd >=0.9.0 (olm.package.required)`,
		}},
		{name: "required CRD in the CSV", csv: csvWith(func(c *v1alpha1.ClusterServiceVersion) {
			c.Spec.CustomResourceDefinitions.Required = []v1alpha1.CRDDescription{{Name: "etcdclusters.etcd.database.coreos.com", Version: "v1beta2", Kind: "EtcdCluster"}}
		}), props: []Property{prop(PropertyGVKRequired, `{"group":"etcd.database.coreos.com","kind":"EtcdCluster","version":"v1beta2"}`)},
			want: []string{RuleDependencies + ": the bundle depends on API etcd.database.coreos.com/v1beta2 EtcdCluster (olm.gvk.required)"}},
		{name: "everything at once", csv: csvWith(func(c *v1alpha1.ClusterServiceVersion) {
			c.Spec.InstallModes = nil
			c.Spec.WebhookDefinitions = []v1alpha1.WebhookDescription{{GenerateName: "m.kb.io"}}
			c.Spec.APIServiceDefinitions.Owned = []v1alpha1.APIServiceDescription{{Group: "g", Version: "v1"}}
		}), want: []string{RuleAPIServices + ": ", RuleInstallModes + ": ", RuleWebhooks + ": "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			problems := CheckOLMv1(tt.csv, tt.props, WithWebhookSupport(tt.webhooks), WithMinOLMVersion(tt.min))
			if len(problems) != len(tt.want) {
				t.Fatalf("got %d problems %v, want %d", len(problems), problems, len(tt.want))
			}
			for i, w := range tt.want {
				got := problems[i].Rule + ": " + problems[i].Message
				if !strings.HasPrefix(got, w) {
					t.Errorf("problem %d = %q, want prefix %q", i, got, w)
				}
			}
		})
	}
}

func TestCheckTarget(t *testing.T) {
	problems := CheckOLMv1(csvWith(func(c *v1alpha1.ClusterServiceVersion) { c.Spec.InstallModes = nil }), nil)
	tests := []struct {
		target   Target
		problems []Problem
		warnings int
		err      bool
	}{
		{TargetV0, problems, 0, false},
		{TargetBoth, problems, 1, false},
		{TargetV1, problems, 0, true},
		{TargetV1, nil, 0, false},
	}
	for _, tt := range tests {
		t.Run(string(tt.target), func(t *testing.T) {
			w, err := CheckTarget(tt.target, tt.problems)
			if len(w) != tt.warnings {
				t.Errorf("warnings = %v, want %d", w, tt.warnings)
			}
			if (err != nil) != tt.err {
				t.Fatalf("err = %v, want error %v", err, tt.err)
			}
			if err != nil && (!errors.Is(err, ErrNotInstallable) || !strings.Contains(err.Error(), "AllNamespaces") || !strings.Contains(err.Error(), "--olm v0")) {
				t.Errorf("error %q should wrap ErrNotInstallable, give the reason and the way out", err)
			}
		})
	}
	if diff := cmp.Diff(problems, CheckOLMv1(csvWith(func(c *v1alpha1.ClusterServiceVersion) { c.Spec.InstallModes = nil }), nil)); diff != "" {
		t.Errorf("CheckOLMv1 is not deterministic:\n%s", diff)
	}
}
