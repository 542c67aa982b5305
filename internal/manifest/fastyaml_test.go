package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/benchutil"
)

// sameAsYAMLv2 checks fastYAML against yaml.v2 on one document: when fastYAML reads it, yaml.v2 reads
// it too, to the same value. It returns whether fastYAML read it.
func sameAsYAMLv2(t *testing.T, doc []byte) bool {
	t.Helper()
	got, ok := fastYAML(doc)
	if !ok {
		return false
	}
	want, err := yamlv2ToObject(doc)
	if err != nil {
		t.Fatalf("fastYAML read a document yaml.v2 refuses (%v):\n%s", err, doc)
	}
	if diff := cmp.Diff(want, interface{}(got)); diff != "" {
		t.Fatalf("fastYAML and yaml.v2 differ (-yaml.v2 +fastYAML):\n%s\ndocument:\n%s", diff, doc)
	}
	sameJSONAsEncodingJSON(t, got)
	return true
}

func TestFastYAMLSameAsYAMLv2(t *testing.T) {
	tests := []struct {
		name, doc string
		fast      bool // whether fastYAML reads it (false: left to yaml.v2)
	}{
		{"scalars", "kind: A\ns: text\ni: 42\nminus: -7\nf: 1.5\nf1: 1.0\ne: 1e3\nhex: 0x1F\noct: 0o17\nold: 017\nu: 1_000\nbig: 18446744073709551615\nhuge: 99999999999999999999\nb: yes\nb2: Off\nnull1: ~\nnull2: null\nnull3:\nv: 0.1.0\nts: 2001-12-14\ndot: .5\ndots: .foo\nplus: +\nneg: -x\nurl: http://a.b/c?d=e#f\nhash: a#b\n", true},
		{"comments", "# head\nkind: A # trailing\n\n  # indented\nmetadata:\n  # inside\n  name: x\n", true},
		{"nested", "kind: A\nspec:\n  a:\n    b: 1\n  c: [] # empty\n  d: {}\n", true},
		{"sequences", "kind: A\nitems:\n- a\n- 1\n-\n- b\n", true},
		{"nested sequence entry", "kind: A\nl:\n- - a\n", false},
		{"indentless and indented", "kind: A\nx:\n- a\n- b\nw:\n  - c\n  -   d\nz: 1\n", true},
		{"mappings in sequences", "kind: A\ncontainers:\n- name: a\n  args:\n  - --x\n  env:\n    - name: B\n      value: \"1\"\n-   name: c\n    image: d\n- # comment\n  name: e\n-\n  name: f\n", true},
		{"quoted", "kind: A\nd: \"a \\\"b\\\" \\\\ \\n \\t \\x41 \\u00e9 \\U0001F600 \\N \\_ \\L \\P \\0 \\e \\/\"\n", false},
		{"quoted without slash escape", "kind: A\nd: \"a \\\"b\\\" \\\\ \\n \\t \\x41 \\xe9 \\u00e9 \\U0001F600 \\N \\_ \\L \\P \\0 \\e\"\ns: 'it''s # not a comment'\ne: ''\nq: \"1\"\n\"quoted key\": 1\n'single key' : 2\n", true},
		{"plain over lines", "kind: A\ndescription: first line\n  second line\n\n  after a blank\n    more indented\nnext: x\n", true},
		{"plain over lines in a sequence", "kind: A\nl:\n- one\n  two\n- three\n", true},
		{"plain continued after a comment", "kind: A\nd: a # c\n  b\n", false},
		{"plain continuation with a colon", "kind: A\nd: a\n  b: c\n", false},
		{"literal", "kind: A\nclip: |\n  a\n   b\n\n  c\n\n\nstrip: |-\n  a\n\nkeep: |+\n  a\n\n\nempty: |\nnext: |\n\n  lead\ncomment: | # c\n  # not a comment\nlast: |\n  x\n", true},
		{"literal with spaces-only lines", "kind: A\nl: |\n  a\n     \n  b\n \nm: 1\n", true},
		{"literal in a sequence", "kind: A\nl:\n- |\n  x\n- |-\n   y\n- k: |\n    z\n", true},
		{"literal indentation indicator", "kind: A\nl: |2\n   x\n", false},
		{"literal leading blank longer", "kind: A\nl: |\n     \n  x\n", false},
		{"folded", "kind: A\nf: >\n  a\n  b\n", false},
		{"anchor", "kind: A\na: &x 1\nb: *x\n", false},
		{"tag", "kind: A\na: !!str 1\n", false},
		{"flow sequences", "kind: A\na: [1, 2.5, x y, -1, 'q''s', \"d\\n\"] # c\nb: [ ]\nc: { }\nd: [\"\"]\nl:\n- [a,b]\n", true},
		{"flow sequence with a trailing comma", "kind: A\na: [1, ]\n", false},
		{"flow sequence over lines", "kind: A\na: [1,\n  2]\n", false},
		{"flow sequence nested", "kind: A\na: [[1]]\n", false},
		{"flow sequence with a mapping", "kind: A\na: [b: c]\n", false},
		{"flow sequence with text after", "kind: A\na: [b] c\n", false},
		{"flow mapping", "kind: A\na: {b: c}\n", false},
		{"flow sequence with a question mark", "kind: A\na: [x?y]\n", false},
		{"key of 1000 bytes", "kind: A\n" + strings.Repeat("k", 1000) + ": v\n", true},
		{"key with spaces past 1000 bytes", "kind: A\n" + strings.Repeat("k", 1000) + strings.Repeat(" ", 30) + ": v\n", false},
		{"quoted key past 1000 bytes", "kind: A\n'" + strings.Repeat("k", 1100) + "': v\n", false},
		{"quoted key past 1000 bytes in a sequence", "kind: A\nl:\n- \"" + strings.Repeat("k", 1100) + "\": v\n", false},
		{"plain continued with indicators", "kind: A\nd: list\n  - one\n  * two\n  `three` [4] {5} 'six' \"7\" &8 !9 |10 >11 %12 @13 ?14\n", true},
		{"flow mapping document", "{kind: A}\n", false},
		{"tab", "kind: A\na:\tb\n", false},
		{"crlf", "kind: A\r\na: b\r\n", false},
		{"no final newline", "kind: A\na: b", false},
		{"duplicate key", "kind: A\na: 1\na: 2\n", false},
		{"boolean key", "kind: A\ny: 1\n", false},
		{"number key", "kind: A\n200: ok\n", false},
		{"null key", "kind: A\n~: x\n", false},
		{"merge key", "kind: A\n<<: {}\n", false},
		{"nan", "kind: A\na: .nan\n", false},
		{"infinity", "kind: A\na: -.Inf\n", false},
		{"binary", "kind: A\na: 0b101\nb: -0b11\n", true},
		{"document start", "# c\n---\n\nkind: A\n", true},
		{"document start with text", "--- x\nkind: A\n", false},
		{"document end", "kind: A\n...\n", false},
		{"directive", "%YAML 1.1\n---\nkind: A\n", false},
		{"bad indentation", "kind: A\na: 1\n b: 2\n", false},
		{"sequence at mapping indent after scalar", "kind: A\na: 1\n- b\n", false},
		{"top-level sequence", "- a\n", false},
		{"top-level scalar", "just text\n", false},
		{"empty", "\n# only a comment\n", false},
		{"quoted over lines", "kind: A\na: \"x  \n  y\n\n\n  z \\\n   w\\\n\n  v\\ \n  u\"\nb: 'p\n  q\n\n  r'  # c\nl:\n- \"s\n  t\"\n", true},
		{"quoted continuation not indented", "kind: A\na: \"x\ny\"\n", false},
		{"quoted key over lines", "kind: A\n\"a\n  b\": 1\n", false},
		{"unclosed quote", "kind: A\na: \"x\n", false},
		{"nel", "kind: A\na: x\u0085y\n", false},
		{"non-ASCII", "kind: A\na: héllo ✓ 😀\n", true},
		{"scalar on its own line", "kind: A\na:\n  text\n", false},
		{"indented document", "  kind: A\n  a: 1\n", true},
		{"key with spaces", "kind: A\na key  : v\n", true},
		{"value then text", "kind: A\na: \"x\" y\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sameAsYAMLv2(t, []byte(tt.doc)); got != tt.fast {
				t.Errorf("fastYAML read it: %v, want %v", got, tt.fast)
			}
		})
	}
}

// TestCorpusFastYAML decodes every document of the real manifests and catalogs in ../shared (the
// certified-operators bundles, the packagemanifests, the FBC catalogs' YAML, the upstream goldens) with
// fastYAML and yaml.v2: the same values wherever fastYAML reads a document, and it reads most of them.
func TestCorpusFastYAML(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus test skipped with -short")
	}
	shared := filepath.Dir(benchutil.CorpusDir(t))
	var total, fast, totalBytes, fastBytes int
	for _, sub := range []string{"corpus", "golden"} {
		err := filepath.WalkDir(filepath.Join(shared, sub), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if ext := strings.ToLower(filepath.Ext(p)); ext != ".yaml" && ext != ".yml" {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			docs, err := Split(data, p)
			if err != nil {
				return nil // not a YAML stream this test is about
			}
			for _, doc := range docs {
				total++
				totalBytes += len(doc)
				if sameAsYAMLv2(t, doc) {
					fast++
					fastBytes += len(doc)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("fastYAML read %d of %d documents, %d of %d bytes", fast, total, fastBytes, totalBytes)
	if fastBytes < totalBytes*9/10 {
		t.Errorf("fastYAML read only %d of %d bytes: below 90%%", fastBytes, totalBytes)
	}
}

// FuzzFastYAML: whatever fastYAML reads, yaml.v2 reads to the same value.
func FuzzFastYAML(f *testing.F) {
	addFuzzSeeds(f)
	for _, s := range []string{
		"kind: A\nl:\n- a: 1\n  b: |\n    x\n- c\n",
		"kind: A\nd: a\n  b\n\n  c\n",
		"kind: A\nq: \"\\u00e9\\x41\"\ns: 'a''b'\n",
		"kind: A\nn: [] # c\nm: {}\ni: 0x1F\nf: 1.0\nb: on\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsYAMLv2(t, data)
	})
}

// fuzzTokens are the pieces FuzzFastYAMLTokens builds documents from: each input byte picks one, so
// that most inputs are YAML in or near fastYAML's subset rather than random bytes it refuses.
var fuzzTokens = []string{
	"\n", "\n", "\n", " ", " ", "  ", "    ", "a", "b", "key", ": ", ":", "- ", "-", "#", " # c", "|", "|-",
	"|+", ">", "'", "''", "\"", "\\", "\\n", "\\x41", "\\u00e9", "\\\n", "[", "]", "{", "}", ", ", ",",
	"1", "0x1F", "1.0", "-7", ".5", "1e3", "1_0", "yes", "no", "on", "~", "null", "true", "0.1.0",
	"2001-12-14", "x y", "é", "*", "&", "!", "%", "?", "---", "...", "\t", "\r",
}

// FuzzFastYAMLTokens: documents built from YAML pieces read the same with fastYAML as with yaml.v2.
func FuzzFastYAMLTokens(f *testing.F) {
	for _, s := range []string{"\x07\x0a\x08\x00\x0b\x0a\x00\x08", "\x0c\x00\x07\x0a\x00\x05\x04\x09\x00", "\x07\x0a\x10\x00\x04\x07\x00\x04\x08"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var b strings.Builder
		b.WriteString("kind: A\n")
		for _, c := range data {
			b.WriteString(fuzzTokens[int(c)%len(fuzzTokens)])
		}
		b.WriteString("\n")
		sameAsYAMLv2(t, []byte(b.String()))
	})
}
