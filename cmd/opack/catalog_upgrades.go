package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/opack/opack/internal/catalog/upgrades"
)

type catalogUpgradesOptions struct {
	output  string
	request upgrades.Request
}

func newCatalogUpgradesCmd() *cobra.Command {
	var o catalogUpgradesOptions
	cmd := &cobra.Command{
		Use:   "upgrades DIR|IMAGE [--package P]",
		Short: "Show the upgrades OLM v0 and OLM v1 perform from each installed release, and stranded releases",
		Long: `Show, for each release of a package's channels (or the one given with --from), the releases
OLM v0 installs one InstallPlan at a time until it stops (operator-lifecycle-manager v0.46.0's
resolver), and the release OLM v1 resolves to with its default upgrade constraints
(operator-controller v1.11.0, the ClusterExtension pinned to the channel). Releases other than the
head from which OLM v0 or OLM v1 does not reach the channel head are named as stranded.
Without --package, every package of the catalog.
The rules, with their place in OLM's source, are in docs/upgrades.md.

--from takes a bundle name, a version, or NAME@VERSION for a release the catalog no longer holds.

Text output: "v0: a → b → c" is one InstallPlan per arrow; "v1: a → b → c" is b, the release
operator-controller resolves to, then what it resolves to after each upgrade. Paths are written as
versions when no two releases of the channel share one.

Exit codes: 0 written, 2 could not run.`,
		Example: `  opack catalog upgrades catalog/ --package my-operator
  opack catalog upgrades catalog/ --package my-operator --channel stable --from 1.2.0
  opack catalog upgrades quay.io/me/catalog:v1 --package my-operator -o mermaid > upgrades.mmd`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := requireOutputFormat(o.output, upgrades.Formats...); err != nil {
				return err
			}
			if o.request.Package == "" && (o.request.Channel != "" || o.request.From != "") {
				return withExit(exitUsage, errors.New("--channel and --from need --package"))
			}
			err := upgrades.Report(cmd.Context(), args[0], nil, progressOption(cmd.ErrOrStderr()), cmd.OutOrStdout(), o.output, o.request)
			return withExit(exitUsage, err)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.output, "output", "o", upgrades.FormatText, "output format: text, json or mermaid")
	f.StringVarP(&o.request.Package, "package", "p", "", "only this package (default: every package)")
	f.StringVarP(&o.request.Channel, "channel", "c", "", "only this channel (default: every channel)")
	f.StringVar(&o.request.From, "from", "", "only this installed release: bundle name, version or NAME@VERSION")
	return cmd
}
