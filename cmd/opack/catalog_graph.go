package main

import (
	"github.com/spf13/cobra"

	"github.com/opack/opack/internal/catalog/check"
	"github.com/opack/opack/internal/catalog/graph"
)

type catalogGraphOptions struct {
	output  string
	graph   graph.GraphOptions
	crds    catalogCRDFlags
	noCheck bool
}

func newCatalogGraphCmd() *cobra.Command {
	var o catalogGraphOptions
	cmd := &cobra.Command{
		Use:   "graph DIR|IMAGE",
		Short: "Draw the upgrade graph of a catalog (mermaid or dot), unsafe edges in red",
		Long: `Draw the upgrade graph of a file-based catalog. The mermaid output is opm alpha render-graph's;
edges whose CRD upgrade is unsafe are drawn in red and labelled with the reason.

Exit codes: 0 written, 2 could not run.`,
		Example: `  opack catalog graph catalog/ > graph.mmd
  opack catalog graph catalog/ --package my-operator -o dot | dot -Tsvg > graph.svg`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := requireOutputFormat(o.output, check.GraphMermaid, check.GraphDot); err != nil {
				return err
			}
			src, err := o.crds.source()
			if err != nil {
				return withExit(exitUsage, err)
			}
			if o.noCheck {
				o.graph.Unsafe = map[graph.EdgeKey]string{}
			}
			err = check.GraphRef(cmd.Context(), args[0], nil, progressOption(cmd.ErrOrStderr()), cmd.OutOrStdout(), o.output, o.graph, src)
			return withExit(exitUsage, err)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.output, "output", "o", check.GraphMermaid, "output format: mermaid or dot")
	f.StringVarP(&o.graph.Package, "package", "p", "", "draw only this package")
	f.StringVar(&o.graph.MinEdge, "minimum-edge", "", "draw only edges from this bundle's version up (mermaid)")
	f.BoolVar(&o.graph.DrawV0Semantics, "draw-v0-semantics", false, "mark bundles and links OLM v0 skips (mermaid)")
	f.BoolVar(&o.noCheck, "no-crd-check", false, "do not check edges for CRD safety (plain opm output)")
	o.crds.add(cmd)
	return cmd
}
