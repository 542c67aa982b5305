package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// newCatalogCmd returns `opack catalog` with its subcommands (assembled in root.go).
func newCatalogCmd(subcommands ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "catalog",
		Short: "Render, validate and graph file-based catalogs (FBC)",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(subcommands...)
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
