package agreement

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opack/opack/internal/crd/preflight"
)

// verdictsFile records what OLM v1's preflight (crdify as operator-controller v1.11.0 configures it,
// hack/tools/crdify) decided on each changed CRD pair of the corpus catalogs; make oracle checks it is
// current and OPACK_ORACLE_RECORD=1 make oracle rewrites it.
var verdictsFile = filepath.Join("testdata", "crdify-verdicts.jsonl")

// corpusSources are the catalogs of ../shared/corpus whose upgrade edges are measured: the catalog whose
// bundles embed their objects, the package-manifest histories and the certified-operators bundles.
func corpusSources() []Source {
	root := filepath.Join("..", "..", "..", "..", "shared", "corpus")
	return []Source{
		{"fbc/certified-operators-v4.14-partial", "fbc", filepath.Join(root, "fbc", "certified-operators-v4.14-partial")},
		{"packagemanifests", "bundles", filepath.Join(root, "packagemanifests")},
		{"certified-operators", "bundles", filepath.Join(root, "certified-operators")},
	}
}

// knownClasses are the classes of disagreement between crdify's verdict and opack's OLM v1 claim that
// the real operator-controller settles (testdata/crd-upgrade CASES.tsv, the row named), each with what it
// did. A class not listed fails the test.
var knownClasses = map[string]string{
	ClassOrderDependent: "CASES real/served-required-order: operator-controller v1.11.0 installed the upgrade that one crdify run refuses (it retries until the random orders agree)",
}

var verbose = flag.Bool("agreement.verbose", false, "log every pair opack and crdify disagree on")

// TestCorpusOLMv1Agreement holds opack's OLM v1 claims to crdify's recorded verdicts on every changed CRD
// of the corpus catalogs' upgrade edges: at least 99% of the pairs the preflight refuses carry an olm-v1
// claim, at most 1% of those it accepts do, and every disagreement is of a known class. The model of the
// preflight (internal/crd/preflight) is held to crdify issue by issue.
func TestCorpusOLMv1Agreement(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus test; skipped with -short")
	}
	ctx := context.Background()
	pairs, edges, err := Pairs(ctx, corpusSources()...)
	if err != nil {
		t.Skipf("corpus not available: %v", err)
	}
	verdicts, err := ReadVerdicts(verdictsFile)
	if err != nil {
		t.Fatal(err)
	}
	var stale []string
	for _, p := range pairs {
		if _, ok := verdicts[p.Key]; !ok {
			stale = append(stale, fmt.Sprintf("%s %s %s -> %s %s", p.Catalog, p.Package, p.From, p.To, p.CRD))
		}
	}
	if len(stale) > 0 {
		t.Fatalf("%s lacks crdify's verdict on %d pairs (OPACK_ORACLE_RECORD=1 make oracle records them), e.g. %s", verdictsFile, len(stale), stale[0])
	}
	dir := t.TempDir()
	if err := WritePairs(dir, pairs); err != nil {
		t.Fatal(err)
	}
	tab := Compare(pairs, verdicts, Claims(ctx, dir, pairs))
	var b strings.Builder
	tab.Markdown(&b)
	t.Logf("%d upgrade edges\n%s", edges, b.String())
	if tab.Refused == 0 || tab.Accepted == 0 {
		t.Fatalf("no refused or no accepted pair: %d, %d", tab.Refused, tab.Accepted)
	}
	if 100*tab.RefusedClaimed < 99*tab.Refused {
		t.Errorf("opack names olm-v1 on %d of the %d pairs OLM v1 refuses, want at least 99%%", tab.RefusedClaimed, tab.Refused)
	}
	if 100*tab.AcceptedClaimed > tab.Accepted {
		t.Errorf("opack names olm-v1 on %d of the %d pairs OLM v1 accepts, want at most 1%%", tab.AcceptedClaimed, tab.Accepted)
	}
	for _, classes := range []map[string][]Pair{tab.Silent, tab.Claimed} {
		for class, ps := range classes {
			if _, ok := knownClasses[class]; !ok {
				t.Errorf("disagreement of an unknown class on %d pairs: %s (e.g. %s %s %s -> %s %s)", len(ps), class, ps[0].Catalog, ps[0].Package, ps[0].From, ps[0].To, ps[0].CRD)
			}
		}
	}
	model, err := Model(ctx, dir, pairs, preflight.Crdify)
	if err != nil {
		t.Fatal(err)
	}
	differ := 0
	for _, p := range pairs {
		v := verdicts[p.Key]
		if !v.Judged() || v.Verdict == Panic || v.OrderDependent() {
			continue
		}
		var ids []string
		for _, r := range model[p.Key] {
			if !OrderSensitive(r) {
				ids = append(ids, RefusalIssue(r).id())
			}
		}
		if n, d := Digest(ids); n != v.Count || d != v.Digest {
			differ++
			if differ <= 5 || *verbose {
				t.Errorf("%s %s %s -> %s %s: the model finds %d issues (digest %s), crdify %d (%s); hack/crdify-agreement -json lists both", p.Catalog, p.Package, p.From, p.To, p.CRD, n, d, v.Count, v.Digest)
			}
		}
	}
	if differ > 0 {
		t.Errorf("the model of the preflight differs from crdify on %d pairs", differ)
	}
}
