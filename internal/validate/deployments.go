package validate

import (
	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/packagemanifest"
)

// RuleNoDeployments reports a CSV whose install strategy has no deployments.
const RuleNoDeployments = "opack/no-deployments"

// deploymentFindings reports a registry+v1 CSV whose install strategy lists no deployments. Neither
// operator-sdk's default checks nor operator-framework/api's validators catch it (good-practices only looks
// for a missing list, so `deployments: []` passes), and OLM accepts such a CSV: its deployment installer
// creates and checks only the deployments listed, so it installs no operator at all and still reports the
// CSV as installed. This is what an empty `kustomize build` piped into bundle generation produces.
func (lb *loadedBundle) deploymentFindings() []finding.Finding {
	if lb.MediaType != packagemanifest.MediaTypeRegistryV1 || lb.Manifests == nil || lb.Manifests.CSV == nil {
		return nil
	}
	if len(lb.Manifests.CSV.Spec.InstallStrategy.StrategySpec.DeploymentSpecs) > 0 {
		return nil
	}
	return []finding.Finding{finding.Errorf(lb.CSVFile, lb.CSVObject(), RuleNoDeployments,
		"the install strategy has no deployments (spec.install.spec.deployments is empty): OLM would install no operator "+
			"for this CSV and still report it installed; generate the bundle from manifests that include the operator's "+
			"Deployment (an empty or failed kustomize build gives this)")}
}
