// Command imagecopy is `skopeo copy` reduced to what the signing tests need, on go.podman.io/image/v5
// (containers/image, the library CRI-O, podman and skopeo pull and verify with): copy SRC to DST
// (docker://REF or dir:PATH) under the signature policy of --policy and the registries.d of
// --registries.d, as a node enforcing an image policy pulls; --sign-by-sigstore-private-key signs
// the copy as skopeo does. It exists because Debian's skopeo 1.9.3 is built with sigstore disabled
// and skopeo is not served by the Go module proxy. Tests only.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"go.podman.io/image/v5/copy"
	"go.podman.io/image/v5/directory"
	"go.podman.io/image/v5/docker"
	"go.podman.io/image/v5/signature"
	"go.podman.io/image/v5/signature/signer"
	"go.podman.io/image/v5/signature/sigstore"
	"go.podman.io/image/v5/types"
)

func main() {
	policyPath := flag.String("policy", "", "signature policy file (containers-policy.json(5))")
	registriesD := flag.String("registries.d", "", "folder of registries.d files (use-sigstore-attachments)")
	srcTLS := flag.Bool("src-tls-verify", true, "require HTTPS and verify certificates when reading SRC")
	destTLS := flag.Bool("dest-tls-verify", true, "require HTTPS and verify certificates when writing DST")
	signKey := flag.String("sign-by-sigstore-private-key", "", "sign the copy with this cosign private key")
	passFile := flag.String("sign-passphrase-file", "", "file holding the passphrase of the signing key")
	flag.Parse()
	if flag.NArg() != 2 || *policyPath == "" {
		fmt.Fprintln(os.Stderr, "usage: imagecopy --policy FILE [--registries.d DIR] [--sign-by-sigstore-private-key KEY --sign-passphrase-file FILE] SRC DST")
		os.Exit(2)
	}
	if err := run(*policyPath, *registriesD, *srcTLS, *destTLS, *signKey, *passFile, flag.Arg(0), flag.Arg(1)); err != nil {
		fmt.Fprintln(os.Stderr, "imagecopy:", err)
		os.Exit(1)
	}
}

func run(policyPath, registriesD string, srcTLS, destTLS bool, signKey, passFile, src, dst string) error {
	policy, err := signature.NewPolicyFromFile(policyPath)
	if err != nil {
		return err
	}
	pc, err := signature.NewPolicyContext(policy)
	if err != nil {
		return err
	}
	defer pc.Destroy()
	srcRef, err := parse(src)
	if err != nil {
		return err
	}
	dstRef, err := parse(dst)
	if err != nil {
		return err
	}
	opts := &copy.Options{
		SourceCtx:      sysContext(registriesD, srcTLS),
		DestinationCtx: sysContext(registriesD, destTLS),
		ReportWriter:   os.Stderr,
	}
	if signKey != "" {
		pass, err := os.ReadFile(passFile)
		if err != nil {
			return err
		}
		s, err := sigstore.NewSigner(sigstore.WithPrivateKeyFile(signKey, []byte(strings.TrimRight(string(pass), "\n"))))
		if err != nil {
			return err
		}
		defer s.Close()
		opts.Signers = []*signer.Signer{s}
	}
	_, err = copy.Image(context.Background(), pc, dstRef, srcRef, opts)
	return err
}

func sysContext(registriesD string, tlsVerify bool) *types.SystemContext {
	return &types.SystemContext{
		RegistriesDirPath:           registriesD,
		DockerInsecureSkipTLSVerify: types.NewOptionalBool(!tlsVerify),
		DockerAuthConfig:            &types.DockerAuthConfig{},
	}
}

func parse(s string) (types.ImageReference, error) {
	switch {
	case strings.HasPrefix(s, "docker://"):
		return docker.ParseReference(strings.TrimPrefix(s, "docker:"))
	case strings.HasPrefix(s, "dir:"):
		return directory.NewReference(strings.TrimPrefix(s, "dir:"))
	}
	return nil, fmt.Errorf("%q: give docker://REF or dir:PATH", s)
}
