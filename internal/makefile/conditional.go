package makefile

import (
	"fmt"
	"strings"
)

// active reports whether every open conditional is known to take its current branch.
func (p *parser) active() bool {
	for _, c := range p.conds {
		if !c.taken || c.unknown != "" {
			return false
		}
	}
	return true
}

// uncertain says why lines here may or may not be read by make ("" when that is known): a
// conditional around them could not be evaluated and none around them is known false.
func (p *parser) uncertain() string {
	why := ""
	for _, c := range p.conds {
		if c.unknown == "" && !c.taken {
			return ""
		}
		if c.unknown != "" && why == "" {
			why = fmt.Sprintf("it is set under the condition at %s (%s), which depends on %s", c.at.Pos, c.at.Text, c.unknown)
		}
	}
	return why
}

// conditional handles ifeq, ifneq, ifdef, ifndef, else and endif; it reports whether text was one.
func (p *parser) conditional(l Line, text string) bool {
	kw, rest, _ := strings.Cut(text, " ")
	kw = strings.TrimSpace(kw)
	switch kw {
	case "ifeq", "ifneq", "ifdef", "ifndef":
		c := cond{at: Line{Pos: l.Pos, Text: text}, open: l.Pos, openText: text}
		c.taken, c.unknown = p.f.evalCond(kw, strings.TrimSpace(rest))
		c.anyTaken = c.taken
		p.conds = append(p.conds, c)
		return true
	case "else":
		if len(p.conds) == 0 {
			p.err = &SyntaxError{Pos: l.Pos, Text: text, Msg: "extraneous 'else' (make stops here too): no ifeq, ifneq, ifdef or ifndef is open"}
			return true
		}
		c := &p.conds[len(p.conds)-1]
		rest = strings.TrimSpace(rest)
		if rest == "" {
			c.taken = !c.anyTaken
		} else {
			k2, r2, _ := strings.Cut(rest, " ")
			taken, unknown := p.f.evalCond(k2, strings.TrimSpace(r2))
			c.taken = !c.anyTaken && taken
			if unknown != "" && c.unknown == "" {
				c.unknown = unknown
			}
			c.anyTaken = c.anyTaken || taken
		}
		c.at = Line{Pos: l.Pos, Text: text}
		return true
	case "endif":
		if len(p.conds) == 0 {
			p.err = &SyntaxError{Pos: l.Pos, Text: text, Msg: "extraneous 'endif' (make stops here too): no ifeq, ifneq, ifdef or ifndef is open"}
			return true
		}
		p.conds = p.conds[:len(p.conds)-1]
		return true
	}
	return false
}

// evalCond evaluates a conditional directive's test; unknown says why it could not be.
func (f *File) evalCond(kw, args string) (taken bool, unknown string) {
	switch kw {
	case "ifdef", "ifndef":
		name, why := f.expand(args, 0)
		if why != "" {
			return false, why
		}
		v, def := f.vars[strings.TrimSpace(name)]
		_, over := f.overrides[strings.TrimSpace(name)]
		set := over || (def && (v.value != "" || v.unresolved != ""))
		if def && v.unresolved != "" {
			return false, fmt.Sprintf("%s (%s: %s): %s", strings.TrimSpace(name), v.at.Pos, v.at.Text, v.unresolved)
		}
		return set == (kw == "ifdef"), ""
	case "ifeq", "ifneq":
		a, b, ok := condArgs(args)
		if !ok {
			return false, "a test opack cannot read"
		}
		ea, why := f.expand(a, 0)
		if why != "" {
			return false, why
		}
		eb, why := f.expand(b, 0)
		if why != "" {
			return false, why
		}
		return (strings.TrimSpace(ea) == strings.TrimSpace(eb)) == (kw == "ifeq"), ""
	}
	return false, "a test opack cannot read"
}

// condArgs splits "(a,b)", "'a' 'b'" or "\"a\" \"b\"".
func condArgs(s string) (a, b string, ok bool) {
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		parts := splitArgs(s[1:len(s)-1], 2)
		if len(parts) != 2 {
			return "", "", false
		}
		return parts[0], parts[1], true
	}
	var out []string
	for len(s) > 0 && len(out) < 2 {
		q := s[0]
		if q != '"' && q != '\'' {
			return "", "", false
		}
		end := strings.IndexByte(s[1:], q)
		if end < 0 {
			return "", "", false
		}
		out = append(out, s[1:end+1])
		s = strings.TrimSpace(s[end+2:])
	}
	if len(out) != 2 {
		return "", "", false
	}
	return out[0], out[1], true
}
