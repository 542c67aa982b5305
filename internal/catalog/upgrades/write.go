package upgrades

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/image"
)

// Output formats.
const (
	FormatText    = "text"
	FormatJSON    = "json"
	FormatMermaid = "mermaid"
)

// Formats are the output formats Write accepts.
var Formats = []string{FormatText, FormatJSON, FormatMermaid}

// Report loads a catalog folder or image, computes the upgrades req asks for and writes them
// in format.
func Report(ctx context.Context, ref string, images image.Puller, lopts []fbc.LoadOption, w io.Writer, format string, req Request) error {
	lopts = append(lopts, fbc.WithoutPropertyValues(fbc.TypeBundleObject, "olm.csv.metadata"))
	cfg, err := fbc.LoadRef(ctx, ref, images, lopts...)
	if err != nil {
		return err
	}
	m, _ := fbc.Convert(cfg)
	if m.Packages[req.Package] == nil {
		return fmt.Errorf("package %q is not in the catalog (packages: %s)", req.Package, packageList(m))
	}
	res, err := Compute(m, req)
	if err != nil {
		return err
	}
	return Write(w, format, m, res)
}

func packageList(m *fbc.Model) string {
	names := m.SortedPackages()
	if len(names) > 10 {
		names = append(names[:10:10], fmt.Sprintf("... %d more", len(m.Packages)-10))
	}
	return strings.Join(names, ", ")
}

// Write writes res in format; m is the model res was computed from (mermaid draws its edges).
func Write(w io.Writer, format string, m *fbc.Model, res *Result) error {
	switch format {
	case FormatText:
		return WriteText(w, res)
	case FormatJSON:
		return WriteJSON(w, res)
	case FormatMermaid:
		return WriteMermaid(w, m, res)
	}
	return fmt.Errorf("unknown output format %q: use one of %s", format, strings.Join(Formats, ", "))
}

// WriteJSON writes res as indented JSON (the shape of Result, documented in docs/upgrades.md).
func WriteJSON(w io.Writer, res *Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(res)
}

// WriteText writes res for people: per channel, each release's OLM v0 path and OLM v1 target,
// then the stranded releases.
func WriteText(w io.Writer, res *Result) error {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s", res.Package)
	if res.DefaultChannel != "" {
		fmt.Fprintf(&b, " (default channel %s)", res.DefaultChannel)
	}
	b.WriteString("\n")
	for _, c := range res.Channels {
		writeChannelText(&b, &c)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeChannelText(b *strings.Builder, c *ChannelResult) {
	fmt.Fprintf(b, "\nchannel %s", c.Name)
	if c.Head != "" {
		fmt.Fprintf(b, " (head %s)", c.Head)
	} else {
		b.WriteString(" (no single head)")
	}
	b.WriteString("\n")
	if c.V0Error != "" {
		fmt.Fprintf(b, "  OLM v0 cannot resolve in this channel: %s\n", c.V0Error)
	}
	for _, r := range c.Releases {
		name := r.Name
		if name == "" {
			name = "(unnamed)"
		}
		fmt.Fprintf(b, "  %s %s", name, r.Version)
		if r.NotInCatalog {
			b.WriteString(" [not in catalog]")
		}
		if r.Deprecated {
			b.WriteString(" [deprecated]")
		}
		if r.Name != "" && r.Name == c.Head {
			b.WriteString("  head\n")
			continue
		}
		b.WriteString("\n")
		fmt.Fprintf(b, "    v0: %s\n", v0Text(&r, c.Head))
		fmt.Fprintf(b, "    v1: %s\n", v1Text(&r, c.Head))
	}
	if len(c.Stranded) > 0 {
		fmt.Fprintf(b, "  stranded (not brought to the head %s): %s\n", c.Head, strings.Join(c.Stranded, ", "))
	}
}

func v0Text(r *Release, head string) string {
	switch {
	case r.V0Stop == StopUnresolvable:
		return "no upgrade (resolution fails in this channel)"
	case len(r.V0Path) == 0:
		return "no upgrade: no entry replaces, skips or skipRange-includes it"
	}
	s := displayRelease(r) + " → " + strings.Join(r.V0Path, " → ")
	switch r.V0Stop {
	case StopHead:
		return s + " (head)"
	case StopCycle:
		return s + " (then a release it installed before: stops)"
	}
	return s + " (stops: nothing upgrades " + last(r.V0Path) + ")"
}

func v1Text(r *Release, head string) string {
	if len(r.V1Path) == 0 {
		return "stays (no successor in the channel)"
	}
	s := "→ " + r.V1Path[0]
	if len(r.V1Path) > 1 {
		s += ", then → " + strings.Join(r.V1Path[1:], ", then → ")
	}
	if last(r.V1Path) == head {
		return s + " (head)"
	}
	return s + " (stays there)"
}

func displayRelease(r *Release) string {
	if r.Name == "" {
		return r.Version
	}
	return r.Name
}
