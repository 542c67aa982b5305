package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/opack/opack/internal/crd"
	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/image"
)

type validateCrdsOptions struct {
	storedVersions string
	clusterCRD     string
	instances      []string
	policy         string
	output         string
	olmv1Min       string
}

func newValidateCrdsCmd() *cobra.Command {
	var o validateCrdsOptions
	cmd := &cobra.Command{
		Use:   "crds [OLD] NEW",
		Short: "Check that upgrading CRDs from OLD to NEW is safe",
		Long: `Check that upgrading the CustomResourceDefinitions of OLD to those of NEW is safe, as the API server,
OLM v0 and OLM v1 judge it, and report every change that can break existing objects or clients.

OLD and NEW are CRD files, folders, bundle folders or bundle images; CRDs are matched by name.
With --cluster-crd and a single argument, the cluster's CRDs are the old side.

With --instances (the complete set of existing objects), each object is validated against NEW's schema of
every version served in both OLD and NEW, and tightenings those objects satisfy become warnings.

Each finding says what the change does to existing objects and clients (its rule's severity below, or
milder where the change keeps their meaning) and who refuses it: the API server, OLM v0, OLM v1. It is
printed with the higher of the two: an error where the API server refuses, at least a warning where an
installer does (this command does not know which installers your clusters run). OLM v1's refusals are
its CRD upgrade-safety preflight's as operator-controller v1.4.0 and later run it (crdify); with
--olmv1-min-version below v1.4.0, what the preflight of v1.0 to v1.3 refuses (any change of a node but
in enum, required, the bounds, default or type, descriptions included) is OLM v1's refusal too.

Exit codes: 0 no errors, 1 errors found, 2 could not run.

Rules and their default severities (change them with --policy):
` + crdRulesHelp(),
		Example: `  opack validate crds bundle-0.1.0/ bundle-0.2.0/
  opack validate crds old/crd.yaml new/crd.yaml --stored-versions v1alpha1,v1 --instances crs/
  opack validate crds --cluster-crd live.yaml bundle/ -o github`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			req, err := o.request(cmd, args)
			if err != nil {
				return withExit(exitUsage, err)
			}
			res, err := crd.Check(cmd.Context(), req)
			if err != nil {
				return withExit(exitUsage, err)
			}
			report := crdReport(res.Findings)
			if err := report.Write(cmd.OutOrStdout(), o.output); err != nil {
				return withExit(exitUsage, err)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "validate crds: %s, %s\n", res.Summary(), report.Summary())
			if !report.Passed() {
				return withExit(exitFindings, errSilent)
			}
			return nil
		},
	}
	f := cmd.Flags()
	// pflag shows the first `quoted` word of a usage as the value placeholder: keep it one plain word.
	f.StringVar(&o.storedVersions, "stored-versions", "", "the live CRD's status.storedVersions, comma separated `versions` (default: OLD's status.storedVersions plus its storage version)")
	f.StringVar(&o.clusterCRD, "cluster-crd", "", "`file` holding the live CRDs and their stored versions, as kubectl get crd -o yaml prints them")
	f.StringSliceVar(&o.instances, "instances", nil, "files or folders of existing objects to validate against NEW's schemas (`paths`, comma separated or repeated)")
	f.StringVar(&o.policy, "policy", "", "policy `file` setting rules to error, warn, info or off (e.g. rules: {enum-value-added: off})")
	f.StringVarP(&o.output, "output", "o", finding.FormatText, "output `format`: "+strings.Join(finding.Formats, ", "))
	f.StringVar(&o.olmv1Min, "olmv1-min-version", "", "the oldest operator-controller `release` your clusters run, e.g. v1.2.0 (default: v1.4.0 or later)")
	return cmd
}

// crdRulesHelp lists the rules as "  rule (severity)" lines.
func crdRulesHelp() string {
	var b strings.Builder
	for _, r := range crd.Rules() {
		fmt.Fprintf(&b, "  %-34s %s\n", r, crd.DefaultSeverity(r))
	}
	return strings.TrimRight(b.String(), "\n")
}

func (o *validateCrdsOptions) request(cmd *cobra.Command, args []string) (crd.Request, error) {
	if err := finding.CheckFormat(o.output, finding.Formats...); err != nil {
		return crd.Request{}, err
	}
	req := crd.Request{ClusterCRD: o.clusterCRD, Instances: o.instances, Policy: o.policy, Puller: image.NewPuller(), OLMv1MinVersion: o.olmv1Min}
	switch {
	case len(args) == 2:
		req.Old, req.New = args[0], args[1]
	case o.clusterCRD != "":
		req.New = args[0]
	default:
		return crd.Request{}, errors.New("need OLD and NEW (or --cluster-crd and NEW)")
	}
	if cmd.Flags().Changed("stored-versions") {
		req.StoredVersions = []string{}
		for _, v := range strings.Split(o.storedVersions, ",") {
			if v = strings.TrimSpace(v); v != "" {
				req.StoredVersions = append(req.StoredVersions, v)
			}
		}
	}
	return req, nil
}

// crdReport converts upgrade findings to the shared validation report: the message reads on its own in text
// and github output, and the parts stay separate fields for -o json.
func crdReport(findings []crd.Finding) *finding.Report {
	r := &finding.Report{}
	for _, f := range findings {
		var paths []string
		if f.Path != "" {
			paths = []string{f.Path}
		}
		r.Add(finding.Finding{
			Severity: f.Severity.FindingSeverity(),
			Semantic: f.Semantic.FindingSeverity(),
			File:     f.File,
			Object:   finding.ObjectName("CustomResourceDefinition", f.CRD),
			Rule:     f.Rule.ID(),
			Message:  crdMessage(f),
			CRD:      f.CRD,
			Version:  f.Version,
			Path:     f.Path,
			Paths:    paths,
			Old:      f.Old,
			New:      f.New,
			Fix:      f.Fix,
			Actor:    string(f.Actor),
			Actors:   f.Actors(),
		})
	}
	return r
}

// crdMessage formats "version path: message (old -> new) [rule]; refused by actor; fix: ...".
func crdMessage(f crd.Finding) string {
	var b strings.Builder
	where := strings.TrimSpace(f.Version + " " + f.Path)
	if where != "" {
		b.WriteString(where + ": ")
	}
	b.WriteString(f.Message)
	if f.Old != "" || f.New != "" {
		fmt.Fprintf(&b, " (%s -> %s)", quoteOrNone(f.Old), quoteOrNone(f.New))
	}
	fmt.Fprintf(&b, " [%s]", f.Rule)
	if v := f.Verdict(); v != "" {
		b.WriteString("; " + v)
	}
	if f.Fix != "" {
		b.WriteString("; fix: " + f.Fix)
	}
	return b.String()
}

func quoteOrNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
