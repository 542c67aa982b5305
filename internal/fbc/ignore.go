package fbc

import (
	"path"
	"strings"
)

// ignorePattern is one line of an .indexignore file, with git's gitignore semantics as
// implemented by go-git (which opm uses through joelanford/ignore).
type ignorePattern struct {
	domain    []string // folder holding the .indexignore, split at "/"; nil at the root
	parts     []string
	inclusion bool // "!pattern"
	dirOnly   bool // "pattern/"
	isGlob    bool // the pattern holds a "/"
}

func parseIgnore(text, dir string) []ignorePattern {
	var domain []string
	if dir != "." && dir != "" {
		domain = strings.Split(dir, "/")
	}
	var out []ignorePattern
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p := ignorePattern{domain: domain}
		if strings.HasPrefix(line, "!") {
			p.inclusion = true
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			p.dirOnly = true
			line = line[:len(line)-1]
		}
		p.isGlob = strings.Contains(line, "/")
		p.parts = strings.Split(line, "/")
		out = append(out, p)
	}
	return out
}

// ignored reports whether file (slash-separated, relative to the catalog root) is ignored:
// the last pattern that matches decides.
func ignored(pats []ignorePattern, file string) bool {
	elems := strings.Split(file, "/")
	for i := len(pats) - 1; i >= 0; i-- {
		if pats[i].match(elems) {
			return !pats[i].inclusion
		}
	}
	return false
}

func (p ignorePattern) match(elems []string) bool {
	if len(elems) <= len(p.domain) {
		return false
	}
	for i, d := range p.domain {
		if elems[i] != d {
			return false
		}
	}
	elems = elems[len(p.domain):]
	if p.isGlob {
		return p.globMatch(elems)
	}
	return p.nameMatch(elems)
}

// nameMatch matches a pattern without "/" against any element of the path.
func (p ignorePattern) nameMatch(elems []string) bool {
	for i, name := range elems {
		if ok, err := path.Match(p.parts[0], name); err != nil || !ok {
			continue
		}
		return !(p.dirOnly && i == len(elems)-1)
	}
	return false
}

// globMatch matches a pattern with "/" (and maybe "**") from the start of the path; a match
// of a leading part of the path covers everything below it.
func (p ignorePattern) globMatch(elems []string) bool {
	matched, traverse := false, false
	for i, part := range p.parts {
		switch {
		case part == "":
			traverse = false
			continue
		case part == "**":
			if i == len(p.parts)-1 {
				return matched || len(elems) > 0
			}
			traverse = true
			continue
		case strings.Contains(part, "**"):
			return false
		case len(elems) == 0:
			return false
		}
		if traverse {
			traverse = false
			found := false
			for len(elems) > 0 {
				e := elems[0]
				elems = elems[1:]
				if ok, err := path.Match(part, e); err != nil {
					return false
				} else if ok {
					found = true
					break
				}
			}
			if !found {
				return false
			}
			matched = true
			continue
		}
		if ok, err := path.Match(part, elems[0]); err != nil || !ok {
			return false
		}
		matched = true
		elems = elems[1:]
	}
	if matched && p.dirOnly && len(elems) == 0 {
		return false
	}
	return matched
}
