package manifest

import (
	"strconv"
	"strings"
)

// plainScalar resolves a one-line plain scalar as yaml.v2's resolve does and converts the result
// as direct does: null, booleans (YAML 1.1: yes, no, on, off too), integers in any base yaml.v2
// reads, floats; anything else is a string. NaN, infinities, "<<" and binary numbers are left to
// yaml.v2.
func plainScalar(b []byte) (interface{}, bool) {
	s := string(b)
	c := s[0]
	if strings.IndexByte("+-0123456789.yYnNtTfFoO~<", c) < 0 {
		return s, true
	}
	if leftToYAMLv2[s] {
		return nil, false
	}
	if v, ok := plainConstants[s]; ok {
		return v, true
	}
	switch {
	case c == '.':
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			v, err := direct(f)
			return v, err == nil
		}
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		plain := strings.ReplaceAll(s, "_", "")
		if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return i, true
		}
		if u, err := strconv.ParseUint(plain, 0, 64); err == nil {
			v, err := direct(u)
			return v, err == nil
		}
		if yamlStyleFloat(plain) {
			if f, err := strconv.ParseFloat(plain, 64); err == nil {
				v, err := direct(f)
				return v, err == nil
			}
		}
		if strings.HasPrefix(plain, "0b") || strings.HasPrefix(plain, "-0b") {
			return nil, false
		}
	}
	return s, true
}

// plainConstants are the nulls and booleans of yaml.v2's resolve table.
var plainConstants = func() map[string]interface{} {
	m := map[string]interface{}{}
	for v, words := range map[bool][]string{
		true:  {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"},
		false: {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"},
	} {
		for _, w := range words {
			m[w] = v
		}
	}
	for _, w := range []string{"~", "null", "Null", "NULL"} {
		m[w] = nil
	}
	return m
}()

// leftToYAMLv2 are the rest of the resolve table (NaN, infinities, the merge key): left to yaml.v2.
var leftToYAMLv2 = map[string]bool{
	".nan": true, ".NaN": true, ".NAN": true, ".inf": true, ".Inf": true, ".INF": true,
	"+.inf": true, "+.Inf": true, "+.INF": true, "-.inf": true, "-.Inf": true, "-.INF": true, "<<": true,
}

// yamlStyleFloat is yaml.v2's `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
func yamlStyleFloat(s string) bool {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	digits := func() int {
		n := 0
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		s = s[n:]
		return n
	}
	if s != "" && s[0] == '.' {
		s = s[1:]
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if s != "" && s[0] == '.' {
			s = s[1:]
			digits()
		}
	}
	if s != "" && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s != "" && (s[0] == '-' || s[0] == '+') {
			s = s[1:]
		}
		if digits() == 0 {
			return false
		}
	}
	return s == ""
}
