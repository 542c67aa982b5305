package upgrades

import "github.com/opack/opack/internal/fbc"

// StrandedChannel is a channel with releases that do not reach its head.
type StrandedChannel struct {
	Channel, Head string
	Releases      []StrandedRelease
}

// StrandedRelease is a release (not the head) that OLM v0 or OLM v1 leaves short of the head.
type StrandedRelease struct {
	Name, Version string
	// V0Stop and V1Stop are where each OLM leaves it ("" when that OLM reaches the head).
	V0Stop, V1Stop string
}

// Stranded returns, for each channel of package pkg (sorted), the releases Compute would report
// as stranded, without building their paths: linear in the channel's size where Compute's paths
// are quadratic.
func Stranded(m *fbc.Model, pkg string) []StrandedChannel {
	p := m.Packages[pkg]
	if p == nil {
		return nil
	}
	var out []StrandedChannel
	for _, cn := range p.SortedChannels() {
		pc := newPackageChannel(p, p.Channels[cn])
		if pc.head == "" {
			continue
		}
		c0, c1 := pc.chains()
		sc := StrandedChannel{Channel: cn, Head: pc.head}
		for _, in := range pc.releases() {
			i := pc.byName[in.name]
			v0, v1 := c0.endName(i), c1.endName(i)
			if pc.v0.err != "" {
				v0 = in.name
			}
			if in.name == pc.head || (v0 == pc.head && v1 == pc.head) {
				continue
			}
			r := StrandedRelease{Name: in.name, Version: in.version.String()}
			if v0 != pc.head {
				r.V0Stop = v0
			}
			if v1 != pc.head {
				r.V1Stop = v1
			}
			sc.Releases = append(sc.Releases, r)
		}
		if len(sc.Releases) > 0 {
			out = append(out, sc)
		}
	}
	return out
}
