package makefile

import (
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

// ImageEdits returns the `kustomize edit set image` commands `make target` runs (its prerequisites'
// too) before its `generate bundle` (later ones roll the edit back), read as make and the shell
// would run them.
func (f *File) ImageEdits(target string) []ImageEdit {
	var out []ImageEdit
	cmds, _ := f.CommandsMade(target)
	for _, c := range cmds {
		if c.IsGenerateBundle() {
			break
		}
		i := c.IndexOf("edit", "set", "image")
		if i < 0 {
			continue
		}
		e := ImageEdit{At: c.At, Dir: c.Dir.Text, Unresolved: c.Dir.Unread}
		for _, a := range c.Args[i+3:] {
			if a.Unread != "" && e.Unresolved == "" {
				e.Unresolved = a.Unread
			}
			e.Args = append(e.Args, a.Text)
		}
		if e.Unresolved != "" {
			e.Dir, e.Args = "", nil
		}
		out = append(out, e)
	}
	return out
}

// IndexOf returns the index where words follow one another in the command's arguments (after
// its name), -1 when they do not.
func (c Command) IndexOf(words ...string) int {
	for i := 1; i+len(words) <= len(c.Args); i++ {
		match := true
		for j, w := range words {
			if c.Args[i+j].Unread != "" || c.Args[i+j].Text != w {
				match = false
				break
			}
		}
		if match {
			return i
		}
	}
	return -1
}

// IsGenerateBundle reports whether the command is `operator-sdk generate bundle`.
func (c Command) IsGenerateBundle() bool {
	return c.Tool("operator-sdk") && c.IndexOf("generate", "bundle") == 1
}

// IsGenerateKustomizeManifests reports whether the command is `operator-sdk generate kustomize manifests`.
func (c Command) IsGenerateKustomizeManifests() bool {
	return c.Tool("operator-sdk") && c.IndexOf("generate", "kustomize", "manifests") == 1
}

// IsKustomizeBuild reports whether the command is `kustomize build` (or `kubectl kustomize`).
func (c Command) IsKustomizeBuild() bool {
	return (c.Tool("kustomize") && c.IndexOf("build") == 1) || (c.Tool("kubectl") && c.IndexOf("kustomize") == 1)
}

// Tool reports whether the command runs the program name: its name's last path element, also
// when the folder before it is unread ($(LOCALBIN)/operator-sdk).
func (c Command) Tool(name string) bool {
	t := c.Arg(0).Text
	if i := strings.LastIndex(t, "/"); i >= 0 {
		t = t[i+1:]
	}
	if t == "…" || t == "" {
		// unread as a whole: the variable it came from names it (OPERATOR_SDK (Makefile:3: ...))
		v, _, _ := strings.Cut(c.Arg(0).Unread, " ")
		v = strings.ToLower(strings.ReplaceAll(v, "_", "-"))
		return v == name || strings.HasPrefix(v, name+"-") || strings.HasSuffix(v, "-"+name)
	}
	// a versioned binary: operator-sdk-v1.24.0, operator-sdk_linux_amd64, kustomize.v5
	return t == name || strings.HasPrefix(t, name+"-") || strings.HasPrefix(t, name+"_") || strings.HasPrefix(t, name+".")
}

// Targets returns the targets that have a recipe.
func (f *File) Targets() []string {
	out := make([]string, 0, len(f.recipes))
	for t := range f.recipes {
		out = append(out, t)
	}
	return out
}
