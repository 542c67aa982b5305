package main

import (
	"github.com/opack/opack/internal/escape"
	"strings"

	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/catalog/render"
	"github.com/opack/opack/internal/catalog/template"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/manifest"
)

func newCatalogTemplateCmd() *cobra.Command {
	kinds := template.Kinds()
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.Name
	}
	cmd := &cobra.Command{
		Use:   "template",
		Short: "Render catalog templates (" + strings.Join(names, ", ") + ") and add bundles to them",
		Args:  cobra.NoArgs,
	}
	for _, k := range kinds {
		cmd.AddCommand(newTemplateRenderCmd(k.Name, k.Schema+": "+k.Short))
	}
	cmd.AddCommand(newTemplateAddCmd())
	return cmd
}

// bundleRefs are the references template bundle entries may use: bundle images and, unlike
// opm, bundle folders.
const bundleRefs = render.RefBundleImage | render.RefBundleDir

func newTemplateRenderCmd(typ, what string) *cobra.Command {
	f := &renderFlags{}
	cmd := &cobra.Command{
		Use:   typ + " [FILE|-]",
		Short: "Render a " + typ + " template to a file-based catalog (" + what + ")",
		Long: `Render a ` + typ + ` template to file-based catalog blobs on stdout, exactly as
'opm alpha render-template ` + typ + `' does, except that bundle entries may also name bundle
folders (relative to the template's folder) and bundles are rendered in parallel and cached.
FILE "-" or no FILE reads the template from stdin.`,
		Example: `  opack catalog template ` + typ + ` catalog/template.yaml -o yaml > catalog/operator/catalog.yaml`,
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := requireOutputFormat(f.output, "json", "yaml", "mermaid"); err != nil {
				return err
			}
			data, base, err := readTemplateArg(cmd.InOrStdin(), args)
			if err != nil {
				return err
			}
			r, err := f.renderer(cmd, bundleRefs)
			if err != nil {
				return err
			}
			ctx, cancel := withTimeout(cmd.Context(), f.registry.timeout)
			defer cancel()
			cfg, err := template.RenderTemplate(ctx, data, typ, template.LocalBundleRenderer(base, r.RenderBundle))
			if err != nil {
				return fmt.Errorf("rendering template: %w", err)
			}
			if f.output == "mermaid" {
				return graph.WriteMermaid(cfg, cmd.OutOrStdout(), graph.GraphOptions{DrawV0Semantics: true})
			}
			return fbc.Write(*cfg, f.output, cmd.OutOrStdout())
		},
	}
	f.addFlags(cmd, "json, yaml or mermaid")
	return cmd
}

// readTemplateArg reads the template named by args (stdin for none or "-") and returns the
// folder relative bundle folders are resolved against ("" for stdin).
func readTemplateArg(stdin io.Reader, args []string) ([]byte, string, error) {
	if len(args) == 0 || args[0] == "-" {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, "", fmt.Errorf("reading the template from stdin: %w", err)
		}
		return data, "", nil
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		return nil, "", withExit(exitUsage, fmt.Errorf("reading template: %w", err))
	}
	return data, filepath.Dir(args[0]), nil
}

func newTemplateAddCmd() *cobra.Command {
	f := &renderFlags{}
	var channels []string
	cmd := &cobra.Command{
		Use:   "add TEMPLATE BUNDLE",
		Short: "Append one bundle (image or folder) to a basic or semver template",
		Long: `Append one bundle to a template file, the one-line change of a release: to the bundles
of each --channel archetype (candidate, fast, stable) of a semver template, or as an
olm.bundle entry of a basic template and, for each --channel, as the channel's new head
replacing the current one (a missing channel is created). BUNDLE is an image reference or a
bundle folder (written relative to the template's folder). YAML templates keep their
comments and layout: only lines are added.`,
		Example: `  opack catalog template add catalog/semver.yaml quay.io/example/foo-bundle:v0.4.0 --channel candidate --channel fast
  opack catalog template add catalog/basic.yaml bundle/ --channel stable`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			file, ref := args[0], args[1]
			data, base, err := readTemplateArg(nil, []string{file})
			if err != nil {
				return err
			}
			if st, err := os.Stat(ref); err == nil && st.IsDir() {
				if ref, err = relativeTo(base, ref); err != nil {
					return err
				}
			}
			r, err := f.renderer(cmd, bundleRefs)
			if err != nil {
				return err
			}
			ctx, cancel := withTimeout(cmd.Context(), f.registry.timeout)
			defer cancel()
			out, err := template.AddTemplateBundle(ctx, data, ref, template.TemplateAddOptions{
				Channels: channels,
				Render:   template.LocalBundleRenderer(base, r.RenderBundle),
			})
			if err != nil {
				return fmt.Errorf("adding %s to %s: %w", ref, file, err)
			}
			mode := os.FileMode(0o644)
			if st, err := os.Stat(file); err == nil {
				mode = st.Mode().Perm()
			}
			if err := manifest.WriteFile(file, out, mode); err != nil {
				return err
			}
			if !quietFlag(cmd) {
				fmt.Fprintf(cmd.ErrOrStderr(), "added %s to %s\n", escape.Text(ref), escape.Text(file))
			}
			return nil
		},
	}
	f.registry.addFlags(cmd)
	cmd.Flags().StringArrayVar(&channels, "channel", nil, "channel to add the bundle to (repeatable): candidate, fast or stable for semver templates, a channel name for basic ones")
	cmd.Flags().StringVar(&f.imageRefTemplate, "image-ref-template", "", "image of a bundle folder, as for render (basic templates with --channel)")
	cmd.Flags().BoolVar(&f.noCache, "no-cache", false, "render the bundle again instead of reusing an earlier render")
	cmd.Flags().StringVar(&f.cacheDir, "cache-dir", "", "folder of the render cache (default <user cache folder>/opack/render)")
	return cmd
}

// relativeTo returns folder as a slash path relative to base.
func relativeTo(base, folder string) (string, error) {
	absBase, err := filepath.Abs(base)
	if err != nil {
		return "", err
	}
	absFolder, err := filepath.Abs(folder)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(absBase, absFolder)
	if err != nil {
		return "", fmt.Errorf("locating %s from %s: %w", folder, base, err)
	}
	return filepath.ToSlash(rel), nil
}
