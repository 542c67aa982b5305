package crd

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// TestActorOnlyWhereSomeoneRefusesOrBreaks: a finding names an actor ("refused by olm-v1", "breaks
// clients") only when someone refuses the upgrade or something breaks; an info finding of a rule no
// installer refuses (crd-added: "nothing can break") names nobody, in its text and its Actor field. A
// change an installer refuses is never info.
func TestActorOnlyWhereSomeoneRefusesOrBreaks(t *testing.T) {
	widget := testCRD(specWith("size", schemaOf("integer")))
	withDefault := func(p *apiextv1.JSONSchemaProps) { p.Default = &apiextv1.JSON{Raw: []byte(`""`)} }
	type got struct {
		Rule     Rule
		Severity Severity
		Actor    Actor
		Verdict  bool // the text ends in the actor's verdict
	}
	for _, tc := range []struct {
		name     string
		old, new []*apiextv1.CustomResourceDefinition
		policy   Policy
		// installers: WithInstallers (what the project deploys with).
		installers []Actor
		want       got
	}{
		{name: "crd added: info, nothing breaks", new: []*apiextv1.CustomResourceDefinition{widget},
			want: got{RuleCRDAdded, SeverityInfo, "", false}},
		{name: "crd removed: warning, clients break", old: []*apiextv1.CustomResourceDefinition{widget},
			want: got{RuleCRDRemoved, SeverityWarning, ActorClients, true}},
		{name: "crd removed set to info by a policy", old: []*apiextv1.CustomResourceDefinition{widget}, policy: Policy{RuleCRDRemoved: SeverityInfo},
			want: got{RuleCRDRemoved, SeverityInfo, "", false}},
		{name: "info that olm-v1 still refuses keeps its actor and is a warning",
			old:  []*apiextv1.CustomResourceDefinition{testCRD(specWith("name", schemaOf("string")))},
			new:  []*apiextv1.CustomResourceDefinition{testCRD(specWith("name", schemaOf("string", withDefault)))},
			want: got{RuleDefaultAdded, SeverityWarning, ActorOLMv1, true}},
		{name: "info that olm-v1 refuses: an error for a project deploying with olm-v1", installers: []Actor{ActorOLMv0, ActorOLMv1},
			old:  []*apiextv1.CustomResourceDefinition{testCRD(specWith("name", schemaOf("string")))},
			new:  []*apiextv1.CustomResourceDefinition{testCRD(specWith("name", schemaOf("string", withDefault)))},
			want: got{RuleDefaultAdded, SeverityError, ActorOLMv1, true}},
		{name: "info that olm-v1 refuses is a warning for a project deploying with olm-v0 only", installers: []Actor{ActorOLMv0},
			old:  []*apiextv1.CustomResourceDefinition{testCRD(specWith("name", schemaOf("string")))},
			new:  []*apiextv1.CustomResourceDefinition{testCRD(specWith("name", schemaOf("string", withDefault)))},
			want: got{RuleDefaultAdded, SeverityWarning, ActorOLMv1, true}},
		{name: "a clients rule is never raised", installers: []Actor{ActorOLMv0, ActorOLMv1}, old: []*apiextv1.CustomResourceDefinition{widget},
			want: got{RuleCRDRemoved, SeverityWarning, ActorClients, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := []Option{WithAPIServerValidation(false)}
			if tc.policy != nil {
				opts = append(opts, WithPolicy(tc.policy))
			}
			if tc.installers != nil {
				opts = append(opts, WithInstallers(tc.installers...))
			}
			fs := Compare(tc.old, tc.new, opts...)
			if len(fs) != 1 {
				t.Fatalf("want one finding, got %v", fs)
			}
			f := fs[0]
			text := f.String()
			g := got{f.Rule, f.Severity, f.Actor, f.Verdict() != "" && strings.HasSuffix(text, "; "+f.Verdict())}
			if diff := cmp.Diff(tc.want, g); diff != "" {
				t.Errorf("finding %q (-want +got):\n%s", text, diff)
			}
		})
	}
}
