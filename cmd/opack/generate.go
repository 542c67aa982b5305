package main

import "github.com/spf13/cobra"

func init() { register(newGenerateCmd) }

// generateSubcommands lists the constructors of the `opack generate` subcommands.
var generateSubcommands []func() *cobra.Command

func registerGenerate(f func() *cobra.Command) { generateSubcommands = append(generateSubcommands, f) }

func newGenerateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "generate",
		Short: "Generate a bundle or the base ClusterServiceVersion of a project",
		Args:  cobra.NoArgs,
	}
	for _, add := range generateSubcommands {
		cmd.AddCommand(add())
	}
	return cmd
}
