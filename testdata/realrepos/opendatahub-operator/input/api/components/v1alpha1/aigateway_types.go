package v1alpha1

import (
	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/opendatahub-io/opendatahub-operator/v2/api/common"
)

const (
	AIGatewayComponentName = "aigateway"
	AIGatewayInstanceName  = "default-" + AIGatewayComponentName
	AIGatewayKind          = "AIGateway"
)

// AIGatewayCommonSpec defines the user-facing configuration for AIGateway,
// shared between DSC and the AIGateway CR.
type AIGatewayCommonSpec struct {
	// ModelsAsAService controls the Models as a Service sub-component.
	// Note: the field uses "AsA" (modelsAsAService) intentionally — this matches the
	// ai-gateway-operator CRD field name (spec.modelsAsAService). The type name
	// DSCModelsAsServiceSpec is shared with the deprecated kserve.modelsAsService field
	// and predates the rename; the JSON tag is the authoritative API surface.
	ModelsAsAService DSCModelsAsServiceSpec `json:"modelsAsAService,omitempty"`
	// BatchGateway controls the batch-gateway operator sub-component.
	BatchGateway AIGatewayBatchGatewaySpec `json:"batchGateway,omitempty"`
}

// AIGatewayBatchGatewaySpec configures the batch-gateway operator lifecycle.
type AIGatewayBatchGatewaySpec struct {
	// +kubebuilder:validation:Enum=Managed;Removed
	ManagementState operatorv1.ManagementState `json:"managementState,omitempty"`
}

type AIGatewayCommonStatus struct {
	common.ComponentReleaseStatus `json:",inline"`
}

// DSCAIGateway contains all the configuration exposed in DSC instance for AIGateway component.
type DSCAIGateway struct {
	common.ManagementSpec `json:",inline"`
	AIGatewayCommonSpec   `json:",inline"`
}

// DSCAIGatewayStatus struct holds the status for the AIGateway component exposed in the DSC.
type DSCAIGatewayStatus struct {
	common.ManagementSpec  `json:",inline"`
	*AIGatewayCommonStatus `json:",inline"`
}

// DSCBatchGatewayStatus contains the observed state of the BatchGateway
// submodule exposed in the DSC instance.
type DSCBatchGatewayStatus struct {
	common.ManagementSpec `json:",inline"`
}
