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

// Report loads a catalog folder or image, computes the upgrades req asks for (every package when
// req.Package is "") and writes them in format.
func Report(ctx context.Context, ref string, images image.Puller, lopts []fbc.LoadOption, w io.Writer, format string, req Request) error {
	lopts = append(lopts, fbc.WithoutPropertyValues(fbc.TypeBundleObject, "olm.csv.metadata"))
	cfg, err := fbc.LoadRef(ctx, ref, images, lopts...)
	if err != nil {
		return err
	}
	m, _ := fbc.Convert(cfg)
	if req.Package != "" && m.Packages[req.Package] == nil {
		return fmt.Errorf("package %q is not in the catalog (packages: %s)", req.Package, packageList(m))
	}
	results, err := ComputeAll(m, req)
	if err != nil {
		return err
	}
	return Write(w, format, m, results)
}

// ComputeAll is Compute for req.Package, or for every package of m (sorted) when it is "".
func ComputeAll(m *fbc.Model, req Request) ([]*Result, error) {
	if req.Package != "" {
		res, err := Compute(m, req)
		if err != nil {
			return nil, err
		}
		return []*Result{res}, nil
	}
	if req.Channel != "" || req.From != "" {
		return nil, fmt.Errorf("a channel or a release to start from needs a package")
	}
	var out []*Result
	for _, pn := range m.SortedPackages() {
		res, err := Compute(m, Request{Package: pn})
		if err != nil {
			return nil, fmt.Errorf("computing the upgrades of package %q: %w", pn, err)
		}
		out = append(out, res)
	}
	return out, nil
}

func packageList(m *fbc.Model) string {
	names := m.SortedPackages()
	if len(names) > 10 {
		names = append(names[:10:10], fmt.Sprintf("... %d more", len(m.Packages)-10))
	}
	return strings.Join(names, ", ")
}

// Write writes results in format; m is the model they were computed from (mermaid draws its edges).
func Write(w io.Writer, format string, m *fbc.Model, results []*Result) error {
	switch format {
	case FormatText:
		return WriteText(w, results)
	case FormatJSON:
		return WriteJSON(w, results)
	case FormatMermaid:
		return WriteMermaid(w, m, results)
	}
	return fmt.Errorf("unknown output format %q: use one of %s", format, strings.Join(Formats, ", "))
}

// Document is the JSON output: {"packages": [Result...]} (docs/upgrades.md).
type Document struct {
	Packages []*Result `json:"packages"`
}

// WriteJSON writes results as an indented Document.
func WriteJSON(w io.Writer, results []*Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if results == nil {
		results = []*Result{}
	}
	return enc.Encode(Document{Packages: results})
}

// WriteText writes results for people: per package and channel, each release's OLM v0 path and
// OLM v1 target, then the stranded releases.
func WriteText(w io.Writer, results []*Result) error {
	var b strings.Builder
	for i, res := range results {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "package %s", res.Package)
		if res.DefaultChannel != "" {
			fmt.Fprintf(&b, " (default channel %s)", res.DefaultChannel)
		}
		b.WriteString("\n")
		for _, c := range res.Channels {
			writeChannelText(&b, &c)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeChannelText(b *strings.Builder, c *ChannelResult) {
	show := func(name string) string {
		if v, ok := c.versions[name]; ok {
			return v
		}
		return name
	}
	showAll := func(names []string) []string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = show(n)
		}
		return out
	}
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
	var stranded []string
	for _, r := range c.Releases {
		if r.Name == "" {
			fmt.Fprintf(b, "  %s", r.Version)
		} else {
			fmt.Fprintf(b, "  %s  %s", r.Version, r.Name)
		}
		switch {
		case r.NotInCatalog && r.Name == "":
			b.WriteString(" [not in catalog; matched by skipRange only: give NAME@VERSION to match replaces and skips too]")
		case r.NotInCatalog:
			b.WriteString(" [not in catalog]")
		case r.NotInChannel:
			b.WriteString(" [not in this channel]")
		}
		if r.Deprecated {
			b.WriteString(" [deprecated]")
		}
		if r.Name != "" && r.Name == c.Head {
			b.WriteString("  (head)")
			if len(r.V0Path) == 0 && len(r.V1Path) == 0 {
				b.WriteString("\n")
				continue
			}
		}
		b.WriteString("\n")
		from := r.Version
		if r.Name != "" {
			from = show(r.Name)
		}
		fmt.Fprintf(b, "    v0: %s\n", v0Text(&r, from, showAll(r.V0Path), r.V0Elided))
		fmt.Fprintf(b, "    v1: %s\n", v1Text(&r, from, showAll(r.V1Path), r.V1Elided, c.Head))
		if len(r.StrandedIn) > 0 {
			stranded = append(stranded, fmt.Sprintf("%s (%s)", from, strings.Join(r.StrandedIn, ", ")))
		}
	}
	if len(stranded) > 0 {
		fmt.Fprintf(b, "  stranded, never brought to the head %s: %s\n", show(c.Head), strings.Join(stranded, ", "))
	}
}

// PathText joins a path (as Release lists it) after from: "from → a → b", with "… (n more)"
// where n releases were left out before the last.
func PathText(from string, path []string, elided int) string {
	if elided == 0 || len(path) < 2 {
		return from + " → " + strings.Join(path, " → ")
	}
	return from + " → " + strings.Join(path[:len(path)-1], " → ") + fmt.Sprintf(" → … (%d more) → ", elided) + path[len(path)-1]
}

func v0Text(r *Release, from string, path []string, elided int) string {
	switch {
	case r.V0Stop == StopUnresolvable:
		return "no upgrade (resolution fails in this channel)"
	case len(path) == 0 && r.V0Ignored != "":
		return "stays at " + from + ": " + r.V0Ignored
	case len(path) == 0:
		return "stays at " + from + ": no entry replaces it, skips it or has a skipRange including it"
	}
	s := PathText(from, path, elided)
	switch r.V0Stop {
	case StopHead:
		return s + " (head)"
	case StopCycle:
		return s + " (stops: the next upgrade is a release it installed before)"
	}
	if r.V0Ignored != "" {
		return s + " (stops: " + r.V0Ignored + ")"
	}
	return s + " (stops: nothing upgrades " + last(path) + ")"
}

func v1Text(r *Release, from string, path []string, elided int, head string) string {
	if len(path) == 0 {
		if r.V1Passed != "" {
			return "stays at " + from + ": " + r.V1Passed
		}
		return "stays at " + from + ": no successor in the channel"
	}
	s := PathText(from, path, elided)
	if last(r.V1Path) == head {
		return s + " (head)"
	}
	if r.V1Passed != "" {
		return s + " (stops: " + r.V1Passed + ")"
	}
	return s + " (stops: no successor)"
}

func displayRelease(r *Release) string {
	if r.Name == "" {
		return r.Version
	}
	return r.Name
}
