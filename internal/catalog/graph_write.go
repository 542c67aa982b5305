package catalog

import (
	"context"
	"fmt"
	"io"
)

// Graph output formats.
const (
	GraphMermaid = "mermaid"
	GraphDot     = "dot"
)

// WriteGraph writes the upgrade graph of cfg as mermaid (opm alpha render-graph's output,
// plus unsafe edges in red) or dot. Edges are checked for CRD safety with src (nil: the
// CRDs the catalog carries in olm.bundle.object) unless o.Unsafe is already set.
func WriteGraph(ctx context.Context, cfg *DeclarativeConfig, w io.Writer, format string, o GraphOptions, src CRDSource) error {
	if format != GraphMermaid && format != GraphDot {
		return fmt.Errorf("unknown graph format %q (want mermaid or dot)", format)
	}
	m, _ := ConvertToModel(cfg)
	g := BuildGraph(m)
	if o.Unsafe == nil {
		_, o.Unsafe = CheckEdges(ctx, m, g, src)
	}
	if format == GraphDot {
		return WriteDot(m, g, w, o)
	}
	return WriteMermaid(cfg, w, o)
}

// GraphRef loads a catalog folder or image and writes its upgrade graph (see WriteGraph).
func GraphRef(ctx context.Context, ref string, unpack ImageUnpacker, lopts []LoadOption, w io.Writer, format string, o GraphOptions, src CRDSource) error {
	cfg, err := LoadRef(ctx, ref, unpack, lopts...)
	if err != nil {
		return err
	}
	return WriteGraph(ctx, cfg, w, format, o, src)
}
