package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/opack/opack/internal/image"
	"github.com/spf13/cobra"
)

func newImageInspectCmd() *cobra.Command {
	f := &registryFlags{}
	var output string
	cmd := &cobra.Command{
		Use:   "inspect REF|oci:DIR[:TAG]|docker-archive:FILE",
		Short: "Print an image's labels, platforms, layers and digests",
		Example: `  opack image inspect quay.io/example/catalog:latest
  opack image inspect oci:out/oci:v0.0.1 -o json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := requireOutputFormat(output, "text", "json"); err != nil {
				return err
			}
			ctx, cancel := withTimeout(cmd.Context(), f.timeout)
			defer cancel()
			src, err := image.ParseSource(args[0])
			if err != nil {
				return withExit(exitUsage, err)
			}
			if !src.IsImage() {
				return withExit(exitUsage, fmt.Errorf("%s is a local file or folder, not an image: give REGISTRY/REPO:TAG, REPO@DIGEST, oci:DIR[:TAG], a folder holding an OCI image layout, or docker-archive:FILE[:REPO:TAG] (a docker save tarball)", args[0]))
			}
			r, err := image.Inspect(ctx, src.Ref, f.options(cmd.ErrOrStderr())...)
			if err != nil {
				return registryHint(err)
			}
			if output == "json" {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(r)
			}
			return writeReport(cmd.OutOrStdout(), r)
		},
	}
	f.addFlags(cmd)
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: text or json")
	return cmd
}

// writeReport prints r for people: one block per image, maps sorted by key.
func writeReport(w io.Writer, r *image.Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "ref:       %s\n", r.Ref)
	if r.Name != "" {
		fmt.Fprintf(&b, "name:      %s\n", r.Name)
	}
	fmt.Fprintf(&b, "digest:    %s\nmediaType: %s\n", r.Digest, r.MediaType)
	writeMap(&b, "annotations", "", r.Annotations)
	for _, img := range r.Images {
		fmt.Fprintf(&b, "\nimage %s %s\n  mediaType: %s\n  config:    %s\n", img.Platform, img.Digest, img.MediaType, img.Config)
		if img.Created != "" {
			fmt.Fprintf(&b, "  created:   %s\n", img.Created)
		}
		if len(img.Entrypoint) > 0 || len(img.Cmd) > 0 {
			fmt.Fprintf(&b, "  entrypoint: %q\n  cmd:        %q\n", img.Entrypoint, img.Cmd)
		}
		writeMap(&b, "labels", "  ", img.Labels)
		writeMap(&b, "annotations", "  ", img.Annotations)
		fmt.Fprintf(&b, "  layers:\n")
		for _, l := range img.Layers {
			fmt.Fprintf(&b, "    %s %d %s\n", l.Digest, l.Size, l.MediaType)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeMap(b *strings.Builder, title, indent string, m map[string]string) {
	if len(m) == 0 {
		return
	}
	fmt.Fprintf(b, "%s%s:\n", indent, title)
	for _, k := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(b, "%s  %s=%s\n", indent, k, m[k])
	}
}
