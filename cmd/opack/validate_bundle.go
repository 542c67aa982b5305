package main

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/image"
	"github.com/opack/opack/internal/validate"
)

type validateBundleOptions struct {
	selector       string
	optionalValues map[string]string
	output         string
	listOptional   bool
	parallel       int
	insecure       bool
	noAPIServer    bool
}

func newValidateBundleCmd() *cobra.Command {
	var o validateBundleOptions
	cmd := &cobra.Command{
		Use:   "bundle DIR|IMAGE...",
		Short: "Validate bundles as operator-sdk and the API server check them",
		Long: `Validate bundle folders, package-manifest folders and bundle images with operator-sdk's checks
(format, content, operator-framework/api's bundle, CSV and CRD validators, and the optional suites chosen with
--select-optional), plus the API server's own CRD validation, which operator-sdk skips.

Several arguments are checked in parallel and reported together; on a terminal, stderr shows progress
(bundles done/total, rate, time left). An IMAGE (REGISTRY/REPO:TAG, REPO@DIGEST, oci:DIR[:TAG] or
docker-archive:FILE[:REPO:TAG], a docker save tarball) is read with go-containerregistry, no docker needed.

Optional validators (--list-optional shows them): suite=operatorframework (operatorhubv2, capabilities,
categories, alpha-deprecated-apis, good-practices), name=operatorhub, name=community, name=multiarch (image
platforms through the registry API) and name=best-practices.

Exit codes: 0 no errors (warnings allowed), 1 errors found, 2 could not run.`,
		Example: `  opack validate bundle bundle/
  opack validate bundle bundle/ --select-optional suite=operatorframework --optional-values k8s-version=1.30
  opack validate bundle quay.io/example/memcached-operator-bundle:v0.0.1 -o github
  opack validate bundle catalog/bundles/*/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.listOptional {
				return listOptional(cmd)
			}
			if len(args) == 0 {
				return withExit(exitUsage, fmt.Errorf("give at least one bundle folder or image"))
			}
			if err := finding.CheckFormat(o.output, finding.Formats...); err != nil {
				return withExit(exitUsage, err)
			}
			opts := o.options()
			if len(args) > 1 && catalogIsTerminal(cmd.ErrOrStderr()) {
				opts = append(opts, validate.WithProgress(rateProgress(cmd.ErrOrStderr(), "validating bundles", 100*time.Millisecond, time.Now)))
			}
			report, err := validate.Bundles(cmd.Context(), args, opts...)
			if report == nil {
				return withExit(exitUsage, err)
			}
			if werr := report.Write(cmd.OutOrStdout(), o.output); werr != nil {
				return withExit(exitUsage, werr)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "validate bundle: %d argument(s), %s\n", len(args), report.Summary())
			if err != nil {
				return withExit(exitUsage, err)
			}
			if !report.Passed() {
				return withExit(exitFindings, errSilent)
			}
			return nil
		},
	}
	f := cmd.Flags()
	// pflag shows the first `quoted` word of a usage as the value placeholder: keep it one plain word.
	f.StringVar(&o.selector, "select-optional", "", "label `selector` choosing optional validators (e.g. suite=operatorframework, name=multiarch)")
	f.StringToStringVar(&o.optionalValues, "optional-values", map[string]string{}, "`key=value` settings for the optional validators: k8s-version=1.30, index-path=bundle.Dockerfile")
	f.StringVarP(&o.output, "output", "o", finding.FormatText, "output `format`: "+strings.Join(finding.Formats, ", ")+" (json is operator-sdk's json-alpha1 shape)")
	f.BoolVar(&o.listOptional, "list-optional", false, "list the optional validators and exit")
	f.IntVar(&o.parallel, "parallel", 0, "`number` of bundles validated at once (default: number of CPUs)")
	f.BoolVar(&o.insecure, "insecure", false, "allow plain-HTTP registries when pulling images and inspecting them (multiarch)")
	f.BoolVar(&o.noAPIServer, "sdk-only", false, "report operator-sdk's findings only (skip the API server's CRD validation)")
	return cmd
}

func (o *validateBundleOptions) options() []validate.Option {
	opts := []validate.Option{
		validate.WithSelector(o.selector),
		validate.WithOptionalValues(o.optionalValues),
		validate.WithPuller(image.NewPuller(image.WithInsecure(o.insecure))),
		validate.WithAPIServerChecks(!o.noAPIServer),
	}
	if o.parallel > 0 {
		opts = append(opts, validate.WithParallelism(o.parallel))
	}
	return opts
}

// listOptional prints the optional validators as a table: name, labels, description.
func listOptional(cmd *cobra.Command) error {
	tw := tabwriter.NewWriter(cmd.OutOrStdout(), 8, 4, 4, ' ', 0)
	fmt.Fprintln(tw, "NAME\tLABELS\tDESCRIPTION")
	for _, v := range validate.OptionalValidators() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", v.Name, v.LabelString(), v.Description)
	}
	return tw.Flush()
}
