package crdserver

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// pki is a throw-away CA, the server's serving certificate (127.0.0.1) and a client certificate in
// group system:masters, written to dir for the server's flags.
type pki struct {
	caFile, certFile, keyFile     string
	clientCertFile, clientKeyFile string // the client certificate again, as files for kubectl
	client                        tls.Certificate
	roots                         *x509.CertPool
}

func newPKI(dir string) (*pki, error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generating the CA key: %w", err)
	}
	now := time.Now()
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "opack-test-ca"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("creating the CA certificate: %w", err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, fmt.Errorf("parsing the CA certificate: %w", err)
	}
	issue := func(serial int64, subject pkix.Name, usage x509.ExtKeyUsage, ips []net.IP) ([]byte, *ecdsa.PrivateKey, error) {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return nil, nil, fmt.Errorf("generating a key: %w", err)
		}
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: subject, NotBefore: now.Add(-time.Hour),
			NotAfter: now.Add(24 * time.Hour), KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage},
			IPAddresses: ips, DNSNames: []string{"localhost"}}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
		if err != nil {
			return nil, nil, fmt.Errorf("creating the certificate of %s: %w", subject.CommonName, err)
		}
		return der, key, nil
	}
	serverDER, serverKey, err := issue(2, pkix.Name{CommonName: "127.0.0.1"}, x509.ExtKeyUsageServerAuth, []net.IP{net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, err
	}
	clientDER, clientKey, err := issue(3, pkix.Name{CommonName: "opack-test", Organization: []string{"system:masters"}}, x509.ExtKeyUsageClientAuth, nil)
	if err != nil {
		return nil, err
	}
	p := &pki{caFile: filepath.Join(dir, "ca.crt"), certFile: filepath.Join(dir, "server.crt"), keyFile: filepath.Join(dir, "server.key"),
		clientCertFile: filepath.Join(dir, "client.crt"), clientKeyFile: filepath.Join(dir, "client.key"), roots: x509.NewCertPool()}
	p.roots.AddCert(ca)
	serverKeyDER, err := x509.MarshalECPrivateKey(serverKey)
	if err != nil {
		return nil, fmt.Errorf("encoding the server key: %w", err)
	}
	clientKeyDER, err := x509.MarshalECPrivateKey(clientKey)
	if err != nil {
		return nil, fmt.Errorf("encoding the client key: %w", err)
	}
	for _, f := range []struct {
		path, typ string
		der       []byte
	}{{p.caFile, "CERTIFICATE", caDER}, {p.certFile, "CERTIFICATE", serverDER}, {p.keyFile, "EC PRIVATE KEY", serverKeyDER},
		{p.clientCertFile, "CERTIFICATE", clientDER}, {p.clientKeyFile, "EC PRIVATE KEY", clientKeyDER}} {
		if err := os.WriteFile(f.path, pem.EncodeToMemory(&pem.Block{Type: f.typ, Bytes: f.der}), 0o600); err != nil {
			return nil, fmt.Errorf("writing %s: %w", f.path, err)
		}
	}
	p.client = tls.Certificate{Certificate: [][]byte{clientDER}, PrivateKey: clientKey}
	return p, nil
}
