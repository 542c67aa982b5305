package main

import (
	"errors"
	"fmt"
	"github.com/opack/opack/internal/escape"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/opack/opack/internal/bundle"
	"github.com/opack/opack/internal/project"
)

// generateBundleOptions are the flags of `opack generate bundle` that do not map 1:1 to bundle.Options.
type generateBundleOptions struct {
	opts               bundle.Options
	kustomizeManifests bool
	overwrite          bool
	stdout             bool
	check              bool
	digests            bool
	quiet              bool
}

func newGenerateBundleCmd() *cobra.Command {
	f := &generateBundleOptions{}
	cmd := &cobra.Command{
		Use:   "bundle [-]",
		Short: "Generate an OLM bundle (manifests/, metadata/, bundle.Dockerfile) from kustomize output",
		Long: `Generate a registry+v1 bundle exactly as "kustomize build config/manifests | operator-sdk generate bundle" does,
in one process: the kustomization is built in-process unless the manifests come on stdin ("-") or from --input-dir.

Unlike operator-sdk, createdAt only changes when the CSV does, base relatedImages and labels you added to
annotations.yaml or the Dockerfile are kept, files a previous run left in manifests/ are removed (and listed),
dropped objects are reported, and the bundle folder is replaced atomically.

For a project with a PROJECT file (Go, Helm or Ansible), the kustomize-manifests step runs first, as
operator-sdk's "make bundle" runs "generate kustomize manifests": the base CSV is read and rewritten as
operator-sdk writes it, its owned CRD descriptions regenerated from the Go types and markers in
--apis-dir for a Go project, and the base file is rewritten when it changed, after the bundle
(--kustomize-manifests=false skips the step).

The operators.operatorframework.io/builder annotation and the metrics.builder label say
"opack-<release>" (e.g. opack-v0.2.0) for a release build however it was built (make build,
go install ...@v0.2.0), and "opack-dev" for any other build, where operator-sdk writes
"operator-sdk-<version>": the one deliberate difference in the bundle's bytes.

Exit codes: 0 done (with --check: up to date), 1 --check found a difference, 2 could not run.`,
		Example: `  opack generate bundle --version 0.0.1
  kustomize build config/manifests | opack generate bundle - --version 0.0.1
  opack generate bundle --version 0.0.1 --check   # CI drift gate`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return f.run(cmd, args) },
	}
	fl := cmd.Flags()
	o := &f.opts
	fl.StringVar(&o.Version, "version", "", "semantic version of the bundle (default: the base CSV's; operator-sdk's -v, spelled out: -v is --verbose in opack)")
	fl.StringVar(&o.Package, "package", "", "bundle package name (default: projectName in PROJECT)")
	fl.StringVar(&o.Channels, "channels", "alpha", "comma-separated channels of the bundle")
	fl.StringVar(&o.DefaultChannel, "default-channel", "", "default channel of the package")
	fl.StringVar(&o.KustomizeDir, "kustomize-dir", "config/manifests", "kustomization built in-process, holding bases/<package>.clusterserviceversion.yaml")
	fl.BoolVar(&o.AllowRemote, "allow-remote", false, "let kustomizations name http(s) URLs, fetched by opack (offline otherwise; git repositories stay refused)")
	fl.BoolVar(&f.kustomizeManifests, "kustomize-manifests", true, "regenerate the base CSV first, as generate kustomize-manifests does (from the Go API types for a Go project)")
	fl.StringVar(&o.APIsDir, "apis-dir", "api", "root folder of the Go API types read by the kustomize-manifests step")
	fl.StringVar(&o.InputDir, "input-dir", "", "read manifests from this folder instead of building the kustomization")
	fl.StringVar(&o.OutputDir, "output-dir", "bundle", "bundle folder")
	fl.StringVar(&o.Dockerfile, "dockerfile", "bundle.Dockerfile", "bundle Dockerfile to write; its COPY paths are relative to its folder")
	fl.StringSliceVar(&o.ExtraServiceAccounts, "extra-service-accounts", nil, "service accounts besides the deployments' whose roles go into the CSV")
	fl.BoolVar(&f.stdout, "stdout", false, "print the manifests to stdout and write nothing")
	fl.BoolVar(&f.overwrite, "overwrite", true, "regenerate metadata files that already exist (false keeps them)")
	fl.BoolVar(&o.Manifests, "manifests", false, "generate manifests/ (and tests/scorecard) only")
	fl.BoolVar(&o.Metadata, "metadata", false, "generate metadata/annotations.yaml and the Dockerfile only")
	fl.BoolVar(&f.digests, "use-image-digests", false, "pin image tags to digests through the registry (docker config auth)")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "print only errors (no warnings, dropped, removed or kept lines, no summary)")
	fl.BoolVar(&f.check, "check", false, "write nothing; exit 1 with a diff when the bundle or Dockerfile on disk differs")
	fl.BoolVar(&o.KeepUnknown, "keep-unknown", false, "keep files in manifests/ that this run does not generate")
	fl.StringVar(&o.CreatedAt, "created-at", "", "createdAt annotation value (RFC 3339); default: kept when the CSV is unchanged, else $SOURCE_DATE_EPOCH or now")
	return cmd
}

func (f *generateBundleOptions) run(cmd *cobra.Command, args []string) error {
	o := f.opts
	if len(args) == 1 {
		if args[0] != "-" {
			return withExit(exitUsage, fmt.Errorf("unexpected argument %q: pass \"-\" to read manifests from stdin", args[0]))
		}
		if o.InputDir != "" {
			return withExit(exitUsage, errors.New("--input-dir cannot be used with \"-\" (stdin)"))
		}
		o.Input, o.InputName = cmd.InOrStdin(), "-"
	}
	if f.stdout && f.check {
		return withExit(exitUsage, errors.New("--stdout and --check cannot be used together"))
	}
	if f.stdout && cmd.Flags().Changed("output-dir") {
		return withExit(exitUsage, errors.New("--output-dir cannot be set with --stdout"))
	}
	if !f.kustomizeManifests {
		o.APIsDir = ""
	}
	o.KeepMetadata = !f.overwrite
	o.SourceDateEpoch = os.Getenv("SOURCE_DATE_EPOCH")
	if f.digests {
		o.Resolver = bundle.RegistryResolver{}
	}
	switch {
	case f.stdout:
		o.Mode = bundle.ModeStdout
	case f.check:
		o.Mode = bundle.ModeCheck
	}
	res, err := bundle.Generate(cmd.Context(), o)
	if err != nil {
		return err
	}
	return f.report(cmd.OutOrStdout(), cmd.ErrOrStderr(), res)
}

func (f *generateBundleOptions) report(stdout, stderr io.Writer, res *bundle.Result) error {
	if !f.quiet {
		f.notes(stderr, res)
	}
	switch {
	case f.stdout:
		_, err := stdout.Write(res.Stdout)
		return err
	case f.check && res.Changed:
		fmt.Fprint(stdout, res.Diff)
		fmt.Fprintf(stderr, "bundle in %s is out of date: run the same command without --check to update it\n", res.OutputDir)
		return withExit(exitFindings, errSilent)
	case f.check:
		if !f.quiet {
			fmt.Fprintf(stdout, "bundle in %s is up to date\n", res.OutputDir)
		}
	}
	if !f.quiet && !f.check && !f.stdout && res.Base != nil {
		printBaseResult(stdout, res.Base)
	}
	switch {
	case f.stdout || f.check:
	case !f.quiet && !res.Changed:
		fmt.Fprintf(stdout, "bundle in %s is up to date (nothing written)\n", res.OutputDir)
	case !f.quiet:
		fmt.Fprintf(stdout, "bundle written to %s (%d files)\n", res.OutputDir, len(res.Files))
		if res.Dockerfile != nil {
			fmt.Fprintf(stdout, "dockerfile written to %s\n", res.Dockerfile.Name)
		}
	}
	return nil
}

// notes prints the warnings and what happened to objects and files, one labelled line each
// (opack build labels its lines the same way).
func (f *generateBundleOptions) notes(stderr io.Writer, res *bundle.Result) {
	csv := ""
	if res.CSV != nil {
		csv = res.CSV.Name
	}
	for _, n := range res.Notices {
		fmt.Fprintln(stderr, "warning:", escape.Text(n))
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(stderr, "warning:", project.ObjectWarning("ClusterServiceVersion", csv, w))
	}
	for _, d := range res.Dropped {
		fmt.Fprintln(stderr, "dropped:", escape.Text(d.String()))
	}
	verb := "removed"
	if f.check {
		verb = "would remove"
	}
	for _, r := range res.Removed {
		fmt.Fprintf(stderr, "%s: %s (not generated by this run; --keep-unknown keeps it)\n", verb, filepath.Join(res.OutputDir, r))
	}
	for _, k := range res.Kept {
		fmt.Fprintf(stderr, "kept: %s (not generated by this run)\n", filepath.Join(res.OutputDir, k))
	}
}
