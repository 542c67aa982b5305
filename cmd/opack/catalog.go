package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

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

// requireOutputFormat is the one error of the catalog and image commands for a bad -o value:
// `unknown output format "x": use one of a, b, c`.
func requireOutputFormat(got string, allowed ...string) error {
	if slices.Contains(allowed, got) {
		return nil
	}
	return withExit(exitUsage, fmt.Errorf("unknown output format %q: use one of %s", got, strings.Join(allowed, ", ")))
}
