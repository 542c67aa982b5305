package makefile

import (
	"fmt"
	"path"
	"strconv"
	"strings"
)

// notRun are make functions whose result depends on running something or on the machine.
var notRun = map[string]string{
	"shell":    "runs a shell command",
	"wildcard": "depends on the files present when make runs",
	"abspath":  "depends on where make runs",
	"realpath": "depends on where make runs",
	"call":     "calls a user function",
	"eval":     "evaluates generated make code",
	"error":    "stops make",
	"file":     "reads or writes a file",
	"foreach":  "loops",
	"guile":    "runs guile",
}

var pure = map[string]bool{
	"origin": true, "strip": true, "subst": true, "patsubst": true, "firstword": true, "lastword": true,
	"word": true, "words": true, "if": true, "or": true, "and": true, "findstring": true, "addprefix": true,
	"addsuffix": true, "dir": true, "notdir": true, "basename": true, "suffix": true, "filter": true,
	"filter-out": true, "sort": true, "value": true, "info": true, "warning": true, "flavor": true,
}

func isFunction(name string) bool { return pure[name] || notRun[name] != "" }

// call evaluates the function fn on its raw (unexpanded) arguments.
func (f *File) call(fn, raw string, depth int) (string, string) {
	if fn == "shell" {
		if v, ok := f.shellCat(raw, depth); ok {
			return v, ""
		}
	}
	if w := notRun[fn]; w != "" {
		return "", fmt.Sprintf("$(%s ...), which %s", fn, w)
	}
	switch fn {
	case "origin", "flavor", "value":
		name, why := f.expand(strings.TrimSpace(raw), depth+1)
		if why != "" {
			return "", why
		}
		return f.meta(fn, strings.TrimSpace(name)), ""
	case "if", "or", "and":
		return f.logic(fn, raw, depth)
	}
	var args []string
	for _, a := range splitArgs(raw, -1) {
		v, why := f.expand(a, depth+1)
		if why != "" {
			return "", why
		}
		args = append(args, v)
	}
	return apply(fn, args)
}

func (f *File) meta(fn, name string) string {
	_, over := f.overrides[name]
	v, def := f.vars[name]
	switch fn {
	case "origin":
		switch {
		case over:
			return "command line"
		case def:
			return "file"
		}
		return "undefined"
	case "flavor":
		switch {
		case !def && !over:
			return "undefined"
		case over || v.simple:
			return "simple"
		}
		return "recursive"
	}
	if def {
		return v.value
	}
	return f.overrides[name]
}

// logic evaluates if, or and and, expanding only the arguments make expands.
func (f *File) logic(fn, raw string, depth int) (string, string) {
	args := splitArgs(raw, -1)
	last := ""
	for i, a := range args {
		v, why := f.expand(a, depth+1)
		if why != "" {
			return "", why
		}
		v = strings.TrimSpace(v)
		switch fn {
		case "if":
			if i == 0 {
				if v != "" {
					return f.expandArg(args, 1, depth)
				}
				return f.expandArg(args, 2, depth)
			}
		case "or":
			if v != "" {
				return v, ""
			}
		case "and":
			if v == "" {
				return "", ""
			}
			last = v
		}
	}
	return last, ""
}

func (f *File) expandArg(args []string, i, depth int) (string, string) {
	if i >= len(args) {
		return "", ""
	}
	return f.expand(args[i], depth+1)
}

// apply evaluates a text function on expanded arguments.
func apply(fn string, args []string) (string, string) {
	arg := func(i int) string {
		if i < len(args) {
			return args[i]
		}
		return ""
	}
	words := strings.Fields(arg(len(args) - 1))
	switch fn {
	case "strip":
		return strings.Join(strings.Fields(arg(0)), " "), ""
	case "subst":
		return strings.ReplaceAll(arg(2), arg(0), arg(1)), ""
	case "patsubst":
		return patsubstWords(arg(0), arg(1), arg(2)), ""
	case "findstring":
		if strings.Contains(arg(1), arg(0)) {
			return arg(0), ""
		}
		return "", ""
	case "firstword", "lastword":
		if len(words) == 0 {
			return "", ""
		}
		if fn == "firstword" {
			return words[0], ""
		}
		return words[len(words)-1], ""
	case "words":
		return strconv.Itoa(len(words)), ""
	case "word":
		n, err := strconv.Atoi(strings.TrimSpace(arg(0)))
		if err != nil || n < 1 {
			return "", "$(word) with a bad index"
		}
		if n > len(words) {
			return "", ""
		}
		return words[n-1], ""
	case "sort":
		return strings.Join(sortUnique(words), " "), ""
	case "info", "warning":
		return "", ""
	}
	return mapWords(fn, arg(0), words), ""
}

// mapWords evaluates the functions that map each word of a list.
func mapWords(fn, arg0 string, words []string) string {
	var out []string
	for _, w := range words {
		switch fn {
		case "addprefix":
			out = append(out, arg0+w)
		case "addsuffix":
			out = append(out, w+arg0)
		case "dir":
			d, _ := path.Split(w)
			if d == "" {
				d = "./"
			}
			out = append(out, d)
		case "notdir":
			_, n := path.Split(w)
			out = append(out, n)
		case "basename":
			out = append(out, strings.TrimSuffix(w, path.Ext(w)))
		case "suffix":
			if e := path.Ext(w); e != "" {
				out = append(out, e)
			}
		case "filter", "filter-out":
			keep := false
			for _, p := range strings.Fields(arg0) {
				if _, ok := matchPattern(p, w); ok {
					keep = true
				}
			}
			if keep == (fn == "filter") {
				out = append(out, w)
			}
		}
	}
	return strings.Join(out, " ")
}

func sortUnique(words []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range words {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// patsubstWords replaces each word matching pattern (one % wildcard) with replacement.
func patsubstWords(pattern, replacement, text string) string {
	words := strings.Fields(text)
	for i, w := range words {
		if stem, ok := matchPattern(pattern, w); ok {
			words[i] = strings.Replace(replacement, "%", stem, 1)
		}
	}
	return strings.Join(words, " ")
}

func matchPattern(pattern, w string) (string, bool) {
	pre, suf, wild := strings.Cut(pattern, "%")
	if !wild {
		return "", pattern == w
	}
	if len(w) < len(pre)+len(suf) || !strings.HasPrefix(w, pre) || !strings.HasSuffix(w, suf) {
		return "", false
	}
	return w[len(pre) : len(w)-len(suf)], true
}

// splitArgs splits function arguments at commas outside parentheses; n > 0 limits the count (the
// last argument keeps its commas).
func splitArgs(s string, n int) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{':
			depth++
		case ')', '}':
			depth--
		case ',':
			if depth == 0 && (n < 0 || len(out) < n-1) {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
