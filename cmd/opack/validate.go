package main

import (
	"github.com/spf13/cobra"
)

func init() { register(newValidateCmd) }

// validateSubcommands lists the constructors of the `opack validate` subcommands; each registers itself
// with registerValidate in its file's init.
var validateSubcommands []func() *cobra.Command

func registerValidate(f func() *cobra.Command) { validateSubcommands = append(validateSubcommands, f) }

func newValidateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "validate",
		Short: "Validate bundles, package manifests and CRD upgrades",
		Long: `Validate bundles as operator-sdk and the API server check them, and CRD upgrades as OLM does.

Exit codes: 0 no errors, 1 errors found, 2 could not run.`,
		Args: cobra.NoArgs,
	}
	for _, add := range validateSubcommands {
		cmd.AddCommand(add())
	}
	return cmd
}
