package validate

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/finding"
)

// sdkOutput is one entry of operator-sdk's json-alpha1 output.
type sdkOutput struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

type sdkExpect struct {
	rc      int
	outputs []sdkOutput
}

var fatalMsg = regexp.MustCompile(`level=fatal msg="(.*)"`)

// readExpected reads operator-sdk's exit code and outputs: expected.json, or the fatal line of expected.stderr.
func readExpected(t *testing.T, dir, base string) sdkExpect {
	t.Helper()
	rcRaw, err := os.ReadFile(filepath.Join(dir, base+".rc"))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := strconv.Atoi(strings.TrimSpace(string(rcRaw)))
	if err != nil {
		t.Fatal(err)
	}
	exp := sdkExpect{rc: rc}
	if raw, err := os.ReadFile(filepath.Join(dir, base+".json")); err == nil && len(raw) > 0 {
		var doc struct{ Outputs []sdkOutput }
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		exp.outputs = doc.Outputs
		return exp
	}
	raw, err := os.ReadFile(filepath.Join(dir, base+".stderr"))
	if err != nil {
		t.Fatal(err)
	}
	if m := fatalMsg.FindStringSubmatch(string(raw)); m != nil {
		exp.outputs = []sdkOutput{{Type: "error", Message: m[1]}}
	}
	return exp
}

// sdkView keeps the findings of operator-sdk's checks, with the bundle path written as operator-sdk ran
// ("bundle", relative to the sample's folder).
func sdkView(r *finding.Report, bundleDir string) []sdkOutput {
	var out []sdkOutput
	for _, f := range r.Findings {
		if !strings.HasPrefix(f.Rule, "operator-sdk/") {
			continue
		}
		out = append(out, sdkOutput{Type: string(f.Severity), Message: strings.ReplaceAll(f.Message, bundleDir, "bundle")})
	}
	return out
}

func TestValidateCases(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "validate", "cases")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 16 {
		t.Fatalf("want the 16 operator-sdk cases, found %d", len(entries))
	}
	for _, e := range entries {
		t.Run(e.Name(), func(t *testing.T) {
			dir := filepath.Join(root, e.Name())
			want := readExpected(t, dir, "expected")
			bundleDir := filepath.Join(dir, "bundle")
			report, err := Bundles(context.Background(), []string{bundleDir})
			if err != nil {
				t.Fatal(err)
			}
			if got := report.ExitCode(); got != want.rc {
				t.Errorf("exit code = %d, want %d", got, want.rc)
			}
			if diff := cmp.Diff(want.outputs, sdkView(report, bundleDir)); diff != "" {
				t.Errorf("outputs (-operator-sdk +opack):\n%s", diff)
			}
			for _, f := range report.Findings {
				if !strings.HasPrefix(f.Rule, "operator-sdk/") {
					t.Errorf("unexpected extra finding: %s", f)
				}
			}
		})
	}
}

// knownDifferences lists operator-sdk v1.42.3 outputs opack does not reproduce on purpose: the
// alpha-deprecated-apis false positive on RBAC rules for policy/poddisruptionbudgets (operator-framework/api#378,
// fixed in api v0.45, which opack uses).
var knownDifferences = []string{
	`Migrate the API(s) for poddisruptionbudgets: (["ClusterServiceVersion.Spec.InstallStrategy.StrategySpec.ClusterPermissions[0].Rules[12]"])`,
}

func withoutKnownDifferences(outs []sdkOutput) []sdkOutput {
	var kept []sdkOutput
next:
	for _, o := range outs {
		for _, k := range knownDifferences {
			if strings.HasSuffix(o.Message, k) {
				continue next
			}
		}
		kept = append(kept, o)
	}
	return kept
}

func TestValidateSamples(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "validate", "samples")
	samples := []string{"memcached-operator", "monitoring-memcached-operator", "helm-memcached-operator", "ansible-memcached-operator-v1.31"}
	selectors := map[string]string{
		"default":                    "",
		"suite_operatorframework":    "suite=operatorframework",
		"name_operatorhub":           "name=operatorhub",
		"name_good-practices":        "name=good-practices",
		"name_capabilities":          "name=capabilities",
		"name_categories":            "name=categories",
		"name_alpha-deprecated-apis": "name=alpha-deprecated-apis",
	}
	for _, s := range samples {
		for base, sel := range selectors {
			t.Run(s+"/"+base, func(t *testing.T) {
				dir := filepath.Join(root, s)
				want := readExpected(t, filepath.Join(dir, "expected"), base)
				bundleDir := filepath.Join(dir, "bundle")
				report, err := Bundles(context.Background(), []string{bundleDir}, WithSelector(sel))
				if err != nil {
					t.Fatal(err)
				}
				if got := report.ExitCode(); got != want.rc {
					t.Errorf("exit code = %d, want %d", got, want.rc)
				}
				if diff := cmp.Diff(withoutKnownDifferences(want.outputs), sdkView(report, bundleDir)); diff != "" {
					t.Errorf("outputs (-operator-sdk +opack):\n%s", diff)
				}
				for _, f := range report.Findings {
					if !strings.HasPrefix(f.Rule, "operator-sdk/") {
						t.Errorf("unexpected extra finding: %s", f)
					}
				}
			})
		}
	}
}
