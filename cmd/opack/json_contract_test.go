package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// findingsSchema compiles docs/findings.schema.json (draft 2020-12).
func findingsSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "..", "docs", "findings.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	sch, err := jsonschema.NewCompiler().Compile(path)
	if err != nil {
		t.Fatalf("compiling %s: %v", path, err)
	}
	return sch
}

// corpusDir returns ../shared/corpus beside the repository, or skips the test visibly.
func corpusDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("SKIP: %s not found (needs ../shared beside the repository): %v", dir, err)
	}
	return dir
}

// jsonFindings validates out against the schema and returns how many findings it holds
// (outputs of a report, findings of a catalog diff).
func jsonFindings(t *testing.T, sch *jsonschema.Schema, out string) int {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%.2000s", err, out)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("stdout does not follow docs/findings.schema.json:\n%v", err)
	}
	doc, _ := inst.(map[string]any)
	for _, key := range []string{"outputs", "findings"} {
		if fs, ok := doc[key].([]any); ok {
			return len(fs)
		}
	}
	return 0
}

// TestJSONContract runs every command that takes -o json and reports findings on real inputs
// (../shared/corpus: certified bundles, package manifests, two certified-operators catalogs; the
// go/v4 sample project for build and check) and validates stdout against docs/findings.schema.json:
// every finding carries rule, severity and file, and catalog/CRD findings their package, edges,
// CRD, version, paths, old/new values and actors as fields. catalog upgrades has no findings (its
// JSON is the upgrade paths), so it is not here.
func TestJSONContract(t *testing.T) {
	sch := findingsSchema(t)
	corpus := corpusDir(t)
	certified := filepath.Join(corpus, "certified-operators")
	fbc414 := filepath.Join(corpus, "fbc", "certified-operators-v4.14-partial")
	fbc422 := filepath.Join(corpus, "fbc", "certified-operators-v4.22")
	tests := []struct {
		name string
		args []string
		min  int // at least this many findings: the check is not vacuous
	}{
		{"validate bundle", []string{"validate", "bundle", "-o", "json",
			filepath.Join(certified, "hazelcast-platform-operator", "5.0.0"), filepath.Join(certified, "cilium", "1.12.12"),
			filepath.Join(corpus, "packagemanifests", "etcd")}, 1},
		{"validate bundle json-alpha1", []string{"validate", "bundle", "-o", "json-alpha1", filepath.Join(certified, "gpu-operator-certified", "v1.11.0")}, 1},
		{"validate crds", []string{"validate", "crds", "-o", "json",
			filepath.Join(certified, "hazelcast-platform-operator", "5.0.0"), filepath.Join(certified, "hazelcast-platform-operator", "5.10.0")}, 10},
		{"validate crds gpu", []string{"validate", "crds", "-o", "json",
			filepath.Join(certified, "gpu-operator-certified", "v1.9.0"), filepath.Join(certified, "gpu-operator-certified", "v1.11.0")}, 5},
		{"catalog validate v4.14", []string{"catalog", "validate", "-o", "json", fbc414}, 100},
		{"catalog validate v4.14 per edge", []string{"catalog", "validate", "-o", "json", "--per-edge", fbc414}, 100},
		{"catalog validate v4.22", []string{"catalog", "validate", "-o", "json", fbc422}, 10},
		{"catalog diff", []string{"catalog", "diff", "-o", "json", fbc414, fbc422}, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runOpack(t, "", tt.args...)
			if code > 1 {
				t.Fatalf("exit %d\n%s", code, stderr)
			}
			if n := jsonFindings(t, sch, stdout); n < tt.min {
				t.Errorf("%d findings, want at least %d", n, tt.min)
			}
		})
	}
	t.Run("build and check", func(t *testing.T) {
		src, err := filepath.Abs(filepath.Join("..", "..", "testdata", "project", "memcached-operator"))
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), "memcached-operator")
		if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
		t.Chdir(dir)
		if code, _, stderr := runOpack(t, "", "init", "--version", "0.0.1", "--bundle-image", "quay.io/example/memcached-operator-bundle",
			"--catalog-image", "quay.io/example/memcached-operator-catalog:latest"); code != 0 {
			t.Fatalf("init: exit %d\n%s", code, stderr)
		}
		for _, verb := range []string{"build", "check"} {
			code, stdout, stderr := runOpack(t, "", verb, "-o", "json")
			if code != 0 {
				t.Fatalf("%s: exit %d\n%s", verb, code, stderr)
			}
			if n := jsonFindings(t, sch, stdout); n < 1 {
				t.Errorf("%s: %d findings, want at least 1", verb, n)
			}
		}
	})
}

// TestJSONContractSchemaRejects: the schema is not vacuous: findings missing a contract field, or
// a catalog finding without its package, are refused.
func TestJSONContractSchemaRejects(t *testing.T) {
	sch := findingsSchema(t)
	tests := []struct{ name, doc string }{
		{"no severity", `{"passed":true,"outputs":[{"type":"warning","message":"m","rule":"a/b","file":""}]}`},
		{"no rule", `{"passed":true,"outputs":[{"type":"warning","severity":"warning","message":"m","file":""}]}`},
		{"no file", `{"passed":true,"outputs":[{"type":"warning","severity":"warning","message":"m","rule":"a/b"}]}`},
		{"severity differs from type", `{"passed":true,"outputs":[{"type":"warning","severity":"error","message":"m","rule":"a/b","file":""}]}`},
		{"catalog finding without package", `{"passed":true,"outputs":[{"type":"warning","severity":"warning","message":"m","rule":"catalog/graph","file":"","object":"package \"p\""}]}`},
		{"crd finding without crd", `{"passed":true,"outputs":[{"type":"warning","severity":"warning","message":"m","rule":"crd-upgrade/field-removed","file":""}]}`},
		{"edge finding without edges", `{"passed":true,"outputs":[{"type":"warning","severity":"warning","message":"m","rule":"crd-upgrade/field-removed","file":"","crd":"c","package":"p","object":"package \"p\""}]}`},
		{"unknown field", `{"passed":true,"outputs":[{"type":"warning","severity":"warning","message":"m","rule":"a/b","file":"","extra":1}]}`},
		{"published without the wording", `{"passed":true,"outputs":[{"type":"warning","severity":"warning","message":"m","rule":"a/b","file":"","published":true}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(tt.doc)))
			if err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(inst); err == nil {
				t.Errorf("schema accepts %s", tt.doc)
			}
		})
	}
}
