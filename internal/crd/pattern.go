package crd

import (
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode"
)

// subsumeBudget bounds the pairs of subexpressions one pattern comparison may judge. Judged
// pairs are remembered, so a comparison costs at most the product of the two trees' sizes; the
// budget keeps even that product (two long patterns) within about 100 ms.
const subsumeBudget = 200_000

// subsumption is the verdict of patternSubsumes.
type subsumption int

const (
	notShownWider subsumption = iota // not shown: the caller keeps its verdict
	shownWider                       // every string old matches, new matches
	undecided                        // the comparison ran out of its budget
)

// patternSubsumes reports whether every string matching old also matches new, judged on their
// parse trees: trees that differ only where new accepts more at the same place (a character
// class replaced by a superset class, a quantifier loosened, an alternative added). It is
// sound, not complete: notShownWider means "not shown", and the caller keeps its verdict.
// Patterns Go's regexp/syntax cannot parse (ECMA-262 only constructs) are never judged wider.
// A comparison that needs more than subsumeBudget steps is undecided.
func patternSubsumes(old, new string) subsumption {
	o, err := syntax.Parse(old, syntax.Perl)
	if err != nil {
		return notShownWider
	}
	n, err := syntax.Parse(new, syntax.Perl)
	if err != nil {
		return notShownWider
	}
	s := &subsumer{memo: map[[2]*syntax.Regexp]bool{}, budget: subsumeBudget, ids: map[*syntax.Regexp]int{}}
	keys := map[string]int{}
	s.number(n, keys)
	s.number(o, keys)
	wider := s.subsumes(n, o)
	switch {
	case s.budget < 0:
		return undecided
	case wider:
		return shownWider
	}
	return notShownWider
}

// subsumer judges pairs of subexpressions once each, within a budget of steps.
type subsumer struct {
	memo   map[[2]*syntax.Regexp]bool
	budget int
	// ids numbers the nodes of both trees so that equal subtrees have equal numbers: comparing
	// two subtrees is one comparison, not a walk of both.
	ids map[*syntax.Regexp]int
}

// number gives re and its subexpressions their ids (hash-consing, bottom up).
func (s *subsumer) number(re *syntax.Regexp, keys map[string]int) int {
	var b strings.Builder
	fmt.Fprintf(&b, "%d/%d/%d/%d/%s/%q/", re.Op, re.Flags, re.Min, re.Max, re.Name, string(re.Rune))
	for _, sub := range re.Sub {
		fmt.Fprintf(&b, "%d,", s.number(sub, keys))
	}
	id, ok := keys[b.String()]
	if !ok {
		id = len(keys)
		keys[b.String()] = id
	}
	s.ids[re] = id
	return id
}

// equal reports whether n and o are the same expression (nodes flat made have no id).
func (s *subsumer) equal(n, o *syntax.Regexp) bool {
	in, okn := s.ids[n]
	io, oko := s.ids[o]
	if okn && oko {
		return in == io
	}
	return n.Equal(o)
}

// subsumes reports whether L(o) ⊆ L(n) by structure (false once the budget is spent).
func (s *subsumer) subsumes(n, o *syntax.Regexp) bool {
	n, o = uncapture(n), uncapture(o)
	key := [2]*syntax.Regexp{n, o}
	if v, ok := s.memo[key]; ok {
		return v
	}
	if s.budget--; s.budget < 0 {
		return false
	}
	v := s.judge(n, o)
	s.memo[key] = v
	return v
}

func (s *subsumer) judge(n, o *syntax.Regexp) bool {
	if s.equal(n, o) {
		return true
	}
	if n.Op == syntax.OpAlternate {
		for _, alt := range n.Sub {
			if s.subsumes(alt, o) {
				return true
			}
		}
	}
	if o.Op == syntax.OpAlternate {
		for _, alt := range o.Sub {
			if !s.subsumes(n, alt) {
				return false
			}
		}
		return true
	}
	if nf, of := flat(n), flat(o); len(nf) > 1 || len(of) > 1 {
		s.budget -= len(nf) + len(of)
		if len(nf) != len(of) {
			return false
		}
		for i := range nf {
			if !s.subsumes(nf[i], of[i]) {
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
		return s.subsumes(ns, os)
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
