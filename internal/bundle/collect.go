package bundle

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/operator-framework/api/pkg/apis/scorecard/v1alpha3"
	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	admissionv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextv1beta1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/manifest"
)

// collection sorts input objects by kind, as operator-sdk's collector.Manifests does.
type collection struct {
	CSVs                []v1alpha1.ClusterServiceVersion
	Roles               []rbacv1.Role
	ClusterRoles        []rbacv1.ClusterRole
	RoleBindings        []rbacv1.RoleBinding
	ClusterRoleBindings []rbacv1.ClusterRoleBinding
	ServiceAccounts     []corev1.ServiceAccount
	Services            []corev1.Service
	Deployments         []appsv1.Deployment
	V1CRDs              []apiextv1.CustomResourceDefinition
	V1beta1CRDs         []apiextv1beta1.CustomResourceDefinition
	ValidatingWebhooks  []admissionv1.ValidatingWebhook
	MutatingWebhooks    []admissionv1.MutatingWebhook
	Scorecard           *v1alpha3.Configuration
	Others              []other
	CustomResources     []other
}

// other is an object of a kind the CSV does not consume; it may be written as a file.
type other struct {
	Doc    manifest.Doc
	Object *unstructured.Unstructured
}

// collect dispatches docs on group and kind. A document without kind, or one that does not
// decode into its kind's type, is an error naming it.
func collect(docs []manifest.Doc) (*collection, error) {
	c := &collection{}
	for _, d := range docs {
		if err := c.add(d); err != nil {
			return nil, err
		}
	}
	c.filterCustomResources()
	c.deduplicate()
	return c, nil
}

func (c *collection) add(d manifest.Doc) error {
	gvk := d.Object.GroupVersionKind()
	if gvk.Kind == "" || d.Object.GetAPIVersion() == "" {
		return fmt.Errorf("%s has no apiVersion or kind: every object needs both (e.g. apiVersion: v1, kind: Service)", d)
	}
	var err error
	switch gk := gvk.GroupKind().String(); gk {
	case "ClusterServiceVersion.operators.coreos.com":
		err = decodeAppend(d, &c.CSVs)
	case "Role.rbac.authorization.k8s.io":
		err = decodeAppend(d, &c.Roles)
	case "ClusterRole.rbac.authorization.k8s.io":
		err = decodeAppend(d, &c.ClusterRoles)
	case "RoleBinding.rbac.authorization.k8s.io":
		err = decodeAppend(d, &c.RoleBindings)
	case "ClusterRoleBinding.rbac.authorization.k8s.io":
		err = decodeAppend(d, &c.ClusterRoleBindings)
	case "ServiceAccount":
		err = decodeAppend(d, &c.ServiceAccounts)
	case "Service":
		err = decodeAppend(d, &c.Services)
	case "Deployment.apps":
		err = decodeAppend(d, &c.Deployments)
	case "CustomResourceDefinition.apiextensions.k8s.io":
		err = c.addCRD(d, gvk.Version)
	case "ValidatingWebhookConfiguration.admissionregistration.k8s.io":
		var w admissionv1.ValidatingWebhookConfiguration
		if err = decode(d, &w); err == nil {
			c.ValidatingWebhooks = append(c.ValidatingWebhooks, w.Webhooks...)
		}
	case "MutatingWebhookConfiguration.admissionregistration.k8s.io":
		var w admissionv1.MutatingWebhookConfiguration
		if err = decode(d, &w); err == nil {
			c.MutatingWebhooks = append(c.MutatingWebhooks, w.Webhooks...)
		}
	case "Configuration.scorecard.operatorframework.io":
		if c.Scorecard != nil {
			return fmt.Errorf("%s is a second scorecard Configuration; the input may hold only one", d)
		}
		c.Scorecard = &v1alpha3.Configuration{}
		err = decode(d, c.Scorecard)
	default:
		c.Others = append(c.Others, other{Doc: d, Object: d.Object})
	}
	return err
}

func (c *collection) addCRD(d manifest.Doc, version string) error {
	switch version {
	case "v1":
		return decodeAppend(d, &c.V1CRDs)
	case "v1beta1":
		return decodeAppend(d, &c.V1beta1CRDs)
	}
	return fmt.Errorf("%s: unrecognized CustomResourceDefinition version %q (use apiextensions.k8s.io/v1)", d, version)
}

// decode unmarshals a document into a typed object the way operator-sdk does (sigs.k8s.io/yaml,
// unknown fields dropped). The document's JSON, written from the object already decoded, gives
// the same value whenever it decodes cleanly: sigs.k8s.io/yaml reads the YAML against the target
// type only to turn numbers and booleans into strings where a field is a string, which the JSON
// then fails to decode. The YAML is decoded again only then, and for a document whose object may
// write a number differently (manifest.MayLoseNumbers: -0.0, integers above int64).
func decode(d manifest.Doc, into interface{}) error {
	if d.Object != nil && !manifest.MayLoseNumbers(d.Raw) {
		if j, err := manifest.MarshalJSON(d.Object.Object); err == nil && json.Unmarshal(j, into) == nil {
			return nil
		}
		v := reflect.ValueOf(into).Elem()
		v.Set(reflect.Zero(v.Type()))
	}
	if err := yaml.Unmarshal(d.Raw, into); err != nil {
		return fmt.Errorf("decoding %s: %w", d, err)
	}
	return nil
}

func decodeAppend[T any](d manifest.Doc, list *[]T) error {
	var v T
	if err := decode(d, &v); err != nil {
		return err
	}
	*list = append(*list, v)
	return nil
}

// filterCustomResources moves objects whose group, version and kind match a served version
// of an input CRD from Others to CustomResources.
func (c *collection) filterCustomResources() {
	served := map[string]bool{}
	for _, crd := range c.V1CRDs {
		for _, v := range crd.Spec.Versions {
			if v.Served {
				served[crd.Spec.Group+"/"+v.Name+"/"+crd.Spec.Names.Kind] = true
			}
		}
	}
	for _, crd := range c.V1beta1CRDs {
		if len(crd.Spec.Versions) == 0 {
			served[crd.Spec.Group+"/"+crd.Spec.Version+"/"+crd.Spec.Names.Kind] = true
		}
		for _, v := range crd.Spec.Versions {
			if v.Served {
				served[crd.Spec.Group+"/"+v.Name+"/"+crd.Spec.Names.Kind] = true
			}
		}
	}
	var others []other
	for _, o := range c.Others {
		gvk := o.Object.GroupVersionKind()
		if served[gvk.Group+"/"+gvk.Version+"/"+gvk.Kind] {
			c.CustomResources = append(c.CustomResources, o)
		} else {
			others = append(others, o)
		}
	}
	c.Others = others
}

// deduplicate drops exact duplicates among roles, deployments, CRDs, webhooks and custom
// resources, keeping the first.
func (c *collection) deduplicate() {
	c.Roles = dedup(c.Roles, func(v rbacv1.Role) any { return v })
	c.ClusterRoles = dedup(c.ClusterRoles, func(v rbacv1.ClusterRole) any { return v })
	c.Deployments = dedup(c.Deployments, func(v appsv1.Deployment) any { return v })
	c.V1CRDs = dedup(c.V1CRDs, func(v apiextv1.CustomResourceDefinition) any { return v })
	c.V1beta1CRDs = dedup(c.V1beta1CRDs, func(v apiextv1beta1.CustomResourceDefinition) any { return v })
	c.ValidatingWebhooks = dedup(c.ValidatingWebhooks, func(v admissionv1.ValidatingWebhook) any { return v })
	c.MutatingWebhooks = dedup(c.MutatingWebhooks, func(v admissionv1.MutatingWebhook) any { return v })
	c.CustomResources = dedup(c.CustomResources, func(v other) any { return v.Object.Object })
}

func dedup[T any](in []T, key func(T) any) []T {
	seen := map[[32]byte]bool{}
	out := in[:0:0]
	for _, v := range in {
		b, err := json.Marshal(key(v))
		if err != nil {
			out = append(out, v)
			continue
		}
		h := sha256.Sum256(b)
		if seen[h] {
			continue
		}
		seen[h] = true
		out = append(out, v)
	}
	return out
}
