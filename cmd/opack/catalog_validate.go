package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/opack/opack/internal/catalog/check"
	"github.com/opack/opack/internal/escape"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/image"
	"github.com/opack/opack/internal/sign"
)

// catalogCRDFlags selects where the CRDs of bundles come from for the upgrade-edge checks.
type catalogCRDFlags struct {
	bundles []string
	pull    bool
}

func (f *catalogCRDFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringSliceVar(&f.bundles, "bundle", nil, "bundle folders whose CRDs stand for the catalog bundles of the same name (comma separated or repeated)")
	cmd.Flags().BoolVar(&f.pull, "pull", false, "pull bundle images to get the CRDs of bundles the catalog has no olm.bundle.object for")
}

// source returns the CRD source: olm.bundle.object, then --bundle folders, then (--pull) images.
func (f *catalogCRDFlags) source() (check.CRDSource, error) {
	src := check.FirstCRDs{check.ObjectCRDs{}}
	if len(f.bundles) > 0 {
		dirs, err := check.BundleDirCRDs(f.bundles)
		if err != nil {
			return nil, err
		}
		src = append(check.FirstCRDs{dirs}, src...)
	}
	if f.pull {
		src = append(src, check.ImageCRDs{Puller: image.NewPuller()})
	}
	return src, nil
}

// catalogIsTerminal reports whether w is a terminal (progress is shown only there).
func catalogIsTerminal(w io.Writer) bool {
	if u, ok := w.(interface{ Unwrap() io.Writer }); ok {
		w = u.Unwrap()
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progressFunc writes "what: done/total" over itself on w, and clears the line at the end.
func progressFunc(w io.Writer, what string) func(done, total int) {
	w = escape.RawWriter(w) // opack's own \r and erase sequence
	return func(done, total int) {
		fmt.Fprintf(w, "\r%s: %d/%d", what, done, total)
		if done == total {
			fmt.Fprint(w, "\r\033[K")
		}
	}
}

// progressOption shows loading progress on w when it is a terminal, and nothing otherwise.
func progressOption(w io.Writer) []fbc.LoadOption {
	if !catalogIsTerminal(w) {
		return nil
	}
	return []fbc.LoadOption{fbc.WithProgress(progressFunc(w, "loading catalog files"))}
}

type catalogValidateOptions struct {
	checks        string
	requireClosed bool
	perEdge       bool
	output        string
	crds          catalogCRDFlags
	signatures    string
}

func newCatalogValidateCmd() *cobra.Command {
	var o catalogValidateOptions
	cmd := &cobra.Command{
		Use:   "validate DIR|IMAGE",
		Short: "Validate a file-based catalog as opm does, plus upgrade-graph safety",
		Long: `Validate a file-based catalog (a folder or a catalog image) with every check of opm validate,
reporting all problems at once in a stable order, then what opm does not check:

  crd    CRD upgrade safety on every replaces, skips and skipRange edge (old bundle's CRDs ->
         new bundle's CRDs, as opack validate crds), and the edges that drop a version a
         cluster upgraded along the graph can still have stored (naming that path of
         releases); a change several edges of a package make is one finding listing the
         edges, and a change made to identical copies of a struct (a field removed from a
         struct the CRD copies into several places) one finding naming the first path and
         how many more (-o json: paths lists them all) (--per-edge: one per edge and path);
         edges whose CRDs are not available are counted as not checked
  deps   a channel head that stops providing an API another package's head requires (error);
         requirements no bundle of the catalog provides (warning, error with --require-closed)
  graph  skipRange syntax and semantics (error), a default channel whose head is not the
         highest version and bundles only reachable as a skip (warnings)

--verify-signatures KEY|POLICY checks, as a node enforcing an image policy would (see opack verify),
every image installing the catalog's channel heads makes a node pull: the catalog image (when the
argument is one), each head's bundle image, its relatedImages and its CSV's containers. KEY is a PEM
public key every image must be signed by; POLICY a containers policy.json. Unsigned images, images
signed by another key or altered, signatures of another image or reference are errors naming the
bundle and the image (sign/...); so is an image named by tag (a node verifies the digest it pulls).

Exit codes: 0 no errors, 1 errors found, 2 could not run.`,
		Example: `  opack catalog validate catalog/
  opack catalog validate catalog/ --checks opm,graph -o json
  opack catalog validate catalog/ --bundle bundle-0.1.0/,bundle-0.2.0/
  opack catalog validate quay.io/example/catalog:latest --pull
  opack catalog validate quay.io/example/catalog@sha256:... --verify-signatures cosign.pub`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := requireOutputFormat(o.output, finding.Formats...); err != nil {
				return err
			}
			opts, err := o.validateOptions()
			if err != nil {
				return withExit(exitUsage, err)
			}
			if catalogIsTerminal(cmd.ErrOrStderr()) {
				opts = append(opts, check.WithEdgeProgress(progressFunc(cmd.ErrOrStderr(), "checking upgrade edges")))
			}
			report, err := check.ValidateRef(cmd.Context(), args[0], nil, progressOption(cmd.ErrOrStderr()), opts...)
			if err != nil {
				return withExit(exitUsage, err)
			}
			if err := o.verifySignatures(cmd, args[0], report); err != nil {
				return withExit(exitUsage, registryHint(err))
			}
			if err := report.Write(cmd.OutOrStdout(), o.output); err != nil {
				return withExit(exitUsage, err)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "catalog validate: %s\n", report.Summary())
			if !report.Passed() {
				return withExit(exitFindings, errSilent)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.checks, "checks", strings.Join(check.AllChecks, ","), "check groups to run, comma separated: "+strings.Join(check.AllChecks, ", "))
	f.BoolVar(&o.requireClosed, "require-closed", false, "make requirements no bundle of the catalog provides an error")
	f.BoolVar(&o.perEdge, "per-edge", false, "report a CRD change once per upgrade edge and schema path, not once per package listing the edges and the copies of a struct")
	f.StringVarP(&o.output, "output", "o", finding.FormatText, "output format: "+strings.Join(finding.Formats, ", "))
	f.StringVar(&o.signatures, "verify-signatures", "", "check that every image installing the channel heads makes a node pull is signed: a PEM public key or a containers policy.json (file or env://VAR)")
	o.crds.add(cmd)
	return cmd
}

// verifySignatures adds the signature gate's findings to report when --verify-signatures is set.
func (o *catalogValidateOptions) verifySignatures(cmd *cobra.Command, ref string, report *finding.Report) error {
	if o.signatures == "" {
		return nil
	}
	policy, err := sign.LoadPolicy(o.signatures)
	if err != nil {
		return err
	}
	fs, n, err := check.VerifyRefSignatures(cmd.Context(), ref, image.NewPuller(), nil, policy)
	if err != nil {
		return err
	}
	report.Add(fs...)
	fmt.Fprintf(cmd.ErrOrStderr(), "catalog validate: signatures of %d image(s) checked against %s\n", n, escape.Text(policy.Source))
	return nil
}

func (o *catalogValidateOptions) validateOptions() ([]check.ValidateOption, error) {
	checks, err := check.ParseChecks(o.checks)
	if err != nil {
		return nil, err
	}
	src, err := o.crds.source()
	if err != nil {
		return nil, err
	}
	return []check.ValidateOption{check.WithChecks(checks...), check.WithRequireClosed(o.requireClosed), check.WithCRDSource(src), check.WithPerEdge(o.perEdge)}, nil
}
