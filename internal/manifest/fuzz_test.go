package manifest

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/fuzzseed"
)

// fuzzSeeds are real YAML and JSON object streams: CRDs, CSVs, bundle metadata, FBC.
var fuzzSeeds = []string{
	"testdata/crd-upgrade/kapp-e2e/*/old.yaml",
	"testdata/crd-upgrade/operator-controller/*.json",
	"testdata/image/memcached-bundle/metadata/annotations.yaml",
	"testdata/image/memcached-bundle/manifests/*.yaml",
	"testdata/image/fbc-list-index/*/index.yaml",
}

// fuzzAliasLimit keeps alias expansion small so that the fuzzer's own memory stays low.
const fuzzAliasLimit = 1 << 12

func addFuzzSeeds(f *testing.F) {
	fuzzseed.Add(f, fuzzSeeds...)
	for _, s := range []string{
		billionLaughs,
		"kind: A\nx: &x {a: 1}\ny: *x\n",
		"{kind: A, metadata: {name: flow}}\n",
		"---\n# c\n---\nkind: A\n---\n\n...\n",
		`{"kind":"A"} {"kind":"B"} [1]`,
		"a: &a [*a]\n",
		"<<: &m {kind: A}\nb: {<<: *m}\n",
	} {
		f.Add([]byte(s))
	}
}

// FuzzDecode: Decode never panics; what it returns is numbered in order, every document is an
// object, and no document holds more nodes than its bytes plus the alias limit allow (aliases
// cannot smuggle an expansion past the check). A single document that the reference decoder
// (sigs.k8s.io/yaml, then JSON) reads as an object, within the limits, is read to the same object.
func FuzzDecode(f *testing.F) {
	addFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := Decode(bytes.NewReader(data), "fuzz.yaml", WithMaxAliasNodes(fuzzAliasLimit))
		if err != nil {
			if msg := err.Error(); msg == "" {
				t.Fatal("empty error message")
			}
			var le *LimitError
			if errors.As(err, &le) && (!strings.Contains(err.Error(), "fuzz.yaml") || !strings.Contains(err.Error(), "raise it with --max-")) {
				t.Fatalf("limit error %q does not name the file and the flag that raises the limit", err)
			}
			return
		}
		for i, d := range docs {
			if d.Index != i || d.File != "fuzz.yaml" || d.Object == nil {
				t.Fatalf("docs[%d] = {Index: %d, File: %q, Object: %v}", i, d.Index, d.File, d.Object)
			}
			_ = d.String()
			if n := countNodes(d.Object.Object); n > fuzzAliasLimit+len(d.Raw)+1 {
				t.Fatalf("document %d of %d bytes decoded to %d nodes (alias limit %d)", i, len(d.Raw), n, fuzzAliasLimit)
			}
		}
		raws, err := Split(data, "fuzz.yaml")
		if err != nil {
			t.Fatalf("Decode succeeded but Split failed: %v", err)
		}
		if len(docs) > len(raws) {
			t.Fatalf("Decode returned %d documents, Split only %d", len(docs), len(raws))
		}
	})
}

// FuzzDecodeAgreesWithReference: a single YAML or JSON document that sigs.k8s.io/yaml reads as an
// object (without aliases, so no limit applies) is read by Decode to the same object, unless two of
// its keys collide in JSON (then sigs.k8s.io/yaml picks one at random and Decode refuses the document).
func FuzzDecodeAgreesWithReference(f *testing.F) {
	addFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		raws, err := Split(data, "fuzz.yaml")
		if err != nil || len(raws) != 1 || bytes.ContainsAny(data, "&*") {
			return
		}
		j, err := yaml.YAMLToJSON(raws[0])
		if err != nil {
			return
		}
		var want interface{}
		if utiljson.Unmarshal(j, &want) != nil {
			return
		}
		if _, ok := want.(map[string]interface{}); !ok {
			return
		}
		docs, err := Decode(bytes.NewReader(data), "fuzz.yaml")
		if err != nil && strings.Contains(err.Error(), "two keys that both read as") {
			return // sigs.k8s.io/yaml keeps one of the colliding keys at random; Decode refuses them
		}
		if err != nil {
			t.Fatalf("Decode(%q) error = %v; sigs.k8s.io/yaml reads it as %v", data, err, want)
		}
		if len(docs) != 1 || !reflect.DeepEqual(docs[0].Object.Object, want) {
			t.Fatalf("Decode(%q) = %d documents, want one equal to %v", data, len(docs), want)
		}
	})
}

// FuzzSplit: Split never panics, returns no empty document, respects the document limit, and
// is deterministic.
func FuzzSplit(f *testing.F) {
	addFuzzSeeds(f)
	const limit = 256
	f.Fuzz(func(t *testing.T, data []byte) {
		raws, err := Split(data, "fuzz.yaml", WithMaxDocSize(limit))
		if err != nil {
			var le *LimitError
			if errors.As(err, &le) && (le.What != "document size" || le.Limit != limit) {
				t.Fatalf("unexpected limit error %v", err)
			}
			return
		}
		for i, r := range raws {
			if len(r) > limit {
				t.Fatalf("document %d has %d bytes, over the limit %d", i, len(r), limit)
			}
			if len(bytes.TrimSpace(r)) == 0 {
				t.Fatalf("document %d is empty: %q", i, r)
			}
		}
		again, err := Split(data, "fuzz.yaml", WithMaxDocSize(limit))
		if err != nil || !reflect.DeepEqual(raws, again) {
			t.Fatalf("Split is not deterministic: %q then %q (%v)", raws, again, err)
		}
	})
}

// countNodes counts the values of a decoded document the way YAML counts nodes (keys included).
func countNodes(v interface{}) int {
	switch x := v.(type) {
	case map[string]interface{}:
		n := 1
		for _, e := range x {
			n += 1 + countNodes(e)
		}
		return n
	case []interface{}:
		n := 1
		for _, e := range x {
			n += countNodes(e)
		}
		return n
	default:
		return 1
	}
}
