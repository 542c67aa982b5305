package crd

import (
	"regexp/syntax"
	"unicode"
)

// patternSubsumes reports whether every string matching old also matches new, judged on their
// parse trees: trees that differ only where new accepts more at the same place (a character
// class replaced by a superset class, a quantifier loosened, an alternative added). It is
// sound, not complete: false means "not shown", and the caller keeps its verdict. Patterns Go's
// regexp/syntax cannot parse (ECMA-262 only constructs) are never judged wider.
func patternSubsumes(old, new string) bool {
	o, err := syntax.Parse(old, syntax.Perl)
	if err != nil {
		return false
	}
	n, err := syntax.Parse(new, syntax.Perl)
	if err != nil {
		return false
	}
	return subsumes(n, o)
}

// subsumes reports whether L(o) ⊆ L(n) by structure.
func subsumes(n, o *syntax.Regexp) bool {
	n, o = uncapture(n), uncapture(o)
	if n.Equal(o) {
		return true
	}
	if n.Op == syntax.OpAlternate {
		for _, alt := range n.Sub {
			if subsumes(alt, o) {
				return true
			}
		}
	}
	if o.Op == syntax.OpAlternate {
		for _, alt := range o.Sub {
			if !subsumes(n, alt) {
				return false
			}
		}
		return true
	}
	if nf, of := flat(n), flat(o); len(nf) > 1 || len(of) > 1 {
		if len(nf) != len(of) {
			return false
		}
		for i := range nf {
			if !subsumes(nf[i], of[i]) {
				return false
			}
		}
		return true
	}
	if isRepeat(n) || isRepeat(o) {
		ns, nmin, nmax := bounds(n)
		os, omin, omax := bounds(o)
		if nmin > omin || (nmax != -1 && (omax == -1 || omax > nmax)) {
			return false
		}
		return subsumes(ns, os)
	}
	oc, ok1 := charSet(o)
	nc, ok2 := charSet(n)
	return ok1 && ok2 && rangesCover(nc, oc)
}

// flat returns the sequence re matches: concatenations flattened, literals split into their
// runes (the parser factors "foo|bar|baz" into "foo|ba[rz]", so "bar" must line up with it).
func flat(re *syntax.Regexp) []*syntax.Regexp {
	re = uncapture(re)
	switch {
	case re.Op == syntax.OpConcat:
		var out []*syntax.Regexp
		for _, s := range re.Sub {
			out = append(out, flat(s)...)
		}
		return out
	case re.Op == syntax.OpLiteral && len(re.Rune) > 1:
		out := make([]*syntax.Regexp, len(re.Rune))
		for i, r := range re.Rune {
			out[i] = &syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune{r}, Flags: re.Flags}
		}
		return out
	}
	return []*syntax.Regexp{re}
}

func uncapture(re *syntax.Regexp) *syntax.Regexp {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	return re
}

func isRepeat(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		return true
	}
	return false
}

// bounds returns re as sub{min,max} (max -1: unbounded); a non-repeat is re{1,1}.
func bounds(re *syntax.Regexp) (*syntax.Regexp, int, int) {
	switch re.Op {
	case syntax.OpStar:
		return re.Sub[0], 0, -1
	case syntax.OpPlus:
		return re.Sub[0], 1, -1
	case syntax.OpQuest:
		return re.Sub[0], 0, 1
	case syntax.OpRepeat:
		return re.Sub[0], re.Min, re.Max
	}
	return re, 1, 1
}

// charSet returns the runes one-character re matches as sorted ranges [lo, hi, lo, hi, ...].
func charSet(re *syntax.Regexp) ([]rune, bool) {
	switch re.Op {
	case syntax.OpCharClass:
		return re.Rune, true
	case syntax.OpAnyChar:
		return []rune{0, unicode.MaxRune}, true
	case syntax.OpAnyCharNotNL:
		return []rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune}, true
	case syntax.OpLiteral:
		if len(re.Rune) == 1 && re.Flags&syntax.FoldCase == 0 {
			return []rune{re.Rune[0], re.Rune[0]}, true
		}
	}
	return nil, false
}

// rangesCover reports whether the ranges of outer hold every rune of inner (both sorted).
func rangesCover(outer, inner []rune) bool {
	for i := 0; i+1 < len(inner); i += 2 {
		lo, hi := inner[i], inner[i+1]
		for j := 0; j+1 < len(outer) && lo <= hi; j += 2 {
			if outer[j] <= lo && lo <= outer[j+1] {
				lo = outer[j+1] + 1
			}
		}
		if lo <= hi {
			return false
		}
	}
	return true
}
