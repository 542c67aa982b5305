package main

import "github.com/spf13/cobra"

func init() { register(newCatalogCmd) }

// catalogSubcommands lists the constructors of the `opack catalog` verbs; each verb's file
// registers itself with registerCatalog in init.
var catalogSubcommands []func() *cobra.Command

func registerCatalog(f func() *cobra.Command) { catalogSubcommands = append(catalogSubcommands, f) }

func newCatalogCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "catalog",
		Short: "Render, validate and graph file-based catalogs (FBC)",
		Args:  cobra.NoArgs,
	}
	for _, add := range catalogSubcommands {
		cmd.AddCommand(add())
	}
	return cmd
}
