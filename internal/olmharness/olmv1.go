package olmharness

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// OLM v1 as operator-controller's install manifests deploy it: both controllers in namespace
// olmv1-system with their service accounts.
const (
	OLMv1Module    = "github.com/operator-framework/operator-controller"
	OLMv1Namespace = "olmv1-system"
)

// OLMv1Releases are the OLM v1 releases the harness builds: the newest (hack/tools/operator-controller)
// and the oldest the module proxy serves (hack/tools/operator-controller-v1.2.0; v1.0.0 and v1.1.0 are
// refused), which also builds from the proxy alone (v1.10.0 and later need pkg.package-operator.run/boxcutter,
// which hack/tools/operator-controller/goproxy holds for proxies that refuse its host).
var OLMv1Releases = []string{"v1.11.0", "v1.2.0"}

// olmv1Tool names a program of OLM v1 release version for hack/build-apiserver.sh, and the tools module
// pinning it.
func olmv1Tool(version, name string) (tool, module string) {
	if version == OLMv1Releases[0] {
		return name, "operator-controller"
	}
	return name + "@" + version, "operator-controller-" + version
}

// olmv1CRDs returns the folders of OLM v1's standard CRDs in the module at mod: helm/olmv1/base/*/crd/standard
// since the Helm chart (v1.11.0), config/base/*/crd/bases before (v1.2.0).
func olmv1CRDs(mod string) []string {
	var dirs []string
	for _, name := range []string{"catalogd", "operator-controller"} {
		dir := filepath.Join(mod, "helm", "olmv1", "base", name, "crd", "standard")
		if _, err := os.Stat(dir); err != nil {
			dir = filepath.Join(mod, "config", "base", name, "crd", "bases")
		}
		dirs = append(dirs, dir)
	}
	return dirs
}

// OLMv1 is a running catalogd and operator-controller.
type OLMv1 struct {
	Catalogd, OperatorController *Process
	// CatalogsURL is catalogd's catalog server, https://127.0.0.1:PORT.
	CatalogsURL string
}

// StartOLMv1 installs the standard CRDs of OLM v1 release version (of the module its tools module pins) and
// its namespace on c, and starts catalogd and operator-controller of that release.
// registriesConf is the containers-registries.conf(5) both pull images with (CONTAINERS_REGISTRIES_CONF).
//
// Deviations from a cluster: each controller runs in a mount namespace of its own where a tmpfs on /run
// holds /run/secrets/kubernetes.io/serviceaccount (token from the TokenRequest API for its service
// account, namespace), which both read at start; their API client is the cluster's admin kubeconfig, not
// that token. catalogd serves its catalogs on 127.0.0.1 with a certificate of the harness's CA (IP SAN
// 127.0.0.1), given to operator-controller with --catalogd-cas-dir; every listener is on 127.0.0.1.
func StartOLMv1(t testing.TB, c *Cluster, version, registriesConf string) *OLMv1 {
	t.Helper()
	bins := map[string]string{}
	for _, name := range []string{"catalogd", "operator-controller"} {
		tool, _ := olmv1Tool(version, name)
		bin, err := Binary(t.Context(), c.Root, tool)
		if err != nil {
			skipOrFail(t, "no %s %s: %v", tool, version, err)
		}
		bins[name] = bin
	}
	catalogd, oc := bins["catalogd"], bins["operator-controller"]
	_, tools := olmv1Tool(version, "")
	mod, err := moduleDir(t.Context(), c.Root, tools, OLMv1Module)
	if err != nil {
		t.Fatal(err)
	}
	c.Kubectl(t, "create", "namespace", OLMv1Namespace)
	for _, dir := range olmv1CRDs(mod) {
		c.Kubectl(t, "create", "-f", dir)
	}
	c.Kubectl(t, "wait", "--for", "condition=Established", "crd", "--all", "--timeout", "120s")
	dir := filepath.Join(c.Dir, "olmv1")
	certs, err := writeServingCert(filepath.Join(dir, "certs"))
	if err != nil {
		t.Fatal(err)
	}
	ports, err := freeLoopbackPorts(6)
	if err != nil {
		t.Fatal(err)
	}
	o := &OLMv1{CatalogsURL: "https://127.0.0.1:" + ports[0]}
	// go.podman.io/image v5.40 (operator-controller v1.11.0) reads CONTAINERS_REGISTRIES_CONF; containers/image v5.33
	// (v1.2.0) reads $HOME/.config/containers/registries.conf before the system's file. Both point at
	// registriesConf, as a node's /etc/containers/registries.conf would.
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(filepath.Join(home, ".config", "containers"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(registriesConf, filepath.Join(home, ".config", "containers", "registries.conf")); err != nil {
		t.Fatal(err)
	}
	env := []string{"KUBECONFIG=" + c.Kubeconfig, "CONTAINERS_REGISTRIES_CONF=" + registriesConf, "HOME=" + home}
	o.Catalogd = c.startWithServiceAccount(t, "catalogd", catalogd, "catalogd-controller-manager", env,
		"--system-namespace", OLMv1Namespace,
		"--catalogs-server-addr", "127.0.0.1:"+ports[0], "--external-address", "127.0.0.1:"+ports[0],
		"--tls-cert", certs.cert, "--tls-key", certs.key, "--metrics-bind-address", "127.0.0.1:"+ports[1],
		"--health-probe-bind-address", "127.0.0.1:"+ports[2], "--webhook-server-port", ports[3],
		"--cache-dir", filepath.Join(dir, "catalogd-cache"))
	if err := waitListening(t, o.Catalogd, "127.0.0.1:"+ports[3]); err != nil {
		t.Fatal(err)
	}
	// catalogd's own mutating webhook (it labels each ClusterCatalog with its name, which catalog
	// selectors match), registered as OLM v1's manifests register it but by URL: there is no Service.
	ca, err := os.ReadFile(filepath.Join(certs.caDir, "ca.crt"))
	if err != nil {
		t.Fatal(err)
	}
	applyManifest(t, c, fmt.Sprintf(catalogdWebhook, ports[3], base64.StdEncoding.EncodeToString(ca)))
	o.OperatorController = c.startWithServiceAccount(t, "operator-controller", oc, "operator-controller-controller-manager", env,
		"--system-namespace", OLMv1Namespace, "--catalogd-cas-dir", certs.caDir,
		"--health-probe-bind-address", "127.0.0.1:"+ports[4],
		"--cache-path", filepath.Join(dir, "operator-controller-cache"))
	return o
}

// startWithServiceAccount starts bin as Start does, in a mount namespace of its own where
// /run/secrets/kubernetes.io/serviceaccount holds a token of namespace OLMv1Namespace's service account
// sa (made if missing) and the namespace's name.
func (c *Cluster) startWithServiceAccount(t testing.TB, name, bin, sa string, env []string, args ...string) *Process {
	t.Helper()
	c.Kubectl(t, "create", "serviceaccount", sa, "-n", OLMv1Namespace)
	code, body, err := c.Do(t.Context(), http.MethodPost, fmt.Sprintf("/api/v1/namespaces/%s/serviceaccounts/%s/token", OLMv1Namespace, sa),
		[]byte(`{"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{"expirationSeconds":86400}}`))
	if err != nil || code != http.StatusCreated {
		t.Fatalf("requesting a token for %s/%s: %v %d %s", OLMv1Namespace, sa, err, code, body)
	}
	var tr struct {
		Status struct{ Token string } `json:"status"`
	}
	if err := json.Unmarshal(body, &tr); err != nil {
		t.Fatalf("decoding the token of %s/%s: %v", OLMv1Namespace, sa, err)
	}
	tokenFile := filepath.Join(c.Dir, name+".token")
	if err := os.WriteFile(tokenFile, []byte(tr.Status.Token), 0o600); err != nil {
		t.Fatal(err)
	}
	const script = `set -e
mount -t tmpfs -o mode=0755 tmpfs /run
d=/run/secrets/kubernetes.io/serviceaccount
mkdir -p $d
cp "$0" $d/token
printf %s "$1" > $d/namespace
shift
exec "$@"`
	return c.Start(t, name, "unshare", env, append([]string{"--mount", "--propagation", "private", "/bin/sh", "-c", script,
		tokenFile, OLMv1Namespace, bin}, args...)...)
}

// catalogdWebhook is catalogd's MutatingWebhookConfiguration of manifests/standard.yaml (v1.11.0; v1.2.0's
// config/base/catalogd/manager/webhook has the same webhook without the match condition) with a URL for its
// service.
const catalogdWebhook = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: catalogd-mutating-webhook-configuration
webhooks:
- admissionReviewVersions: [v1]
  clientConfig:
    url: https://127.0.0.1:%s/mutate-olm-operatorframework-io-v1-clustercatalog
    caBundle: %s
  failurePolicy: Fail
  name: inject-metadata-name.olm.operatorframework.io
  rules:
  - apiGroups: [olm.operatorframework.io]
    apiVersions: [v1]
    operations: [CREATE, UPDATE]
    resources: [clustercatalogs]
  sideEffects: None
  timeoutSeconds: 10
  matchConditions:
  - name: MissingOrIncorrectMetadataNameLabel
    expression: "'name' in object.metadata && (!has(object.metadata.labels) || !('olm.operatorframework.io/metadata.name' in object.metadata.labels) || object.metadata.labels['olm.operatorframework.io/metadata.name'] != object.metadata.name)"
`

// waitListening waits until addr accepts TCP connections, or p exits.
func waitListening(t testing.TB, p *Process, addr string) error {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			conn.Close()
			return nil
		}
		if !p.Running() {
			return fmt.Errorf("%s exited before listening on %s:\n%s", p.Name, addr, p.Tail(4096))
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("%s not listening on %s after a minute:\n%s", p.Name, addr, p.Tail(4096))
}

// applyManifest applies a manifest given as text.
func applyManifest(t testing.TB, c *Cluster, manifest string) {
	t.Helper()
	cmd := c.KubectlCmd("apply", "-f", "-")
	cmd.Stdin = strings.NewReader(manifest)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("kubectl apply: %v\n%s", err, out)
	}
}

// servingCert is a CA and a serving certificate for 127.0.0.1 signed by it.
type servingCert struct{ caDir, cert, key string }

func writeServingCert(dir string) (servingCert, error) {
	s := servingCert{caDir: filepath.Join(dir, "ca"), cert: filepath.Join(dir, "tls.crt"), key: filepath.Join(dir, "tls.key")}
	if err := os.MkdirAll(s.caDir, 0o755); err != nil {
		return s, err
	}
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return s, fmt.Errorf("generating the catalogd CA key: %w", err)
	}
	now := time.Now()
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "olmharness-ca"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return s, fmt.Errorf("creating the catalogd CA: %w", err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		return s, fmt.Errorf("parsing the catalogd CA: %w", err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return s, fmt.Errorf("generating the catalogd key: %w", err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour), KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		return s, fmt.Errorf("creating the catalogd certificate: %w", err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return s, fmt.Errorf("encoding the catalogd key: %w", err)
	}
	for path, b := range map[string]*pem.Block{filepath.Join(s.caDir, "ca.crt"): {Type: "CERTIFICATE", Bytes: caDER},
		s.cert: {Type: "CERTIFICATE", Bytes: der}, s.key: {Type: "EC PRIVATE KEY", Bytes: keyDER}} {
		if err := os.WriteFile(path, pem.EncodeToMemory(b), 0o600); err != nil {
			return s, fmt.Errorf("writing %s: %w", path, err)
		}
	}
	return s, nil
}

// freeLoopbackPorts returns n distinct loopback ports that were free a moment ago.
func freeLoopbackPorts(n int) ([]string, error) {
	var out []string
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("finding a free loopback port: %w", err)
		}
		defer l.Close()
		out = append(out, fmt.Sprint(l.Addr().(*net.TCPAddr).Port))
	}
	return out, nil
}
