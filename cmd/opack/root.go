package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/opack/opack/internal/tmpdir"
	"github.com/opack/opack/internal/version"
	"github.com/spf13/cobra"
)

// Exit codes shared by every command.
const (
	exitOK       = 0
	exitFindings = 1 // the command ran and found errors, drift or unsafe changes
	exitUsage    = 2 // the command could not run: bad flags, bad input, missing files
)

// exitError carries an explicit exit code up to main.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// withExit wraps err so that opack exits with code.
func withExit(code int, err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: code, err: err}
}

// errSilent is returned when a command already printed its findings and only the exit code remains.
var errSilent = errors.New("")

// run executes opack with args and returns the process exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	prof := &profileFlags{}
	root := newRootCmd(stdin, stdout, stderr)
	prof.addFlags(root)
	pre := root.PersistentPreRunE
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if err := pre(cmd, args); err != nil {
			return err
		}
		return prof.start()
	}
	root.SetArgs(args)
	tmpdir.Sweep() // what killed runs left in $TMPDIR
	err := root.ExecuteContext(ctx)
	if perr := prof.stop(); perr != nil && err == nil {
		err = perr
	}
	if err == nil {
		return exitOK
	}
	code := exitUsage
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
	}
	if msg := err.Error(); msg != "" {
		fmt.Fprintln(stderr, "Error:", msg)
	}
	return code
}

// newRootCmd builds the whole command tree: every verb and subcommand is listed here, one
// constructor per file (cobra sorts them by name in help).
func newRootCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:               "opack",
		Short:             "Generate, validate, pack and publish OLM bundles and catalogs",
		SilenceUsage:      true,
		SilenceErrors:     true,
		DisableAutoGenTag: true,
		Version:           version.String(),
	}
	root.SetVersionTemplate("{{.Version}}\n")
	limits := &limitFlags{}
	limits.addFlags(root)
	root.PersistentPreRunE = func(*cobra.Command, []string) error { return limits.apply() }
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(
		newBuildCmd(),
		newCatalogCmd(
			newCatalogGraphCmd(),
			newCatalogRenderCmd(),
			newCatalogTemplateCmd(),
			newCatalogValidateCmd(),
		),
		newCheckCmd(),
		newConvertCmd(),
		newEmitCmd(),
		newGenerateCmd(
			newGenerateBundleCmd(),
			newGenerateKustomizeCmd(),
		),
		newImageCmd(
			newImageBundleCmd(),
			newImageCatalogCmd(),
			newImageInspectCmd(),
		),
		newInitCmd(),
		newValidateCmd(
			newValidateBundleCmd(),
			newValidateCrdsCmd(),
		),
		newVersionCmd(),
	)
	return root
}
