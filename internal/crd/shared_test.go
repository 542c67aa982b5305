package crd

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/crd/load"
	"github.com/opack/opack/internal/manifest"
)

// crdHead starts a CRD given as JSON; a schema and `}}]}}` end it.
const crdHead = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"as.x.io"},` +
	`"spec":{"group":"x.io","names":{"kind":"A","plural":"as"},"scope":"Namespaced","versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":`

// sameFindings fails t unless the findings on old -> new are the same whether new was decoded
// sharing old's maps (the comparator then skips them) or both were decoded
// alone.
func sameFindings(t *testing.T, name string, old, new []byte) int {
	t.Helper()
	co, _, io, err := load.FromJSONSharing(old)
	if err != nil || co == nil {
		return 0
	}
	cn, _, _, err := load.FromJSONSharing(new, io)
	if err != nil || cn == nil {
		return 0
	}
	ao, _, _ := load.FromJSON(old)
	an, _, _ := load.FromJSON(new)
	want := Compare([]*apiextv1.CustomResourceDefinition{ao}, []*apiextv1.CustomResourceDefinition{an}, WithAPIServerValidation(false))
	got := Compare([]*apiextv1.CustomResourceDefinition{co}, []*apiextv1.CustomResourceDefinition{cn}, WithAPIServerValidation(false))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: findings (-decoded alone +decoded sharing):\n%s", name, diff)
	}
	return len(want)
}

func TestSharedFindingsSameAsAlone(t *testing.T) {
	tests := []struct{ name, shared, old, new string }{
		// isMultiple(0, 0) was false: an unchanged multipleOf 0 was reported, unless shared.
		{"unchanged multipleOf 0", `"n":{"type":"object","properties":{"v":{"type":"number","multipleOf":0}}}`, `"x":{"type":"string"}`, `"x":{"type":"integer"}`},
		{"unchanged required, enum and pattern", `"n":{"type":"object","required":["v"],"properties":{"v":{"type":"string","enum":["a","b"],"pattern":"^a"}}}`, `"x":{"type":"string"}`, `"x":{"type":"string","maxLength":3}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			crd := func(other string) []byte {
				return []byte(crdHead + `{"type":"object","properties":{"spec":{"type":"object","properties":{` + tc.shared + `,` + other + `}}}}` + `}}]}}`)
			}
			sameFindings(t, tc.name, crd(tc.old), crd(tc.new))
		})
	}
}

// TestCorpusSharedFindingsSameAsAlone compares each CRD of the embedded-object catalog with the
// previous CRD of the same name in its file (the shape of an upgrade edge), decoded sharing its
// schema maps and decoded alone: the findings are the same.
func TestCorpusSharedFindingsSameAsAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus test; skipped with -short")
	}
	root := filepath.Join("..", "..", "..", "shared", "corpus", "fbc", "certified-operators-v4.14-partial")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("corpus not available: %v", err)
	}
	files, err := filepath.Glob(filepath.Join(root, "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	pairs, findings := 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		last := map[string][]byte{}
		for _, obj := range embeddedObjects(data) {
			if _, kind, ok := manifest.PeekKind(obj); !ok || kind != "CustomResourceDefinition" {
				continue
			}
			c, _, err := load.FromJSON(obj)
			if err != nil || c == nil {
				continue
			}
			if prev := last[c.Name]; prev != nil && !bytes.Equal(prev, obj) {
				pairs++
				findings += sameFindings(t, f+" "+c.Name, prev, obj)
			}
			last[c.Name] = obj
		}
	}
	t.Logf("%d CRD pairs, %d findings, the same decoded sharing and alone", pairs, findings)
	if pairs < 100 {
		t.Errorf("want ≥ 100 pairs, got %d", pairs)
	}
}

// FuzzSharedFindings: the findings on a pair are the same whether the new CRD was decoded sharing
// the old one's schema maps or alone (outside CI: hack/fuzz.sh).
func FuzzSharedFindings(f *testing.F) {
	f.Add([]byte(crdHead+`{"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"string"}}}}}`+`}}]}}`),
		[]byte(crdHead+`{"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"string"}}},"b":{"type":"integer"}}}`+`}}]}}`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		sameFindings(t, "input", a, b)
	})
}

// embeddedObjects returns the olm.bundle.object values of a catalog file, decoded.
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
