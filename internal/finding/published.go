package finding

import (
	"fmt"
	"strings"
)

// RulePublished is the rule of the line that stands for the findings on a package's published
// releases (FoldPublished).
const RulePublished = "catalog/published"

// FoldPublished replaces the findings on content already published (Published: edges and releases no
// build can change) by one info finding per file and package, in the place of the first: how many
// there are, by severity, and how to list them (hint, e.g. "list them with --published or -v"). The
// other findings are kept, in order. A log that repeats on every run what nobody can change teaches
// its readers to skip warnings; -o json keeps every finding (do not fold it).
func FoldPublished(fs []Finding, hint string) []Finding {
	type key struct{ file, pkg string }
	folded := map[key][]Finding{}
	for _, f := range fs {
		if f.Published {
			k := key{f.File, f.Package}
			if k.pkg == "" {
				k.pkg = PackageOf(f.Object)
			}
			folded[k] = append(folded[k], f)
		}
	}
	if len(folded) == 0 {
		return fs
	}
	out := make([]Finding, 0, len(fs))
	done := map[key]bool{}
	for _, f := range fs {
		if !f.Published {
			out = append(out, f)
			continue
		}
		k := key{f.File, f.Package}
		if k.pkg == "" {
			k.pkg = PackageOf(f.Object)
		}
		if done[k] {
			continue
		}
		done[k] = true
		out = append(out, publishedSummary(k.file, k.pkg, folded[k], hint))
	}
	return out
}

// publishedSummary is the info finding standing for fs, the published findings of one package.
func publishedSummary(file, pkg string, fs []Finding, hint string) Finding {
	var counts []string
	for _, s := range []Severity{SeverityError, SeverityWarning, SeverityInfo} {
		n := 0
		for _, f := range fs {
			if f.Severity == s {
				n++
			}
		}
		if n > 0 {
			counts = append(counts, plural(n, string(s)))
		}
	}
	object := ""
	if pkg != "" {
		object = fmt.Sprintf("package %q", pkg)
	}
	return Finding{Severity: SeverityInfo, File: file, Object: object, Package: pkg, Rule: RulePublished,
		Message: fmt.Sprintf("%s on releases already published, which this build cannot change (%s): %s",
			plural(len(fs), "finding"), strings.Join(counts, ", "), hint)}
}
