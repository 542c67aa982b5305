package apitypes

import "strings"

// pluralRules are github.com/markbates/inflect v1.0.4's default plural rules (MIT, Copyright (c) 2011
// Chris Farmiloe), in the order they are added; later rules take precedence. operator-sdk names an
// owned CRD description "<inflect.Pluralize(lower(kind))>.<group>" when the kind has no
// +kubebuilder:resource:path marker. The library itself is not imported: its init reads
// inflections.json from the working directory and its dependency gobuffalo/envy loads .env files
// into the process environment.
var pluralRules = []struct {
	suffix, replacement string
	exact               bool
}{
	{"movie", "movies", false},
	{"s", "s", false},
	{"testis", "testes", false},
	{"axis", "axes", false},
	{"octopus", "octopi", false},
	{"virus", "viri", false},
	{"octopi", "octopi", false},
	{"viri", "viri", false},
	{"alias", "aliases", false},
	{"status", "statuses", false},
	{"Status", "Statuses", false},
	{"campus", "campuses", false},
	{"bus", "buses", false},
	{"buffalo", "buffaloes", false},
	{"tomato", "tomatoes", false},
	{"tum", "ta", false},
	{"ium", "ia", false},
	{"ta", "ta", false},
	{"ia", "ia", false},
	{"sis", "ses", false},
	{"lf", "lves", false},
	{"rf", "rves", false},
	{"afe", "aves", false},
	{"bfe", "bves", false},
	{"cfe", "cves", false},
	{"dfe", "dves", false},
	{"efe", "eves", false},
	{"gfe", "gves", false},
	{"hfe", "hves", false},
	{"ife", "ives", false},
	{"jfe", "jves", false},
	{"kfe", "kves", false},
	{"lfe", "lves", false},
	{"mfe", "mves", false},
	{"nfe", "nves", false},
	{"ofe", "oves", false},
	{"pfe", "pves", false},
	{"qfe", "qves", false},
	{"rfe", "rves", false},
	{"sfe", "sves", false},
	{"tfe", "tves", false},
	{"ufe", "uves", false},
	{"vfe", "vves", false},
	{"wfe", "wves", false},
	{"xfe", "xves", false},
	{"yfe", "yves", false},
	{"zfe", "zves", false},
	{"hive", "hives", false},
	{"quy", "quies", false},
	{"by", "bies", false},
	{"cy", "cies", false},
	{"dy", "dies", false},
	{"fy", "fies", false},
	{"gy", "gies", false},
	{"hy", "hies", false},
	{"jy", "jies", false},
	{"ky", "kies", false},
	{"ly", "lies", false},
	{"my", "mies", false},
	{"ny", "nies", false},
	{"py", "pies", false},
	{"qy", "qies", false},
	{"ry", "ries", false},
	{"sy", "sies", false},
	{"ty", "ties", false},
	{"vy", "vies", false},
	{"wy", "wies", false},
	{"xy", "xies", false},
	{"zy", "zies", false},
	{"x", "xes", false},
	{"ch", "ches", false},
	{"ss", "sses", false},
	{"sh", "shes", false},
	{"matrix", "matrices", false},
	{"vertix", "vertices", false},
	{"indix", "indices", false},
	{"matrex", "matrices", false},
	{"vertex", "vertices", false},
	{"index", "indices", false},
	{"mouse", "mice", false},
	{"louse", "lice", false},
	{"mice", "mice", false},
	{"lice", "lice", false},
	{"ress", "resses", false},
	{"ox", "oxen", true},
	{"oxen", "oxen", true},
	{"quiz", "quizzes", true},
	{"person", "people", false},
	{"people", "people", false},
	{"man", "men", false},
	{"men", "men", false},
	{"child", "children", false},
	{"children", "children", false},
	{"sex", "sexes", false},
	{"sexes", "sexes", false},
	{"move", "moves", false},
	{"moves", "moves", false},
	{"zombie", "zombies", false},
	{"zombies", "zombies", false},
	{"Status", "Statuses", false},
	{"Statuses", "Statuses", false},
	{"status", "statuses", false},
	{"statuses", "statuses", false},
	{"campus", "campuses", false},
	{"campuses", "campuses", false},
	{"human", "humans", false},
	{"humans", "humans", false},
}

// uncountables are inflect's default uncountable words.
var uncountables = map[string]bool{
	"equipment":   true,
	"information": true,
	"rice":        true,
	"money":       true,
	"species":     true,
	"series":      true,
	"fish":        true,
	"sheep":       true,
	"jeans":       true,
	"police":      true,
}

// pluralize is inflect.Pluralize for a lower-case word.
func pluralize(word string) string {
	if word == "" || uncountables[word] {
		return word
	}
	candidate := ""
	for i := len(pluralRules) - 1; i >= 0; i-- {
		r := pluralRules[i]
		if r.exact {
			if word == r.suffix {
				return r.replacement
			}
			continue
		}
		if strings.EqualFold(word, r.suffix) {
			candidate = r.replacement
		}
		if strings.HasSuffix(word, r.suffix) {
			i := strings.LastIndex(word, r.suffix)
			return word[:i] + r.replacement + word[i+len(r.suffix):]
		}
	}
	if candidate != "" {
		return candidate
	}
	return word + "s"
}
