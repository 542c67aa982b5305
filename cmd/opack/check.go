package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/project"
	"github.com/opack/opack/internal/stepcache"
)

// ruleOutOfDate is the rule of check's finding for an output that differs from what build writes.
const ruleOutOfDate = "check/out-of-date"

func newCheckCmd() *cobra.Command {
	f := &pipelineFlags{}
	var diffBase string
	cmd := &cobra.Command{
		Use:   "check",
		Short: "CI gate: run opack build without writing; fail on findings or outputs out of date",
		Long: `Run everything opack build does without writing into the project or pushing, then compare
what build would write (the bundle, bundle.Dockerfile, the catalog templates and catalogs, the deploy
manifests) with the project. No git is needed.

A catalog in mode fbc is also compared with the same folder at the last commit (--diff-base, read
from the repository without git, as opack catalog diff git:HEAD:DIR DIR): releases the change newly
strands are errors (catalog/newly-stranded). Outside a git repository that comparison is skipped
with a note.

Every output that differs is an error finding (rule ` + ruleOutOfDate + `) and the unified diff is printed:
on stdout, or on stderr with -o json so that stdout is one JSON document.

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
			opts = append(opts, project.CheckDiffBase(diffBase))
			if !f.noCache {
				opts = append(opts, checkMemo(cmd))
			}
			res, err := project.CheckFile(cmd.Context(), f.file, opts...)
			return f.finishCheck(cmd.OutOrStdout(), cmd.ErrOrStderr(), res, err)
		},
	}
	f.add(cmd)
	cmd.Flags().StringVar(&diffBase, "diff-base", "HEAD", "git revision an fbc-mode catalog is compared with (in a pull request: its base, e.g. origin/main)")
	return cmd
}

// stepCache is the step cache of build and check: in opack's folder of the user's cache (none
// when there is no folder of the user's alone: every step runs).
func stepCache(file string) project.BuildOption {
	c, err := stepcache.Open(filepath.Dir(file))
	if err != nil {
		c = nil
	}
	return project.StepCache(c)
}

// checkMemo keeps check's result, keyed by the flags given and the environment that change it.
func checkMemo(cmd *cobra.Command) project.BuildOption {
	var flags []string
	cmd.Flags().Visit(func(fl *pflag.Flag) { flags = append(flags, fl.Name+"="+fl.Value.String()) })
	for _, env := range []string{"SOURCE_DATE_EPOCH", "GOOS", "GOARCH", "GOFLAGS"} {
		flags = append(flags, env+"="+os.Getenv(env))
	}
	sort.Strings(flags)
	return project.CheckMemo(strings.Join(flags, "\x00"))
}

// finishCheck prints check's result: the findings (with one per out-of-date output), the diff
// (on stderr with -o json) and the summary, and returns the exit error.
func (f *pipelineFlags) finishCheck(stdout, stderr io.Writer, res *project.BuildResult, err error) error {
	var drift []finding.Finding
	if res != nil {
		drift = outOfDate(res.DiffFiles)
	}
	rerr := f.report(stdout, stderr, res, err, drift...)
	if res != nil && res.Diff != "" {
		diffOut := stdout
		if f.output == finding.FormatJSON {
			diffOut = stderr // stdout stays one JSON document
		}
		fmt.Fprint(diffOut, res.Diff)
	}
	switch {
	case rerr != nil:
		return rerr
	case len(drift) > 0:
		return withExit(exitFindings, fmt.Errorf("%d output(s) out of date (%v): run opack build", len(res.Written), res.Written))
	}
	if !f.quiet {
		out := stdout
		if f.output == finding.FormatJSON {
			out = stderr
		}
		fmt.Fprintf(out, "version %s: %d outputs up to date\n", res.Version, len(res.Outputs))
	}
	return nil
}

// outOfDate is one error finding per output file that differs from what build would write.
func outOfDate(files []string) []finding.Finding {
	out := make([]finding.Finding, 0, len(files))
	for _, file := range files {
		out = append(out, finding.Errorf(file, "", ruleOutOfDate, "%s is out of date: run opack build and commit the result", file))
	}
	return out
}
