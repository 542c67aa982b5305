package crd

import (
	"fmt"
	"strings"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/crd/load"
)

// removedMessage words crd-removed by what the new release's CSVs say: whether they still hold
// create rights on the CRD's resource (grants known), or nothing is known of them.
func removedMessage(c *apiextv1.CustomResourceDefinition, grants []load.Grant, known bool) string {
	if !known {
		return "CRD removed from the new release; its objects stay on the cluster, and no CSV of the new release was given to say whether the operator still manages them"
	}
	res := c.Spec.Names.Plural + "." + c.Spec.Group
	for _, g := range grants {
		if g.Creates(c) {
			scope := "permissions"
			if g.Cluster {
				scope = "clusterPermissions"
			}
			return fmt.Sprintf("CRD removed from the new release, but its CSV %s still has create rights on %s (%s: verbs %s): the operator may still create and manage its objects, but no release installs or updates the CRD any more (OLM leaves the old CRD on upgraded clusters; on new installs it does not exist); keep shipping the CRD or drop those rights",
				g.CSV, res, scope, strings.Join(g.Verbs, ","))
		}
	}
	return fmt.Sprintf("CRD removed from the new release, and its CSV holds no create rights on %s: existing objects stay on the cluster unmanaged", res)
}
