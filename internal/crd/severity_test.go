package crd

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// deploys are the installer sets a finding is judged under: none (a standalone command: validate crds,
// catalog validate, catalog diff), each OLM alone, and both (deploy.olm of a project).
var deploys = []struct {
	name       string
	installers []Actor
}{
	{"standalone", nil},
	{"deploys olm-v0", []Actor{ActorOLMv0}},
	{"deploys olm-v1", []Actor{ActorOLMv1}},
	{"deploys both", []Actor{ActorOLMv0, ActorOLMv1}},
}

// agree checks that a finding says one thing, judged under installers (what the project deploys with;
// nil for a standalone command): its severity is the higher of its semantic severity and its refusers'
// (error when the API server or an installer of installers refuses, at least a warning when another
// installer does); its text names exactly its refusers, says "which this project deploys with" exactly
// when one of installers is among them, and "but" exactly when the refusal raised the severity; its fix
// is the refuser's (naming it) when the refusal decided the severity, and never the rule's own fix then.
func agree(f Finding, installers []Actor) error {
	text := f.String()
	refusers := f.Actors()
	if f.Actor == ActorClients {
		refusers = nil
	}
	want, deployed := f.Semantic, false
	for _, a := range refusers {
		switch {
		case a == string(ActorAPIServer):
			want = SeverityError
		case slices.Contains(installers, Actor(a)):
			want, deployed = SeverityError, true
		case want < SeverityWarning:
			want = SeverityWarning
		}
	}
	var problems []string
	if f.Severity != want {
		problems = append(problems, fmt.Sprintf("severity %s, want %s (semantic %s, refused by %v)", f.Severity, want, f.Semantic, refusers))
	}
	raised := f.Severity > f.Semantic
	for _, a := range refusers {
		if !strings.Contains(text, a) {
			problems = append(problems, "the text does not name refuser "+a)
		}
	}
	if len(refusers) > 0 {
		phrase := "; refused by "
		if raised {
			phrase = "; but refused by "
		}
		if !strings.Contains(text, phrase) {
			problems = append(problems, fmt.Sprintf("the text does not say %q", phrase))
		}
	} else if strings.Contains(text, "refused by") {
		problems = append(problems, "the text names a refuser, and nobody refuses")
	}
	if got := strings.Contains(text, "which this project deploys with"); got != deployed {
		problems = append(problems, fmt.Sprintf("the text says the project deploys with a refuser: %v, want %v", got, deployed))
	}
	if got := strings.HasSuffix(text, "; breaks clients"); got != (f.Actor == ActorClients) {
		problems = append(problems, fmt.Sprintf("the text says clients break: %v, actor %q", got, f.Actor))
	}
	switch {
	case raised && len(RefusersOf(f.Rule)) == 0:
		// OLM v1's preflight refuses the change for its shape: the rule's fix (about what the change
		// does) is not what the finding needs.
		if !strings.Contains(f.Fix, "OLM v1") || !strings.Contains(f.Fix, "refuses") || (FixFor(f.Rule) != "" && strings.Contains(f.Fix, FixFor(f.Rule))) {
			problems = append(problems, fmt.Sprintf("the refusal decides the severity, but the fix %q is not what lets OLM v1 install it", f.Fix))
		}
		if f.Semantic >= SeverityWarning && strings.Contains(f.Fix, "not affected") {
			problems = append(problems, fmt.Sprintf("the change affects objects or clients (semantic %s), but the fix %q says they are not", f.Semantic, f.Fix))
		}
	case raised:
		// The API server or OLM v0 refuses what the change does: the rule's fix lifts the refusal.
		if f.Fix != FixFor(f.Rule) {
			problems = append(problems, fmt.Sprintf("fix %q, want the rule's own %q", f.Fix, FixFor(f.Rule)))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("%s %s: %s\n    %s", f.Rule, f.Severity, strings.Join(problems, "; "), text)
}

// TestSeverityActorsFixAgree: for every rule, every semantic severity a policy or a severity decision
// can give it, and every actor column of CASES.tsv (apiserver, olm-v0, olm-v1) as what the project
// deploys with (the API server is in every deploy; a standalone command deploys with no installer), a
// finding's severity, actor phrase and fix agree (agree). Which actors refuse each rule is held to the
// columns the real API server and OLMs recorded by TestActorsAgreeWithOLM; the findings of every CASES row
// are checked here too.
func TestSeverityActorsFixAgree(t *testing.T) {
	for _, r := range Rules() {
		for _, sem := range []Severity{SeverityInfo, SeverityWarning, SeverityError} {
			for _, d := range deploys {
				t.Run(fmt.Sprintf("%s/%s/%s", r, sem, d.name), func(t *testing.T) {
					o := &options{policy: Policy{r: sem}, installers: d.installers}
					fs := finish(o, []change{{Finding: Finding{Rule: r, CRD: "widgets.example.com", Path: "^.spec.size", Message: "changed"}}})
					if len(fs) != 1 {
						t.Fatalf("want one finding, got %v", fs)
					}
					if err := agree(fs[0], d.installers); err != nil {
						t.Error(err)
					}
				})
			}
		}
	}
	ctx := context.Background()
	for _, row := range readCasesRows(t) {
		old, newSet, opts, _ := caseInputs(ctx, t, row)
		for _, d := range deploys {
			for _, f := range CompareSets(old, newSet, append(opts, WithInstallers(d.installers...))...) {
				if err := agree(f, d.installers); err != nil {
					t.Errorf("CASES %s, %s: %v", row.ID, d.name, err)
				}
			}
		}
	}
}

// TestDocumentedDefaultNeverAnError: a default the description documents keeps the meaning of objects
// that omit the field; only a refusing installer the project deploys with (OLM v1 refuses every default
// added or removed) makes it an error, and the finding says so.
func TestDocumentedDefaultNeverAnError(t *testing.T) {
	described := testCRD(specWith("repo", schemaOf("string", func(p *apiextv1.JSONSchemaProps) {
		p.Description = "Chart repository. Defaults to https://charts.example.io/."
	})))
	withDefault := testCRD(specWith("repo", schemaOf("string", func(p *apiextv1.JSONSchemaProps) {
		p.Default = raw(`"https://charts.example.io/"`)
	})))
	for _, d := range deploys {
		fs := Compare(crds(withDefault), crds(described), WithAPIServerValidation(false), WithInstallers(d.installers...))
		if len(fs) != 1 {
			t.Fatalf("%s: want one finding, got %v", d.name, fs)
		}
		f := fs[0]
		wantErr := slices.Contains(d.installers, ActorOLMv1)
		if f.Semantic != SeverityInfo || (f.Severity == SeverityError) != wantErr {
			t.Errorf("%s: %s (semantic %s), want an error only when the project deploys with olm-v1: %s", d.name, f.Severity, f.Semantic, f)
		}
		if err := agree(f, d.installers); err != nil {
			t.Errorf("%s: %v", d.name, err)
		}
		for _, s := range []string{"keep the meaning", "but refused by olm-v1 (crdify's default check)"} {
			if !strings.Contains(f.String(), s) {
				t.Errorf("%s: %q does not say %q", d.name, f, s)
			}
		}
		if !strings.HasPrefix(f.Fix, "keep the default in the schema where OLM v1") {
			t.Errorf("%s: fix %q, want the default kept for OLM v1", d.name, f.Fix)
		}
	}
}

func crds(cs ...*apiextv1.CustomResourceDefinition) []*apiextv1.CustomResourceDefinition { return cs }
