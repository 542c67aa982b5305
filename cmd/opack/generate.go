package main

import "github.com/spf13/cobra"

// newGenerateCmd returns `opack generate` with its subcommands (assembled in root.go).
func newGenerateCmd(subcommands ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "generate",
		Short: "Generate a bundle or the base ClusterServiceVersion of a project",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(subcommands...)
	return cmd
}
