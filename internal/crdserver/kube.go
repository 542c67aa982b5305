package crdserver

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// StartKube starts etcd (etcdBin) and a full kube-apiserver (kubeBin, see BuildKube) with their data,
// certificates and logs under dir, waits until the API server is ready, and writes a kubeconfig for
// kubectl (Server.Kubeconfig) whose user is in group system:masters. The server runs every default
// admission plugin (NamespaceLifecycle included: a namespaced object needs its Namespace first) and
// RBAC, but no controller manager: objects are stored and validated, nothing reconciles them.
// extra is added to kube-apiserver's flags. The caller must Close the server.
func StartKube(ctx context.Context, etcdBin, kubeBin, dir string, extra ...string) (*Server, error) {
	s, p, err := start(ctx, etcdBin, dir)
	if err != nil {
		return nil, err
	}
	if err := s.startKubeAPIServer(ctx, kubeBin, dir, p, extra); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Server) startKubeAPIServer(ctx context.Context, bin, dir string, p *pki, extra []string) error {
	saPub, saKey, err := writeServiceAccountKey(dir)
	if err != nil {
		return err
	}
	ports, err := freePorts(1)
	if err != nil {
		return err
	}
	proc, err := s.spawn("kube-apiserver", bin, append([]string{
		"--etcd-servers", s.etcdURL, "--etcd-prefix", "/opack-kube",
		"--bind-address", "127.0.0.1", "--advertise-address", "127.0.0.1", "--secure-port", ports[0],
		"--cert-dir", filepath.Join(dir, "certs"),
		"--tls-cert-file", p.certFile, "--tls-private-key-file", p.keyFile, "--client-ca-file", p.caFile,
		"--authorization-mode", "RBAC", "--service-cluster-ip-range", "10.96.0.0/24",
		"--service-account-issuer", "https://kubernetes.default.svc", "--api-audiences", "https://kubernetes.default.svc",
		"--service-account-key-file", saPub, "--service-account-signing-key-file", saKey,
		"--enable-priority-and-fairness=false"}, extra...)...)
	if err != nil {
		return err
	}
	s.URL = "https://127.0.0.1:" + ports[0]
	s.Kubeconfig = filepath.Join(dir, "kubeconfig")
	config := fmt.Sprintf(kubeconfig, s.URL, p.caFile, p.clientCertFile, p.clientKeyFile)
	if err := os.WriteFile(s.Kubeconfig, []byte(config), 0o600); err != nil {
		return fmt.Errorf("writing %s: %w", s.Kubeconfig, err)
	}
	return proc.waitFor(ctx, 180*time.Second, func() bool {
		code, _, err := s.Do(ctx, http.MethodGet, "/readyz", nil)
		return err == nil && code == http.StatusOK
	})
}

// writeServiceAccountKey writes the key pair kube-apiserver signs and checks service account tokens with.
func writeServiceAccountKey(dir string) (pub, key string, err error) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", "", fmt.Errorf("generating the service account key: %w", err)
	}
	keyDER, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		return "", "", fmt.Errorf("encoding the service account key: %w", err)
	}
	pubDER, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	if err != nil {
		return "", "", fmt.Errorf("encoding the service account public key: %w", err)
	}
	pub, key = filepath.Join(dir, "sa.pub"), filepath.Join(dir, "sa.key")
	for path, block := range map[string]*pem.Block{pub: {Type: "PUBLIC KEY", Bytes: pubDER}, key: {Type: "EC PRIVATE KEY", Bytes: keyDER}} {
		if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
			return "", "", fmt.Errorf("writing %s: %w", path, err)
		}
	}
	return pub, key, nil
}

const kubeconfig = `apiVersion: v1
kind: Config
clusters:
- cluster:
    server: %s
    certificate-authority: %s
  name: opack-test
contexts:
- context:
    cluster: opack-test
    user: opack-test
  name: opack-test
current-context: opack-test
users:
- name: opack-test
  user:
    client-certificate: %s
    client-key: %s
`
