package config

import (
	"fmt"
	"strings"
)

// Waived returns the waiver accepting a finding of rule about crd and the field path, if any. A waiver
// without crd (or path) matches every CRD (or path); a waiver path also matches the fields below it
// ("spec.size" waives "spec.size.minimum"). Paths are compared as findings print them or bare:
// "^.spec.size" and "spec.size" are the same path.
func (p *Project) Waived(rule, crd, path string) (Waiver, bool) {
	if i := p.WaiverIndex(rule, crd, path); i >= 0 {
		return p.Waivers[i], true
	}
	return Waiver{}, false
}

// WaiverIndex is Waived's answer as an index into Waivers; -1 when no waiver matches.
func (p *Project) WaiverIndex(rule, crd, path string) int {
	path = barePath(path)
	for i, w := range p.Waivers {
		if w.Rule != rule || (w.CRD != "" && w.CRD != crd) {
			continue
		}
		wp := barePath(w.Path)
		if wp == "" || wp == path || strings.HasPrefix(path, wp+".") || strings.HasPrefix(path, wp+"[") {
			return i
		}
	}
	return -1
}

// barePath drops the "^." (or "^") root marker CRD findings print before a field path.
func barePath(path string) string {
	path = strings.TrimSpace(path)
	if p, ok := strings.CutPrefix(path, "^"); ok {
		return strings.TrimPrefix(p, ".")
	}
	return path
}

// UnusedWaivers describes, with its line in opack.yaml, every waiver whose index is not in used.
func (p *Project) UnusedWaivers(used map[int]bool) []string {
	var out []string
	for i, w := range p.Waivers {
		if used[i] {
			continue
		}
		loc := p.File
		if line := p.Line("waivers", i); line > 0 {
			loc += fmt.Sprintf(":%d", line)
		}
		what := "rule " + w.Rule
		if w.CRD != "" {
			what += ", crd " + w.CRD
		}
		if w.Path != "" {
			what += ", path " + w.Path
		}
		out = append(out, fmt.Sprintf("%s: waivers[%d] (%s) matches no finding: check its rule, crd and path against "+
			"the findings (a path as printed, ^.spec.size, or bare, spec.size), or remove it", loc, i, what))
	}
	return out
}

// MigratedVersions returns the versions of crd declared migrated off (removed from
// status.storedVersions on every cluster), sorted as written, without repeats.
func (p *Project) MigratedVersions(crd string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range p.Migrations {
		if m.CRD == crd && !seen[m.Version] {
			seen[m.Version] = true
			out = append(out, m.Version)
		}
	}
	return out
}
