package annotations

import (
	fwmeta "github.com/opendatahub-io/odh-platform-utilities/framework/metadata"
)

// ManagedByODHOperator is used to denote if a resource/component should be reconciled - when true, reconcile.
const ManagedByODHOperator = "opendatahub.io/managed"

// AIGatewayConversionState preserves the full AIGateway spec on v1 DataScienceCluster
// objects during v2→v1→v2 round-trips so sub-component state (e.g. BatchGateway) that
// v1 cannot represent natively is not lost. This annotation is written by ConvertFrom
// and consumed by ConvertTo — it is internal to the conversion webhook and must not be
// set or relied upon by users.
const AIGatewayConversionState = "conversion.opendatahub.io/aigateway-state"

// trust CA bundler.
const InjectionOfCABundleAnnotatoion = "security.opendatahub.io/inject-trusted-ca-bundle"

// secret generator.
const (
	SecretNameAnnotation        = "secret-generator.opendatahub.io/name"
	SecretTypeAnnotation        = "secret-generator.opendatahub.io/type"
	SecretLengthAnnotation      = "secret-generator.opendatahub.io/complexity"
	SecretOauthClientAnnotation = "secret-generator.opendatahub.io/oauth-client-route"
)

// ManagementStateAnnotation set on Component CR only, to show which ManagementState value if defined in DSC for the component.
const ManagementStateAnnotation = "component.opendatahub.io/management-state"

const (
	SuffixVersion            = fwmeta.SuffixVersion
	SuffixType               = fwmeta.SuffixType
	SuffixInstanceGeneration = fwmeta.SuffixInstanceGeneration
	SuffixInstanceName       = fwmeta.SuffixInstanceName
	SuffixInstanceUID        = fwmeta.SuffixInstanceUID
)

const (
	PlatformVersion    = "platform.opendatahub.io" + SuffixVersion
	PlatformType       = "platform.opendatahub.io" + SuffixType
	InstanceGeneration = "platform.opendatahub.io" + SuffixInstanceGeneration
	InstanceName       = "platform.opendatahub.io" + SuffixInstanceName
	InstanceUID        = "platform.opendatahub.io" + SuffixInstanceUID
)

// PSAElevatedBy records which component elevated the namespace PSA level to "privileged".
// DSCI preserves the elevated level only while this annotation is present.
const PSAElevatedBy = "opendatahub.io/psa-elevated-by"

// AuthorinoTLSBootstrap marks a Gateway as requiring an EnvoyFilter for
// Gateway-to-Authorino TLS when Authorino uses a TLS listener.
const AuthorinoTLSBootstrap = "security.opendatahub.io/authorino-tls-bootstrap"

// Connection annotation for referencing secrets containing connection information.
const Connection = "opendatahub.io/connections"

// ConnectionTypeRef annotation for specifying the type of connection.
//
// Deprecated: Use ConnectionTypeProtocol instead.
const ConnectionTypeRef = "opendatahub.io/connection-type-ref"

// ConnectionTypeProtocol annotation for specifying the type of connection.
const ConnectionTypeProtocol = "opendatahub.io/connection-type-protocol"

// ConnectionPath annotation for specifying the path under bucket(s3) to use for the connection.
// TODO: extend to oci.
const ConnectionPath = "opendatahub.io/connection-path"
