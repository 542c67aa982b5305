package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/opack/opack/internal/adopt"
	"github.com/opack/opack/internal/escape"
	"github.com/opack/opack/internal/project/config"
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
// Every line of stdout and stderr goes through an escape.Guard: whatever a command or a library
// prints, a string from the repository or a catalog cannot break a line with a control character
// or start a GitHub Actions workflow command (only the GitHub findings writer's own commands do).
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	gout, gerr := escape.NewGuard(stdout), escape.NewGuard(stderr)
	defer gout.Flush()
	defer gerr.Flush()
	stdout, stderr = gout, gerr
	prof := &profileFlags{}
	root := newRootCmd(stdin, stdout, stderr)
	prof.addFlags(root)
	pre := root.PersistentPreRunE
	unmute := func() {}
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if err := pre(cmd, args); err != nil {
			return err
		}
		unmute = muteLibraryStderr()
		return prof.start()
	}
	root.SetArgs(args)
	tmpdir.Sweep() // what killed runs left in $TMPDIR
	err := root.ExecuteContext(ctx)
	unmute()
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
		if !errors.As(err, new(*commandError)) {
			fmt.Fprintln(stderr, "Error:", msg)
			return code
		}
		// A command's error quotes its input: each of its lines is escaped as one line.
		for i, l := range errorLines(err) {
			if i == 0 {
				l = "Error: " + escape.Text(l)
			} else {
				l = escape.Text(l)
			}
			fmt.Fprintln(stderr, l)
		}
	}
	return code
}

// errorLines are the lines of a command's error: opack.yaml's problems and init's notes on what
// it read are a line each; anything else is one line, whatever it holds.
func errorLines(err error) []string {
	msg := err.Error()
	var noted *adopt.NotedError
	if errors.As(err, &noted) && strings.HasSuffix(msg, noted.Error()) {
		lines := errorLines(noted.Err)
		lines[0] = strings.TrimSuffix(msg, noted.Error()) + lines[0]
		lines = append(lines, "notes on what opack read:")
		for _, n := range noted.Notes() {
			lines = append(lines, "  "+n)
		}
		return lines
	}
	var ce *config.ConfigError
	if errors.As(err, &ce) && len(ce.Errs) > 0 && strings.HasSuffix(msg, ce.Error()) {
		lines := []string{strings.TrimSuffix(msg, ce.Error()) + ce.Errs[0].Error()}
		for _, fe := range ce.Errs[1:] {
			lines = append(lines, fe.Error())
		}
		return lines
	}
	return []string{msg}
}

// commandError is an error a command's RunE returned, as opposed to cobra's own usage errors
// (which quote the command line and may span lines): it may quote input, so it is printed as one
// escaped line.
type commandError struct{ err error }

func (e *commandError) Error() string { return e.err.Error() }
func (e *commandError) Unwrap() error { return e.err }

// markCommandErrors wraps the RunE of c and every command below it so that their errors are
// commandErrors.
func markCommandErrors(c *cobra.Command) {
	if run := c.RunE; run != nil {
		c.RunE = func(cmd *cobra.Command, args []string) error {
			err := run(cmd, args)
			if err != nil && err != errSilent {
				return &commandError{err: err}
			}
			return err
		}
	}
	for _, sub := range c.Commands() {
		markCommandErrors(sub)
	}
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
	// --version is spelled out: -v is --verbose on every command that has it.
	root.Flags().Bool("version", false, "print opack's version")
	root.PersistentFlags().BoolP("quiet", "q", false, "print only errors (commands with their own -q say what else they leave out); also silences kustomize's deprecation notices")
	root.SetFlagErrorFunc(flagError)
	limits := &limitFlags{}
	limits.addFlags(root)
	root.PersistentPreRunE = func(*cobra.Command, []string) error { return limits.apply() }
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(
		newBuildCmd(),
		newCatalogCmd(
			newCatalogDiffCmd(),
			newCatalogGraphCmd(),
			newCatalogRenderCmd(),
			newCatalogTemplateCmd(),
			newCatalogUpgradesCmd(),
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
		newVerifyCmd(),
		newVersionCmd(),
	)
	root.InitDefaultCompletionCmd() // cobra adds it at Execute; added here so that it is a strict group too
	strictGroups(root)
	markCommandErrors(root)
	return root
}

// strictGroups makes every command group below root (a command that only holds subcommands)
// refuse arguments as the root does: a mistyped subcommand is a usage error (exit 2) with
// cobra's "did you mean" suggestion instead of the group's help and exit 0. A group called
// without arguments still prints its help. The usage line of a group stays "GROUP [command]".
func strictGroups(root *cobra.Command) {
	root.SetUsageTemplate(strings.Replace(root.UsageTemplate(), "{{if .Runnable}}", "{{if and .Runnable (not .HasAvailableSubCommands)}}", 1))
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.HasSubCommands() && !sub.Runnable() {
				sub.Args = subcommandArgs
				sub.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
			}
			walk(sub)
		}
	}
	walk(root)
}

// subcommandArgs is the Args of a command group: any argument is an unknown subcommand,
// reported as cobra reports one of the root (with its suggestions).
func subcommandArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2
	}
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "\n\nDid you mean this?\n\t" + strings.Join(s, "\n\t") + "\n"
	}
	return withExit(exitUsage, errors.New(msg))
}

// quietFlag reports whether -q was given to cmd (its own flag or the global one).
func quietFlag(cmd *cobra.Command) bool {
	q, err := cmd.Flags().GetBool("quiet")
	return err == nil && q
}

// muteLibraryStderr sends what libraries print straight to the process's stderr to the null
// device until the returned function restores it: such lines would pass no escaper, and
// kustomize's deprecation notices reach opack as warnings naming their file
// (kustomize.WithNotices). opack's own messages go to the command's writer, which keeps the
// original stderr.
func muteLibraryStderr() func() {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return func() {}
	}
	old := os.Stderr
	os.Stderr = null
	return func() {
		os.Stderr = old
		null.Close()
	}
}

// flagError adds to cobra's flag errors what a user of operator-sdk or docker may expect.
func flagError(cmd *cobra.Command, err error) error {
	if strings.Contains(err.Error(), "shorthand flag: 'v'") {
		return fmt.Errorf("%w (-v is --verbose in opack, on the commands that log; a version is passed as --version)", err)
	}
	return err
}
