package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// jsonOutput is a finding of -o json, as a consumer reads it.
type jsonOutput struct {
	Type      string   `json:"type"`
	Semantic  string   `json:"semantic"`
	Rule      string   `json:"rule"`
	Message   string   `json:"message"`
	Fix       string   `json:"fix"`
	Actor     string   `json:"actor"`
	Actors    []string `json:"actors"`
	Published bool     `json:"published"`
}

var severityRank = map[string]int{"info": 0, "warning": 1, "error": 2}

// saysOneThing checks a CRD upgrade finding of a standalone command's -o json (no installer is
// deployed): its severity is the higher of its semantic severity and its refusers' (error for the API
// server, at least a warning for an OLM); its message names its refusers ("refused by"), with "but"
// exactly when the refusal raised the severity, or says clients break; when OLM v1's refusal alone
// decides, the fix is what OLM v1 needs; and a default the description documents is never an error.
func saysOneThing(o jsonOutput) error {
	if !strings.HasPrefix(o.Rule, "crd-upgrade/") {
		return nil
	}
	var problems []string
	refusers := slices.DeleteFunc(slices.Clone(o.Actors), func(a string) bool { return a == "clients" })
	want := o.Semantic
	if _, ok := severityRank[want]; !ok {
		return fmt.Errorf("%s %s: semantic severity %q", o.Type, o.Rule, o.Semantic)
	}
	for _, a := range refusers {
		s := "warning"
		if a == "apiserver" {
			s = "error"
		}
		if severityRank[s] > severityRank[want] {
			want = s
		}
	}
	if o.Type != want && !o.Published { // a finding on published edges is lowered to a warning
		problems = append(problems, fmt.Sprintf("severity %s, want %s (semantic %s, refused by %v)", o.Type, want, o.Semantic, refusers))
	}
	raised := severityRank[o.Type] > severityRank[o.Semantic]
	switch {
	case len(refusers) > 0:
		phrase := "; refused by "
		if raised {
			phrase = "; but refused by "
		}
		if !strings.Contains(o.Message, phrase) {
			problems = append(problems, fmt.Sprintf("the message does not say %q", phrase))
		}
		for _, a := range refusers {
			if !strings.Contains(o.Message, a) {
				problems = append(problems, "the message does not name refuser "+a)
			}
		}
	case slices.Equal(o.Actors, []string{"clients"}):
		if !strings.Contains(o.Message, "; breaks clients") {
			problems = append(problems, "the message does not say clients break")
		}
	case strings.Contains(o.Message, "refused by"):
		problems = append(problems, "the message names a refuser, and nobody refuses")
	}
	if raised && o.Actor == "olm-v1" && (!strings.Contains(o.Fix, "OLM v1") || !strings.Contains(o.Fix, "refuses")) {
		problems = append(problems, fmt.Sprintf("OLM v1's refusal decides the severity, but the fix %q is not what OLM v1 needs", o.Fix))
	}
	if o.Semantic != "info" && strings.Contains(o.Fix, "not affected") {
		problems = append(problems, fmt.Sprintf("the change affects objects or clients (semantic %s), but the fix %q says they are not", o.Semantic, o.Fix))
	}
	if (o.Rule == "crd-upgrade/default-added" || o.Rule == "crd-upgrade/default-removed") && strings.Contains(o.Message, "description") && o.Type == "error" {
		problems = append(problems, "a default the description documents is an error")
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("%s %s: %s\n    %s; fix: %s", o.Type, o.Rule, strings.Join(problems, "; "), o.Message, o.Fix)
}

// catalogFindingsAgree runs catalog validate -o json on dir and checks every finding says one thing;
// it returns how many CRD upgrade findings there were, by severity.
func catalogFindingsAgree(t *testing.T, dir string) map[string]int {
	t.Helper()
	code, out, stderr := runOpack(t, "", "catalog", "validate", dir, "-o", "json")
	if code != exitOK && code != exitFindings {
		t.Fatalf("catalog validate %s: exit %d\n%s", dir, code, stderr)
	}
	var doc struct {
		Outputs []jsonOutput `json:"outputs"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("catalog validate %s: %v", dir, err)
	}
	counts := map[string]int{}
	for _, o := range doc.Outputs {
		if err := saysOneThing(o); err != nil {
			t.Errorf("%s: %v", dir, err)
		}
		if strings.HasPrefix(o.Rule, "crd-upgrade/") {
			counts[o.Type]++
		}
	}
	return counts
}

// TestRealCatalogFindingsAgree: on real catalogs fetched from their repositories (testdata/real-catalogs:
// marin3r's own catalog, patterns-operator of community-operators-prod, each a release pair whose
// defaults moved into the description), every CRD upgrade finding of catalog validate -o json says one
// thing (saysOneThing), and none is a documented default made an error.
func TestRealCatalogFindingsAgree(t *testing.T) {
	for _, name := range []string{"marin3r", "patterns-operator"} {
		t.Run(name, func(t *testing.T) {
			counts := catalogFindingsAgree(t, filepath.Join("..", "..", "testdata", "real-catalogs", name))
			if counts["warning"] == 0 {
				t.Errorf("no CRD upgrade warning: the catalog no longer holds the change it was copied for (%v)", counts)
			}
		})
	}
}

// TestCorpusCatalogFindingsAgree is TestRealCatalogFindingsAgree on every catalog of
// ../shared/corpus/fbc (skipped without it).
func TestCorpusCatalogFindingsAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus test; skipped with -short")
	}
	dirs, err := filepath.Glob(filepath.Join(corpusDir(t), "fbc", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no catalog in the corpus: %v", err)
	}
	total := map[string]int{}
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		for s, n := range catalogFindingsAgree(t, dir) {
			total[s] += n
		}
	}
	t.Logf("CRD upgrade findings checked: %v", total)
	if total["error"] == 0 || total["warning"] == 0 {
		t.Errorf("want errors and warnings among the corpus's CRD upgrade findings, got %v", total)
	}
}

// TestSaysOneThing: the checker accepts findings that state both facts and refuses the contradictions
// catalog validate printed on the real catalogs before (an info refused by OLM v1, a documented default
// an error, a fix about meaning under a finding whose meaning is kept).
func TestSaysOneThing(t *testing.T) {
	const kept = "default removed that the new description still documents; objects that omit the field keep the meaning the controller gives them (\"TCP\" -> none)"
	for _, tc := range []struct {
		name string
		o    jsonOutput
		ok   bool
	}{
		{"documented default, raised by OLM v1", jsonOutput{Type: "warning", Semantic: "info", Rule: "crd-upgrade/default-removed", Actor: "olm-v1", Actors: []string{"olm-v1"},
			Message: kept + "; but refused by olm-v1 (crdify's default check) [default-removed]",
			Fix:     "keep the default in the schema where OLM v1 installs this operator: OLM v1 refuses removing any default"}, true},
		{"info that OLM v1 refuses", jsonOutput{Type: "info", Semantic: "info", Rule: "crd-upgrade/default-removed", Actor: "olm-v1", Actors: []string{"olm-v1"},
			Message: kept + "; refused by olm-v1 [default-removed]", Fix: "keep the default; objects that omit the field silently change behaviour"}, false},
		{"documented default an error", jsonOutput{Type: "error", Semantic: "error", Rule: "crd-upgrade/default-removed", Actor: "olm-v1", Actors: []string{"olm-v1"},
			Message: "default removed that the new description still documents; refused by olm-v1", Fix: "keep the default"}, false},
		{"raised, with the rule's fix", jsonOutput{Type: "warning", Semantic: "info", Rule: "crd-upgrade/map-type-changed", Actor: "olm-v1", Actors: []string{"olm-v1"},
			Message: "x-kubernetes-map-type changed; but refused by olm-v1 (crdify preflight)", Fix: "server-side apply now owns the object as one value"}, false},
		{"refused by the API server, not an error", jsonOutput{Type: "warning", Semantic: "warning", Rule: "crd-upgrade/scope-changed", Actor: "apiserver", Actors: []string{"apiserver", "olm-v1"},
			Message: "scope changed; refused by apiserver and olm-v1 (crdify's scope check)", Fix: "keep spec.scope"}, false},
		{"clients break", jsonOutput{Type: "warning", Semantic: "warning", Rule: "crd-upgrade/crd-removed", Actor: "clients", Actors: []string{"clients"},
			Message: "CRD removed from the new release; breaks clients [crd-removed]", Fix: "keep shipping the CRD"}, true},
		{"not a CRD finding", jsonOutput{Type: "warning", Rule: "catalog/graph", Message: "refused by nobody"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := saysOneThing(tc.o); (err == nil) != tc.ok {
				t.Errorf("saysOneThing = %v, want ok %v", err, tc.ok)
			}
		})
	}
}
