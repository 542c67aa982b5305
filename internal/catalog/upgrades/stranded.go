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
		v0 := endsOf(pc, func(in installed) int {
			if pc.v0.err != "" {
				return -1
			}
			return pc.v0.step(in)
		})
		v1 := endsOf(pc, pc.v1.step)
		sc := StrandedChannel{Channel: cn, Head: pc.head}
		for _, in := range pc.releases() {
			if in.name == pc.head || (v0[in.name] == pc.head && v1[in.name] == pc.head) {
				continue
			}
			r := StrandedRelease{Name: in.name, Version: in.version.String()}
			if v0[in.name] != pc.head {
				r.V0Stop = v0[in.name]
			}
			if v1[in.name] != pc.head {
				r.V1Stop = v1[in.name]
			}
			sc.Releases = append(sc.Releases, r)
		}
		if len(sc.Releases) > 0 {
			out = append(out, sc)
		}
	}
	return out
}

// endsOf maps each release of the channel to the release its path (following step) ends at, as
// Compute's paths end: a path that goes round a cycle ends just before its first repeat.
func endsOf(pc *packageChannel, step func(installed) int) map[string]string {
	end := make(map[string]string, len(pc.entries))
	for _, e := range pc.entries {
		var stack []string
		at := map[string]int{}
		cur := installed{name: e.Name, version: e.version}
		final := ""
		for {
			if f, ok := end[cur.name]; ok {
				final = f
				break
			}
			if k, ok := at[cur.name]; ok {
				// stack[k:] is a cycle: from each member, the path ends at the member before it.
				final = stack[len(stack)-1]
				for j := k + 1; j < len(stack); j++ {
					end[stack[j]] = stack[j-1]
				}
				end[stack[k]] = final
				stack = stack[:k]
				break
			}
			at[cur.name] = len(stack)
			stack = append(stack, cur.name)
			n := step(cur)
			if n < 0 || pc.entries[n].Name == cur.name {
				final = cur.name
				break
			}
			cur = installed{name: pc.entries[n].Name, version: pc.entries[n].version}
		}
		for _, s := range stack {
			end[s] = final
		}
	}
	return end
}
