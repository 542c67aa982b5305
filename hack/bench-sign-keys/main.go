// Command bench-sign-keys writes the keys hack/bench-sign.sh signs with into a folder: cosign.key
// and cosign.pub (a cosign key pair, password $COSIGN_PASSWORD, as cosign generate-key-pair writes
// them), pem.key and pem.pub (an unencrypted PKCS #8 ECDSA P-256 key).
package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sigstore/sigstore/pkg/cryptoutils"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: bench-sign-keys DIR")
		os.Exit(2)
	}
	if err := write(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "bench-sign-keys:", err)
		os.Exit(1)
	}
}

func write(dir string) error {
	priv, pub, err := cryptoutils.GeneratePEMEncodedECDSAKeyPair(elliptic.P256(), cryptoutils.StaticPasswordFunc([]byte(os.Getenv("COSIGN_PASSWORD"))))
	if err != nil {
		return err
	}
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	pemPriv, err := cryptoutils.MarshalPrivateKeyToPEM(k)
	if err != nil {
		return err
	}
	pemPub, err := cryptoutils.MarshalPublicKeyToPEM(&k.PublicKey)
	if err != nil {
		return err
	}
	for name, data := range map[string][]byte{"cosign.key": priv, "cosign.pub": pub, "pem.key": pemPriv, "pem.pub": pemPub} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			return err
		}
	}
	return nil
}
