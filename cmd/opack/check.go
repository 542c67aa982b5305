package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/opack/opack/internal/project"
)

func init() { register(newCheckCmd) }

func newCheckCmd() *cobra.Command {
	f := &pipelineFlags{}
	var quiet bool
	cmd := &cobra.Command{
		Use:   "check",
		Short: "CI gate: run opack build without writing; fail on findings or outputs out of date",
		Long: `Run everything opack build does without writing into the project or pushing, then compare
what build would write (the bundle, bundle.Dockerfile, the catalog templates and catalogs, the deploy
manifests) with the project. No git is needed.

Exit codes: 0 valid, safe and up to date; 1 findings (invalid or unsafe) or outputs that differ (a
unified diff is printed); 2 could not run.`,
		Example: `  opack check
  opack check -o github   # annotations in GitHub Actions`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts, err := f.options(cmd)
			if err != nil {
				return err
			}
			res, err := project.CheckFile(cmd.Context(), f.file, opts...)
			if err := f.report(cmd.OutOrStdout(), cmd.ErrOrStderr(), res, err); err != nil {
				return err
			}
			if res.Diff != "" {
				diffOut := cmd.OutOrStdout()
				if f.output == "json" {
					diffOut = cmd.ErrOrStderr() // stdout stays one JSON document
				}
				fmt.Fprint(diffOut, res.Diff)
				if f.output == "github" {
					for _, file := range res.DiffFiles {
						fmt.Fprintf(cmd.OutOrStdout(), "::error file=%s::%s is out of date: run opack build and commit the result\n", file, file)
					}
				}
				return withExit(exitFindings, fmt.Errorf("%d output(s) out of date (%v): run opack build", len(res.Written), res.Written))
			}
			if !quiet {
				fmt.Fprintf(cmd.OutOrStdout(), "version %s: %d outputs up to date\n", res.Version, len(res.Outputs))
			}
			return nil
		},
	}
	f.add(cmd)
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "print nothing when everything is up to date")
	return cmd
}
