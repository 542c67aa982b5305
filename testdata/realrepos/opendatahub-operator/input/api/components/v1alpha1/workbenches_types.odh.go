//go:build !rhoai

/*
Copyright 2025.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package v1alpha1

type WorkbenchesCommonSpec struct {
	// workbenches spec exposed only to internal api

	// Legacy JupyterHub-era notebooks namespace. Immutable after creation; defaults to "opendatahub".
	// Notebook-controller operands are deployed into DSCI ApplicationsNamespace, not this field.
	// +kubebuilder:default="opendatahub"
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="WorkbenchNamespace is immutable"
	// +kubebuilder:validation:Pattern="^([a-z0-9]([-a-z0-9]*[a-z0-9])?)?$"
	// +kubebuilder:validation:MaxLength=63
	WorkbenchNamespace string `json:"workbenchNamespace,omitempty"`

	// WorkbenchesV2 controls the workbenches-v2 sub-component.
	WorkbenchesV2 WorkbenchesV2Spec `json:"workbenchesV2,omitempty"`
}
