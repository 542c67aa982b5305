package apitypes

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// DisplayName turns a name in snake, kebab, camel or dotted case into a title-cased,
// space-separated display name ("memcached-operator" → "Memcached Operator"), exactly as
// operator-sdk's k8sutil.GetDisplayName does.
func DisplayName(name string) string { return displayName(name) }

func displayName(name string) string {
	for _, sep := range ".-_ " {
		var words []string
		for _, w := range strings.Split(name, string(sep)) {
			if w != "" {
				words = append(words, strings.TrimSpace(w))
			}
		}
		name = strings.Join(words, " ")
	}
	words := strings.Split(name, " ")
	for i, word := range words {
		var b strings.Builder
		for j, r := range word {
			if unicode.IsUpper(r) && j > 0 && !unicode.IsUpper(rune(word[j-1])) {
				b.WriteByte(' ')
			}
			b.WriteRune(r)
		}
		words[i] = b.String()
	}
	return strings.TrimSpace(cases.Title(language.AmericanEnglish, cases.NoLower).String(strings.Join(words, " ")))
}
