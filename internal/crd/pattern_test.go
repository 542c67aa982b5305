package crd

import (
	"regexp"
	"testing"
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
			if got := patternSubsumes(tt.old, tt.new); got != tt.want {
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
