package render

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/fbc"
)

func TestBundleModelRoundTrip(t *testing.T) {
	csv := `{"kind":"ClusterServiceVersion","metadata":{"name":"a.v1"}}`
	crd := `{"kind":"CustomResourceDefinition"}`
	tests := []struct {
		name string
		b    fbc.Bundle
	}{
		{"empty", fbc.Bundle{}},
		{"objects referenced by their properties", fbc.Bundle{
			Schema: fbc.SchemaBundle, Name: "a.v1", Package: "a", Image: "example.com/a:1",
			Properties: []fbc.Property{
				fbc.NewPackageProperty("a", "1.0.0"),
				fbc.NewBundleObjectProperty([]byte(crd)),
				fbc.NewBundleObjectProperty([]byte(csv)),
			},
			RelatedImages: []fbc.RelatedImage{{Image: "example.com/a:1"}, {Name: "op", Image: "example.com/op:1"}},
			Objects:       []string{csv, crd},
			CsvJSON:       csv,
		}},
		{"values kept byte for byte", fbc.Bundle{
			Name: "b",
			Properties: []fbc.Property{
				{Type: "custom", Value: json.RawMessage(`{ "spaced" : [1, 2] }`)},
				{Type: "nil"},
				{Type: "empty", Value: json.RawMessage{}},
				// An olm.bundle.object value that is not the one its object would make.
				{Type: fbc.TypeBundleObject, Value: json.RawMessage(`{"data": "e30="}`)},
			},
			Objects: []string{"{}"},
		}},
		{"csv not among the objects", fbc.Bundle{Name: "c", CsvJSON: csv, Objects: []string{crd}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeBundleModel(encodeBundleModel(&tt.b))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(&tt.b, got); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}

// TestBundleModelDamaged: every truncation of an encoded model is an error, never a panic
// or a huge allocation.
func TestBundleModelDamaged(t *testing.T) {
	b := fbc.Bundle{
		Schema: fbc.SchemaBundle, Name: "a.v1", Package: "a",
		Properties: []fbc.Property{fbc.NewBundleObjectProperty([]byte("{}")), {Type: "x", Value: json.RawMessage(`1`)}},
		Objects:    []string{"{}"}, CsvJSON: "{}",
	}
	data := encodeBundleModel(&b)
	for n := range len(data) {
		if _, err := decodeBundleModel(data[:n]); err == nil {
			t.Errorf("truncated to %d of %d bytes: no error", n, len(data))
		}
	}
	if _, err := decodeBundleModel(append(data, 0)); err == nil {
		t.Error("trailing byte: no error")
	}
	w := &recordWriter{}
	w.string("bundle")
	w.uint(1 << 60) // the length of the next string
	if _, err := decodeBundleModel(w.buf); err == nil {
		t.Error("a length past the end: no error")
	}
}
