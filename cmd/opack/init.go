package main

import (
	"fmt"
	"github.com/opack/opack/internal/escape"
	"strings"

	"github.com/opack/opack/internal/adopt"
	"github.com/opack/opack/internal/emit"
	"github.com/opack/opack/internal/project/config"
	"github.com/spf13/cobra"
)

func newInitCmd() *cobra.Command {
	var (
		o     adopt.InitOptions
		olm   string
		quiet bool
	)
	cmd := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Write opack.yaml for an existing operator-sdk or kubebuilder project",
		Long: `Write opack.yaml for the operator-sdk or kubebuilder project in DIR (default: the current folder).

The Makefile is read as make and the shell would run it, without running anything (make's ?=, :=, =,
+=, $(VAR), ifeq/ifdef, include, $(origin), target-specific variables, prerequisites; each recipe line
split and unquoted as the shell does): the bundle target's operator-sdk generate bundle (--package,
--version, --channels, --default-channel, --output-dir, --extra-service-accounts), the kustomize build
piped into it, its generate kustomize manifests step, its kustomize edit set image lines (as images
overrides), and BUNDLE_IMG, CATALOG_IMG, IMAGE_TAG_BASE. A Makefile that runs its bundle target once per
profile gets one bundle per profile (bundles). $(shell cat FILE) is read as make reads it (FILE inside the
project). A value make would only know by running something (any other $(shell ...), the environment)
is not guessed: a note names it with its line; one that decides the
package, the kustomize folder or the bundle folder stops init, with the flag that gives it. Commands of
the recipe opack.yaml does not carry (a sed over the bundle, a kustomize edit other than set image) and
the committed files the first build will want to prune are notes too. The package falls back to
PROJECT's projectName, the install namespace comes from config/default. A repository without PROJECT is
read from the Makefile alone (operator-sdk generate bundle needs none). Image names without a registry
are not guessed: --bundle-image and --catalog-image give them. The OLM deploy manifests go to deploy/,
or to olm-deploy/ when deploy/ holds the kustomize tree or files opack did not write.

Catalogs already in the repository are kept: every file-based catalog of the package (any folder
of olm.package / olm.channel / olm.bundle files) becomes a catalog in mode fbc, to which opack
build adds each release without changing anything else (a one-file-per-bundle layout keeps its
naming); a basic or semver catalog template becomes a template catalog (rendered into the file
beside it when the repository does so, as one catalog per OpenShift release). The version defaults to
the newest release found in them when the Makefile has none.

Flags take precedence. The written file is checked by loading it back.`,
		Example: `  opack init --version 0.0.1 --bundle-image quay.io/me/op-bundle --catalog-image quay.io/me/op-catalog:latest`,
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			t, err := emit.ParseTarget(olm)
			if err != nil {
				return withExit(exitUsage, err)
			}
			o.OLM = t
			if o.Version != "" {
				if err := config.CheckVersion(strings.TrimPrefix(o.Version, "v")); err != nil {
					return withExit(exitUsage, fmt.Errorf("--version: %w", err))
				}
			}
			res, err := adopt.Init(cmd.Context(), dir, o)
			if err != nil {
				return err
			}
			if quiet {
				return nil
			}
			for _, f := range res.Files {
				fmt.Fprintf(cmd.OutOrStdout(), "wrote %s\n", f)
			}
			for _, n := range res.Notes {
				fmt.Fprintf(cmd.ErrOrStderr(), "note: %s\n", escape.Text(n))
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.Version, "version", "", "version of the next release (default: VERSION in the Makefile, else git tags)")
	fl.StringVar(&o.Package, "package", "", "package name (default: make bundle's --package, else projectName in PROJECT)")
	fl.StringVar(&o.KustomizeDir, "kustomize-dir", "", "kustomize folder the bundle is built from (default: the one make bundle builds)")
	fl.StringVar(&o.BundleDir, "bundle-dir", "", "bundle folder (default: make bundle's --output-dir, else bundle)")
	fl.StringSliceVar(&o.Channels, "channels", nil, "channels (default: the bundle's, else alpha)")
	fl.StringVar(&o.DefaultChannel, "default-channel", "", "default channel (default: the first channel)")
	fl.StringVar(&o.BundleImage, "bundle-image", "", "bundle image repository, tagged v<version> (default: IMAGE_TAG_BASE-bundle)")
	fl.StringVar(&o.CatalogImage, "catalog-image", "", "catalog image reference (default: IMAGE_TAG_BASE-catalog:latest)")
	fl.StringVar(&olm, "olm", "both", "OLM generations to emit deploy manifests for: v0, v1 or both")
	fl.BoolVar(&o.Makefile, "makefile", false, "also write Makefile.opack, the drop-in bundle and catalog make targets")
	fl.BoolVar(&o.Force, "force", false, "overwrite an existing opack.yaml (and Makefile.opack)")
	fl.BoolVarP(&quiet, "quiet", "q", false, "print only errors (not the files written, nor the notes on what was found and what could not be read)")
	return cmd
}
