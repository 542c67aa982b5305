package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/opack/opack/internal/catalog/render"
	"github.com/opack/opack/internal/escape"
	"github.com/opack/opack/internal/image"
)

// renderFlags are shared by `catalog render` and `catalog template`.
type renderFlags struct {
	registry         registryFlags
	output           string
	imageRefTemplate string
	migrateLevel     string
	migrate          bool
	noCache          bool
	cacheDir         string
}

func (f *renderFlags) addFlags(cmd *cobra.Command, outputs string) {
	f.registry.addFlags(cmd)
	cmd.Flags().StringVarP(&f.output, "output", "o", "json", "output format: "+outputs)
	cmd.Flags().StringVar(&f.imageRefTemplate, "image-ref-template", "",
		"image of bundles rendered from folders, a Go template over {{.Package}}, {{.Name}} and {{.Version}}")
	cmd.Flags().StringVar(&f.migrateLevel, "migrate-level", "",
		"apply opm's migrations up to this level: "+strings.Join(render.MigrationLevels(), ", "))
	cmd.Flags().BoolVar(&f.migrate, "migrate", false, "apply every migration (same as --migrate-level with the last level)")
	cmd.Flags().BoolVar(&f.noCache, "no-cache", false, "render every bundle again instead of reusing earlier renders")
	cmd.Flags().StringVar(&f.cacheDir, "cache-dir", "", "folder of the render cache (default <user cache folder>/opack/render)")
	cmd.MarkFlagsMutuallyExclusive("migrate", "migrate-level")
}

// renderer builds the renderer the flags describe; mask limits the references it accepts.
func (f *renderFlags) renderer(cmd *cobra.Command, mask render.RefType) (*render.Renderer, error) {
	level := f.migrateLevel
	if f.migrate {
		level = "all"
	}
	opts := []render.RenderOption{
		render.WithPuller(image.NewPuller(f.registry.options(cmd.ErrOrStderr())...)),
		render.WithImageRefTemplate(f.imageRefTemplate),
		render.WithMigrateLevel(level),
		render.WithAllowedRefs(mask),
		render.WithRenderLog(cmd.ErrOrStderr()),
	}
	if !f.noCache {
		c, err := render.NewRenderCache(f.cacheDir)
		if err != nil {
			// No user cache folder (no $HOME): render without a cache rather than fail.
			fmt.Fprintf(cmd.ErrOrStderr(), "warning: rendering without a cache: %v\n", err)
		} else {
			opts = append(opts, render.WithRenderCache(c))
		}
	}
	if catalogIsTerminal(cmd.ErrOrStderr()) {
		w := escape.RawWriter(cmd.ErrOrStderr()) // opack's own \r and erase sequence
		opts = append(opts, render.WithRenderProgress(func(done, total int) {
			if total < 2 {
				return
			}
			fmt.Fprintf(w, "\rrendering: %d/%d references", done, total)
			if done == total {
				fmt.Fprint(w, "\r\033[K")
			}
		}))
	}
	r, err := render.NewRenderer(opts...)
	if err != nil {
		return nil, withExit(exitUsage, err)
	}
	return r, nil
}

func newCatalogRenderCmd() *cobra.Command {
	f := &renderFlags{}
	cmd := &cobra.Command{
		Use:   "render REF...",
		Short: "Render bundles and catalogs to file-based catalog blobs, byte-identical to opm render",
		Long: `Render bundle folders, bundle images (registry references, oci:DIR or docker-archive:FILE), package-manifest
folders and file-based catalogs (folders or images) into file-based catalog blobs on stdout,
exactly as 'opm render' does. References are rendered in parallel; rendered bundles are
cached by content (image digest or folder hash), so rendering again after one bundle changed
costs one bundle: cached bundles are copied to the output, and a stat index (as git's) spares
reading bundle files whose size, mtime, ctime and inode did not change. --no-cache renders
everything again.`,
		Example: `  opack catalog render bundle/ -o yaml --image-ref-template 'quay.io/example/{{.Package}}-bundle:v{{.Version}}'
  opack catalog render quay.io/example/foo-bundle:v0.3.1 oci:out/oci:v0.3.2 --migrate-level bundle-object-to-csv-metadata
  opack catalog render catalog/ > catalog.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := requireOutputFormat(f.output, "json", "yaml"); err != nil {
				return err
			}
			r, err := f.renderer(cmd, render.RefAll)
			if err != nil {
				return err
			}
			ctx, cancel := withTimeout(cmd.Context(), f.registry.timeout)
			defer cancel()
			return r.RenderTo(ctx, cmd.OutOrStdout(), f.output, args...)
		},
	}
	f.addFlags(cmd, "json or yaml")
	return cmd
}
