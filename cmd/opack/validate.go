package main

import (
	"github.com/spf13/cobra"
)

// newValidateCmd returns `opack validate` with its subcommands (assembled in root.go).
func newValidateCmd(subcommands ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "validate",
		Short: "Validate bundles, package manifests and CRD upgrades",
		Long: `Validate bundles as operator-sdk and the API server check them, and CRD upgrades as OLM does.

Exit codes: 0 no errors, 1 errors found, 2 could not run.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(subcommands...)
	return cmd
}
