package main

import (
	"fmt"

	"github.com/opack/opack/internal/image"
	"github.com/spf13/cobra"
)

func newImageBundleCmd() *cobra.Command {
	f := &publishFlags{}
	cmd := &cobra.Command{
		Use:   "bundle DIR --tag REF",
		Short: "Build a reproducible bundle image from a bundle directory and push it",
		Long: `Build the image of a registry+v1 bundle directory (manifests/, metadata/, tests/scorecard/)
FROM scratch, without a Dockerfile or a daemon. The labels are the annotations of
metadata/annotations.yaml plus --label. The same directory gives the same digest; the creation
time is SOURCE_DATE_EPOCH or the Unix epoch. Prints REF@sha256:... on stdout.

--sign signs the pushed image with --key (a cosign key, its password in $COSIGN_PASSWORD, or a PEM
key) as cosign and containers/image verify it: the signature of its digest, claiming --tag, attached as
sha256-<hex>.sig (and as an OCI 1.1 referrer where the registry serves the API), read back and verified
before it is reported (see opack verify).

Credentials come from the docker config ($DOCKER_CONFIG) and credential helpers.`,
		Example: `  opack image bundle bundle --tag quay.io/example/memcached-operator-bundle:v0.0.1
  opack image bundle bundle --tag example/bundle:v0.0.1 --oci-layout out/oci
  opack image bundle bundle --tag quay.io/example/memcached-operator-bundle:v0.0.1 --sign --key cosign.key`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pub, opts, err := f.publisher(cmd.ErrOrStderr())
			if err != nil {
				return withExit(exitUsage, err)
			}
			signer, err := f.signer(f)
			if err != nil {
				return withExit(exitUsage, err)
			}
			ctx, cancel := withTimeout(cmd.Context(), f.timeout)
			defer cancel()
			ref, err := image.PublishBundle(ctx, args[0], pub, opts...)
			if err != nil {
				return registryHint(err)
			}
			if err := signPushed(ctx, cmd.ErrOrStderr(), signer, ref, f.tag, opts); err != nil {
				return err
			}
			_, err = fmt.Fprintln(cmd.OutOrStdout(), ref)
			return err
		},
	}
	f.addFlags(cmd)
	return cmd
}
