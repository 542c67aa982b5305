package main

import (
	"crypto"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/opack/opack/internal/image"
	"github.com/opack/opack/internal/sign"
)

type verifyOptions struct {
	registryFlags
	keys         []string
	policy       string
	attestations []string
	output       string
}

func newVerifyCmd() *cobra.Command {
	o := &verifyOptions{}
	cmd := &cobra.Command{
		Use:   "verify IMAGE...",
		Short: "Verify the signatures and attestations of images as a node enforcing an image policy would",
		Long: `Verify that each image is signed as containers/image (CRI-O, podman, skopeo) checks it with a
sigstoreSigned policy and use-sigstore-attachments: a signature attached to the manifest the reference
resolves to (the sha256-<hex>.sig tag of its repository, or an OCI 1.1 referrer), signed by a trusted
key, for that digest, claiming a reference the policy's signedIdentity accepts (by default: the same
repository when pulled by digest, the same tag when pulled by tag). Signatures written by opack, cosign
and skopeo --sign-by-sigstore-private-key are all read.

The trusted keys come from --key (PEM public keys, as cosign.pub; every image must be signed by one of
them) or --policy (a containers policy.json: its docker scopes and default apply as on a node; keyless
and GPG requirements are refused). Attestations (cosign attest's format) signed by the same keys are
listed; --attestation TYPE requires one of that type (slsaprovenance1, spdxjson, ... or a URI).

Exit codes: 0 every image verified, 1 an image is not, 2 could not run.`,
		Example: `  opack verify --key cosign.pub quay.io/example/op-bundle@sha256:...
  opack verify --policy /etc/containers/policy.json quay.io/example/op-catalog:v0.0.1 -o json
  opack verify --key env://COSIGN_PUBLIC_KEY --attestation slsaprovenance1 --attestation spdxjson IMAGE`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			policy, err := o.loadPolicy()
			if err != nil {
				return withExit(exitUsage, err)
			}
			var require []string
			for _, a := range o.attestations {
				t, err := sign.PredicateType(a)
				if err != nil {
					return withExit(exitUsage, fmt.Errorf("--attestation: %w", err))
				}
				require = append(require, t)
			}
			ctx, cancel := withTimeout(cmd.Context(), o.timeout)
			defer cancel()
			results, err := sign.VerifyImages(ctx, image.NewPuller(o.options(cmd.ErrOrStderr())...), args, policy, require)
			if err != nil {
				return withExit(exitUsage, registryHint(err))
			}
			if err := sign.WriteResults(cmd.OutOrStdout(), results, o.output); err != nil {
				return withExit(exitUsage, err)
			}
			for _, r := range results {
				if !r.Verified {
					return withExit(exitFindings, errSilent)
				}
			}
			return nil
		},
	}
	o.addFlags(cmd)
	fl := cmd.Flags()
	fl.StringArrayVar(&o.keys, "key", nil, "trusted public key (PEM file or env://VAR), repeatable: every image must be signed by one of them")
	fl.StringVar(&o.policy, "policy", "", "containers policy.json whose docker scopes decide what each image needs (file or env://VAR)")
	fl.StringArrayVar(&o.attestations, "attestation", nil, "require a verified attestation of this predicate type (slsaprovenance1, spdxjson, cyclonedx, ... or a URI), repeatable")
	fl.StringVarP(&o.output, "output", "o", "text", "output format: text, json")
	cmd.MarkFlagsMutuallyExclusive("key", "policy")
	return cmd
}

func (o *verifyOptions) loadPolicy() (*sign.Policy, error) {
	if o.output != "text" && o.output != "json" {
		return nil, fmt.Errorf("--output %q: use text or json", o.output)
	}
	if o.policy != "" {
		return sign.LoadPolicy(o.policy)
	}
	if len(o.keys) == 0 {
		return nil, errors.New("give the trusted keys: --key cosign.pub (repeatable) or --policy policy.json")
	}
	var pubs []crypto.PublicKey
	for _, k := range o.keys {
		pub, err := sign.LoadPublicKey(k)
		if err != nil {
			return nil, err
		}
		pubs = append(pubs, pub)
	}
	return sign.KeyPolicy("--key", pubs...)
}
