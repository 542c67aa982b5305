package check

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/image"
)

// Graph output formats.
const (
	GraphMermaid = "mermaid"
	GraphDot     = "dot"
)

// WriteGraph writes the upgrade graph of cfg as mermaid (opm alpha render-graph's output,
// plus unsafe edges in red) or dot. Edges are checked for CRD safety with src (nil: the
// CRDs the catalog carries in olm.bundle.object) unless o.Unsafe is already set.
func WriteGraph(ctx context.Context, cfg *fbc.DeclarativeConfig, w io.Writer, format string, o graph.GraphOptions, src CRDSource) error {
	if format != GraphMermaid && format != GraphDot {
		return fmt.Errorf("unknown output format %q: use one of %s, %s", format, GraphMermaid, GraphDot)
	}
	if err := checkGraphPackage(cfg, o.Package); err != nil {
		return err
	}
	m, _ := ConvertToModel(cfg)
	g := graph.BuildGraph(m)
	if err := graph.CheckDrawable(g, o.Package, o); err != nil {
		return err
	}
	if o.Unsafe == nil {
		_, o.Unsafe = CheckEdges(ctx, m, g, src)
	}
	if format == GraphDot {
		return graph.WriteDot(m, g, w, o)
	}
	return graph.WriteMermaid(cfg, w, o)
}

// GraphRef loads a catalog folder or image and writes its upgrade graph (see WriteGraph).
func GraphRef(ctx context.Context, ref string, images image.Puller, lopts []fbc.LoadOption, w io.Writer, format string, o graph.GraphOptions, src CRDSource) error {
	cfg, err := fbc.LoadRef(ctx, ref, images, lopts...)
	if err != nil {
		return err
	}
	return WriteGraph(ctx, cfg, w, format, o, src)
}

// checkGraphPackage refuses a --package the catalog does not hold (the graph would be empty).
func checkGraphPackage(cfg *fbc.DeclarativeConfig, pkg string) error {
	if pkg == "" {
		return nil
	}
	names := map[string]bool{}
	for _, p := range cfg.Packages {
		names[p.Name] = true
	}
	for _, c := range cfg.Channels {
		names[c.Package] = true
	}
	if names[pkg] {
		return nil
	}
	known := slices.Sorted(maps.Keys(names))
	if len(known) > 10 {
		known = append(known[:10:10], fmt.Sprintf("... %d more", len(names)-10))
	}
	return fmt.Errorf("package %q is not in the catalog (packages: %s)", pkg, strings.Join(known, ", "))
}
