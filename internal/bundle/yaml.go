package bundle

import (
	"bytes"
	"fmt"

	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// marshalCSV renders the CSV exactly as operator-sdk writes it: converted to unstructured,
// status and creationTimestamp removed, sigs.k8s.io/yaml, and the default cleanup block hidden.
func marshalCSV(csv *v1alpha1.ClusterServiceVersion) ([]byte, error) {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(csv)
	if err != nil {
		return nil, fmt.Errorf("encoding ClusterServiceVersion %s: %w", csv.GetName(), err)
	}
	deleteKey(u, "status")
	deleteKey(u, "creationTimestamp")
	b, err := yaml.Marshal(u)
	if err != nil {
		return nil, fmt.Errorf("encoding ClusterServiceVersion %s: %w", csv.GetName(), err)
	}
	return bytes.Replace(b, []byte("cleanup:\n    enabled: false\n  "), nil, -1), nil
}

// deleteKey deletes key from m if present there; otherwise it recurses into m's values.
func deleteKey(m map[string]interface{}, key string) {
	if _, ok := m[key]; ok {
		delete(m, key)
		return
	}
	for _, v := range m {
		switch t := v.(type) {
		case map[string]interface{}:
			deleteKey(t, key)
		case []interface{}:
			for _, e := range t {
				if em, ok := e.(map[string]interface{}); ok {
					deleteKey(em, key)
				}
			}
		}
	}
}

// decodeCSVYAML decodes a rendered CSV file.
func decodeCSVYAML(data []byte) (*v1alpha1.ClusterServiceVersion, error) {
	csv := &v1alpha1.ClusterServiceVersion{}
	if err := yaml.Unmarshal(data, csv); err != nil {
		return nil, err
	}
	return csv, nil
}
