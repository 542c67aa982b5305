package main

import (
	"errors"
	"fmt"
	"github.com/opack/opack/internal/escape"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/opack/opack/internal/adopt"
	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/image"
	"github.com/opack/opack/internal/project"
	"github.com/opack/opack/internal/project/config"
)

// pipelineFlags are the flags opack build and opack check share.
type pipelineFlags struct {
	file, version, output string
	insecure, verbose     bool
	allowRemote           bool
	quiet                 bool // print errors only
	goTypes               bool
	published             bool // list the findings on published releases one by one
	noCache               bool
}

func (f *pipelineFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVarP(&f.file, "file", "f", config.DefaultFile, "project file")
	fl.StringVar(&f.version, "version", "", "version to build (overrides opack.yaml; build saves it there when opack.yaml sets version)")
	fl.StringVarP(&f.output, "output", "o", finding.FormatText, "findings format: "+strings.Join(finding.Formats, ", "))
	fl.BoolVar(&f.insecure, "insecure", false, "allow plain-HTTP and self-signed registries (loopback registries always are)")
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "log each step to stderr")
	fl.BoolVar(&f.allowRemote, "allow-remote", false, "let kustomizations name http(s) URLs, fetched by opack (git repositories stay refused)")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "print only errors (no warnings, no kustomize deprecation notices, no summary when nothing changed or everything is up to date)")
	fl.BoolVar(&f.published, "published", false, "list every finding on releases already published (text and github output give one line per package for them otherwise; -o json lists them all)")
	fl.BoolVar(&f.noCache, "no-cache", false, "compute every step (the step cache, in opack's folder of the user's cache, gives a step's result when what it reads is byte for byte the same)")
	fl.BoolVar(&f.goTypes, "kustomize-manifests", true, "run the kustomize-manifests step first (opack.yaml kustomizeManifests; the base CSV regenerated in memory, from the Go API types for a Go project; config/ is not edited)")
}

func (f *pipelineFlags) options(cmd *cobra.Command) ([]project.BuildOption, error) {
	if err := finding.CheckFormat(f.output, finding.Formats...); err != nil {
		return nil, withExit(exitUsage, err)
	}
	if f.version == "" && cmd.Flags().Changed("version") {
		return nil, withExit(exitUsage, errors.New("--version is empty (an unset variable in a script?): pass a version such as 1.2.3, or leave the flag out to build the version of opack.yaml"))
	}
	if f.version != "" {
		if err := config.CheckVersion(strings.TrimPrefix(f.version, "v")); err != nil {
			return nil, withExit(exitUsage, fmt.Errorf("--version: %w", err))
		}
	}
	imgOpts := []image.Option{image.WithInsecure(f.insecure)}
	opts := []project.BuildOption{project.BuildVersion(f.version), project.BuildSourceDateEpoch(os.Getenv("SOURCE_DATE_EPOCH")), project.BuildAllowRemote(f.allowRemote), project.BuildGoTypes(f.goTypes)}
	if f.verbose {
		opts = append(opts, project.BuildLog(cmd.ErrOrStderr()))
		imgOpts = append(imgOpts, image.WithLogger(cmd.ErrOrStderr()))
	}
	if !f.noCache {
		opts = append(opts, stepCache(f.file))
	}
	if pkg, at := adopt.MakefilePackage(filepath.Dir(f.file)); pkg != "" {
		opts = append(opts, project.BuildMakefilePackage(pkg, at))
	}
	return append(opts, project.BuildImageOptions(imgOpts...)), nil
}

// summaryOut is where the human-readable summary goes: stderr with -o json, so stdout stays one
// JSON document.
func (f *pipelineFlags) summaryOut(cmd *cobra.Command) io.Writer {
	if f.output == finding.FormatJSON {
		return cmd.ErrOrStderr()
	}
	return cmd.OutOrStdout()
}

// report prints the warnings, dropped objects and findings (the warnings of every check, the
// errors of a failed step, and extra) and maps the error to an exit code. With -o json the
// findings document is always written, so stdout is valid JSON whatever happened; with --quiet
// only errors are printed. What repeats on every run and no build can change is said once: the
// objects the bundle generator dropped only when the bundle changed (or with -v), the findings on
// published releases as one line per package in text and github output (unless --published or -v).
func (f *pipelineFlags) report(out, errOut io.Writer, res *project.BuildResult, err error, extra ...finding.Finding) error {
	rep := &finding.Report{}
	if res != nil {
		rep.Add(res.Findings...)
		if !f.quiet {
			for _, w := range res.Warnings {
				fmt.Fprintln(errOut, "warning:", w)
			}
			if res.BundleChanged || f.verbose {
				for _, d := range res.Dropped {
					fmt.Fprintln(errOut, "dropped:", escape.Text(d.String()))
				}
			}
		}
	}
	var se *project.StepError
	if errors.As(err, &se) {
		rep.Add(se.Findings...)
	}
	rep.Add(extra...)
	if f.output != finding.FormatJSON && !f.published && !f.verbose {
		rep.Findings = finding.FoldPublished(rep.Findings, "list them with --published (or -v)")
	}
	if f.quiet {
		kept := rep.Findings[:0:0]
		for _, fd := range rep.Findings {
			if fd.Severity == finding.SeverityError {
				kept = append(kept, fd)
			}
		}
		rep.Findings = kept
	}
	if len(rep.Findings) > 0 || f.output == finding.FormatJSON {
		if werr := rep.Write(out, f.output); werr != nil {
			return withExit(exitUsage, werr)
		}
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, project.ErrFindings):
		return withExit(exitFindings, err)
	}
	return withExit(exitUsage, err)
}

func newBuildCmd() *cobra.Command {
	f := &pipelineFlags{}
	var push, allowRebuild, verify, prune, sign bool
	var key string
	cmd := &cobra.Command{
		Use:   "build",
		Short: "Release: bundle, CRD upgrade check, images, catalog and deploy manifests from opack.yaml",
		Long: `Run the release pipeline of opack.yaml: generate the bundle, validate it, check its CRDs against
the previous release, build the bundle image, add it by digest to the catalog template, render and
validate the catalog (CRD safety on every upgrade edge), build the catalog image and write the OLM
deploy manifests.

Offline by default: images go to OCI layouts under outputs.dir (_output/images/), the kustomization
may read nothing outside the project and no URL or git repository (--allow-remote lets opack fetch
URLs; git never runs), and no registry is asked unless the catalog template names an image no local
layout holds. --push pushes the images to the registries named in opack.yaml instead (--verify reads
them back).

A build is one transaction: every output is staged in a .opack-txn-* folder of the project and
committed with a journal only when every step passed; outputs that did not change are not touched. A
build interrupted while committing (a crash, a kill) is finished by the next build, and until then
opack check says the project is half-applied. A build waits for another build or check of the same
project to finish (a lock on the project folder), so two never interleave their outputs.

With signing in opack.yaml, the deploy manifests carry the image policy clusters enforce
(imagepolicy-openshift/, imagepolicy-sigstore/, imagepolicy-nodes/), every image installing the
catalogs' channel heads makes a node pull is checked against it before anything is pushed (step
signatures: unsigned, wrongly signed or tag-named images are errors), and --push needs --sign: each
image pushed is signed (its digest, claiming its tag), its SLSA provenance and (the bundle) its SPDX
SBOM attached, and every signature and attestation read back from the registry and verified before
the build reports it.

--version overrides the version of opack.yaml and, when opack.yaml sets version, is saved there, so
the next plain build or check works on the same release. A version already in the catalog template
is never given another bundle digest (a released version must not change): build a new version, or
pass --allow-rebuild for a version that was never published.

Nothing opack did not write is deleted: the folders it replaces as a whole (bundle, deploy
manifests, rendered catalogs) may only lose files listed in ` + "`" + project.OwnedFile + "`" + `, which build writes
beside opack.yaml (commit it). Any other file there stops the build with the list, unless
--prune. A catalog in mode fbc is never replaced: build adds the release to its files.

Exit codes: 0 built, 1 a check failed (findings printed), 2 could not run.`,
		Example: `  opack build
  opack build --version 0.0.2
  opack build --push -o github
  COSIGN_PASSWORD=... opack build --push --sign --key env://COSIGN_PRIVATE_KEY`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts, err := f.options(cmd)
			if err != nil {
				return err
			}
			opts = append(opts, project.BuildPush(push), project.BuildAllowRebuild(allowRebuild), project.BuildPrune(prune), project.BuildImageOptions(image.WithVerify(verify)),
				project.BuildSign(sign, key))
			res, err := project.BuildFile(cmd.Context(), f.file, opts...)
			if err := f.report(cmd.OutOrStdout(), cmd.ErrOrStderr(), res, err); err != nil {
				return err
			}
			if !f.quiet || len(res.Written) > 0 {
				printBuild(f.summaryOut(cmd), res, push)
			}
			return nil
		},
	}
	f.add(cmd)
	cmd.Flags().BoolVar(&push, "push", false, "push the images to their registries instead of writing OCI layouts")
	cmd.Flags().BoolVar(&prune, "prune", false, "delete files of the folders build replaces (bundle, deploy, rendered catalogs) that opack did not write ("+project.OwnedFile+" lists those it did)")
	cmd.Flags().BoolVar(&verify, "verify", false, "with --push, read each pushed manifest and blob back by digest before reporting it pushed")
	cmd.Flags().BoolVar(&sign, "sign", false, "with --push, sign the images pushed and attach their provenance and SBOM (opack.yaml signing; each read back and verified)")
	cmd.Flags().StringVar(&key, "key", "", "with --sign, the private key (a cosign key or a PEM key; a file or env://VAR) instead of signing.key or $OPACK_SIGNING_KEY")
	cmd.Flags().BoolVar(&allowRebuild, "allow-rebuild", false, "let a version already in the catalog template get a new bundle digest (only for a version never published)")
	return cmd
}

func printBuild(w io.Writer, res *project.BuildResult, pushed bool) {
	verb := "built"
	if pushed {
		verb = "pushed"
	}
	fmt.Fprintf(w, "version %s\n", res.Version)
	fmt.Fprintf(w, "bundle image %s %s\n", verb, res.Bundle.Digest)
	for _, c := range res.Catalogs {
		fmt.Fprintf(w, "catalog %s image %s %s\n", c.Name, verb, c.Digest)
	}
	for _, s := range res.Signed {
		fmt.Fprintf(w, "signed %s as %s (%s", s.Image, s.Identity, s.Signature)
		if len(s.Predicates) > 0 {
			fmt.Fprintf(w, "; attested %s", strings.Join(s.Predicates, ", "))
		}
		fmt.Fprintln(w, ")")
	}
	if len(res.Written) == 0 {
		fmt.Fprintln(w, "everything up to date (nothing written)")
		return
	}
	for _, o := range res.Written {
		fmt.Fprintf(w, "wrote %s\n", o)
	}
}
