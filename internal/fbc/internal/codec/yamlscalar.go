package codec

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/opack/opack/internal/manifest"
)

// yamlSpecial holds the plain scalars yaml.v2 resolves to null, booleans or special floats.
var yamlSpecial = map[string]string{
	"~": "null", "null": "null", "Null": "null", "NULL": "null",
	"y": "true", "Y": "true", "yes": "true", "Yes": "true", "YES": "true",
	"true": "true", "True": "true", "TRUE": "true", "on": "true", "On": "true", "ON": "true",
	"n": "false", "N": "false", "no": "false", "No": "false", "NO": "false",
	"false": "false", "False": "false", "FALSE": "false", "off": "false", "Off": "false", "OFF": "false",
	".nan": "", ".NaN": "", ".NAN": "", ".inf": "", ".Inf": "", ".INF": "",
	"+.inf": "", "+.Inf": "", "+.INF": "", "-.inf": "", "-.Inf": "", "-.INF": "", "<<": "",
}

// YAMLStyleFloat matches yaml.v2's float syntax: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
func YAMLStyleFloat(s string) bool {
	digits := func(i int) int {
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i
	}
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i < len(s) && s[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return false
		}
		i = j
	} else {
		j := digits(i)
		if j == i {
			return false
		}
		i = j
		if i < len(s) && s[i] == '.' {
			i = digits(i + 1)
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}

// plainIsString reports whether yaml.v2 resolves the plain scalar s to a string.
func plainIsString(s []byte) bool {
	if _, ok := yamlSpecial[string(s)]; ok {
		return false
	}
	switch s[0] {
	case '+', '-', '.', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		out, ok := resolvePlainBytes(nil, s)
		return ok && len(out) > 0 && out[0] == '"'
	}
	return true
}

// resolvePlainBytes is resolvePlain without converting the common cases to a string.
func resolvePlainBytes(dst []byte, s []byte) ([]byte, bool) {
	if v, ok := yamlSpecial[string(s)]; ok {
		if v == "" {
			return dst, false
		}
		return append(dst, v...), true
	}
	switch s[0] {
	case '+', '-', '.', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		// Two dots make neither a number nor a timestamp ("0.1.0"): a string.
		if bytes.Count(s, []byte(".")) < 2 {
			return resolvePlain(dst, string(s))
		}
	}
	return manifest.AppendJSONString(dst, s, false), true
}

// resolvePlain appends the JSON opm ends up with for the plain scalar s, resolving it as
// yaml.v2 does (YAML 1.1: null, booleans, ints in any base, floats; timestamps stay strings)
// and printing numbers as float64, as opm's decode into map[string]any does. ok is false for
// values JSON cannot hold (infinities, NaN) or the merge key.
func resolvePlain(dst []byte, s string) ([]byte, bool) {
	if v, ok := yamlSpecial[s]; ok {
		if v == "" {
			return dst, false
		}
		return append(dst, v...), true
	}
	switch s[0] {
	case '+', '-', '.', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
	default:
		return manifest.AppendJSONString(dst, s, false), true
	}
	if s[0] == '.' {
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return appendFloat(dst, f)
		}
		return manifest.AppendJSONString(dst, s, false), true
	}
	if looksLikeTimestamp(s) {
		return manifest.AppendJSONString(dst, s, false), true
	}
	plain := strings.ReplaceAll(s, "_", "")
	if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return appendFloat(dst, float64(i))
	}
	if u, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return appendFloat(dst, float64(u))
	}
	if YAMLStyleFloat(plain) {
		if f, err := strconv.ParseFloat(plain, 64); err == nil {
			return appendFloat(dst, f)
		}
	}
	if strings.HasPrefix(plain, "0b") || strings.HasPrefix(plain, "-0b") {
		return dst, false
	}
	return manifest.AppendJSONString(dst, s, false), true
}

func appendFloat(dst []byte, f float64) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return dst, false
	}
	b, err := json.Marshal(f)
	if err != nil {
		return dst, false
	}
	return append(dst, b...), true
}

// looksLikeTimestamp is yaml.v2's parseTimestamp: such plain scalars decode to strings.
func looksLikeTimestamp(s string) bool {
	i := 0
	for ; i < len(s); i++ {
		if c := s[i]; c < '0' || c > '9' {
			break
		}
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, layout := range []string{"2006-1-2T15:4:5.999999999Z07:00", "2006-1-2t15:4:5.999999999Z07:00", "2006-1-2 15:4:5.999999999", "2006-1-2"} {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

func doubleQuoted(t []byte) (string, error) {
	end := closingQuote(t, '"')
	if end < 0 || len(trimComment(t[end+1:])) != 0 {
		return "", errNotSimple
	}
	body := t[1:end]
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body), nil
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(body) {
			return "", errNotSimple
		}
		switch body[i] {
		case '"', '\\', '/', ' ':
			b.WriteByte(body[i])
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '0':
			b.WriteByte(0)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'u', 'x', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[body[i]]
			if i+n >= len(body) {
				return "", errNotSimple
			}
			var r rune
			for _, h := range body[i+1 : i+1+n] {
				d := hexVal(h)
				if d < 0 {
					return "", errNotSimple
				}
				r = r<<4 | rune(d)
			}
			if !utf8.ValidRune(r) {
				return "", errNotSimple
			}
			b.WriteRune(r)
			i += n
		default:
			return "", errNotSimple
		}
	}
	return b.String(), nil
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// simpleChars refuses documents yaml.v2 reads specially or rejects: invalid UTF-8, a BOM,
// control characters, tabs in indentation (checked later) and the YAML 1.1 line breaks
