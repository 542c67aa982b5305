package makefile

import (
	"regexp"
	"strings"
)

// Value is a variable as make would expand it.
type Value struct {
	Name string
	// Text is the expanded value ("" when unresolved).
	Text string
	// At is the assignment that set it last.
	At Line
	// Set reports whether the Makefile (or an override) sets the variable.
	Set bool
	// Unresolved says why the value is not known without running make ("" when it is).
	Unresolved string
}

// Value returns the variable name as make would expand it.
func (f *File) Value(name string) Value {
	v, ok := f.vars[name]
	_, over := f.overrides[name]
	if !ok && !over {
		return Value{Name: name}
	}
	text, why := f.variable(name, 0)
	out := Value{Name: name, Text: text, Set: true, Unresolved: why}
	if ok {
		out.At = v.at
		if v.unresolved != "" {
			out.Unresolved = v.unresolved
		}
	}
	if why != "" {
		out.Text = ""
	}
	return out
}

// Recipe returns the recipe lines of target, unexpanded.
func (f *File) Recipe(target string) []Line { return f.recipes[target] }

// ImageEdit is one `kustomize edit set image` of a recipe.
type ImageEdit struct {
	// Dir is the kustomize folder the command runs in (the preceding `cd DIR`), "" when none.
	Dir string
	// Args are the image arguments (name=newName:newTag, name=newName@digest...).
	Args []string
	At   Line
	// Unresolved says why Dir or Args are not known.
	Unresolved string
}

var editImageRE = regexp.MustCompile(`\bedit\s+set\s+image\s+([^;&|]+)`)

// ImageEdits returns the `kustomize edit set image` lines of target's recipe that come before its
// `generate bundle` (later ones roll the edit back), expanded.
func (f *File) ImageEdits(target string) []ImageEdit {
	var out []ImageEdit
	for _, l := range f.recipes[target] {
		if strings.Contains(l.Text, "generate bundle") {
			break
		}
		cmds := splitCommands(strings.ReplaceAll(l.Text, "\\\n", " "))
		dir := ""
		for _, c := range cmds {
			c = strings.TrimLeft(strings.TrimSpace(c), "@-+")
			if d, ok := strings.CutPrefix(c, "cd "); ok {
				dir = strings.TrimSpace(d)
				continue
			}
			m := editImageRE.FindStringSubmatch(c)
			if m == nil {
				continue
			}
			e := ImageEdit{At: l}
			var why string
			if dir != "" {
				e.Dir, why = f.expand(dir, 0)
			}
			args, w := f.expand(m[1], 0)
			if why == "" {
				why = w
			}
			e.Args, e.Unresolved = strings.Fields(args), why
			out = append(out, e)
		}
	}
	return out
}

// splitCommands splits a shell line at &&, ; and || outside $(...).
func splitCommands(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ';':
			if depth == 0 {
				out, start = append(out, s[start:i]), i+1
			}
		case '&', '|':
			if depth == 0 && i+1 < len(s) && s[i+1] == s[i] {
				out, start = append(out, s[start:i]), i+2
				i++
			}
		}
	}
	return append(out, s[start:])
}
