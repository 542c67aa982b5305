package project

import "strings"

// Waived returns the waiver accepting a finding of rule about crd and the field path, if any. A waiver
// without crd (or path) matches every CRD (or path); a waiver path also matches the fields below it
// ("spec.size" waives "spec.size.minimum").
func (p *Project) Waived(rule, crd, path string) (Waiver, bool) {
	for _, w := range p.Waivers {
		if w.Rule != rule || (w.CRD != "" && w.CRD != crd) {
			continue
		}
		if w.Path == "" || w.Path == path || strings.HasPrefix(path, w.Path+".") || strings.HasPrefix(path, w.Path+"[") {
			return w, true
		}
	}
	return Waiver{}, false
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
