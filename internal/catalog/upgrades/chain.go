package upgrades

// maxPathShown bounds the releases a path lists: a longer path keeps its first maxPathShown-1
// hops and the release it ends at, and counts the hops left out between them (Release.V0Elided,
// V1Elided). A channel of n releases then costs n·maxPathShown to list, not n²/2.
const maxPathShown = 32

// chain is where an OLM takes every release of a channel: the release it installs next, and
// where the path from each release ends, computed once per release so that every path of a
// channel costs its own length (at most maxPathShown), never the channel's size.
type chain struct {
	pc   *packageChannel
	next []int // entry index installed next from each entry; -1 when the OLM stays
	// end is the last release of each entry's path (-1 when the path is empty), hops its length,
	// and cycle says the path stopped before a release it would install again.
	end   []int
	hops  []int
	cycle []bool
}

// newChain follows step from every entry of pc (a step to the entry itself is staying). A path
// that goes round a cycle ends just before its first repeat: from a member of the cycle at the
// member before it, from a release leading into it at the member before the one it enters by.
func newChain(pc *packageChannel, step func(installed) int) *chain {
	n := len(pc.entries)
	c := &chain{pc: pc, next: make([]int, n), end: make([]int, n), hops: make([]int, n), cycle: make([]bool, n)}
	for i := range pc.entries {
		e := &pc.entries[i]
		s := step(installed{name: e.Name, version: e.version})
		if s == i {
			s = -1
		}
		c.next[i] = s
	}
	const (
		unseen = iota
		onStack
		done
	)
	state := make([]int8, n)
	stackPos := make([]int, n)
	var stack []int
	for i := range n {
		if state[i] == done {
			continue
		}
		stack = stack[:0]
		cur := i
		for cur >= 0 && state[cur] == unseen {
			state[cur], stackPos[cur] = onStack, len(stack)
			stack = append(stack, cur)
			cur = c.next[cur]
		}
		tails := len(stack)
		if cur >= 0 && state[cur] == onStack { // stack[k:] is a cycle
			k := stackPos[cur]
			l := len(stack) - k
			for j := k; j < len(stack); j++ {
				m := stack[j]
				c.end[m], c.hops[m], c.cycle[m], state[m] = stack[k+(j-k-1+l)%l], l-1, true, done
			}
			tails = k
		}
		for j := tails - 1; j >= 0; j-- {
			m := stack[j]
			switch nx := c.next[m]; {
			case nx < 0:
				c.end[m], c.hops[m] = -1, 0
			case c.hops[nx] == 0:
				c.end[m], c.hops[m], c.cycle[m] = nx, 1, c.cycle[nx]
			default:
				c.end[m], c.hops[m], c.cycle[m] = c.end[nx], c.hops[nx]+1, c.cycle[nx]
			}
			state[m] = done
		}
	}
	return c
}

// endName is the release entry i's path ends at: the entry itself when the path is empty.
func (c *chain) endName(i int) string {
	if c.end[i] < 0 {
		return c.pc.entries[i].Name
	}
	return c.pc.entries[c.end[i]].Name
}

// path lists the path of entry i as Release shows it: every release when it has at most
// maxPathShown, else the first maxPathShown-1 and the last, with the hops left out.
func (c *chain) path(i int) (path []string, elided int) {
	hops := c.hops[i]
	show := hops
	if hops > maxPathShown {
		show = maxPathShown - 1
	}
	path = make([]string, 0, min(hops, maxPathShown))
	for cur, k := c.next[i], 0; k < show; cur, k = c.next[cur], k+1 {
		path = append(path, c.pc.entries[cur].Name)
	}
	if hops > maxPathShown {
		path = append(path, c.pc.entries[c.end[i]].Name)
		elided = hops - maxPathShown
	}
	return path, elided
}

// pathFrom lists the path of a release that is not an entry of the channel (a release of
// another channel or one the catalog does not hold), whose first step is entry first (-1: none).
func (c *chain) pathFrom(first int) (path []string, elided int, cycle bool) {
	if first < 0 {
		return nil, 0, false
	}
	rest, elided := c.path(first)
	path = append([]string{c.pc.entries[first].Name}, rest...)
	if len(path) > maxPathShown { // the first hop pushed the path over: leave out one more
		path = append(path[:maxPathShown-1], path[len(path)-1])
		elided++
	}
	return path, elided, c.cycle[first]
}
