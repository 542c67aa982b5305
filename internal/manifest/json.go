package manifest

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MarshalJSON returns what json.Marshal returns for a decoded object (string-keyed maps, slices,
// strings, int64, float64, booleans and nil, as Decode gives), byte for byte, without json.Marshal's
// reflection: writing the JSON of every decoded manifest cost as much as decoding its YAML. Any
// other value is left to json.Marshal. TestMarshalJSONSameAsEncodingJSON and the YAML fuzz targets
// hold it to json.Marshal's output.
func MarshalJSON(v interface{}) ([]byte, error) {
	if out, ok := appendJSON(nil, v); ok {
		return out, nil
	}
	return json.Marshal(v)
}

func appendJSON(out []byte, v interface{}) ([]byte, bool) {
	switch t := v.(type) {
	case nil:
		return append(out, "null"...), true
	case bool:
		return strconv.AppendBool(out, t), true
	case string:
		return appendJSONString(out, t), true
	case int64:
		return strconv.AppendInt(out, t, 10), true
	case float64:
		return appendJSONFloat(out, t)
	case []interface{}:
		if t == nil {
			return append(out, "null"...), true
		}
		out = append(out, '[')
		for i, e := range t {
			if i > 0 {
				out = append(out, ',')
			}
			var ok bool
			if out, ok = appendJSON(out, e); !ok {
				return nil, false
			}
		}
		return append(out, ']'), true
	case map[string]interface{}:
		if t == nil {
			return append(out, "null"...), true
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		out = append(out, '{')
		for i, k := range keys {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(appendJSONString(out, k), ':')
			var ok bool
			if out, ok = appendJSON(out, t[k]); !ok {
				return nil, false
			}
		}
		return append(out, '}'), true
	}
	return nil, false
}

// appendJSONFloat writes f as encoding/json does (ES6 number formatting); NaN and infinities are
// left to json.Marshal, which refuses them.
func appendJSONFloat(out []byte, f float64) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, false
	}
	abs, format := math.Abs(f), byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	out = strconv.AppendFloat(out, f, format, -1, 64)
	if format == 'e' { // clean up e-09 to e-9
		if n := len(out); n >= 4 && out[n-4] == 'e' && out[n-3] == '-' && out[n-2] == '0' {
			out[n-2] = out[n-1]
			out = out[:n-1]
		}
	}
	return out, true
}

const hexDigits = "0123456789abcdef"

// jsonSafe and htmlSafe are the ASCII bytes a JSON string holds as they are, without and with HTML
// escaping.
var jsonSafe, htmlSafe = func() (j, h [utf8.RuneSelf]bool) {
	for b := byte(0x20); b < utf8.RuneSelf; b++ {
		j[b] = b != '"' && b != '\\'
		h[b] = j[b] && b != '<' && b != '>' && b != '&'
	}
	return j, h
}()

// appendJSONString writes s quoted as encoding/json does with HTML escaping.
func appendJSONString(out []byte, s string) []byte { return AppendJSONString(out, s, true) }

// AppendJSONString appends s quoted as encoding/json writes a string: escapeHTML as
// json.Marshal (<, > and & as \u003c, \u003e and \u0026) or as an Encoder with
// SetEscapeHTML(false); U+2028 and U+2029 escaped, invalid UTF-8 as U+FFFD.
func AppendJSONString[S []byte | string](out []byte, s S, escapeHTML bool) []byte {
	safe := &jsonSafe
	if escapeHTML {
		safe = &htmlSafe
	}
	out = append(out, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if safe[b] {
				i++
				continue
			}
			out = append(out, s[start:i]...)
			switch b {
			case '\\', '"':
				out = append(out, '\\', b)
			case '\b':
				out = append(out, '\\', 'b')
			case '\f':
				out = append(out, '\\', 'f')
			case '\n':
				out = append(out, '\\', 'n')
			case '\r':
				out = append(out, '\\', 'r')
			case '\t':
				out = append(out, '\\', 't')
			default:
				out = append(out, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		n := min(len(s)-i, utf8.UTFMax)
		r, size := utf8.DecodeRuneInString(string(s[i : i+n]))
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, s[start:i]...)
			out = append(out, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			out = append(out, s[start:i]...)
			out = append(out, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	out = append(out, s[start:]...)
	return append(out, '"')
}

// wholeNumberToken reports whether rest, the text after a '-', can be a number scalar: only letters,
// digits and "._+-" (numbers, .inf and .nan included) up to the end of a plain scalar (a line end,
// blank, flow indicator, comment or ':').
func wholeNumberToken(rest []byte) bool {
	for _, c := range rest {
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '.', c == '_', c == '+', c == '-':
			continue
		case strings.IndexByte(" \t\r\n,]}#:", c) >= 0:
			return true
		default:
			return false
		}
	}
	return true
}

// MayLoseNumbers reports whether the object Decode gives for raw may write, as JSON, a number other
// than the one sigs.k8s.io/yaml.YAMLToJSON writes: a negative zero float becomes the integer 0, and an
// unsigned integer above the int64 range a float, as the API machinery's JSON decoder reads them.
// Typed decoding from MarshalJSON's output is then not what sigs.k8s.io/yaml.Unmarshal gives for raw
// JSON fields (a CRD schema's default, enum or example), and the caller must decode the YAML instead.
// It looks at the text only: a '-' starting a value followed by '0' or '.' and by nothing a number
// cannot hold up to the end of the scalar, a run of 19 or more digits, or a hexadecimal number of 16
// or more digits; it may say yes for a document that loses nothing, never no for one that does.
func MayLoseNumbers(raw []byte) bool {
	// A false yes costs a decode of the YAML through yaml.v2 (tens of milliseconds for a large CRD):
	// the '-' rule looks at the whole token, so "default: '+,-.<=>'" is not a number.
	digits, hex := 0, -1
	for i, c := range raw {
		switch {
		case c >= '0' && c <= '9':
			if digits++; digits >= 19 {
				return true
			}
		default:
			digits = 0
		}
		switch {
		case hex >= 0 && (c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'):
			if hex++; hex >= 16 {
				return true
			}
		case (c == 'x' || c == 'X') && i > 0 && raw[i-1] == '0':
			hex = 0
		default:
			hex = -1
		}
		if c == '-' && i+1 < len(raw) && (raw[i+1] == '0' || raw[i+1] == '.') && (i == 0 || strings.IndexByte(" \t\n[{,:", raw[i-1]) >= 0) &&
			wholeNumberToken(raw[i+1:]) {
			return true
		}
	}
	return false
}
