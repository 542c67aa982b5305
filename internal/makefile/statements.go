package makefile

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// cond is one open conditional: whether its current branch is taken (known false when not), and
// why it could not be evaluated (unknown != "").
type cond struct {
	taken, anyTaken bool
	unknown         string
	at              Line
	open            Pos    // the ifeq, ifneq, ifdef or ifndef that opened it
	openText        string // its text
}

// parser holds the state of reading one file's lines.
type parser struct {
	f       *File
	conds   []cond
	targets []string // the rule whose recipe lines follow
	err     error    // a conditional make refuses (an else or endif without its if)
}

func (f *File) parse(lines []Line) error {
	p := &parser{f: f}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l.Text, "\t") && p.targets != nil {
			why := p.uncertain()
			if p.active() || why != "" {
				for _, t := range p.targets {
					f.recipes[t] = append(f.recipes[t], Line{Pos: l.Pos, Text: strings.TrimSpace(l.Text), Uncertain: why})
				}
			}
			continue
		}
		text := strings.TrimSpace(joinContinuations(stripComment(l.Text)))
		if text == "" {
			continue
		}
		if p.conditional(l, text) {
			if p.err != nil {
				return p.err
			}
			continue
		}
		if !p.active() && p.uncertain() == "" {
			if strings.HasPrefix(text, "define ") {
				i = skipDefine(lines, i)
			} else if name, _, _, ok := splitAssignment(trimKeywords(text)); ok {
				f.declared[name] = true
			}
			continue
		}
		if strings.HasPrefix(text, "define ") {
			body, end := defineBody(lines, i)
			p.assign(Line{Pos: l.Pos, Text: text}, strings.TrimSpace(strings.TrimPrefix(text, "define ")), "=", body)
			i = end
			continue
		}
		if err := p.statement(l, text); err != nil {
			return err
		}
	}
	if n := len(p.conds); n > 0 {
		c := p.conds[n-1]
		return &SyntaxError{Pos: c.open, Text: c.openText, Msg: "missing 'endif' (make stops here too): close the conditional"}
	}
	return nil
}

// statement handles an include, an assignment or a rule line.
func (p *parser) statement(l Line, text string) error {
	for _, kw := range []string{"include ", "-include ", "sinclude "} {
		if strings.HasPrefix(text, kw) {
			p.targets = nil
			return p.include(l, strings.TrimPrefix(text, kw), kw != "include ")
		}
	}
	text = trimKeywords(text)
	if name, op, value, ok := splitAssignment(text); ok {
		p.targets = nil
		p.assign(Line{Pos: l.Pos, Text: strings.TrimSpace(joinContinuations(stripComment(l.Text)))}, name, op, value)
		return nil
	}
	if before, after, ok := cutRule(text); ok {
		if name, op, value, tsv := splitAssignment(trimKeywords(strings.TrimSpace(after))); tsv {
			p.targetVar(l, before, name, op, value)
			return nil
		}
		p.targets = nil
		names, _ := p.f.expand(before, 0)
		prereqs := ""
		if p.active() {
			// order-only prerequisites (after |) are made too; a ## comment was stripped
			prereqs, _ = p.f.expand(strings.Replace(after, "|", " ", 1), 0)
		}
		for _, t := range strings.Fields(names) {
			p.targets = append(p.targets, t)
			p.f.prereqs[t] = append(p.f.prereqs[t], strings.Fields(prereqs)...)
		}
		if p.targets == nil {
			p.targets = []string{}
		}
	}
	return nil
}

func (p *parser) include(l Line, args string, optional bool) error {
	names, why := p.f.expand(args, 0)
	if why != "" {
		p.f.problem(l, "the included file is not known: "+why)
		return nil
	}
	for _, n := range strings.Fields(names) {
		if !filepath.IsAbs(n) {
			n = filepath.Join(p.f.root, n)
		}
		matches, _ := filepath.Glob(n)
		if len(matches) == 0 && !optional {
			p.f.problem(l, "no file matches "+n)
		}
		for _, m := range matches {
			if p.f.includes++; p.f.includes > maxIncludes {
				p.f.problem(l, "too many included files")
				return nil
			}
			err := p.f.readFile(m)
			var se *SyntaxError
			if errors.As(err, &se) {
				return err // make stops at an included file it cannot parse, -include or not
			}
			if err != nil && !optional {
				p.f.problem(l, err.Error())
			}
		}
	}
	return nil
}

// trimKeywords removes the export, override and private keywords before an assignment.
func trimKeywords(text string) string {
	for _, kw := range []string{"export ", "override ", "private "} {
		text = strings.TrimPrefix(text, kw)
	}
	return text
}

// splitAssignment splits NAME OP VALUE, OP one of = := ::= ?= += !=; a colon outside $(...)
// before any = makes it a rule instead.
func splitAssignment(s string) (name, op, value string, ok bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '$' && i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '{'):
			depth++
			i++
		case (c == ')' || c == '}') && depth > 0:
			depth--
		case depth > 0:
		case c == '=':
			j := i
			for j > 0 && strings.ContainsRune(":?+!", rune(s[j-1])) && i-j < 2 {
				j--
			}
			name = strings.TrimSpace(s[:j])
			if name == "" || strings.ContainsAny(name, " \t") {
				return "", "", "", false
			}
			return name, s[j : i+1], strings.TrimLeft(s[i+1:], " \t"), true
		case c == ':':
			if !strings.HasPrefix(s[i:], ":=") && !strings.HasPrefix(s[i:], "::=") {
				return "", "", "", false
			}
		}
	}
	return "", "", "", false
}

// cutRule splits a rule line at its first colon outside $(...).
func cutRule(s string) (before, after string, ok bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '$' && i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '{'):
			depth++
			i++
		case (c == ')' || c == '}') && depth > 0:
			depth--
		case c == ':' && depth == 0:
			return s[:i], strings.TrimPrefix(s[i+1:], ":"), true
		}
	}
	return "", "", false
}

func (p *parser) assign(l Line, name, op, value string) {
	f := p.f
	if n, why := f.expand(name, 0); why == "" {
		name = strings.TrimSpace(n)
	}
	f.declared[name] = true
	if _, ok := f.overrides[name]; ok {
		return
	}
	if why := p.uncertain(); why != "" {
		f.vars[name] = &variable{at: l, unresolved: why}
		return
	}
	old := f.vars[name]
	switch op {
	case "?=":
		if old != nil {
			return
		}
		f.vars[name] = &variable{value: value, at: l}
	case "=":
		f.vars[name] = &variable{value: value, at: l}
	case ":=", "::=":
		v, why := f.expand(value, 0)
		nv := &variable{value: v, simple: true, at: l, unresolved: why}
		if why != "" {
			from := len(f.marks)
			nv.marked, _ = f.expandMarked(value)
			for i := from; i < len(f.marks); i++ { // say which variable the unread part is of
				f.marks[i] = fmt.Sprintf("%s (%s: %s): %s", name, l.Pos, l.Text, f.marks[i])
			}
		}
		f.vars[name] = nv
	case "+=":
		switch {
		case old == nil:
			f.vars[name] = &variable{value: value, at: l}
		case old.simple:
			v, why := f.expand(value, 0)
			old.value, old.at = join(old.value, v), l
			if old.unresolved == "" {
				old.unresolved = why
			}
		default:
			old.value, old.at = join(old.value, value), l
		}
	case "!=":
		f.vars[name] = &variable{at: l, unresolved: "it is the output of a shell command (!=), which opack does not run"}
	}
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + " " + b
}

func skipDefine(lines []Line, i int) int {
	_, end := defineBody(lines, i)
	return end
}

// defineBody returns the lines of a define ... endef block and the index of its endef.
func defineBody(lines []Line, i int) (string, int) {
	var body []string
	for j := i + 1; j < len(lines); j++ {
		if strings.TrimSpace(lines[j].Text) == "endef" {
			return strings.Join(body, "\n"), j
		}
		body = append(body, lines[j].Text)
	}
	return strings.Join(body, "\n"), len(lines)
}
