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
	OLMv0Module   = "github.com/operator-framework/operator-lifecycle-manager"
	OLMNamespace  = "olm"
	OperatorsNS   = "operators"
	olmv0OPMImage = "quay.io/operator-framework/opm:v1.73.0"
)

// OLMv0Releases are the OLM v0 releases the harness builds: the newest (hack/tools/olm) and the oldest
// opack claims (hack/tools/olm-v0.26.0).
var OLMv0Releases = []string{"v0.46.0", "v0.26.0"}

// olmv0Tool names a program of OLM v0 release version for hack/build-apiserver.sh, and the tools module
// pinning it.
func olmv0Tool(version, name string) (tool, module string) {
	if version == OLMv0Releases[0] {
		return name, "olm"
	}
	return name + "@" + version, "olm-" + version
}

// OLMv0 is a running olm-operator and catalog-operator.
type OLMv0 struct {
	OLMOperator, CatalogOperator *Process
	// UtilImage and OPMImage are the images the catalog-operator names in the pods it creates (the
	// bundle unpack Job's util and opm containers).
	UtilImage, OPMImage string
}

// StartOLMv0 installs the CRDs of OLM v0 release version (deploy/chart/crds of the module its tools
// module pins, all 8 of them: the controllers list them at start) and its namespaces on c, and starts
// olm-operator and catalog-operator with upstream's arguments. catalogEnv is added to catalog-operator's
// environment (GRPC_PROXY, see ServiceRouter) and extra to its arguments (e.g.
// --install-plan-retry-timeout).
func StartOLMv0(t testing.TB, c *Cluster, version string, catalogEnv []string, extra ...string) *OLMv0 {
	t.Helper()
	bins := map[string]string{}
	for _, name := range []string{"olm-operator", "catalog-operator"} {
		tool, _ := olmv0Tool(version, name)
		bin, err := Binary(t.Context(), c.Root, tool)
		if err != nil {
			skipOrFail(t, "no %s: %v", tool, err)
		}
		bins[name] = bin
	}
	_, tools := olmv0Tool(version, "")
	mod, err := moduleDir(t.Context(), c.Root, tools, OLMv0Module)
	if err != nil {
		t.Fatal(err)
	}
	c.Kubectl(t, "create", "namespace", OLMNamespace)
	c.Kubectl(t, "create", "namespace", OperatorsNS)
	// create, not apply: the CSV and subscription CRDs are larger than apply's last-applied annotation allows.
	c.Kubectl(t, "create", "-f", filepath.Join(mod, "deploy", "chart", "crds"))
	c.Kubectl(t, "wait", "--for", "condition=Established", "crd", "--all", "--timeout", "120s")
	o := &OLMv0{UtilImage: olmv0UtilImage(version), OPMImage: olmv0OPMImage}
	// olm-operator has no --kubeconfig flag: controller-runtime's GetConfigOrDie reads KUBECONFIG
	// (cmd/olm/manager.go).
	o.OLMOperator = c.Start(t, "olm-operator", bins["olm-operator"],
		[]string{"KUBECONFIG=" + c.Kubeconfig, "OPERATOR_NAMESPACE=" + OLMNamespace, "OPERATOR_NAME=olm-operator"},
		"--namespace", OLMNamespace)
	args := append([]string{"--kubeconfig", c.Kubeconfig, "--namespace", OLMNamespace,
		"--opmImage", o.OPMImage, "--util-image", o.UtilImage, "--set-workload-user-id=true"}, extra...)
	o.CatalogOperator = c.Start(t, "catalog-operator", bins["catalog-operator"], catalogEnv, args...)
	return o
}

// olmv0UtilImage is the util image of release version, the OLM image itself upstream.
func olmv0UtilImage(version string) string { return "quay.io/operator-framework/olm:" + version }

// OLMv0Images returns the root filesystems of the images OLM v0 release version names in the pods it
// creates (see StartOLMv0's flags), made of the real programs: its util image (cmd/copy-content and
// util/cpb of that release, and the host's cp, which the pods run as `cp`) and its opm image (opm v1.73.0,
// hack/tools/opm).
func OLMv0Images(t testing.TB, c *Cluster, version string) map[string]func(t testing.TB) string {
	t.Helper()
	bins := map[string]string{}
	for _, name := range []string{"cpb", "copy-content"} {
		tool, _ := olmv0Tool(version, name)
		bin, err := Binary(t.Context(), c.Root, tool)
		if err != nil {
			skipOrFail(t, "no %s: %v", tool, err)
		}
		bins[name] = bin
	}
	opm := olmtest.BuildTools(t).OPM
	return map[string]func(t testing.TB) string{
		olmv0UtilImage(version): RootWith(map[string]string{"bin/cp": "/bin/cp", "bin/cpb": bins["cpb"], "bin/copy-content": bins["copy-content"]}),
		olmv0OPMImage:           RootWith(map[string]string{"bin/opm": opm}),
	}
}
