package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/crd/crdcases"
	"github.com/opack/opack/internal/image"
)

const crdCasesDir = "../../testdata/crd-upgrade"

// crdDivergences are the CASES.tsv rows where opack deliberately gives another verdict than the
// upstream checker the row comes from, with the reason. Each is still run and must give opack's verdict.
var crdDivergences = map[string]string{
	"schema-checker/no_new_required_fields/cannot_require_array_element": "the new optional list badList " +
		"(minLength on an array, which validation ignores) is not required: objects without it stay valid",
	"schema-checker/no_new_required_fields/cannot_require_new_field_of_existing_optional_grandparent": "child " +
		"is required only inside the new optional parent: objects without parent stay valid",
}

type crdCase struct {
	id, old, new, stored, instances, expected string
}

func readCrdCases(t *testing.T) []crdCase {
	t.Helper()
	rows, err := crdcases.Read()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]crdCase, 0, len(rows))
	for _, r := range rows {
		out = append(out, crdCase{id: r.ID, old: r.Old, new: r.New, stored: r.Stored, instances: r.Instances, expected: r.Expected})
	}
	return out
}

func (c crdCase) args() []string {
	in := func(p string) string { return filepath.Join(crdCasesDir, p) }
	args := []string{"validate", "crds", in(c.old), in(c.new)}
	if c.stored != "" {
		args = append(args, "--stored-versions", c.stored)
	}
	for _, p := range strings.Split(c.instances, ",") {
		if p != "" {
			args = append(args, "--instances", in(p))
		}
	}
	return args
}

// TestValidateCrdsCases runs every row of testdata/crd-upgrade/CASES.tsv through the command and
// checks the exit code: 0 for pass, 1 for fail.
func TestValidateCrdsCases(t *testing.T) {
	cases := readCrdCases(t)
	if len(cases) != 118 {
		t.Fatalf("CASES.tsv has %d cases, want 118", len(cases))
	}
	agree := 0
	for _, c := range cases {
		want := c.expected
		if _, ok := crdDivergences[c.id]; ok {
			want = map[string]string{"pass": "fail", "fail": "pass"}[c.expected]
		} else {
			agree++
		}
		t.Run(c.id, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), c.args(), nil, &stdout, &stderr)
			wantCode := map[string]int{"pass": exitOK, "fail": exitFindings}[want]
			if code != wantCode {
				t.Errorf("exit code %d, want %d (%s)\n%s%s", code, wantCode, want, stdout.String(), stderr.String())
			}
		})
	}
	if rate := float64(agree) / float64(len(cases)); rate < 0.95 {
		t.Errorf("only %d/%d cases (%.1f%%) give the expected verdict, want >= 95%%", agree, len(cases), 100*rate)
	}
}

func TestValidateCrdsOutputs(t *testing.T) {
	in := func(p string) string { return filepath.Join(crdCasesDir, p) }
	oldCRD, newCRD := in("operator-controller/crd-conversion-no-webhook.json"), in("operator-controller/crd-conversion-no-webhook-extra-issue.json")
	t.Run("json", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"validate", "crds", oldCRD, newCRD, "-o", "json"}, nil, &stdout, &stderr)
		if code != exitFindings {
			t.Fatalf("exit code %d, want %d: %s", code, exitFindings, stderr.String())
		}
		var got struct {
			Passed  bool
			Outputs []struct{ Type, Rule, Object, File string }
		}
		if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
			t.Fatalf("decoding %q: %v", stdout.String(), err)
		}
		want := []struct{ Type, Rule, Object, File string }{{"error", "crd-upgrade/served-version-incompatible",
			"CustomResourceDefinition crontabs.stable.example.com", newCRD}}
		if diff := cmp.Diff(want, got.Outputs); diff != "" || got.Passed {
			t.Errorf("outputs (-want +got):\n%s (passed %v)", diff, got.Passed)
		}
	})
	t.Run("github", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		run(context.Background(), []string{"validate", "crds", oldCRD, newCRD, "-o", "github"}, nil, &stdout, &stderr)
		if !strings.HasPrefix(stdout.String(), "::error") || !strings.Contains(stdout.String(), "v1 -> v2 ^.spec.extraField") {
			t.Errorf("github output %q lacks the ::error annotation for v1 -> v2 ^.spec.extraField", stdout.String())
		}
	})
	t.Run("text names version, path, old -> new and fix", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		run(context.Background(), []string{"validate", "crds", oldCRD, newCRD}, nil, &stdout, &stderr)
		for _, s := range []string{"error: ", "crontabs.stable.example.com", "v1 -> v2 ^.spec.extraField", "(boolean -> string)", "fix: "} {
			if !strings.Contains(stdout.String(), s) {
				t.Errorf("text output %q lacks %q", stdout.String(), s)
			}
		}
	})
}

// TestValidateCrdsAPIServerRefusal: an update the real API server refuses (CASES.tsv column apiserver)
// is an error naming the actor, and the command exits 1.
func TestValidateCrdsAPIServerRefusal(t *testing.T) {
	in := func(p string) string { return filepath.Join(crdCasesDir, p) }
	tests := []struct{ name, old, new, want string }{
		{"webhook without conversionReviewVersions", "operator-controller/crd-conversion-webhook-old.json", "operator-controller/crd-conversion-webhook.json",
			"conversionReviewVersions: Required value"},
		{"old and new not structural", "crdify/test/oneofadded/a.yaml", "crdify/test/oneofadded/b.yaml", "must be empty to be structural"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{"validate", "crds", in(tt.old), in(tt.new), "-o", "json"}, nil, &stdout, &stderr)
			if code != exitFindings {
				t.Fatalf("exit code %d, want %d\n%s%s", code, exitFindings, stdout.String(), stderr.String())
			}
			var got struct {
				Outputs []struct{ Type, Rule, Message, Actor string }
			}
			if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
				t.Fatalf("decoding %q: %v", stdout.String(), err)
			}
			found := false
			for _, o := range got.Outputs {
				if o.Rule == "crd-upgrade/apiserver" && strings.Contains(o.Message, tt.want) {
					found = true
					if o.Type != "error" || o.Actor != "apiserver" || !strings.Contains(o.Message, "refused by apiserver") {
						t.Errorf("finding %+v: want an error with actor apiserver saying \"refused by apiserver\"", o)
					}
				}
			}
			if !found {
				t.Errorf("no crd-upgrade/apiserver finding mentions %q: %s", tt.want, stdout.String())
			}
		})
	}
}

func TestValidateCrdsPolicyAndUsage(t *testing.T) {
	in := func(p string) string { return filepath.Join(crdCasesDir, p) }
	policy := filepath.Join(t.TempDir(), "policy.yaml")
	if err := os.WriteFile(policy, []byte("rules:\n  served-version-incompatible: warn\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	badPolicy := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(badPolicy, []byte("rules:\n  no-such-rule: off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	oldCRD, newCRD := in("operator-controller/crd-conversion-no-webhook.json"), in("operator-controller/crd-conversion-no-webhook-extra-issue.json")
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"policy downgrades to a warning", []string{oldCRD, newCRD, "--policy", policy}, exitOK},
		{"unknown policy rule", []string{oldCRD, newCRD, "--policy", badPolicy}, exitUsage},
		{"missing path", []string{oldCRD, in("no-such-file.yaml")}, exitUsage},
		{"one argument without --cluster-crd", []string{newCRD}, exitUsage},
		{"cluster CRD as the old side", []string{"--cluster-crd", oldCRD, newCRD}, exitFindings},
		{"unknown output", []string{oldCRD, newCRD, "-o", "yaml"}, exitUsage},
		{"identical CRDs pass", []string{newCRD, newCRD}, exitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if got := run(context.Background(), append([]string{"validate", "crds"}, tt.args...), nil, &stdout, &stderr); got != tt.want {
				t.Errorf("exit code %d, want %d\n%s%s", got, tt.want, stdout.String(), stderr.String())
			}
		})
	}
}

// TestValidateCrdsBundleImage compares a bundle folder with the same bundle as an image in an OCI
// layout (oci:DIR@digest), pulled without a daemon: identical CRDs pass.
func TestValidateCrdsBundleImage(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	files := map[string]string{
		"manifests/crd.json":        "",
		"metadata/annotations.yaml": "annotations:\n  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n  operators.operatorframework.io.bundle.manifests.v1: manifests/\n  operators.operatorframework.io.bundle.metadata.v1: metadata/\n  operators.operatorframework.io.bundle.package.v1: crontab\n  operators.operatorframework.io.bundle.channels.v1: stable\n",
	}
	crdData, err := os.ReadFile(filepath.Join(crdCasesDir, "operator-controller/crd-conversion-no-webhook-extra-issue.json"))
	if err != nil {
		t.Fatal(err)
	}
	files["manifests/crd.json"] = string(crdData)
	for name, data := range files {
		p := filepath.Join(dir, "bundle", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	img, err := image.Bundle(ctx, filepath.Join(dir, "bundle"))
	if err != nil {
		t.Fatal(err)
	}
	pub, err := image.NewLayoutPublisher(filepath.Join(dir, "layout"), "v1")
	if err != nil {
		t.Fatal(err)
	}
	ref, err := pub.Publish(ctx, img)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		old  string
		want int
	}{
		{filepath.Join(dir, "bundle"), exitOK},
		{filepath.Join(crdCasesDir, "operator-controller/crd-conversion-no-webhook.json"), exitFindings},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(ctx, []string{"validate", "crds", tt.old, ref}, nil, &stdout, &stderr); code != tt.want {
			t.Errorf("validate crds %s %s: exit code %d, want %d\n%s%s", tt.old, ref, code, tt.want, stdout.String(), stderr.String())
		}
		if tt.want == exitFindings && !strings.Contains(stdout.String(), ref+":manifests/crd.json") {
			t.Errorf("findings do not name the image file: %s", stdout.String())
		}
	}
}

// TestValidateCrdsEmptySide: a side without any CRD cannot be compared (exit 2, naming the path), and a run
// says on stderr how many CRDs it compared.
func TestValidateCrdsEmptySide(t *testing.T) {
	in := func(p string) string { return filepath.Join(crdCasesDir, p) }
	crdFile := in("operator-controller/old-crd.json")
	dir := t.TempDir()
	empty, notCRD := filepath.Join(dir, "empty"), filepath.Join(dir, "notcrd")
	for _, d := range []string{empty, notCRD} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	svc := "apiVersion: v1\nkind: Service\nmetadata: {name: webhook-service}\nspec:\n  ports: [{port: 443}]\n"
	if err := os.WriteFile(filepath.Join(notCRD, "service.yaml"), []byte(svc), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"new side empty", []string{crdFile, empty}, exitUsage, "Error: " + empty + " holds no CustomResourceDefinition, so every CRD would be removed"},
		{"new side without CRDs", []string{crdFile, notCRD}, exitUsage, "Error: " + notCRD + " holds no CustomResourceDefinition"},
		{"both empty", []string{empty, empty}, exitOK, "validate crds: 0 CRDs compared (0 old, 0 new), 0 errors, 0 warnings\n"},
		{"old side empty: additions", []string{empty, crdFile}, exitOK, "validate crds: 0 CRDs compared (0 old, 1 new), 0 errors, 0 warnings\n"},
		{"old side without CRDs: additions", []string{notCRD, crdFile}, exitOK, "validate crds: 0 CRDs compared (0 old, 1 new), 0 errors, 0 warnings\n"},
		{"summary counts CRDs", []string{crdFile, crdFile}, exitOK, "validate crds: 1 CRD compared (1 old, 1 new), 0 errors, 0 warnings\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append([]string{"validate", "crds"}, tt.args...), nil, &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit code %d, want %d\n%s%s", code, tt.code, stdout.String(), stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tt.stderr)
			}
			if strings.Contains(tt.name, "additions") && !strings.Contains(stdout.String(), "info: ") || strings.Contains(stdout.String(), "[crd-added]") != strings.Contains(tt.name, "additions") {
				t.Errorf("want crd-added info findings exactly for additions, got:\n%s", stdout.String())
			}
		})
	}
}

// TestValidateCrdsJSONFields: -o json carries the CRD, version, path, old, new and fix of each finding as
// fields, besides the message.
func TestValidateCrdsJSONFields(t *testing.T) {
	in := func(p string) string { return filepath.Join(crdCasesDir, p) }
	oldCRD, newCRD := in("operator-controller/crd-conversion-no-webhook.json"), in("operator-controller/crd-conversion-no-webhook-extra-issue.json")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"validate", "crds", oldCRD, newCRD, "-o", "json"}, nil, &stdout, &stderr); code != exitFindings {
		t.Fatalf("exit code %d, want %d: %s", code, exitFindings, stderr.String())
	}
	type output struct{ Rule, CRD, Version, Path, Old, New string }
	var got struct {
		Outputs []struct {
			output
			Fix string
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("decoding %q: %v", stdout.String(), err)
	}
	var outs []output
	for _, o := range got.Outputs {
		if o.Fix == "" {
			t.Errorf("output %+v has no fix", o.output)
		}
		outs = append(outs, o.output)
	}
	want := []output{{Rule: "crd-upgrade/served-version-incompatible", CRD: "crontabs.stable.example.com",
		Version: "v1 -> v2", Path: "^.spec.extraField", Old: "boolean", New: "string"}}
	if diff := cmp.Diff(want, outs); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
}

// TestValidateCrdsInfoNamesNoVictim: a CRD only in NEW is an info finding that says nothing can break;
// neither its text nor its JSON names an actor (no "; breaks clients"). A CRD only in OLD still does.
func TestValidateCrdsInfoNamesNoVictim(t *testing.T) {
	in := func(p string) string { return filepath.Join(crdCasesDir, p) }
	oldCRD, newCRD := in("operator-controller/old-crd.json"), in("operator-controller/crd-optional-field-old.json")
	t.Run("text", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), []string{"validate", "crds", oldCRD, newCRD}, nil, &stdout, &stderr); code != exitOK {
			t.Fatalf("exit code %d, want %d\n%s", code, exitOK, stderr.String())
		}
		want := []string{
			"warning: CustomResourceDefinition crontabs.stable.example.com: CRD removed from the new release; its objects stay on the cluster, and no CSV of the new release was given to say whether the operator still manages them [crd-removed]; breaks clients; fix: keep shipping the CRD while objects of it may exist, or document how users remove it",
			"info: " + newCRD + ": CustomResourceDefinition myapps.apps.example.com: CRD added by the new release; no object of it exists yet, so nothing can break [crd-added]",
		}
		if diff := cmp.Diff(want, strings.Split(strings.TrimSpace(stdout.String()), "\n")); diff != "" {
			t.Errorf("stdout (-want +got):\n%s", diff)
		}
	})
	t.Run("json", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), []string{"validate", "crds", oldCRD, newCRD, "-o", "json"}, nil, &stdout, &stderr); code != exitOK {
			t.Fatalf("exit code %d, want %d\n%s", code, exitOK, stderr.String())
		}
		type output struct{ Rule, Actor string }
		var got struct{ Outputs []output }
		if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
			t.Fatalf("decoding %q: %v", stdout.String(), err)
		}
		want := []output{{"crd-upgrade/crd-removed", "clients"}, {"crd-upgrade/crd-added", ""}}
		if diff := cmp.Diff(want, got.Outputs); diff != "" {
			t.Errorf("outputs (-want +got):\n%s", diff)
		}
	})
}
