package olmharness

import (
	"path/filepath"
	"testing"

	"github.com/opack/opack/internal/olmtest"
)

// OLM v0 as upstream's install manifests deploy it (operator-lifecycle-manager deploy/upstream, the
// "upstream" values of deploy/chart): both controllers in namespace olm, the global catalog namespace;
// the default OperatorGroup's namespace operators.
const (
	OLMv0Module    = "github.com/operator-framework/operator-lifecycle-manager"
	OLMNamespace   = "olm"
	OperatorsNS    = "operators"
	olmv0UtilImage = "quay.io/operator-framework/olm:v0.46.0"
	olmv0OPMImage  = "quay.io/operator-framework/opm:v1.73.0"
)

// OLMv0 is a running olm-operator and catalog-operator.
type OLMv0 struct {
	OLMOperator, CatalogOperator *Process
	// UtilImage and OPMImage are the images the catalog-operator names in the pods it creates (the
	// bundle unpack Job's util and opm containers).
	UtilImage, OPMImage string
}

// StartOLMv0 installs OLM v0's CRDs (deploy/chart/crds of the module hack/tools/olm pins, all 8 of them:
// the controllers list them at start) and namespaces on c, and starts olm-operator and catalog-operator
// with upstream's arguments. catalogEnv is added to catalog-operator's environment (GRPC_PROXY, see
// ServiceRouter) and extra to its arguments (e.g. --install-plan-retry-timeout).
func StartOLMv0(t testing.TB, c *Cluster, catalogEnv []string, extra ...string) *OLMv0 {
	t.Helper()
	olm, err := Binary(t.Context(), c.Root, "olm-operator")
	if err != nil {
		skipOrFail(t, "no olm-operator: %v", err)
	}
	catalog, err := Binary(t.Context(), c.Root, "catalog-operator")
	if err != nil {
		skipOrFail(t, "no catalog-operator: %v", err)
	}
	mod, err := moduleDir(t.Context(), c.Root, "olm", OLMv0Module)
	if err != nil {
		t.Fatal(err)
	}
	c.Kubectl(t, "create", "namespace", OLMNamespace)
	c.Kubectl(t, "create", "namespace", OperatorsNS)
	// create, not apply: the CSV and subscription CRDs are larger than apply's last-applied annotation allows.
	c.Kubectl(t, "create", "-f", filepath.Join(mod, "deploy", "chart", "crds"))
	c.Kubectl(t, "wait", "--for", "condition=Established", "crd", "--all", "--timeout", "120s")
	o := &OLMv0{UtilImage: olmv0UtilImage, OPMImage: olmv0OPMImage}
	// olm-operator has no --kubeconfig flag: controller-runtime's GetConfigOrDie reads KUBECONFIG
	// (cmd/olm/manager.go).
	o.OLMOperator = c.Start(t, "olm-operator", olm,
		[]string{"KUBECONFIG=" + c.Kubeconfig, "OPERATOR_NAMESPACE=" + OLMNamespace, "OPERATOR_NAME=olm-operator"},
		"--namespace", OLMNamespace)
	args := append([]string{"--kubeconfig", c.Kubeconfig, "--namespace", OLMNamespace,
		"--opmImage", o.OPMImage, "--util-image", o.UtilImage, "--set-workload-user-id=true"}, extra...)
	o.CatalogOperator = c.Start(t, "catalog-operator", catalog, catalogEnv, args...)
	return o
}

// OLMv0Images returns the root filesystems of the images OLM v0 names in the pods it creates (see
// StartOLMv0's flags), made of the real programs: its util image (cmd/copy-content and util/cpb of
// operator-lifecycle-manager v0.46.0, and the host's cp, which the pods run as `cp`) and its opm image
// (opm v1.73.0, hack/tools/opm).
func OLMv0Images(t testing.TB, c *Cluster) map[string]func(t testing.TB) string {
	t.Helper()
	bins := map[string]string{}
	for _, name := range []string{"cpb", "copy-content"} {
		bin, err := Binary(t.Context(), c.Root, name)
		if err != nil {
			skipOrFail(t, "no %s: %v", name, err)
		}
		bins[name] = bin
	}
	opm := olmtest.BuildTools(t).OPM
	return map[string]func(t testing.TB) string{
		olmv0UtilImage: RootWith(map[string]string{"bin/cp": "/bin/cp", "bin/cpb": bins["cpb"], "bin/copy-content": bins["copy-content"]}),
		olmv0OPMImage:  RootWith(map[string]string{"bin/opm": opm}),
	}
}
