package bundle

import (
	"fmt"
	"sort"
	"strings"

	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
)

var defaultAdmissionReviewVersions = []string{"v1beta1"}

// webhookDefinitions turns validating, mutating and conversion webhooks into CSV
// webhookdefinitions, sorted by generateName. notes collects what operator-sdk logs at INFO.
func webhookDefinitions(c *collection) (defs []v1alpha1.WebhookDescription, notes []string) {
	defs = []v1alpha1.WebhookDescription{}
	for _, w := range c.ValidatingWebhooks {
		d := v1alpha1.WebhookDescription{
			Type: v1alpha1.ValidatingAdmissionWebhook, GenerateName: w.Name, Rules: w.Rules,
			FailurePolicy: w.FailurePolicy, MatchPolicy: w.MatchPolicy, ObjectSelector: w.ObjectSelector,
			SideEffects: w.SideEffects, TimeoutSeconds: w.TimeoutSeconds, AdmissionReviewVersions: w.AdmissionReviewVersions,
		}
		notes = append(notes, c.completeWebhook(&d, w.ClientConfig, "validating")...)
		defs = append(defs, d)
	}
	for _, w := range c.MutatingWebhooks {
		d := v1alpha1.WebhookDescription{
			Type: v1alpha1.MutatingAdmissionWebhook, GenerateName: w.Name, Rules: w.Rules,
			FailurePolicy: w.FailurePolicy, MatchPolicy: w.MatchPolicy, ObjectSelector: w.ObjectSelector,
			SideEffects: w.SideEffects, TimeoutSeconds: w.TimeoutSeconds, AdmissionReviewVersions: w.AdmissionReviewVersions,
			ReinvocationPolicy: w.ReinvocationPolicy,
		}
		notes = append(notes, c.completeWebhook(&d, w.ClientConfig, "mutating")...)
		defs = append(defs, d)
	}
	for i := range c.Services {
		defs = append(defs, c.conversionWebhooks(&c.Services[i])...)
	}
	sort.SliceStable(defs, func(i, j int) bool { return defs[i].GenerateName < defs[j].GenerateName })
	return defs, notes
}

// completeWebhook fills defaults, ports, deployment name and path from the client config's service.
func (c *collection) completeWebhook(d *v1alpha1.WebhookDescription, cc admissionv1.WebhookClientConfig, what string) []string {
	if len(d.AdmissionReviewVersions) == 0 {
		d.AdmissionReviewVersions = defaultAdmissionReviewVersions
	}
	if d.SideEffects == nil {
		none := admissionv1.SideEffectClassNone
		d.SideEffects = &none
	}
	ref := cc.Service
	if ref == nil {
		return nil
	}
	svc := c.service(ref.Name)
	depName := ""
	var notes []string
	switch {
	case svc == nil:
		notes = append(notes, fmt.Sprintf("no service found for %s webhook %q", what, d.GenerateName))
	case svc.Spec.Type != corev1.ServiceTypeExternalName && len(svc.Spec.Selector) > 0:
		depName = c.deploymentSelectedBy(svc)
	}
	if svc != nil && depName == "" {
		notes = append(notes, fmt.Sprintf("no deployment is selected by service %q for %s webhook %q", svc.Name, what, d.GenerateName))
	}
	port := int32(443)
	if ref.Port != nil {
		port = *ref.Port
	}
	setPorts(d, svc, port)
	d.DeploymentName = depName
	if d.DeploymentName == "" {
		d.DeploymentName = strings.TrimSuffix(ref.Name, "-service")
	}
	d.WebhookPath = ref.Path
	return notes
}

func setPorts(d *v1alpha1.WebhookDescription, svc *corev1.Service, port int32) {
	if svc == nil {
		return
	}
	for _, p := range svc.Spec.Ports {
		if p.Port == port {
			d.ContainerPort = p.Port
			tp := p.TargetPort
			d.TargetPort = &tp
			return
		}
	}
}

func (c *collection) service(name string) *corev1.Service {
	for i := range c.Services {
		if c.Services[i].Name == name {
			return &c.Services[i]
		}
	}
	return nil
}

// deploymentSelectedBy returns the first deployment whose pod labels hold all of svc's selector.
func (c *collection) deploymentSelectedBy(svc *corev1.Service) string {
	for _, dep := range c.Deployments {
		labels := dep.Spec.Template.GetLabels()
		if len(labels) == 0 {
			continue
		}
		match := true
		for k, v := range svc.Spec.Selector {
			if lv, ok := labels[k]; !ok || lv != v {
				match = false
				break
			}
		}
		if match {
			return dep.Name
		}
	}
	return ""
}

// conversion is one CRD's conversion webhook service reference.
type conversion struct {
	crd      string
	port     *int32
	path     string
	versions []string
	svcName  string
}

// conversionWebhooks groups the CRDs converted by svc into one ConversionWebhook definition per
// (port, path). Like operator-sdk, CRDs are grouped only when neither names a port explicitly.
func (c *collection) conversionWebhooks(svc *corev1.Service) []v1alpha1.WebhookDescription {
	convs := c.conversionsFor(svc.Name)
	if len(convs) == 0 {
		return nil
	}
	depName := c.deploymentSelectedBy(svc)
	type key struct {
		port *int32
		path string
	}
	var keys []key
	groups := map[key][]conversion{}
	for _, cv := range convs {
		k := key{port: cv.port, path: cv.path}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], cv)
	}
	var out []v1alpha1.WebhookDescription
	for _, k := range keys {
		g := groups[k]
		var crds []string
		for _, cv := range g {
			crds = append(crds, cv.crd)
		}
		sort.Strings(crds)
		path := k.path
		none := admissionv1.SideEffectClassNone
		d := v1alpha1.WebhookDescription{
			Type: v1alpha1.ConversionWebhook, ConversionCRDs: crds, AdmissionReviewVersions: g[0].versions,
			WebhookPath: &path, DeploymentName: depName, GenerateName: conversionName(crds), SideEffects: &none,
		}
		port := int32(443)
		if k.port != nil {
			port = *k.port
		}
		setPorts(&d, svc, port)
		if d.DeploymentName == "" {
			d.DeploymentName = strings.TrimSuffix(g[0].svcName, "-service")
		}
		out = append(out, d)
	}
	return out
}

// conversionsFor lists, in input order, the CRDs whose conversion webhook calls the service name.
func (c *collection) conversionsFor(name string) []conversion {
	var out []conversion
	for _, crd := range c.V1CRDs {
		cv := crd.Spec.Conversion
		if cv == nil || cv.Webhook == nil || cv.Webhook.ClientConfig == nil || cv.Webhook.ClientConfig.Service == nil {
			continue
		}
		s := cv.Webhook.ClientConfig.Service
		if s.Name != name {
			continue
		}
		out = append(out, conversion{crd: crd.Name, port: s.Port, path: deref(s.Path), versions: cv.Webhook.ConversionReviewVersions, svcName: s.Name})
	}
	for _, crd := range c.V1beta1CRDs {
		cv := crd.Spec.Conversion
		if cv == nil || cv.WebhookClientConfig == nil || cv.WebhookClientConfig.Service == nil {
			continue
		}
		s := cv.WebhookClientConfig.Service
		if s.Name != name {
			continue
		}
		out = append(out, conversion{crd: crd.Name, path: deref(s.Path), versions: cv.ConversionReviewVersions, svcName: s.Name})
	}
	return out
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// conversionName is "c" + the first DNS label of each sorted CRD name + ".kb.io".
func conversionName(crds []string) string {
	var b strings.Builder
	for _, n := range crds {
		if n != "" {
			b.WriteString(strings.Split(n, ".")[0])
		}
	}
	return "c" + b.String() + ".kb.io"
}
