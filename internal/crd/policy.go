package crd

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

// Policy overrides rule severities. A nil Policy uses the defaults.
type Policy map[Rule]Severity

// Severity returns the severity of r under p.
func (p Policy) Severity(r Rule) Severity {
	if s, ok := p[r]; ok {
		return s
	}
	return DefaultSeverity(r)
}

// policyFile is the policy file layout:
//
//	rules:
//	  enum-value-added: off
//	  pattern-removed: error
type policyFile struct {
	Rules map[string]interface{} `json:"rules"`
}

// ParsePolicy reads a policy document (YAML or JSON). Unknown rules and severities are errors.
func ParsePolicy(data []byte) (Policy, error) {
	var f policyFile
	if err := yaml.UnmarshalStrict(data, &f); err != nil {
		return nil, fmt.Errorf("parsing policy (want `rules: {<rule>: error|warn|info|off}`): %w", err)
	}
	p := Policy{}
	names := make([]string, 0, len(f.Rules))
	for name := range f.Rules {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		r := Rule(name)
		if _, ok := rules[r]; !ok {
			return nil, fmt.Errorf("policy names unknown rule %q (known rules: %s)", name, knownRules())
		}
		v, ok := f.Rules[name].(string)
		if b, isBool := f.Rules[name].(bool); isBool && !b {
			v, ok = "off", true // YAML 1.1 reads a bare off as false
		}
		if !ok {
			return nil, fmt.Errorf("policy rule %q: severity %v is not one of error, warn, info, off", name, f.Rules[name])
		}
		s, err := ParseSeverity(v)
		if err != nil {
			return nil, fmt.Errorf("policy rule %q: %w", name, err)
		}
		p[r] = s
	}
	return p, nil
}

// LoadPolicy reads a policy file.
func LoadPolicy(path string) (Policy, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading policy: %w", err)
	}
	p, err := ParsePolicy(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

func knownRules() string {
	rs := Rules()
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = string(r)
	}
	return strings.Join(s, ", ")
}
