package crdserver

import (
	"strings"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// Isolated returns a copy of u moved to API group prefix.<group> (CRD names and objects' apiVersion
// follow), so that many upgrades can share one server without resetting it. prefix must be a DNS label.
func (u Upgrade) Isolated(prefix string) Upgrade {
	moveCRD := func(c *apiextv1.CustomResourceDefinition) *apiextv1.CustomResourceDefinition {
		c = c.DeepCopy()
		c.Spec.Group = prefix + "." + c.Spec.Group
		c.Name = c.Spec.Names.Plural + "." + c.Spec.Group
		c.ResourceVersion, c.UID = "", ""
		return c
	}
	out := Upgrade{Old: moveCRD(u.Old), New: moveCRD(u.New), StoredVersions: u.StoredVersions}
	for _, obj := range u.Objects {
		obj = obj.DeepCopy()
		if group, version, ok := strings.Cut(obj.GetAPIVersion(), "/"); ok {
			obj.SetAPIVersion(prefix + "." + group + "/" + version)
		}
		out.Objects = append(out.Objects, obj)
	}
	return out
}
