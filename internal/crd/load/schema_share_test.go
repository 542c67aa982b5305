package load

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/manifest"
)

// propsMaps returns the identities of the properties maps of c's schemas.
func propsMaps(c *apiextv1.CustomResourceDefinition) map[uintptr]bool {
	out := map[uintptr]bool{}
	var walk func(s *apiextv1.JSONSchemaProps)
	walk = func(s *apiextv1.JSONSchemaProps) {
		if s == nil {
			return
		}
		if s.Properties != nil {
			out[reflect.ValueOf(s.Properties).Pointer()] = true
		}
		for _, v := range s.Properties {
			walk(&v)
		}
		if s.Items != nil {
			walk(s.Items.Schema)
		}
		if s.AdditionalProperties != nil {
			walk(s.AdditionalProperties.Schema)
		}
	}
	for _, v := range c.Spec.Versions {
		if v.Schema != nil {
			walk(v.Schema.OpenAPIV3Schema)
		}
	}
	return out
}

// sharedMaps counts the properties maps b holds that a holds too.
func sharedMaps(a, b *apiextv1.CustomResourceDefinition) int {
	n, am := 0, propsMaps(a)
	for p := range propsMaps(b) {
		if am[p] {
			n++
		}
	}
	return n
}

// decodeSharing decodes b sharing with a, and fails t unless b decodes as FromJSON decodes it alone.
func decodeSharing(t *testing.T, name string, a, b []byte) (ca, cb *apiextv1.CustomResourceDefinition, ia, ib *SchemaIndex) {
	t.Helper()
	ca, _, ia, err := FromJSONSharing(a)
	if err != nil {
		t.Fatalf("%s: decoding the old CRD: %v", name, err)
	}
	cb, _, ib, err = FromJSONSharing(b, ia)
	want, _, werr := FromJSON(b)
	if (err == nil) != (werr == nil) {
		t.Fatalf("%s: FromJSONSharing error %v, FromJSON error %v", name, err, werr)
	}
	if diff := cmp.Diff(want, cb); diff != "" {
		t.Errorf("%s: sharing decodes differently (-alone +sharing):\n%s", name, diff)
	}
	return ca, cb, ia, ib
}

func TestFromJSONSharing(t *testing.T) {
	const leaf = `{"type":"string","description":"a name"}`
	const nested = `{"type":"object","properties":{"name":` + leaf + `,"port":{"type":"integer"}}}`
	tests := []struct {
		name       string
		old, new   string // the openAPIV3Schema of each CRD
		wantShared int    // properties maps of new that are old's
		wantIndex  bool   // new decodes on the fast path and has an index
	}{
		{name: "one field changed: the untouched subtree is shared",
			old:        `{"type":"object","properties":{"spec":` + nested + `,"status":{"type":"object","properties":{"ready":{"type":"boolean"}}}}}`,
			new:        `{"type":"object","properties":{"spec":` + nested + `,"status":{"type":"object","properties":{"ready":{"type":"string"}}}}}`,
			wantShared: 1, wantIndex: true},
		{name: "identical schema: the root map is shared",
			old: `{"type":"object","properties":{"spec":` + nested + `}}`, new: `{"type":"object","properties":{"spec":` + nested + `}}`,
			wantShared: 2, wantIndex: true},
		{name: "same fields, other order: nothing shared",
			old:       `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}}}`,
			new:       `{"type":"object","properties":{"b":{"type":"integer"},"a":{"type":"string"}}}`,
			wantIndex: true},
		{name: "one character apart: nothing shared",
			old: `{"type":"object","properties":{"spec":` + nested + `}}`, new: `{"type":"object","properties":{"spec":` + strings.Replace(nested, "a name", "a Name", 1) + `}}`,
			wantIndex: true},
		{name: "new left to kjson (a null): no index, same result",
			old: `{"type":"object","properties":{"spec":` + nested + `}}`, new: `{"type":"object","default":null,"properties":{"spec":` + nested + `}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, b := []byte(crdHead+tc.old+`}}]}}`), []byte(crdHead+tc.new+`}}]}}`)
			ca, cb, _, ib := decodeSharing(t, tc.name, a, b)
			if got := sharedMaps(ca, cb); got != tc.wantShared {
				t.Errorf("shared properties maps: got %d, want %d", got, tc.wantShared)
			}
			if (ib != nil) != tc.wantIndex {
				t.Errorf("index: got %v, want one: %v", ib != nil, tc.wantIndex)
			}
		})
	}
	t.Run("a chain A -> B -> C shares what B took from A", func(t *testing.T) {
		spec := `"spec":` + nested
		a := []byte(crdHead + `{"type":"object","properties":{` + spec + `,"x":{"type":"string"}}}` + `}}]}}`)
		b := []byte(crdHead + `{"type":"object","properties":{` + spec + `,"x":{"type":"integer"}}}` + `}}]}}`)
		c := []byte(crdHead + `{"type":"object","properties":{` + spec + `,"x":{"type":"boolean"}}}` + `}}]}}`)
		ca, _, ia, _ := FromJSONSharing(a)
		cb, _, ib, _ := FromJSONSharing(b, ia)
		cc, _, _, _ := FromJSONSharing(c, ib)
		if sharedMaps(ca, cb) == 0 || sharedMaps(cb, cc) == 0 {
			t.Errorf("shared maps: A-B %d, B-C %d; want both > 0", sharedMaps(ca, cb), sharedMaps(cb, cc))
		}
	})
	t.Run("indexes of several CRDs merge into one", func(t *testing.T) {
		x := []byte(crdHead + `{"type":"object","properties":{"spec":` + nested + `}}` + `}}]}}`)
		y := []byte(crdHead + `{"type":"object","properties":{"other":{"type":"object","properties":{"z":{"type":"string"}}}}}` + `}}]}}`)
		cx, _, ix, _ := FromJSONSharing(x)
		cy, _, iy, _ := FromJSONSharing(y)
		m := MergeSchemaIndexes(ix, nil, iy)
		if got, want := len(m.maps), len(ix.maps)+len(iy.maps); got != want {
			t.Errorf("merged index: %d maps, want %d", got, want)
		}
		both := []byte(crdHead + `{"type":"object","properties":{"spec":` + nested + `,"other":{"type":"object","properties":{"z":{"type":"string"}}}}}` + `}}]}}`)
		cb, _, _, _ := FromJSONSharing(both, m)
		if sharedMaps(cx, cb) == 0 || sharedMaps(cy, cb) == 0 {
			t.Errorf("shared maps with x %d, with y %d; want both > 0", sharedMaps(cx, cb), sharedMaps(cy, cb))
		}
		if MergeSchemaIndexes(nil, nil) != nil || MergeSchemaIndexes(ix) != ix {
			t.Errorf("MergeSchemaIndexes of nils is not nil, or of one index is not that index")
		}
	})
	t.Run("an object repeated within one CRD is decoded once", func(t *testing.T) {
		data := []byte(crdHead + `{"type":"object","properties":{"a":` + nested + `,"b":` + nested + `}}` + `}}]}}`)
		c, _, _, err := FromJSONSharing(data)
		if err != nil {
			t.Fatal(err)
		}
		root := c.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties
		if pa, pb := reflect.ValueOf(root["a"].Properties).Pointer(), reflect.ValueOf(root["b"].Properties).Pointer(); pa != pb {
			t.Errorf("the two identical properties objects decode to different maps")
		}
		want, _, _ := FromJSON(data)
		if diff := cmp.Diff(want, c); diff != "" {
			t.Errorf("(-alone +sharing):\n%s", diff)
		}
	})
}

// TestFromJSONSharingDeepSchema: properties objects below MaxSchemaDepth are not indexed (each
// indexed object is hashed whole: indexing every level of a hostile, deeply nested schema would
// cost its size times its depth); the CRD is refused as too deep, as without sharing.
func TestFromJSONSharingDeepSchema(t *testing.T) {
	const depth = 3 * MaxSchemaDepth
	s := strings.Repeat(`{"type":"object","properties":{"a":`, depth) + `{"type":"string"}` + strings.Repeat(`}}`, depth)
	_, _, idx, err := FromJSONSharing([]byte(crdHead + s + `}}]}}`))
	_, _, werr := FromJSON([]byte(crdHead + s + `}}]}}`))
	if err == nil || werr == nil || err.Error() != werr.Error() {
		t.Fatalf("errors: sharing %v, alone %v; want the same depth error", err, werr)
	}
	if idx == nil || len(idx.maps) > MaxSchemaDepth {
		t.Fatalf("indexed maps: %v, want 1..%d", idx, MaxSchemaDepth)
	}
}

// TestCorpusFromJSONSharing decodes each CRD of the embedded-object catalog sharing with the
// previous CRD of the same name in its file (the shape of an upgrade edge) and compares it with
// the CRD decoded alone (internal/crd TestCorpusSharedFindingsSameAsAlone: and the findings on the
// pair with those on the pair decoded apart).
func TestCorpusFromJSONSharing(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus test; skipped with -short")
	}
	root := filepath.Join("..", "..", "..", "..", "shared", "corpus", "fbc", "certified-operators-v4.14-partial")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("corpus not available: %v", err)
	}
	files, err := filepath.Glob(filepath.Join(root, "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	pairs, shared := 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		last := map[string][]byte{}
		for _, obj := range embeddedObjects(data) {
			if _, kind, ok := manifest.PeekKind(obj); !ok || kind != kindCRD {
				continue
			}
			c, _, err := FromJSON(obj)
			if err != nil || c == nil {
				continue
			}
			if prev := last[c.Name]; prev != nil && !bytes.Equal(prev, obj) {
				ca, cb, _, _ := decodeSharing(t, f+" "+c.Name, prev, obj)
				pairs++
				if sharedMaps(ca, cb) > 0 {
					shared++
				}
			}
			last[c.Name] = obj
		}
	}
	t.Logf("%d CRD pairs decoded sharing, same as alone; %d share properties maps", pairs, shared)
	if pairs < 100 || shared < pairs/2 {
		t.Errorf("want ≥ 100 pairs, half of them sharing; got %d pairs, %d sharing", pairs, shared)
	}
}

// FuzzFromJSONSharing: a CRD decoded sharing with another decodes as it does alone (outside CI:
// hack/fuzz.sh; internal/crd FuzzSharedFindings: the findings on the pair are the same).
func FuzzFromJSONSharing(f *testing.F) {
	f.Add([]byte(crdHead+`{"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"string"}}}}}`+`}}]}}`),
		[]byte(crdHead+`{"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"string"}}},"b":{"type":"integer"}}}`+`}}]}}`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		_, _, ia, err := FromJSONSharing(a)
		if err != nil {
			return
		}
		got, _, _, gerr := FromJSONSharing(b, ia)
		want, _, werr := FromJSON(b)
		if (gerr == nil) != (werr == nil) {
			t.Fatalf("FromJSONSharing error %v, FromJSON error %v", gerr, werr)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-alone +sharing):\n%s", diff)
		}
	})
}
