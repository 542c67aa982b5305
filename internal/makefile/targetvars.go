package makefile

import "strings"

// targetAssign is a target-specific assignment: `bundle: VERSION = 1.0.0` sets VERSION while
// make runs bundle's recipe.
type targetAssign struct {
	at              Line
	name, op, value string
}

// targetVar records a target-specific assignment for each target of the rule.
func (p *parser) targetVar(l Line, targets, name, op, value string) {
	if !p.active() {
		return
	}
	names, why := p.f.expand(targets, 0)
	if why != "" {
		p.f.problem(l, "the targets of this target-specific variable are not known: "+why)
		return
	}
	at := Line{Pos: l.Pos, Text: strings.TrimSpace(joinContinuations(stripComment(l.Text)))}
	for _, t := range strings.Fields(names) {
		p.f.targetVars[t] = append(p.f.targetVars[t], targetAssign{at: at, name: name, op: op, value: value})
	}
}

// forTarget returns the Makefile as make sees it while running target's recipe: its
// target-specific variables applied over the global ones, $@ set to the target.
func (f *File) forTarget(target string) *File {
	g := *f
	g.vars = make(map[string]*variable, len(f.vars))
	for k, v := range f.vars {
		c := *v
		g.vars[k] = &c
	}
	g.automatic = map[string]string{"@": target}
	p := &parser{f: &g}
	for _, a := range f.targetVars[target] {
		if a.op == "?=" {
			if _, ok := f.vars[a.name]; ok {
				continue
			}
		}
		p.assign(a.at, a.name, a.op, a.value)
	}
	return &g
}

// spentFrom carries the budget a scoped copy spent back to f.
func (f *File) spentFrom(g *File) {
	f.spent = g.spent
	f.marks = g.marks
}
