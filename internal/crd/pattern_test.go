package crd

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

func TestPatternSubsumes(t *testing.T) {
	tests := []struct {
		old, new string
		want     bool
	}{
		{`^\d{2}\.[1-4]\.\d+\.\d+$`, `^\d{2}\.\d+\.\d+\.\d+$`, true}, // appian-operator v0.184.0 -> v0.200.0
		{`^[a-z]+$`, `^[a-z0-9]+$`, true},
		{`^[a-z]{3,5}$`, `^[a-z]{1,}$`, true},
		{`^a?b$`, `^a*b$`, true},
		{`^(foo|bar)$`, `^(foo|bar|baz)$`, true},
		{`^x$`, `^(x|y)$`, true},
		{`^.+$`, `^.*$`, true},
		{`^[0-9]$`, `^.$`, true},
		// Narrowings and changes: not wider.
		{`^\d{2}\.\d+\.\d+\.\d+$`, `^\d{2}\.[1-4]\.\d+\.\d+$`, false},
		{`^[a-z0-9]+$`, `^[a-z]+$`, false},
		{`^a*b$`, `^a+b$`, false},
		{`^a{1,5}$`, `^a{1,4}$`, false},
		{`^a+$`, `^a{1,100}$`, false},
		{`^\d+$`, `\d+$`, false}, // an anchor dropped does widen, but the structure differs: unsure
		{`^(foo|bar|baz)$`, `^(foo|bar)$`, false},
		{`^[a-z]$`, `^(?i)[a-y]$`, false},
		{`^a$`, `^(?i)a$`, false}, // wider in fact, not shown structurally: kept
		{`^[\p{L}]+$`, `^[a-z]+$`, false},
		{`(?<=a)b`, `b`, false}, // not Go syntax: never judged
	}
	for _, tt := range tests {
		t.Run(tt.old+" -> "+tt.new, func(t *testing.T) {
			if got := patternSubsumes(tt.old, tt.new) == shownWider; got != tt.want {
				t.Fatalf("patternSubsumes = %v, want %v", got, tt.want)
			}
			if !tt.want {
				return
			}
			// A claimed widening must hold on samples of the old pattern.
			o, n := regexp.MustCompile(tt.old), regexp.MustCompile(tt.new)
			for _, s := range []string{"12.3.4.5", "abc", "abcd", "b", "ab", "aab", "foo", "bar", "x", "7", "", "q"} {
				if o.MatchString(s) && !n.MatchString(s) {
					t.Errorf("%q matches the old pattern but not the new one", s)
				}
			}
		})
	}
}

// hostilePatterns are pattern pairs whose comparison would take exponential or quadratic time
// without memoized pairs and the step budget: nested alternations, long alternations of
// distinct branches, long concatenations.
func hostilePatterns() []struct{ name, old, new string } {
	nested := func(k int, leaf string) string {
		return "^" + strings.Repeat("(a|(b|", k) + leaf + strings.Repeat("))", k) + "$"
	}
	// alts is n alternatives that share no prefix (the parser factors common prefixes out).
	alts := func(n int, first rune, tail string) string {
		var b strings.Builder
		b.WriteString("^(")
		for i := range n {
			if i > 0 {
				b.WriteByte('|')
			}
			fmt.Fprintf(&b, "%c%s", first+rune(i), tail)
		}
		b.WriteString(")$")
		return b.String()
	}
	return []struct{ name, old, new string }{
		{"nested alternations 30 levels", nested(30, "c"), nested(30, "d")},
		{"nested alternations 300 levels", nested(300, "c"), nested(300, "d")},
		{"3000 distinct alternatives each", alts(3000, 0x100, "x"), alts(3001, 0x100, "x")},
		{"long concatenation", "^" + strings.Repeat("[a-z]", 20000) + "$", "^" + strings.Repeat("[a-y]", 20000) + "$"},
		{"alternatives of long branches", alts(600, 0x100, strings.Repeat("ab", 300)), alts(600, 0x100, strings.Repeat("ab", 300)+"c")},
	}
}

func TestPatternSubsumesHostile(t *testing.T) {
	want := map[string]subsumption{
		"nested alternations 30 levels":   notShownWider,
		"nested alternations 300 levels":  notShownWider,
		"3000 distinct alternatives each": undecided,
		"long concatenation":              notShownWider,
		"alternatives of long branches":   undecided,
	}
	for _, tt := range hostilePatterns() {
		t.Run(tt.name, func(t *testing.T) {
			if got := patternSubsumes(tt.old, tt.new); got != want[tt.name] {
				t.Errorf("patternSubsumes = %d, want %d", got, want[tt.name])
			}
		})
	}
}

// TestPatternUndecidedFinding: a comparison that runs out of its budget is reported as a
// changed pattern that was not decided, never as a widening.
func TestPatternUndecidedFinding(t *testing.T) {
	p := hostilePatterns()[2]
	o := &apiextv1.JSONSchemaProps{Type: "string", Pattern: p.old}
	n := &apiextv1.JSONSchemaProps{Type: "string", Pattern: p.new}
	var got []string
	for _, f := range DiffSchemas(o, n) {
		got = append(got, string(f.Rule)+" "+f.Message)
	}
	want := []string{string(RulePatternChanged) +
		" pattern changed (whether the new one accepts every value the old one accepted was not decided: comparing the two patterns needs more than 200000 steps)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// BenchmarkPatternSubsumesHostile: any pattern pair is judged within about 100 ms.
func BenchmarkPatternSubsumesHostile(b *testing.B) {
	for _, tt := range hostilePatterns() {
		b.Run(tt.name, func(b *testing.B) {
			for b.Loop() {
				patternSubsumes(tt.old, tt.new)
			}
		})
	}
}
