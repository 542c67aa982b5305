package main

import (
	"fmt"
	"strings"

	"github.com/opack/opack/internal/packagemanifest"
	"github.com/spf13/cobra"
)

func newConvertCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "convert",
		Short: "Convert older operator layouts to bundles",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newConvertPackageManifestsCmd())
	return cmd
}

func newConvertPackageManifestsCmd() *cobra.Command {
	var outDir string
	cmd := &cobra.Command{
		Use:   "packagemanifests DIR",
		Short: "Write each version of a package-manifest folder as a bundle folder",
		Long: `Convert a package-manifest folder (<package>.package.yaml and one folder per version) into bundle folders:
OUT/<version>/manifests/ (the version's files, unchanged) and OUT/<version>/metadata/annotations.yaml (package,
channels, default channel). OUT is replaced as a whole. A package operator-registry would refuse to import is
not converted; its problems are printed.

Exit codes: 0 converted, 1 the package has errors, 2 could not run.`,
		Example: `  opack convert packagemanifests manifests/etcd --output-dir bundles/etcd`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if outDir == "" {
				return withExit(exitUsage, fmt.Errorf("--output-dir is required"))
			}
			converted, report, err := packagemanifest.Convert(cmd.Context(), args[0], outDir)
			if report != nil && len(report.Findings) > 0 {
				if werr := report.WriteText(cmd.ErrOrStderr()); werr != nil {
					return withExit(exitUsage, werr)
				}
			}
			if err != nil {
				return withExit(exitUsage, err)
			}
			if report != nil && !report.Passed() {
				return withExit(exitFindings, fmt.Errorf("not converted: %s", report.Summary()))
			}
			for _, c := range converted {
				if quietFlag(cmd) {
					break
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s\t%s\t%s\n", c.Dir, c.CSV, strings.Join(c.Channels, ","))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&outDir, "output-dir", "", "`folder` to write the bundle folders to (replaced as a whole)")
	return cmd
}
