package check

import (
	"fmt"
	"strings"

	"github.com/opack/opack/internal/catalog/upgrades"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/finding"
)

// maxStrandedNamed bounds the releases one stranded finding names; the rest are counted.
const maxStrandedNamed = 20

// checkStranded warns, per channel, about the releases (not the head) that OLM v0 or OLM v1 never
// brings to the channel head (upgrades.Stranded; docs/upgrades.md has OLM's rules).
func checkStranded(m *fbc.Model) []finding.Finding {
	var out []finding.Finding
	for _, pn := range m.SortedPackages() {
		for _, c := range upgrades.Stranded(m, pn) {
			var names []string
			for _, r := range c.Releases[:min(len(c.Releases), maxStrandedNamed)] {
				names = append(names, strandedText(r))
			}
			if more := len(c.Releases) - len(names); more > 0 {
				names = append(names, fmt.Sprintf("and %d more", more))
			}
			out = append(out, finding.Warnf("", fmt.Sprintf("package %q channel %q", pn, c.Channel), ruleStranded,
				"%d stranded release(s), never brought to the head %s: %s (opack catalog upgrades --package %s --channel %s shows why)",
				len(c.Releases), c.Head, strings.Join(names, "; "), pn, c.Channel))
		}
	}
	return out
}

// strandedText is a stranded release and where each OLM leaves it.
func strandedText(r upgrades.StrandedRelease) string {
	var where []string
	if r.V0Stop != "" {
		where = append(where, "OLM v0 stops at "+r.V0Stop)
	}
	if r.V1Stop != "" {
		where = append(where, "OLM v1 stops at "+r.V1Stop)
	}
	return r.Name + " (" + strings.Join(where, ", ") + ")"
}
