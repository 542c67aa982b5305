package emit

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"text/template"

	"sigs.k8s.io/yaml"
)

// funcs are the helpers available to the deploy templates.
var funcs = template.FuncMap{
	"quote":  quote,
	"toYAML": toYAML,
	"indent": indent,
	"toJSON": toJSON,
}

// toJSON renders v as compact JSON (HTML characters not escaped).
func toJSON(v any) (string, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n"), err
}

// b64 is the standard base64 of s.
func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// quote renders s as a YAML scalar that reads back as the string s: plain when that is unambiguous,
// otherwise double-quoted (a JSON string is valid YAML), so no value can change the structure of the
// document it is written into.
func quote(s string) (string, error) {
	if b, err := yaml.Marshal(s); err == nil {
		if out := strings.TrimSuffix(string(b), "\n"); !strings.ContainsAny(out, "\n#") && !strings.HasPrefix(out, "'") {
			return out, nil
		}
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n"), err
}

// toYAML renders v as block YAML without a trailing newline.
func toYAML(v any) (string, error) {
	b, err := yaml.Marshal(v)
	return strings.TrimSuffix(string(b), "\n"), err
}

// maxIndent bounds indent's n: a template of the repository cannot make it allocate more than a
// few times its input.
const maxIndent = 64

// indent prefixes every line of s with n spaces (at most maxIndent).
func indent(n int, s string) (string, error) {
	if n < 0 || n > maxIndent {
		return "", fmt.Errorf("indent %d: at most %d spaces", n, maxIndent)
	}
	pad := strings.Repeat(" ", n)
	return pad + strings.ReplaceAll(s, "\n", "\n"+pad), nil
}
