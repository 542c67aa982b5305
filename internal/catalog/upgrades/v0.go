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
	next      map[string]int
	inOrder   map[int]bool
	skippedBy map[string]string // entry name → an entry that skips it
}

func newV0Channel(pc *packageChannel) *v0Channel {
	v := &v0Channel{pc: pc, next: map[string]int{}, inOrder: map[int]bool{}, skippedBy: map[string]string{}}
	v.sorted, v.err = sortChannel(pc)
	for _, i := range v.sorted {
		v.inOrder[i] = true
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
	var chains [][]int
	for _, h := range heads {
		var chain []int
		visited := map[int]bool{}
		cur := h
		for {
			visited[cur] = true
			if !skipped[pc.entries[cur].Name] {
				chain = append(chain, cur)
			}
			next, ok := replaces[cur]
			if !ok {
				break
			}
			if visited[next] {
				return nil, fmt.Sprintf("a cycle exists in the chain of replacement beginning with %q in channel %q of package %q", pc.entries[h].Name, pc.c.Name, pc.p.Name)
			}
			cur = next
		}
		chains = append(chains, chain)
	}
	if len(chains) > 1 {
		names := make([]string, len(chains))
		for i, ch := range chains {
			switch len(ch) {
			case 0:
				names[i] = "[]"
			case 1:
				names[i] = pc.entries[ch[0]].Name
			default:
				names[i] = pc.entries[ch[0]].Name + "..." + pc.entries[ch[len(ch)-1]].Name
			}
		}
		return nil, fmt.Sprintf("a unique replacement chain within a channel is required to determine the relative order between channel entries, but %d replacement chains were found in channel %q of package %q: %s", len(chains), pc.c.Name, pc.p.Name, strings.Join(names, ", "))
	}
	return chains[0], ""
}

// step returns the release OLM v0 installs next from in (-1 when none): the first entry in
// sortChannel order that replaces or skips in's name or whose skipRange includes its version
// (resolver.go:244, predicates.go:196-220; first = preferred, constraints.go:133-138), leaving out
// entries with an olm.deprecated property (variable_types.go:73-79).
func (v *v0Channel) step(in installed) int {
	if n, ok := v.next[in.name]; ok && in.name != "" {
		return n
	}
	n := -1
	for _, i := range v.sorted {
		e := &v.pc.entries[i]
		if e.Name == in.name || e.prohibited {
			continue
		}
		if v0Replaces(e, in) {
			n = i
			break
		}
	}
	if in.name != "" && v.pc.has(in.name) {
		v.next[in.name] = n
	}
	return n
}

func v0Replaces(e *entry, in installed) bool {
	if e.skipRange != nil && e.skipRange(in.version) {
		return true
	}
	if in.name == "" {
		return false
	}
	if e.Replaces == in.name {
		return true
	}
	for _, s := range e.Skips {
		if s == in.name {
			return true
		}
	}
	return false
}

// path returns the releases OLM v0 installs after in, one InstallPlan each, and why it stops.
func (v *v0Channel) path(in installed) ([]string, string) {
	if v.err != "" {
		return nil, StopUnresolvable
	}
	var out []string
	cur := in
	for {
		n := v.step(cur)
		if n < 0 {
			break
		}
		e := &v.pc.entries[n]
		if e.Name == in.name || len(out) >= len(v.pc.entries) {
			return untilRepeat(in.name, out), StopCycle
		}
		out = append(out, e.Name)
		cur = installed{name: e.Name, version: e.version}
	}
	if cur.name != "" && cur.name == v.pc.head {
		return out, StopHead
	}
	return out, StopNoUpgrade
}

// ignored explains, for a release where OLM v0 stops, the entries that replace, skip or cover it
// but that OLM v0 does not install ("" when there are none).
func (v *v0Channel) ignored(in installed) string {
	var notes []string
	for i := range v.pc.entries {
		e := &v.pc.entries[i]
		if e.Name == in.name || !v0Replaces(e, in) {
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

// untilRepeat cuts a path that went round a cycle just before its first repeated release. A path
// is only checked for repeats once it is longer than the channel (no map on every step).
func untilRepeat(from string, path []string) []string {
	seen := map[string]bool{from: true}
	for i, n := range path {
		if seen[n] {
			return path[:i]
		}
		seen[n] = true
	}
	return path
}
