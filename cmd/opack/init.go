package main

import (
	"fmt"
	"strings"

	"github.com/opack/opack/internal/emit"
	"github.com/opack/opack/internal/project"
	"github.com/spf13/cobra"
)

func newInitCmd() *cobra.Command {
	var (
		o   project.InitOptions
		olm string
	)
	cmd := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Write opack.yaml for an existing operator-sdk or kubebuilder project",
		Long: `Write opack.yaml for the operator-sdk or kubebuilder project in DIR (default: the current folder).

The package comes from PROJECT, the install namespace from config/default, channels from
bundle/metadata/annotations.yaml, and VERSION and IMAGE_TAG_BASE from the Makefile, when present;
flags take precedence. The written file is checked by loading it back.`,
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
				if err := project.CheckVersion(strings.TrimPrefix(o.Version, "v")); err != nil {
					return withExit(exitUsage, fmt.Errorf("--version: %w", err))
				}
			}
			res, err := project.Init(cmd.Context(), dir, o)
			if err != nil {
				return err
			}
			for _, f := range res.Files {
				fmt.Fprintf(cmd.OutOrStdout(), "wrote %s\n", f)
			}
			for _, n := range res.Notes {
				fmt.Fprintf(cmd.ErrOrStderr(), "note: %s\n", n)
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.Version, "version", "", "version of the next release (default: VERSION in the Makefile, else git tags)")
	fl.StringVar(&o.Package, "package", "", "package name (default: projectName in PROJECT)")
	fl.StringSliceVar(&o.Channels, "channels", nil, "channels (default: the bundle's, else alpha)")
	fl.StringVar(&o.DefaultChannel, "default-channel", "", "default channel (default: the first channel)")
	fl.StringVar(&o.BundleImage, "bundle-image", "", "bundle image repository, tagged v<version> (default: IMAGE_TAG_BASE-bundle)")
	fl.StringVar(&o.CatalogImage, "catalog-image", "", "catalog image reference (default: IMAGE_TAG_BASE-catalog:latest)")
	fl.StringVar(&olm, "olm", "both", "OLM generations to emit deploy manifests for: v0, v1 or both")
	fl.BoolVar(&o.Makefile, "makefile", false, "also write Makefile.opack, the drop-in bundle and catalog make targets")
	fl.BoolVar(&o.Force, "force", false, "overwrite an existing opack.yaml (and Makefile.opack)")
	return cmd
}
