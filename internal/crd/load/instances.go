package load

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/manifest"
)

// Instance is an existing custom resource and the file it came from.
type Instance struct {
	File   string
	Object *unstructured.Unstructured
}

// Instances reads the objects of files and folders (YAML or JSON streams, `kind: List` expanded).
func Instances(ctx context.Context, paths []string, opts ...manifest.Option) ([]Instance, error) {
	var out []Instance
	for _, p := range paths {
		docs, err := readObjectsWith(ctx, p, false, opts, exactNumbers)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			out = append(out, Instance{File: d.File, Object: d.Object})
		}
	}
	return out, nil
}

// exactNumbers re-decodes a document so that integers are int64, as the API server decodes them
// (a YAML decoder into interface{} makes every number a float64, which "format: int64" refuses).
func exactNumbers(d *manifest.Doc) error {
	if len(d.Raw) == 0 {
		return nil
	}
	data, err := yaml.YAMLToJSON(d.Raw)
	if err != nil {
		return fmt.Errorf("reading %s: %w", d, err)
	}
	var m map[string]interface{}
	if err := utiljson.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("reading %s: %w", d, err)
	}
	d.Object = &unstructured.Unstructured{Object: m}
	return nil
}
