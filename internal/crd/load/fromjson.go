package load

import (
	"fmt"
	"strings"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kjson "sigs.k8s.io/json"

	"github.com/opack/opack/internal/manifest"
)

// FromJSON is FromUnstructured for a CRD given as JSON. An apiextensions.k8s.io/v1 CRD is decoded
// straight into the typed struct with the API server's case-sensitive JSON decoder, without the
// map and the reflection-based conversion of FromUnstructured; other versions go through
// FromUnstructured. isCRD is false (and the error nil) for any other kind.
func FromJSON(data []byte) (c *apiextv1.CustomResourceDefinition, isCRD bool, err error) {
	c, isCRD, _, err = fromJSON(data, nil)
	return c, isCRD, err
}

// DecodeV1 decodes an apiextensions.k8s.io/v1 CRD given as valid JSON (as json.Marshal writes it:
// validity is not checked again) into exactly what encoding/json's Unmarshal gives, as
// operator-framework's bundle loader decodes it (no defaulting), in one pass over its schemas; ok
// is false where it cannot be sure (a key that is not exactly a field name, a key given twice,
// whatever fastCRD leaves to kjson), and the caller then decodes with encoding/json.
// TestCorpusFastCRDSameAsKJSON and FuzzDecodeV1 hold it to that.
func DecodeV1(data []byte) (*apiextv1.CustomResourceDefinition, bool) {
	return decodeValidCRD(data, nil, true)
}

// fromJSON is FromJSON, sharing schema maps through share (nil: none); fast tells whether the
// schemas were decoded by fastCRD.
func fromJSON(data []byte, share *sharing) (c *apiextv1.CustomResourceDefinition, isCRD, fast bool, err error) {
	var tm struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	var ok bool
	if tm.APIVersion, tm.Kind, ok = manifest.PeekKind(data); !ok {
		if err := kjson.UnmarshalCaseSensitivePreserveInts(data, &tm); err != nil {
			return nil, false, false, fmt.Errorf("decoding object: %w", err)
		}
	}
	switch {
	case tm.Kind != kindCRD || !strings.HasPrefix(tm.APIVersion, groupAPIExtensions+"/"):
		return nil, false, false, nil
	case tm.APIVersion == groupAPIExtensions+"/v1":
		out, fast := fastCRD(data, share, false)
		if !fast {
			out = &apiextv1.CustomResourceDefinition{}
			if err := kjson.UnmarshalCaseSensitivePreserveInts(data, out); err != nil {
				return nil, true, false, fmt.Errorf("decoding CustomResourceDefinition: %w", err)
			}
		}
		scheme().Default(out)
		return out, true, fast, checkDepth(out)
	default:
		u := &unstructured.Unstructured{}
		if err := kjson.UnmarshalCaseSensitivePreserveInts(data, &u.Object); err != nil {
			return nil, true, false, fmt.Errorf("decoding CustomResourceDefinition: %w", err)
		}
		c, err := FromUnstructured(u)
		return c, true, false, err
	}
}
