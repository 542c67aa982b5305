package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/opack/opack/internal/catalog/check"
	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/image"
	"github.com/spf13/cobra"
)

func newImageCatalogCmd() *cobra.Command {
	f := &publishFlags{}
	var base string
	var platforms []string
	var noValidate, noServeCache bool
	cmd := &cobra.Command{
		Use:   "catalog FBCDIR --tag REF",
		Short: "Build a file-based catalog image and push it",
		Long: `Build the image of a file-based catalog: the FBC under /configs, the label
operators.operatorframework.io.index.configs.v1=/configs, and opm's serve cache of the FBC under
/tmp/cache, built in-process with operator-registry v1.73.0's cache code as opm serve --cache-only
builds it (JSON format, reproducible: the same catalog gives the same digest).

--base scratch (default) gives a data-only image. OLM v1 (catalogd) unpacks it. OLM v0 serves it
through a CatalogSource with spec.grpcPodConfig.extractContent {catalogDir: /configs, cacheDir:
/tmp/cache}: OLM v0.26.0 or later (the first with extractContent); OLM copies both folders out and its
own opm starts from the cache with its integrity checked.
--base REF or oci:DIR[:TAG] (an opm image such as quay.io/operator-framework/opm:v1.73.0) adds
ENTRYPOINT ["/bin/opm"] and CMD ["serve", "/configs", "--cache-dir=/tmp/cache"], opm's standard
command: the image serves itself from its own cache, integrity enforced, writing nothing; any OLM v0
(CatalogSource without extractContent) and OLM v1. A multi-arch base gives a multi-arch catalog.
--no-serve-cache leaves the cache out (a smaller image, a slower start): a scratch image then needs
extractContent without cacheDir, which OLM v0 serves since v0.35.0; an opm base gets CMD ["serve",
"/configs"] and builds the cache in /tmp at every start (no read-only root filesystem).
The catalog is first checked as opm validate does (opm serve refuses an invalid catalog when the
pod starts): errors are printed and nothing is built (exit 1) unless --no-validate.
--sign signs the pushed image as opack image bundle --sign does.
Prints REF@sha256:... on stdout.`,
		Example: `  opack image catalog catalog --tag quay.io/example/catalog:latest
  opack image catalog catalog --tag quay.io/example/catalog:latest --base quay.io/operator-framework/opm:v1.73.0
  opack image catalog catalog --oci-layout out/oci --platform linux/amd64,linux/arm64`,
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
			ps, err := parsePlatforms(platforms)
			if err != nil {
				return withExit(exitUsage, err)
			}
			opts = append(opts, image.WithBase(base), image.WithPlatforms(ps...), image.WithServeCache(!noServeCache))
			ctx, cancel := withTimeout(cmd.Context(), f.timeout)
			defer cancel()
			if !noValidate {
				if err := requireValidCatalog(ctx, cmd.ErrOrStderr(), args[0]); err != nil {
					return err
				}
			}
			ref, err := image.PublishCatalog(ctx, args[0], pub, opts...)
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
	cmd.Flags().StringVar(&base, "base", "scratch", "base image: scratch, an opm image reference, or oci:DIR[:TAG]")
	cmd.Flags().BoolVar(&noValidate, "no-validate", false, "pack the catalog without checking it as opm validate does")
	cmd.Flags().BoolVar(&noServeCache, "no-serve-cache", false, "leave opm's serve cache out of the image (scratch: OLM v0 >= v0.35.0 only)")
	cmd.Flags().StringSliceVar(&platforms, "platform", nil, "platforms to build (scratch) or keep from a multi-arch base, e.g. linux/amd64,linux/arm64")
	return cmd
}

// requireValidCatalog runs opm's checks on the catalog folder and prints its errors on w.
func requireValidCatalog(ctx context.Context, w io.Writer, dir string) error {
	report, err := check.ValidateDir(ctx, dir, nil, check.WithChecks(check.CheckOPM))
	if err != nil {
		return withExit(exitUsage, err)
	}
	if report.Passed() {
		return nil
	}
	if err := report.Write(w, finding.FormatText); err != nil {
		return withExit(exitUsage, err)
	}
	return withExit(exitFindings, fmt.Errorf("%s is not a valid catalog (%s): fix it, or pass --no-validate to pack it anyway", dir, report.Summary()))
}

func parsePlatforms(specs []string) ([]v1.Platform, error) {
	var out []v1.Platform
	for _, s := range specs {
		p, err := v1.ParsePlatform(strings.TrimSpace(s))
		if err != nil {
			return nil, fmt.Errorf("--platform %q: %w", s, err)
		}
		out = append(out, *p)
	}
	return out, nil
}
