package manifest

import (
	"encoding/json"
	"testing"
)

func TestPeekKind(t *testing.T) {
	for _, tc := range []struct {
		in, apiVersion, kind string
		ok                   bool
	}{
		{`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition"}`, "apiextensions.k8s.io/v1", "CustomResourceDefinition", true},
		{` { "metadata": {"kind": "x", "a": [1, {"kind": "y"}, "}"]}, "kind" : "Deployment" , "n": -1.5e3, "b": true } `, "", "Deployment", true},
		{`{"kind":"A","spec":{"s":"a \" kind"},"kind":"B"}`, "", "B", true},
		{`{"kind":1}`, "", "", true},
		{`{}`, "", "", true},
		{`{"kind":"A"`, "", "", false},
		{`{"kind":"A\u0042"}`, "", "", false},
		{`[1]`, "", "", false},
		{`{"kind":"A"} x`, "", "", false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			av, k, ok := PeekKind([]byte(tc.in))
			if av != tc.apiVersion || k != tc.kind || ok != tc.ok {
				t.Errorf("PeekKind = %q, %q, %v; want %q, %q, %v", av, k, ok, tc.apiVersion, tc.kind, tc.ok)
			}
		})
	}
}

// FuzzPeekKind: whenever PeekKind reads an object, encoding/json reads the same apiVersion and kind.
func FuzzPeekKind(f *testing.F) {
	for _, s := range []string{`{"apiVersion":"v1","kind":"A","x":[{"kind":"B"}]}`, `{"kind":"A","kind":"B"}`, `{"a":"\"}"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		av, k, ok := PeekKind(data)
		if !ok {
			return
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			return // PeekKind does not validate numbers and literals
		}
		wantAV, _ := m["apiVersion"].(string)
		wantK, _ := m["kind"].(string)
		if av != wantAV || k != wantK {
			t.Errorf("PeekKind(%q) = %q, %q; encoding/json reads %q, %q", data, av, k, wantAV, wantK)
		}
	})
}
