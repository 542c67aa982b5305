package main

import (
	"errors"
	"fmt"
	"github.com/opack/opack/internal/escape"
	"path/filepath"

	"github.com/opack/opack/internal/emit"
	"github.com/opack/opack/internal/project"
	"github.com/opack/opack/internal/project/config"
	"github.com/spf13/cobra"
)

func newEmitCmd() *cobra.Command {
	var (
		file, version, olm, catalogImage string
	)
	cmd := &cobra.Command{
		Use:   "emit",
		Short: "Write the OLM v0 and v1 deploy manifests of opack.yaml into deploy/",
		Long: `Write the manifests that point a cluster's OLM at the catalog: deploy/olmv0/ (CatalogSource,
OperatorGroup, Subscription) and deploy/olmv1/ (ClusterCatalog, ClusterExtension, and a ServiceAccount
with its RBAC only when configured), one object per file and a kustomization.yaml per folder.

Every object is validated against OLM's CRD schemas first; nothing is written when one is invalid.
For OLM v1, the bundle in bundle.dir is checked to be installable by operator-controller: an error
with --olm v1, warnings with --olm both.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var opts []project.EmitOption
			if olm != "" {
				t, err := emit.ParseTarget(olm)
				if err != nil {
					return withExit(exitUsage, err)
				}
				opts = append(opts, project.EmitTarget(t))
			}
			opts = append(opts, project.EmitVersion(version), project.EmitCatalogImage(catalogImage))
			res, err := project.EmitFile(cmd.Context(), file, opts...)
			if errors.Is(err, emit.ErrNotInstallable) {
				return withExit(exitFindings, err)
			}
			if err != nil {
				return err
			}
			if quietFlag(cmd) {
				return nil
			}
			for _, w := range res.Warnings {
				fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s\n", escape.Text(w))
			}
			for _, f := range res.Files {
				fmt.Fprintln(cmd.OutOrStdout(), filepath.Join(res.Dir, filepath.FromSlash(f)))
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&file, "file", "f", config.DefaultFile, "project file")
	fl.StringVar(&version, "version", "", "version being released (overrides opack.yaml); it names the catalog image when untagged")
	fl.StringVar(&olm, "olm", "", "OLM generations: v0, v1 or both (default: deploy.olm in opack.yaml)")
	fl.StringVar(&catalogImage, "catalog-image", "", "catalog image reference to point at, e.g. a pushed digest (default: from opack.yaml)")
	return cmd
}
