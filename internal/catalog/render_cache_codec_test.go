package catalog

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBundleModelRoundTrip(t *testing.T) {
	csv := `{"kind":"ClusterServiceVersion","metadata":{"name":"a.v1"}}`
	crd := `{"kind":"CustomResourceDefinition"}`
	tests := []struct {
		name string
		b    Bundle
	}{
		{"empty", Bundle{}},
		{"objects referenced by their properties", Bundle{
			Schema: SchemaBundle, Name: "a.v1", Package: "a", Image: "example.com/a:1",
			Properties: []Property{
				NewPackageProperty("a", "1.0.0"),
				NewBundleObjectProperty([]byte(crd)),
				NewBundleObjectProperty([]byte(csv)),
			},
			RelatedImages: []RelatedImage{{Image: "example.com/a:1"}, {Name: "op", Image: "example.com/op:1"}},
			Objects:       []string{csv, crd},
			CsvJSON:       csv,
		}},
		{"values kept byte for byte", Bundle{
			Name: "b",
			Properties: []Property{
				{Type: "custom", Value: json.RawMessage(`{ "spaced" : [1, 2] }`)},
				{Type: "nil"},
				{Type: "empty", Value: json.RawMessage{}},
				// An olm.bundle.object value that is not the one its object would make.
				{Type: TypeBundleObject, Value: json.RawMessage(`{"data": "e30="}`)},
			},
			Objects: []string{"{}"},
		}},
		{"csv not among the objects", Bundle{Name: "c", CsvJSON: csv, Objects: []string{crd}}},
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
	b := Bundle{
		Schema: SchemaBundle, Name: "a.v1", Package: "a",
		Properties: []Property{NewBundleObjectProperty([]byte("{}")), {Type: "x", Value: json.RawMessage(`1`)}},
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
