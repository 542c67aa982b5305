/*
Copyright 2023.

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

import (
	"github.com/opendatahub-io/opendatahub-operator/v2/api/common"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const (
	AuthServiceName  = "auth"
	AuthInstanceName = "auth"
	AuthKind         = "Auth"
)

// Check that the component implements common.PlatformObject.
var _ common.PlatformObject = (*Auth)(nil)

// AuthSpec defines the desired state of Auth
type AuthSpec struct {
	// AdminGroups cannot contain 'system:authenticated' (security risk) or empty strings, and must not be empty
	// +kubebuilder:validation:XValidation:rule="size(self) > 0",message="AdminGroups cannot be empty"
	// +kubebuilder:validation:XValidation:rule="self.all(group, group != 'system:authenticated' && group != '')",message="AdminGroups cannot contain 'system:authenticated' or empty strings"
	AdminGroups []string `json:"adminGroups"`
	// AllowedGroups cannot contain empty strings, but 'system:authenticated' is allowed for general access
	// +kubebuilder:validation:XValidation:rule="self.all(group, group != '')",message="AllowedGroups cannot contain empty strings"
	AllowedGroups []string `json:"allowedGroups"`
}

// AuthStatus defines the observed state of Auth
type AuthStatus struct {
	common.Status `json:",inline"`
}

//+kubebuilder:object:root=true
//+kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster
// +kubebuilder:validation:XValidation:rule="self.metadata.name == 'auth'",message="Auth name must be auth"
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`,description="Ready"
// +kubebuilder:printcolumn:name="Reason",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].reason`,description="Reason"

// Auth is the Schema for the auths API
type Auth struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   AuthSpec   `json:"spec,omitempty"`
	Status AuthStatus `json:"status,omitempty"`
}

//+kubebuilder:object:root=true

// AuthList contains a list of Auth
type AuthList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Auth `json:"items"`
}

func (m *Auth) GetStatus() *common.Status {
	return &m.Status.Status
}

func (c *Auth) GetConditions() []common.Condition {
	return c.Status.GetConditions()
}

func (c *Auth) SetConditions(conditions []common.Condition) {
	c.Status.SetConditions(conditions)
}

func init() {
	SchemeBuilder.Register(&Auth{}, &AuthList{})
}
