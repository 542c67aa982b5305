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

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/opendatahub-io/opendatahub-operator/v2/api/common"
	infrav1 "github.com/opendatahub-io/opendatahub-operator/v2/api/infrastructure/v1"
)

const (
	GatewayServiceName = "gateway"
	// GatewayConfigName is the name of the GatewayConfig instance singleton.
	// value should match what's set in the XValidation below
	GatewayConfigName = "default-gateway"
	GatewayConfigKind = "GatewayConfig"
)

// IngressMode defines how the Gateway exposes its endpoints externally.
// +kubebuilder:validation:Enum=OcpRoute;LoadBalancer
type IngressMode string

const (
	// IngressModeOcpRoute uses ClusterIP service with standard OpenShift Routes.
	// This is the default for new deployments and works without additional infrastructure.
	IngressModeOcpRoute IngressMode = "OcpRoute"
	// IngressModeLoadBalancer uses a LoadBalancer service type.
	// This requires a load balancer provider (cloud or MetalLB).
	IngressModeLoadBalancer IngressMode = "LoadBalancer"
)

// Check that the component implements common.PlatformObject.
var _ common.PlatformObject = (*GatewayConfig)(nil)

// GatewayConfigSpec defines the desired state of GatewayConfig
type GatewayConfigSpec struct {
	// IngressMode specifies how the Gateway is exposed externally.
	// "OcpRoute" uses ClusterIP with standard OpenShift Routes (default for new deployments).
	// "LoadBalancer" uses a LoadBalancer service type (requires cloud or MetalLB).
	// +optional
	IngressMode IngressMode `json:"ingressMode,omitempty"`

	// OIDC configuration (used when cluster is in OIDC authentication mode)
	// +optional
	OIDC *OIDCConfig `json:"oidc,omitempty"`

	// Certificate specifies configuration of the TLS certificate securing communication for the gateway.
	// +optional
	Certificate *infrav1.CertificateSpec `json:"certificate,omitempty"`

	// Domain specifies the host name for intercepting incoming requests.
	// Most likely, you will want to use a wildcard name, like *.example.com.
	// If not set, the domain of the OpenShift Ingress is used.
	// If you choose to generate a certificate, this is the domain used for the certificate request.
	// Example: *.example.com, example.com, apps.example.com
	// +optional
	// +kubebuilder:validation:Pattern=`^(\*\.)?([a-z0-9]([-a-z0-9]*[a-z0-9])?\.)*[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	Domain string `json:"domain,omitempty"`

	// Subdomain configuration for the GatewayConfig
	// Example: my-gateway, custom-gateway
	// +optional
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^([a-z0-9]([-a-z0-9]*[a-z0-9])?)$`
	Subdomain string `json:"subdomain,omitempty"`

	// Cookie configuration (applies to both OIDC and OpenShift OAuth)
	// +optional
	Cookie CookieConfig `json:"cookie,omitempty"` // not pointer to make defaults clear

	// AuthTimeout is the duration Envoy waits for auth proxy responses.
	// Requests timeout with 403 if exceeded.
	// Deprecated: Use AuthProxyTimeout instead.
	// +optional
	// +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
	AuthTimeout string `json:"authTimeout,omitempty"`

	// AuthProxyTimeout defines the timeout for external authorization service calls (e.g., "5s", "10s")
	// This controls how long Envoy waits for a response from the authentication proxy before timing out 403 response.
	// +optional
	AuthProxyTimeout metav1.Duration `json:"authProxyTimeout,omitempty"`

	// NetworkPolicy configuration for kube-auth-proxy
	// +optional
	NetworkPolicy *NetworkPolicyConfig `json:"networkPolicy,omitempty"`

	// ProviderCASecretName is the name of the secret containing the CA certificate for the authentication provider
	// Used when the OAuth/OIDC provider uses a self-signed or custom CA certificate.
	// Secret must exist in the openshift-ingress namespace and contain a 'ca.crt' key with the PEM-encoded CA certificate.
	// +optional
	ProviderCASecretName string `json:"providerCASecretName,omitempty"`

	// VerifyProviderCertificate controls TLS certificate verification for the authentication provider.
	// When true (default), certificates are verified against the system trust store and providerCASecretName.
	// When false, certificate verification is disabled (development/testing only).
	// WARNING: Setting this to false disables security and should only be used in non-production environments.
	// For production use with self-signed certificates, use ProviderCASecretName instead.
	// +optional
	// +kubebuilder:default=true
	VerifyProviderCertificate *bool `json:"verifyProviderCertificate,omitempty"`

	// EnableK8sTokenValidation enables Kubernetes service account token validation via TokenReview API.
	// When enabled, kube-auth-proxy validates bearer tokens as service account tokens alongside OAuth/OIDC authentication.
	// This allows service accounts to authenticate via bearer tokens while human users authenticate via OAuth/OIDC.
	// +optional
	// +kubebuilder:default=true
	EnableK8sTokenValidation *bool `json:"enableK8sTokenValidation,omitempty"`
}

// NetworkPolicyConfig defines network policy configuration for kube-auth-proxy.
// When nil or when Ingress is nil, NetworkPolicy ingress rules are enabled by default
// to restrict access to kube-auth-proxy pods.
type NetworkPolicyConfig struct {
	// Ingress defines ingress NetworkPolicy rules.
	// When nil, ingress rules are applied by default (allows traffic from Gateway pods and monitoring namespaces).
	// When specified, Enabled must be set to true to apply rules or false to skip NetworkPolicy creation.
	// Set Enabled=false only in development environments or when using alternative network security controls.
	// +optional
	Ingress *IngressPolicyConfig `json:"ingress,omitempty"`
}

// IngressPolicyConfig defines ingress NetworkPolicy rules
type IngressPolicyConfig struct {
	// Enabled determines whether ingress rules are applied.
	// When true, creates NetworkPolicy allowing traffic only from Gateway pods and monitoring namespaces.
	// +kubebuilder:validation:Required
	Enabled bool `json:"enabled"`
}

// OIDCConfig defines OIDC provider configuration
type OIDCConfig struct {
	// OIDC issuer URL. Must be an https URL with a non-empty host and no query or
	// fragment component (an OIDC issuer identifier has neither).
	// +kubebuilder:validation:Required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:Format=uri
	// +kubebuilder:validation:Pattern=`^https://[^?#\s]+$`
	// +kubebuilder:validation:XValidation:rule="url(self).getHostname() != ''",message="issuerURL must have a non-empty host"
	IssuerURL string `json:"issuerURL"`

	// OIDC client ID
	// +kubebuilder:validation:Required
	ClientID string `json:"clientID"`

	// Reference to secret containing client secret
	// +kubebuilder:validation:Required
	ClientSecretRef corev1.SecretKeySelector `json:"clientSecretRef"`

	// Namespace where the client secret is located
	// If not specified, defaults to openshift-ingress
	// +optional
	SecretNamespace string `json:"secretNamespace,omitempty"`
}

// CookieConfig defines cookie settings for OAuth2 proxy
type CookieConfig struct {
	// Expire duration for OAuth2 proxy session cookie (e.g., "24h", "8h")
	// This controls how long the session cookie is valid before requiring re-authentication.
	// +optional
	// +kubebuilder:default="24h"
	Expire metav1.Duration `json:"expire,omitempty"`

	// Refresh duration for OAuth2 proxy to refresh access tokens (e.g., "2h", "1h", "30m")
	// This must be LESS than the OIDC provider's Access Token Lifespan to avoid token expiration.
	// For example, if Keycloak Access Token Lifespan is 1 hour, set this to "30m" or "45m".
	// +optional
	// +kubebuilder:default="1h"
	Refresh metav1.Duration `json:"refresh,omitempty"`
}

// GatewayConfigStatus defines the observed state of GatewayConfig
type GatewayConfigStatus struct {
	common.Status `json:",inline"`
	// Domain is the computed gateway domain (subdomain + cluster domain or default)
	// This is the single source of truth for the gateway domain used by all components
	Domain string `json:"domain,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster
// +kubebuilder:validation:XValidation:rule="self.metadata.name == 'default-gateway'",message="GatewayConfig name must be default-gateway"
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`,description="Ready"
// +kubebuilder:printcolumn:name="Reason",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].reason`,description="Reason"

// GatewayConfig is the Schema for the gatewayconfigs API
type GatewayConfig struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   GatewayConfigSpec   `json:"spec,omitempty"`
	Status GatewayConfigStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// GatewayConfigList contains a list of GatewayConfig
type GatewayConfigList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []GatewayConfig `json:"items"`
}

func (m *GatewayConfig) GetStatus() *common.Status {
	return &m.Status.Status
}

func (c *GatewayConfig) GetConditions() []common.Condition {
	return c.Status.GetConditions()
}

func (c *GatewayConfig) SetConditions(conditions []common.Condition) {
	c.Status.SetConditions(conditions)
}

func init() {
	SchemeBuilder.Register(&GatewayConfig{}, &GatewayConfigList{})
}
