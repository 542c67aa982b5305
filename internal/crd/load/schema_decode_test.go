package load

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/manifest"
)

// kjsonCRD is the reference: the CRD as the API server's decoder reads it.
func kjsonCRD(data []byte) (*apiextv1.CustomResourceDefinition, error) {
	out := &apiextv1.CustomResourceDefinition{}
	return out, kjson.UnmarshalCaseSensitivePreserveInts(data, out)
}

// sameAsKJSON fails t when fastCRD decodes data differently from kjson, or decodes what kjson
// refuses; it reports whether fastCRD decoded it.
func sameAsKJSON(t *testing.T, name string, data []byte) bool {
	t.Helper()
	got, ok := fastCRD(data, nil, false)
	want, err := kjsonCRD(data)
	if !ok {
		return false
	}
	if err != nil {
		t.Errorf("%s: kjson refuses the CRD (%v), fastCRD decodes it", name, err)
		return true
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: fastCRD differs from kjson (-kjson +fast):\n%s", name, diff)
	}
	return true
}

// sameAsEncodingJSON fails t when DecodeV1 decodes data differently from encoding/json (as
// operator-framework's bundle loader decodes a CRD), or decodes what it refuses; it reports whether
// DecodeV1 decoded it.
func sameAsEncodingJSON(t *testing.T, name string, data []byte) bool {
	t.Helper()
	got, ok := DecodeV1(data)
	if !ok {
		return false
	}
	want := &apiextv1.CustomResourceDefinition{}
	if err := json.Unmarshal(data, want); err != nil {
		t.Errorf("%s: encoding/json refuses the CRD (%v), DecodeV1 decodes it", name, err)
		return true
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: DecodeV1 differs from encoding/json (-encoding/json +DecodeV1):\n%s", name, diff)
	}
	return true
}

func TestDecodeV1SameAsEncodingJSON(t *testing.T) {
	tests := []struct {
		name string
		crd  string
		fast bool // DecodeV1 decodes it (else it leaves it to encoding/json)
	}{
		{"schema", crdHead + `{"type":"object","properties":{"a":{"type":"string","enum":["x",1]},"l":{"type":"array","items":{"type":"integer"}}}}}}]}}`, true},
		{"schema key in another case", crdHead + `{"Type":"object"}}}]}}`, false},
		{"items key in another case", crdHead + `{"type":"array","items":{"TYPE":"string"}}}}]}}`, false},
		{"unknown schema key", crdHead + `{"type":"object","x-unknown":1}}}]}}`, false},
		{"envelope key in another case", strings.Replace(crdHead, `"scope"`, `"Scope"`, 1) + `{"type":"object"}}}]}}`, false},
		{"unknown envelope key", strings.Replace(crdHead, `"scope"`, `"extra":1,"scope"`, 1) + `{"type":"object"}}}]}}`, false},
		{"repeated envelope key", strings.Replace(crdHead, `"scope":"Namespaced"`, `"scope":"Namespaced","scope":"Cluster"`, 1) + `{"type":"object"}}}]}}`, false},
		{"validation rule key in another case", crdHead + `{"type":"object","x-kubernetes-validations":[{"Rule":"true"}]}}}]}}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := sameAsEncodingJSON(t, tc.name, []byte(tc.crd)); got != tc.fast {
				t.Errorf("DecodeV1 decoded it: %v, want %v", got, tc.fast)
			}
		})
	}
}

const crdHead = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"as.x.io"},` +
	`"spec":{"group":"x.io","names":{"plural":"as","kind":"A"},"scope":"Namespaced","versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":`

func TestFastCRDSameAsKJSON(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		fast   bool // fastCRD decodes it (else it leaves it to kjson)
	}{
		{name: "every field", fast: true, schema: `{"id":"i","$schema":"s","$ref":"#/r","description":"d","type":"object","format":"f","title":"t",
			"default":{"a": [1, 2.50, "x"]},"maximum":1e3,"exclusiveMaximum":true,"minimum":-0.5,"exclusiveMinimum":false,
			"maxLength":10,"minLength":0,"pattern":"^a$","maxItems":3,"minItems":1,"uniqueItems":true,"multipleOf":2,
			"enum":["a", 1, {"b":null}, null],"maxProperties":4,"minProperties":1,"required":["a","b"],
			"items":{"type":"string"},"allOf":[{"type":"object"}],"oneOf":[],"anyOf":[{"required":["x"]}],"not":{"type":"integer"},
			"properties":{"a":{"type":"string","x-kubernetes-int-or-string":true},"b":{"type":"array","items":[{"type":"string"},{"type":"integer"}]}},
			"additionalProperties":false,"patternProperties":{"^p":{"type":"string"}},"dependencies":{"a":["b"],"c":{"type":"object"}},
			"additionalItems":{"type":"string"},"definitions":{"d":{"type":"string"}},"externalDocs":{"url":"u"},"example":"e",
			"nullable":true,"x-kubernetes-preserve-unknown-fields":false,"x-kubernetes-embedded-resource":true,
			"x-kubernetes-list-map-keys":["k"],"x-kubernetes-list-type":"map","x-kubernetes-map-type":"atomic",
			"x-kubernetes-validations":[{"rule":"self.a > 0","message":"m","reason":"FieldValueInvalid","optionalOldSelf":true}],"unknownKey":{"z":1}}`},
		{name: "escapes and unicode", fast: true, schema: `{"type":"object","description":"a \"quoted\"\nline \u00e9 \ud83d\ude00 é","properties":{"k\u0065y":{"type":"string","default":"\u0041"}}}`},
		{name: "pretty printed, default kept byte for byte", fast: true, schema: "{\n  \"type\" : \"object\" ,\n  \"default\" : { \"a\" : 1 ,\n \"b\": [ ] }\n}"},
		{name: "additionalProperties true and a schema", fast: true, schema: `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}},"n":{"type":"object","additionalProperties":true}}}`},
		{name: "empty lists", fast: true, schema: `{"type":"object","required":[],"enum":[],"allOf":[],"items":[],"x-kubernetes-list-map-keys":[]}`},
		{name: "a property name twice: the last wins", fast: true, schema: `{"type":"object","properties":{"a":{"type":"string"},"a":{"type":"integer"}}}`},
		{name: "a key twice", schema: `{"type":"object","type":"string"}`},
		{name: "a null", schema: `{"type":"object","default":null}`},
		{name: "a fraction for an integer", schema: `{"type":"string","maxLength":1.5}`},
		{name: "an exponent for an integer", schema: `{"type":"string","maxLength":1e3}`},
		{name: "a string for a number", schema: `{"type":"integer","maximum":"3"}`},
		{name: "items a string (apiextensions ignores it)", schema: `{"type":"array","items":"x"}`},
		{name: "additionalProperties a number", schema: `{"type":"object","additionalProperties":1}`},
		{name: "a huge number", schema: `{"type":"number","maximum":1e999}`},
		{name: "invalid UTF-8", fast: true, schema: "{\"type\":\"string\",\"description\":\"a\xffb\"}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(crdHead + tc.schema + `}}]}}`)
			if !json.Valid(data) {
				t.Fatalf("test CRD is not JSON: %s", data)
			}
			if got := sameAsKJSON(t, tc.name, data); got != tc.fast {
				t.Errorf("fastCRD decoded it: %v, want %v", got, tc.fast)
			}
		})
	}
}

// TestCorpusFastCRDSameAsKJSON decodes every CRD of the corpus (bundle folders and the embedded
// objects of certified-operators-v4.14-partial) both ways, and with DecodeV1 and encoding/json.
func TestCorpusFastCRDSameAsKJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus test; skipped with -short")
	}
	root := filepath.Join("..", "..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("corpus not available: %v", err)
	}
	seen := map[string]bool{}
	total, fast, exact, noSchema := 0, 0, 0, 0
	try := func(name string, data []byte) {
		if _, kind, ok := manifest.PeekKind(data); !ok || kind != kindCRD || seen[string(data)] {
			return
		}
		seen[string(data)] = true
		if !json.Valid(data) {
			return
		}
		if r, ok := decodeSchemas(data, nil, false); ok && len(r) == 0 {
			noSchema++ // nothing for fastCRD to do
			return
		}
		total++
		if sameAsKJSON(t, name, data) {
			fast++
		}
		if sameAsEncodingJSON(t, name, data) {
			exact++
		}
	}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(path, string(filepath.Separator)+"fbc"+string(filepath.Separator)) {
			for _, obj := range embeddedObjects(data) {
				try(path, obj)
			}
			return nil
		}
		if !bytes.Contains(data, []byte("CustomResourceDefinition")) {
			return nil
		}
		for _, doc := range bytes.Split(data, []byte("\n---")) {
			if j, err := yaml.YAMLToJSON(doc); err == nil {
				try(path, j)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d distinct CRDs with a schema, %d decoded by fastCRD, %d left to kjson; %d decoded by DecodeV1 (the same as encoding/json); %d without a schema", total, fast, total-fast, exact, noSchema)
	if total < 500 || fast < total*99/100 || exact < total*9/10 {
		t.Errorf("want ≥ 500 CRDs with a schema, ≥ 99%% decoded by fastCRD, ≥ 90%% by DecodeV1; got %d, %d, %d", total, fast, exact)
	}
}

// embeddedObjects returns the olm.bundle.object values of a catalog file written by opm
// ("data: <base64>" lines).
func embeddedObjects(data []byte) [][]byte {
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "data: ") {
			continue
		}
		if obj, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(line, "data: ")); err == nil {
			out = append(out, obj)
		}
	}
	return out
}

// FuzzFastCRD: whatever fastCRD decodes, kjson decodes the same (outside CI: hack/fuzz.sh).
func FuzzFastCRD(f *testing.F) {
	for _, s := range []string{`{"type":"object","properties":{"a":{"type":"string","default":"x"}}}`,
		`{"type":"array","items":{"type":"integer","maximum":3,"enum":[1,2,null]}}`,
		`{"type":"object","additionalProperties":{"type":"string"},"description":"a\"b\u00e9"}`} {
		f.Add([]byte(crdHead + s + `}}]}}`))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsKJSON(t, "input", data)
	})
}

// FuzzDecodeV1: whatever DecodeV1 decodes, encoding/json decodes the same.
func FuzzDecodeV1(f *testing.F) {
	for _, s := range []string{`{"type":"object","properties":{"a":{"type":"string","default":"x"}}}`,
		`{"Type":"array","items":{"type":"integer","maximum":3,"enum":[1,2,null]}}`,
		`{"type":"object","x-kubernetes-validations":[{"rule":"self.a"}],"additionalProperties":{"type":"string"}}`} {
		f.Add([]byte(crdHead + s + `}}]}}`))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if json.Valid(data) { // DecodeV1 takes valid JSON only
			sameAsEncodingJSON(t, "input", data)
		}
	})
}
