package diff

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/opack/opack/internal/escape"
	"github.com/opack/opack/internal/finding"
)

// What the markdown comment shows before folding the rest into its details: findings, package
// rows, and the characters of the details (GitHub refuses comments over 65,536).
const (
	maxMarkdownFindings = 10
	maxMarkdownPackages = 10
	maxMarkdownDetails  = 50_000
)

// WriteMarkdown writes r as one pull-request comment: a verdict, one table row per package, the
// first errors, and the full text output folded in <details>.
func WriteMarkdown(w io.Writer, r *Result) error {
	var b strings.Builder
	rep := r.Report()
	verdict := "passed"
	if !rep.Passed() {
		verdict = "failed"
	}
	fmt.Fprintf(&b, "### opack catalog diff: %s (%s)\n\n", verdict, rep.Summary())
	fmt.Fprintf(&b, "%s changed, %s changed (%d files unchanged).\n\n", count(len(r.Packages), "package"), count(len(r.ChangedFiles), "file"), r.UnchangedFiles)
	if len(r.Packages) > 0 {
		b.WriteString("| package | bundles | channels | heads | upgrades | findings |\n|---|---|---|---|---|---|\n")
		for i, p := range tableOrder(r.Packages) {
			if i == maxMarkdownPackages {
				fmt.Fprintf(&b, "| … %d more in the details | | | | | |\n", len(r.Packages)-i)
				break
			}
			fmt.Fprintf(&b, "| %s (%s) | %s | %s | %s | %s | %s |\n", escape.MarkdownCode(p.Name, true), p.Status, plusMinus(p.BundlesAdded, p.BundlesRemoved),
				plusMinus(p.ChannelsAdded, p.ChannelsRemoved), p.headsCell(), p.upgradesCell(), findingsCell(p.Findings))
		}
		b.WriteString("\n")
	}
	n := 0
	for _, f := range r.Findings {
		if f.Severity == finding.SeverityInfo {
			continue
		}
		if n == maxMarkdownFindings {
			fmt.Fprintf(&b, "- … and more in the details\n")
			break
		}
		n++
		where := ""
		if f.File != "" {
			file := f.File
			if f.Line > 0 {
				file += fmt.Sprintf(":%d", f.Line)
			}
			where = " (" + escape.MarkdownCode(file, false) + ")"
		}
		object := ""
		if f.Object != "" {
			object = " " + escape.MarkdownCode(f.Object, false)
		}
		fmt.Fprintf(&b, "- **%s** %s%s: %s%s\n", f.Severity, escape.MarkdownCode(f.Rule, false), object, escape.MarkdownCode(clip(f.Message, 300), false), where)
	}
	if n > 0 {
		b.WriteString("\n")
	}
	var text strings.Builder
	if err := WriteText(&text, r); err != nil {
		return err
	}
	details := text.String() // one line per item: WriteText escapes what came from the catalogs
	if len(details) > maxMarkdownDetails {
		cut := strings.LastIndex(details[:maxMarkdownDetails], "\n") + 1
		details = details[:cut] + fmt.Sprintf("… %d more characters: run opack catalog diff %s %s\n", len(details)-cut, r.Base, r.Head)
	}
	fence := escape.CodeFence(details) // longer than any run of backticks in it: nothing in it closes the block
	b.WriteString("<details><summary>Details</summary>\n\n" + fence + "text\n" + details + fence + "\n\n</details>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// tableOrder puts the packages with errors first, then warnings, keeping name order within each.
func tableOrder(ps []Package) []*Package {
	out := make([]*Package, len(ps))
	for i := range ps {
		out[i] = &ps[i]
	}
	worst := func(p *Package) int {
		w := 2
		for _, f := range p.Findings {
			w = min(w, rank(f.Severity))
		}
		return w
	}
	slices.SortStableFunc(out, func(a, b *Package) int { return worst(a) - worst(b) })
	return out
}

func plusMinus(added, removed []string) string {
	var parts []string
	if len(added) > 0 {
		parts = append(parts, fmt.Sprintf("+%d", len(added)))
	}
	if len(removed) > 0 {
		parts = append(parts, fmt.Sprintf("−%d", len(removed)))
	}
	return strings.Join(parts, " ")
}

func (p *Package) headsCell() string {
	var parts []string
	for _, h := range p.HeadsMoved {
		parts = append(parts, escape.MarkdownCode(h.Channel+": "+arrow(p.heads(h.Before), p.heads(h.After)), true))
	}
	if len(parts) > 3 {
		parts = append(parts[:3], fmt.Sprintf("+%d more", len(parts)-3))
	}
	return strings.Join(parts, "<br>")
}

func (p *Package) upgradesCell() string {
	var parts []string
	if len(p.Upgrades) > 0 {
		parts = append(parts, count(len(p.Upgrades), "path")+" changed")
	}
	if len(p.NewlyStranded) > 0 {
		parts = append(parts, fmt.Sprintf("**%d newly stranded**", len(p.NewlyStranded)))
	}
	return strings.Join(parts, ", ")
}

func findingsCell(fs []finding.Finding) string {
	r := finding.Report{Findings: fs}
	if r.Count(finding.SeverityError)+r.Count(finding.SeverityWarning) == 0 {
		return ""
	}
	return r.Summary()
}

// clip cuts s to about n bytes (at a space), marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if i := strings.LastIndex(s[:n], " "); i > 0 {
		n = i
	}
	return s[:n] + " …"
}
