package diff

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/opack/opack/internal/catalog/upgrades"
	"github.com/opack/opack/internal/escape"
	"github.com/opack/opack/internal/finding"
)

// Output formats.
const (
	FormatText     = "text"
	FormatJSON     = "json"
	FormatGitHub   = "github"
	FormatMarkdown = "markdown"
	FormatMermaid  = "mermaid"
)

// Formats are the output formats Write accepts.
var Formats = []string{FormatText, FormatJSON, FormatGitHub, FormatMarkdown, FormatMermaid}

// Write writes r in format.
func Write(w io.Writer, format string, r *Result) error {
	switch format {
	case FormatText, "":
		return WriteText(w, r)
	case FormatJSON:
		return WriteJSON(w, r)
	case FormatGitHub:
		return r.Report().WriteGitHub(w)
	case FormatMarkdown:
		return WriteMarkdown(w, r)
	case FormatMermaid:
		return WriteMermaid(w, r)
	}
	return finding.CheckFormat(format, Formats...)
}

// WriteJSON writes r as one indented object (docs/diff.md describes its fields).
func WriteJSON(w io.Writer, r *Result) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("encoding the diff: %w", err)
	}
	return nil
}

// WriteText writes r for people: a summary line, each changed package, then the findings.
// Every line is escaped as a whole (escape.Text): names and messages from the catalogs cannot
// break it.
func WriteText(w io.Writer, r *Result) error {
	var b textLines
	b.line("%s", r.headline())
	for i := range r.Packages {
		b.line("")
		r.Packages[i].text(&b)
	}
	if len(r.Findings) > 0 {
		b.line("")
		b.line("findings:")
		for _, f := range r.Findings {
			if f.Line > 0 {
				f.File = fmt.Sprintf("%s:%d", f.File, f.Line)
			}
			b.line("  %s", f.String())
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// headline is "BASE → HEAD: n files changed (m unchanged, not decoded); k packages changed".
func (r *Result) headline() string {
	return fmt.Sprintf("%s → %s: %s changed (%d unchanged, not decoded), %s changed",
		r.Base, r.Head, count(len(r.ChangedFiles), "file"), r.UnchangedFiles, count(len(r.Packages), "package"))
}

func count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// textLines builds text output a line at a time, each escaped as one line.
type textLines struct{ strings.Builder }

func (t *textLines) line(format string, args ...any) {
	t.WriteString(escape.Text(fmt.Sprintf(format, args...)))
	t.WriteByte('\n')
}

func (p *Package) text(b *textLines) {
	b.line("package %s (%s)", p.Name, p.Status)
	if p.DefaultChannel != nil {
		b.line("  default channel: %s", arrow(p.DefaultChannel.Before, p.DefaultChannel.After))
	}
	list := func(what string, names []string) {
		if len(names) > 0 {
			b.line("  %s: %s", what, strings.Join(names, ", "))
		}
	}
	list("bundles added", p.BundlesAdded)
	list("bundles removed", p.BundlesRemoved)
	list("bundles changed", p.BundlesChanged)
	list("channels added", p.ChannelsAdded)
	list("channels removed", p.ChannelsRemoved)
	for _, h := range p.HeadsMoved {
		b.line("  head of %s: %s", h.Channel, arrow(p.heads(h.Before), p.heads(h.After)))
	}
	for _, e := range p.Entries {
		b.line("  %s", e.text())
	}
	for _, d := range p.Deprecations {
		b.line("  deprecation of %s: %s", d.Reference, arrow(quoted(d.Before), quoted(d.After)))
	}
	if p.edgesAdded()+p.edgesRemoved() > 0 {
		b.line("  upgrade edges: %d added, %d removed (-o mermaid draws them)", p.edgesAdded(), p.edgesRemoved())
	}
	if len(p.NewlyStranded) > 0 {
		b.line("  newly stranded (reached the head before, no longer):")
		for _, g := range p.strandedByChannel() {
			b.line("    %s: %s", g.channel, g.text)
		}
	}
	if len(p.Upgrades) > 0 {
		b.line("  upgrades that changed (installed release: before ⇒ after):")
		lines, more := p.upgradeLines(maxUpgradeLines)
		for _, line := range lines {
			b.line("    %s", line)
		}
		if more > 0 {
			b.line("    … %d more lines (-o json lists every changed path)", more)
		}
	}
}

// maxUpgradeLines bounds the changed paths the text lists per package.
const maxUpgradeLines = 100

// upgradeLines are the text lines of p's changed paths, at most max of them, and how many more there
// are: only the lines printed are formatted (a long chain changes a path per release). Releases of a
// channel whose paths both OLMs only extend, by the same releases (what adding a bundle after the
// head does), share one line; the JSON keeps every path.
func (p *Package) upgradeLines(max int) (lines []string, more int) {
	type group struct {
		channel  string
		tail     []string
		releases []string
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, u := range p.Upgrades {
		tail, ok := extension(u)
		if !ok {
			continue
		}
		key := u.Channel + "\x00" + strings.Join(tail, "\x00")
		if byKey[key] == nil {
			byKey[key] = &group{channel: u.Channel, tail: tail}
			groups = append(groups, byKey[key])
		}
		byKey[key].releases = append(byKey[key].releases, p.release(u.From, u.Removed))
	}
	line := func(format func() string) {
		if len(lines) < max {
			lines = append(lines, format())
		} else {
			more++
		}
	}
	shared := map[string]bool{}
	for _, g := range groups {
		if len(g.releases) < 2 {
			continue
		}
		for _, r := range g.releases {
			shared[g.channel+"\x00"+r] = true
		}
		line(func() string {
			return fmt.Sprintf("%s %s (%d releases): v0 and v1 as before, then → %s", g.channel, abbreviate(g.releases), len(g.releases), p.path(g.tail, 0))
		})
	}
	for _, u := range p.Upgrades {
		if r := p.release(u.From, u.Removed); !shared[u.Channel+"\x00"+r] {
			line(func() string { return fmt.Sprintf("%s %s: %s", u.Channel, r, p.pathText(u)) })
		}
	}
	return lines, more
}

// extension returns what u's paths gained when both OLMs keep their path and go on by the same
// releases, ending at the head as before.
func extension(u PathChange) ([]string, bool) {
	if u.V0ElidedBefore+u.V0ElidedAfter+u.V1ElidedBefore+u.V1ElidedAfter > 0 {
		return nil, false // long paths: each listed as it is
	}
	if u.V0StopBefore != u.V0StopAfter || len(u.V0After) <= len(u.V0Before) || !equal(u.V0Before, u.V0After[:len(u.V0Before)]) ||
		len(u.V1After) <= len(u.V1Before) || !equal(u.V1Before, u.V1After[:len(u.V1Before)]) {
		return nil, false
	}
	tail := u.V0After[len(u.V0Before):]
	return tail, equal(tail, u.V1After[len(u.V1Before):])
}

// abbreviate lists up to five names, else the first three, "…" and the last.
func abbreviate(names []string) string {
	if len(names) <= 5 {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:3], ", ") + ", …, " + names[len(names)-1]
}

func (e EntryChange) text() string {
	switch {
	case e.Field == "entry" && e.After == "present":
		return fmt.Sprintf("channel %s: entry %s added", e.Channel, e.Bundle)
	case e.Field == "entry":
		return fmt.Sprintf("channel %s: entry %s removed", e.Channel, e.Bundle)
	}
	return fmt.Sprintf("channel %s: %s of %s: %s", e.Channel, e.Field, e.Bundle, arrow(e.Before, e.After))
}

func arrow(before, after string) string { return orNone(before) + " → " + orNone(after) }

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func quoted(s string) string {
	if s == "" {
		return ""
	}
	return fmt.Sprintf("%q", s)
}

// release names a release as a version when the package's versions are unique.
func (p *Package) release(name string, removed bool) string {
	s := p.short(name)
	if removed {
		s += " (removed)"
	}
	return s
}

// heads shortens a head, or the comma-separated heads of a channel that has several.
func (p *Package) heads(s string) string {
	if s == "" {
		return ""
	}
	names := strings.Split(s, ", ")
	for i, n := range names {
		names[i] = p.short(n)
	}
	if len(names) > 1 {
		return strings.Join(names, ", ") + " (no single head)"
	}
	return names[0]
}

func (p *Package) short(name string) string {
	if v, ok := p.versions[name]; ok {
		return v
	}
	return name
}

func (p *Package) path(names []string, elided int) string {
	if len(names) == 0 {
		return "stays"
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = p.short(n)
	}
	return strings.TrimPrefix(upgrades.PathText("", out, elided), " → ")
}

// pathText is "v0 a → b ⇒ a → c; v1 b ⇒ c", each OLM only when its path changed.
func (p *Package) pathText(u PathChange) string {
	var parts []string
	if u.v0Changed() || u.V0StopBefore != u.V0StopAfter {
		parts = append(parts, "v0 "+p.path(u.V0Before, u.V0ElidedBefore)+stopText(u.V0StopBefore)+" ⇒ "+p.path(u.V0After, u.V0ElidedAfter)+stopText(u.V0StopAfter))
	}
	if u.v1Changed() {
		parts = append(parts, "v1 "+p.path(u.V1Before, u.V1ElidedBefore)+" ⇒ "+p.path(u.V1After, u.V1ElidedAfter))
	}
	return strings.Join(parts, "; ")
}

// stopText notes a v0 path that does not end at the head.
func stopText(stop string) string {
	if stop == "" || stop == "head" {
		return ""
	}
	return " (" + stop + ")"
}

func equal(a, b []string) bool { return strings.Join(a, "\x00") == strings.Join(b, "\x00") }
