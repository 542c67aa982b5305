package apitypes

import (
	"fmt"
	"strings"

	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

// crdMarkerName is operator-sdk's marker for CSV owned-CRD descriptions.
const crdMarkerName = "operator-sdk:csv:customresourcedefinitions"

// Resource is one {kind, version[, name]} list of a type marker's resources argument.
type Resource []string

// Resources is the resources argument of a type marker.
type Resources []Resource

// Description receives the type-level marker:
// +operator-sdk:csv:customresourcedefinitions:displayName="...",resources={{Kind,v1,name}},order=1
type Description struct {
	Resources   Resources `marker:",optional"`
	DisplayName string    `marker:",optional"`
	Order       *int      `marker:",optional"`
}

// Descriptor receives the field-level marker:
// +operator-sdk:csv:customresourcedefinitions:type=spec,displayName="...",xDescriptors={"urn:..."},order=1
type Descriptor struct {
	Type         string   `marker:",optional"`
	DisplayName  string   `marker:",optional"`
	XDescriptors []string `marker:",optional"`
	Order        *int     `marker:",optional"`
}

// newRegistry registers controller-tools' CRD markers (for +kubebuilder:resource:path) and
// operator-sdk's two CSV markers.
func newRegistry() (*markers.Registry, error) {
	reg := &markers.Registry{}
	if err := crdmarkers.Register(reg); err != nil {
		return nil, fmt.Errorf("registering the CRD markers: %w", err)
	}
	for _, d := range []struct {
		target markers.TargetType
		output any
	}{{markers.DescribesType, Description{}}, {markers.DescribesField, Descriptor{}}} {
		def, err := markers.MakeDefinition(crdMarkerName, d.target, d.output)
		if err != nil {
			return nil, fmt.Errorf("defining the %s marker: %w", crdMarkerName, err)
		}
		if err := reg.Register(def); err != nil {
			return nil, fmt.Errorf("registering the %s marker: %w", crdMarkerName, err)
		}
	}
	return reg, nil
}

// references turns a resources argument into CSV resource references.
func (rs Resources) references() ([]v1alpha1.APIResourceReference, error) {
	var out []v1alpha1.APIResourceReference
	for _, r := range rs {
		if len(r) < 2 {
			return nil, fmt.Errorf("resource %+q did not have at least a kind and a version", r)
		}
		ref := v1alpha1.APIResourceReference{Kind: strings.TrimSpace(r[0]), Version: strings.TrimSpace(r[1])}
		if len(r) == 3 {
			ref.Name = strings.TrimSpace(r[2])
		}
		out = append(out, ref)
	}
	return out, nil
}
