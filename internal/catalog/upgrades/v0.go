package upgrades

import (
	"fmt"
	"strings"
)

// v0Channel is a channel as OLM v0's resolver sees it: its entries in replaces order from the
// head, skipped entries left out (sortChannel, resolver.go:589-683).
type v0Channel struct {
	pc        *packageChannel
	sorted    []int  // indexes into pc.entries, head first
	err       string // sortChannel's error, when it fails
	pos       []int  // each entry's place in sorted; -1 when it is not in the order
	inOrder   map[int]bool
	skippedBy map[string]string // entry name → an entry that skips it
}

func newV0Channel(pc *packageChannel) *v0Channel {
	v := &v0Channel{pc: pc, inOrder: map[int]bool{}, skippedBy: map[string]string{}, pos: make([]int, len(pc.entries))}
	v.sorted, v.err = sortChannel(pc)
	for i := range v.pos {
		v.pos[i] = -1
	}
	for k, i := range v.sorted {
		v.inOrder[i] = true
		v.pos[i] = k
	}
	for _, e := range pc.entries {
		for _, s := range e.Skips {
			if _, ok := v.skippedBy[s]; !ok {
				v.skippedBy[s] = e.Name
			}
		}
	}
	return v
}

// sortChannel is OLM v0's sortChannel (resolver.go:589-683): the one chain of replaces from the
// entry nothing replaces or skips, leaving out skipped entries. More than one such entry, none,
// or a cycle makes resolution in the channel fail.
func sortChannel(pc *packageChannel) ([]int, string) {
	if len(pc.entries) == 0 {
		return nil, ""
	}
	replacedBy := map[string]bool{}
	replaces := map[int]int{}
	skipped := map[string]bool{}
	for i, e := range pc.entries {
		if r, ok := pc.byName[e.Replaces]; ok && e.Replaces != "" {
			replacedBy[e.Replaces] = true
			replaces[i] = r
		}
		for _, s := range e.Skips {
			if _, ok := pc.byName[s]; ok {
				replacedBy[s] = true
				skipped[s] = true
			}
		}
	}
	var heads []int
	for i, e := range pc.entries {
		if !replacedBy[e.Name] {
			heads = append(heads, i)
		}
	}
	if len(heads) == 0 {
		return nil, fmt.Sprintf("no channel heads (entries not replaced by another entry) found in channel %q of package %q", pc.c.Name, pc.p.Name)
	}
	if len(heads) == 1 {
		h := heads[0]
		var chain []int
		visited := map[int]bool{}
		for cur := h; ; {
			visited[cur] = true
			if !skipped[pc.entries[cur].Name] {
				chain = append(chain, cur)
			}
			next, ok := replaces[cur]
			if !ok {
				return chain, ""
			}
			if visited[next] {
				return nil, cycleError(pc, h)
			}
			cur = next
		}
	}
	// Several heads: OLM fails naming each chain by its first and last entry. Chains that join
	// share their tail, which is walked once (its first and last entries remembered), so that
	// many heads over one long chain cost the chain once.
	firstFrom, lastFrom := map[int]int{}, map[int]int{}
	names := make([]string, len(heads))
	for k, h := range heads {
		var walked []int
		visited := map[int]bool{}
		first, last := -1, -1
		for cur := h; ; {
			if _, ok := lastFrom[cur]; ok {
				first, last = firstFrom[cur], lastFrom[cur]
				break
			}
			visited[cur] = true
			walked = append(walked, cur)
			next, ok := replaces[cur]
			if !ok {
				break
			}
			if visited[next] {
				return nil, cycleError(pc, h)
			}
			cur = next
		}
		for j := len(walked) - 1; j >= 0; j-- {
			n := walked[j]
			if !skipped[pc.entries[n].Name] {
				first = n
				if last < 0 {
					last = n
				}
			}
			firstFrom[n], lastFrom[n] = first, last
		}
		switch {
		case first < 0:
			names[k] = "[]"
		case first == last:
			names[k] = pc.entries[first].Name
		default:
			names[k] = pc.entries[first].Name + "..." + pc.entries[last].Name
		}
	}
	return nil, fmt.Sprintf("a unique replacement chain within a channel is required to determine the relative order between channel entries, but %d replacement chains were found in channel %q of package %q: %s", len(heads), pc.c.Name, pc.p.Name, strings.Join(names, ", "))
}

func cycleError(pc *packageChannel, h int) string {
	return fmt.Sprintf("a cycle exists in the chain of replacement beginning with %q in channel %q of package %q", pc.entries[h].Name, pc.c.Name, pc.p.Name)
}

// step returns the release OLM v0 installs next from in (-1 when none): the first entry in
// sortChannel order that replaces or skips in's name or whose skipRange includes its version
// (resolver.go:244, predicates.go:196-220; first = preferred, constraints.go:133-138), leaving out
// entries with an olm.deprecated property (variable_types.go:73-79).
// The entries that may upgrade in come from the channel's index (pc.candidates), so that a step
// costs the number of entries naming in and of skipRanges, not the channel's size.
func (v *v0Channel) step(in installed) int {
	n := -1
	for _, i := range v.pc.candidates(in, false) {
		e := &v.pc.entries[i]
		if v.pos[i] < 0 || e.Name == in.name || e.prohibited {
			continue
		}
		if n < 0 || v.pos[i] < v.pos[n] {
			n = i
		}
	}
	return n
}

// path returns the releases OLM v0 installs after in, one InstallPlan each (as chain.path lists
// them: a long path elided), and why it stops.
func (v *v0Channel) path(in installed, c *chain) ([]string, int, string) {
	if v.err != "" {
		return nil, 0, StopUnresolvable
	}
	var path []string
	var elided int
	var cycle bool
	last := in.name
	if i, ok := v.pc.byName[in.name]; ok {
		path, elided = c.path(i)
		cycle = c.cycle[i]
		last = c.endName(i)
	} else {
		path, elided, cycle = c.pathFrom(v.step(in))
		if len(path) > 0 {
			last = path[len(path)-1]
		}
	}
	switch {
	case cycle:
		return path, elided, StopCycle
	case last != "" && last == v.pc.head:
		return path, elided, StopHead
	}
	return path, elided, StopNoUpgrade
}

// ignored explains, for a release where OLM v0 stops, the entries that replace, skip or cover it
// but that OLM v0 does not install ("" when there are none).
func (v *v0Channel) ignored(in installed) string {
	var notes []string
	for _, i := range v.pc.candidates(in, false) {
		e := &v.pc.entries[i]
		if e.Name == in.name {
			continue
		}
		switch {
		case e.prohibited:
			notes = append(notes, e.Name+" carries the olm.deprecated property (never installed)")
		case v.skippedBy[e.Name] != "":
			notes = append(notes, e.Name+" upgrades it but is skipped by "+v.skippedBy[e.Name]+" (a skipped entry is never installed)")
		case !v.inOrder[i]:
			notes = append(notes, e.Name+" upgrades it but is not on the replaces chain from the head")
		}
	}
	return strings.Join(notes, "; ")
}
