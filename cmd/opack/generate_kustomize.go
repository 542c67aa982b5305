package main

import (
	"bufio"
	"fmt"
	"github.com/opack/opack/internal/escape"
	"io"
	"os"
	"strings"

	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	"github.com/spf13/cobra"

	"github.com/opack/opack/internal/bundle"
)

type generateKustomizeOptions struct {
	opts        bundle.BaseOptions
	maintainers []string
	interactive bool
	quiet       bool
}

func newGenerateKustomizeCmd() *cobra.Command {
	f := &generateKustomizeOptions{}
	cmd := &cobra.Command{
		Use:   "kustomize-manifests",
		Short: "Generate the base ClusterServiceVersion and kustomization in config/manifests",
		Long: `Generate config/manifests/bases/<package>.clusterserviceversion.yaml and, when missing,
config/manifests/kustomization.yaml, as operator-sdk v1.42.3's "generate kustomize manifests" does.
An existing base is kept and updated with the values given as flags. Without a base and with
a terminal on stdin, the values not given as flags are asked for (--interactive=false skips that).

For a Go project (PROJECT layout go.kubebuilder.io/...), the owned CRD descriptions are generated
from the Go API types below --apis-dir, for every resource of PROJECT: the type's doc comment, and
the +operator-sdk:csv:customresourcedefinitions markers (displayName, resources, order; on fields
below spec and status: type=spec|status, displayName, xDescriptors, order). The packages are read
with "go list" offline: the module's dependencies need not be downloaded. When the Go code cannot
be read, the error names the package and the base is left as it is.

A file is written only when its content changes ("wrote", else "unchanged").`,
		Example: `  opack generate kustomize-manifests --display-name "Memcached Operator" --provider "ACME" \
      --maintainers "Jo Doe <jo@acme.example>" --keywords memcached,cache`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return f.run(cmd) },
	}
	fl := cmd.Flags()
	o := &f.opts
	fl.StringVar(&o.Package, "package", "", "package name (default: projectName in PROJECT)")
	fl.StringVar(&o.InputDir, "input-dir", "config/manifests", "folder holding an existing base")
	fl.StringVar(&o.APIsDir, "apis-dir", "api", "root folder of the Go API types (a Go project's owned CRD descriptions are generated from them)")
	fl.StringVar(&o.OutputDir, "output-dir", "config/manifests", "kustomize manifests folder to write")
	fl.StringVar(&o.DisplayName, "display-name", "", "CSV spec.displayName")
	fl.StringVar(&o.Description, "description", "", "CSV spec.description")
	fl.StringVar(&o.ProviderName, "provider", "", "CSV spec.provider.name")
	fl.StringVar(&o.ProviderURL, "provider-url", "", "CSV spec.provider.url")
	fl.StringVar(&o.Capabilities, "capabilities", "", `capabilities annotation (e.g. "Basic Install", "Seamless Upgrades")`)
	fl.StringSliceVar(&o.Keywords, "keywords", nil, "CSV spec.keywords (comma-separated)")
	fl.StringSliceVar(&f.maintainers, "maintainers", nil, `CSV spec.maintainers as "Name <email>" (repeatable)`)
	fl.BoolVar(&f.interactive, "interactive", true, "ask for missing values when there is no base and stdin is a terminal")
	fl.BoolVar(&o.Check, "check", false, "write nothing; exit 1 when the files would change")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "print nothing but errors")
	return cmd
}

func (f *generateKustomizeOptions) run(cmd *cobra.Command) error {
	o := f.opts
	p, _, err := bundle.ReadProject(".")
	if err != nil {
		return err
	}
	o.Project = p
	if o.Package == "" {
		o.Package = p.Name
	}
	for _, m := range f.maintainers {
		mt, err := parseMaintainer(m)
		if err != nil {
			return withExit(exitUsage, err)
		}
		o.Maintainers = append(o.Maintainers, mt)
	}
	if _, err := os.Stat(bundle.BaseFile(o.InputDir, o.Package)); err != nil && f.interactive && !o.Check && isTerminal(cmd.InOrStdin()) {
		if err := prompt(cmd.InOrStdin(), cmd.ErrOrStderr(), &o); err != nil {
			return err
		}
	}
	res, err := bundle.GenerateBase(cmd.Context(), o)
	if err != nil {
		return err
	}
	if !f.quiet {
		for _, w := range res.Warnings {
			fmt.Fprintln(cmd.ErrOrStderr(), "warning:", escape.Text(w))
		}
	}
	if o.Check {
		if res.Changed {
			fmt.Fprintf(cmd.ErrOrStderr(), "%s is out of date: run the same command without --check\n", escape.Text(res.Files[0].Name))
			return withExit(exitFindings, errSilent)
		}
		return nil
	}
	if !f.quiet {
		printBaseResult(cmd.OutOrStdout(), res)
	}
	return nil
}

// printBaseResult prints one line per file: "wrote" when it changed, "unchanged" otherwise.
func printBaseResult(w io.Writer, res *bundle.BaseResult) {
	for _, file := range res.Files {
		fmt.Fprintf(w, "wrote %s\n", file.Name)
	}
	for _, file := range res.Unchanged {
		fmt.Fprintf(w, "unchanged %s\n", file.Name)
	}
}

// parseMaintainer reads "Name <email>".
func parseMaintainer(s string) (v1alpha1.Maintainer, error) {
	name, rest, ok := strings.Cut(s, "<")
	email, _, ok2 := strings.Cut(rest, ">")
	if !ok || !ok2 || strings.TrimSpace(name) == "" || !strings.Contains(email, "@") {
		return v1alpha1.Maintainer{}, fmt.Errorf("--maintainers %q: write it as \"Name <email>\"", s)
	}
	return v1alpha1.Maintainer{Name: strings.TrimSpace(name), Email: strings.TrimSpace(email)}, nil
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// prompt asks for the values not given as flags; an empty answer keeps the default.
func prompt(in io.Reader, out io.Writer, o *bundle.BaseOptions) error {
	sc := bufio.NewScanner(in)
	ask := func(dst *string, q string) {
		if *dst != "" {
			return
		}
		fmt.Fprintf(out, "%s: ", q)
		if sc.Scan() {
			*dst = strings.TrimSpace(sc.Text())
		}
	}
	ask(&o.DisplayName, "Display name for the operator")
	ask(&o.Description, "Description for the operator")
	ask(&o.ProviderName, "Provider's name for the operator")
	ask(&o.ProviderURL, "Any relevant URL for the provider name")
	if o.Keywords == nil {
		var kw string
		ask(&kw, "Comma-separated list of keywords for your operator")
		for _, k := range strings.Split(kw, ",") {
			if k = strings.TrimSpace(k); k != "" {
				o.Keywords = append(o.Keywords, k)
			}
		}
	}
	if o.Maintainers == nil {
		var ms string
		ask(&ms, `Comma-separated list of maintainers ("Name <email>")`)
		for _, m := range strings.Split(ms, ",") {
			if m = strings.TrimSpace(m); m == "" {
				continue
			}
			mt, err := parseMaintainer(m)
			if err != nil {
				return withExit(exitUsage, err)
			}
			o.Maintainers = append(o.Maintainers, mt)
		}
	}
	return sc.Err()
}
