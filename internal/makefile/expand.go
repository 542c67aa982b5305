package makefile

import (
	"fmt"
	"strings"
)

const maxDepth = 64

// machineVars are make's variables whose value depends on where and how make runs.
var machineVars = map[string]bool{"MAKEFILE_LIST": true, "CURDIR": true, "MAKEFLAGS": true, "MAKECMDGOALS": true, "SHELL": true}

// Expand expands s in the Makefile's variables; why says what could not be resolved ("" when
// everything was).
func (f *File) Expand(s string) (value, why string) { return f.expand(s, 0) }

func (f *File) expand(s string, depth int) (string, string) {
	if depth > maxDepth {
		return "", "a variable that refers to itself"
	}
	if !f.charge(len(s)) {
		return "", tooLarge
	}
	var b strings.Builder
	why := ""
	note := func(w string) {
		if why == "" {
			why = w
		}
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		c := s[i+1]
		switch c {
		case '$':
			b.WriteByte('$')
			i++
			continue
		case '(', '{':
			end := matching(s, i+1)
			if end < 0 {
				note("an unterminated $" + string(c))
				return b.String(), why
			}
			v, w := f.reference(s[i+2:end], c, depth)
			b.WriteString(f.markUnread(v, w, note))
			i = end
		default:
			v, w := f.variable(string(c), depth)
			b.WriteString(f.markUnread(v, w, note))
			i++
		}
		if b.Len() > maxExpansion || !f.charge(0) {
			return "", tooLarge
		}
	}
	if !f.charge(b.Len()) {
		return "", tooLarge
	}
	return b.String(), why
}

// matching returns the index of the bracket closing the one at open.
func matching(s string, open int) int {
	o := s[open]
	cl := byte(')')
	if o == '{' {
		cl = '}'
	}
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case o:
			depth++
		case cl:
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// reference expands the inside of $(...): a function call, a substitution reference or a variable.
// A function computes on known text only: while marking, its arguments are expanded without
// marks, so that an unread part makes the whole call unread rather than an input to it.
func (f *File) reference(in string, open byte, depth int) (string, string) {
	for _, sep := range []string{" ", "\t"} {
		if fn, args, ok := strings.Cut(in, sep); ok && isFunction(fn) {
			defer f.pauseMarking()()
			return f.call(fn, args, depth)
		}
	}
	restore := f.pauseMarking()
	name, why := f.expand(in, depth+1)
	if why != "" {
		restore()
		return "", why
	}
	if v, sub, ok := strings.Cut(name, ":"); ok {
		if from, to, ok := strings.Cut(sub, "="); ok {
			defer restore()
			val, why := f.variable(v, depth)
			return patsubstWords(suffixPattern(from), suffixPattern(to), val), why
		}
	}
	restore()
	return f.variable(name, depth)
}

func suffixPattern(s string) string {
	if strings.Contains(s, "%") {
		return s
	}
	return "%" + s
}

// variable returns the value of the variable name.
func (f *File) variable(name string, depth int) (string, string) {
	if v, ok := f.overrides[name]; ok {
		return v, ""
	}
	if v, ok := f.automatic[name]; ok {
		return v, ""
	}
	v, ok := f.vars[name]
	switch {
	case ok && v.unresolved != "" && f.marking && v.marked != "":
		return v.marked, ""
	case ok && v.unresolved != "":
		return "", fmt.Sprintf("%s (%s: %s): %s", name, v.at.Pos, v.at.Text, v.unresolved)
	case ok && v.simple:
		return v.value, ""
	case ok:
		out, why := f.expand(v.value, depth+1)
		if why != "" && !strings.HasPrefix(why, name+" ") {
			why = fmt.Sprintf("%s (%s: %s): uses %s", name, v.at.Pos, v.at.Text, why)
		}
		return out, why
	case name == "MAKE":
		return "make", ""
	case machineVars[name]:
		return "", name + " depends on where make runs"
	case len(name) == 1 && strings.Contains("@<^?*%+|", name):
		return "", "$" + name + ", an automatic variable of a rule"
	}
	if f.declared[name] {
		return "", "" // set only in branches make does not take: empty, as make expands it
	}
	return "", name + " is not set in the Makefile (make takes it from the environment or its command line)"
}
