package load

import (
	"fmt"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextv1beta1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// scheme knows the internal, v1 and v1beta1 apiextensions types, their defaults and conversions.
// Built on first use: commands that read no CRD do not pay for it.
var scheme = sync.OnceValue(func() *runtime.Scheme {
	s := runtime.NewScheme()
	install.Install(s)
	return s
})

const (
	groupAPIExtensions = "apiextensions.k8s.io"
	kindCRD            = "CustomResourceDefinition"
)

// isCRD reports whether u is a CustomResourceDefinition of any apiextensions version.
func isCRD(u *unstructured.Unstructured) bool {
	gvk := u.GroupVersionKind()
	return gvk.Group == groupAPIExtensions && gvk.Kind == kindCRD
}

// FromUnstructured converts a CRD object (apiextensions.k8s.io/v1 or v1beta1) into a defaulted v1 CRD,
// as the API server stores it. A schema nested deeper than MaxSchemaDepth is refused.
func FromUnstructured(u *unstructured.Unstructured) (*apiextv1.CustomResourceDefinition, error) {
	switch v := u.GroupVersionKind().Version; v {
	case "v1":
		out := &apiextv1.CustomResourceDefinition{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, out); err != nil {
			return nil, fmt.Errorf("decoding CustomResourceDefinition: %w", err)
		}
		scheme().Default(out)
		return out, checkDepth(out)
	case "v1beta1":
		in := &apiextv1beta1.CustomResourceDefinition{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, in); err != nil {
			return nil, fmt.Errorf("decoding CustomResourceDefinition: %w", err)
		}
		scheme().Default(in)
		internal := &apiextensions.CustomResourceDefinition{}
		if err := scheme().Convert(in, internal, nil); err != nil {
			return nil, fmt.Errorf("converting v1beta1 CustomResourceDefinition: %w", err)
		}
		out := &apiextv1.CustomResourceDefinition{}
		if err := scheme().Convert(internal, out, nil); err != nil {
			return nil, fmt.Errorf("converting v1beta1 CustomResourceDefinition to v1: %w", err)
		}
		out.APIVersion, out.Kind = apiextv1.SchemeGroupVersion.String(), kindCRD
		return out, checkDepth(out)
	default:
		return nil, fmt.Errorf("unsupported CustomResourceDefinition version %q (want apiextensions.k8s.io/v1 or v1beta1)", v)
	}
}

// ToInternal converts a v1 CRD to the internal type the API server's validation works on.
func ToInternal(in *apiextv1.CustomResourceDefinition) (*apiextensions.CustomResourceDefinition, error) {
	out := &apiextensions.CustomResourceDefinition{}
	if err := scheme().Convert(in, out, nil); err != nil {
		return nil, fmt.Errorf("converting CustomResourceDefinition %s: %w", in.Name, err)
	}
	return out, nil
}

// SchemaToInternal converts one version's schema to the internal type.
func SchemaToInternal(in *apiextv1.JSONSchemaProps) (*apiextensions.JSONSchemaProps, error) {
	out := &apiextensions.JSONSchemaProps{}
	if err := apiextv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(in, out, nil); err != nil {
		return nil, err
	}
	return out, nil
}

// Defaulted returns a copy of c with the API server's defaults applied.
func Defaulted(c *apiextv1.CustomResourceDefinition) *apiextv1.CustomResourceDefinition {
	c = c.DeepCopy()
	scheme().Default(c)
	return c
}
