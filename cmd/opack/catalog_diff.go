package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/opack/opack/internal/catalog/diff"
)

type catalogDiffOptions struct {
	output string
	crds   catalogCRDFlags
}

func newCatalogDiffCmd() *cobra.Command {
	var o catalogDiffOptions
	cmd := &cobra.Command{
		Use:   "diff BASE HEAD",
		Short: "Compare two catalogs for pull-request review: what changed per package and what it does to installed releases",
		Long: `Compare two file-based catalogs, BASE and HEAD: each a folder, a catalog image, or git:REV:PATH
read from the git repository of the current folder without checking it out (PATH as in
"git show REV:PATH": from the repository's top, or from the current folder when it starts with ./).
A catalog kept as one file, beside other catalogs in its folder, is named by its file (a path or
git:REV:FILE).

Files identical on both sides are only hashed; a package is decoded only when one of its files
changed. For each changed package: bundles and channels added and removed, channel entries whose
replaces, skips or skipRange changed, channel heads and the default channel that moved,
deprecations; and what it means: the installed releases whose upgrades changed (OLM v0's path and
OLM v1's target, before ⇒ after, as opack catalog upgrades computes them), releases cut out of a
channel that stays (an accidental strand: error catalog/newly-stranded), a whole channel or package
removed (a deliberate removal: warning catalog/channel-removed or catalog/package-removed, info when
it was deprecated before), CRD safety of the upgrade edges HEAD adds (as catalog validate's crd
checks, on the new edges only) and opm's checks of the changed packages.

-o github writes annotations on the changed catalog files; -o markdown one pull-request comment
(details folded); -o mermaid the upgrade graph with added and removed edges marked.

Exit codes: 0 no errors, 1 errors found (opm-invalid, newly stranded, unsafe CRD change on a new
edge), 2 could not run.`,
		Example: `  opack catalog diff git:origin/main:catalog catalog
  opack catalog diff git:HEAD~1:. git:HEAD:. -o markdown > comment.md
  opack catalog diff quay.io/me/catalog:v1 catalog/ -o github`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := requireOutputFormat(o.output, diff.Formats...); err != nil {
				return err
			}
			src, err := o.crds.source()
			if err != nil {
				return withExit(exitUsage, err)
			}
			r, err := diff.Diff(cmd.Context(), args[0], args[1], diff.WithCRDSource(src))
			if err != nil {
				return withExit(exitUsage, err)
			}
			if err := diff.Write(cmd.OutOrStdout(), o.output, r); err != nil {
				return withExit(exitUsage, err)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "catalog diff: %s\n", r.Report().Summary())
			if !r.Passed() {
				return withExit(exitFindings, errSilent)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.output, "output", "o", diff.FormatText, "output format: "+strings.Join(diff.Formats, ", "))
	o.crds.add(cmd)
	return cmd
}
