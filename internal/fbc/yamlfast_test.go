package fbc

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/fbc/internal/codec"
)

// slowCanonical is the reference: sigs.k8s.io/yaml then opm's map round trip.
func slowCanonical(t *testing.T, doc []byte) (string, bool) {
	t.Helper()
	j, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return "", false
	}
	b, err := reencode(j, true)
	if err != nil {
		return "", false
	}
	return string(b), true
}

func TestFastYAMLCases(t *testing.T) {
	cases := map[string]string{
		"nested":        "b: 1\na:\n  c: [] \n  d: {}\n  e:\n  - x\n  - w: 2\n    z: 'q''s'\n",
		"seq at indent": "entries:\n- name: a\n  skips:\n  - b\n  - c\n- name: d\n",
		"block scalars": "a: |\n  line1\n\n  line2\n\nb: |-\n  x\n    y\nc: |+\n  k\n\n",
		"specials":      "a: yes\nb: ~\nc: 0x1F\nd: 1.10\ne: 0.1.0\nf: 2001-12-14\ng: 077\nh: 08\ni: 1_000\nj: \"\\u00e9\\n\\\"\"\nk: 12345678901234567890\nl: -.5\n",
		"html":          "a: <b>&</b>\nb: \"x\\u2028y\"\n",
		"comments":      "# top\na: b # trailing\n# mid\nc: 'd' # q\n",
		"compact seq":   "a:\n  - b: 1\n    c:\n      - d\n",
		"unsorted":      "z: 1\nm: 2\na:\n  w: 1\n  b: 2\n",
		"multi-line":    "a: b\n  c\n\n  d\nb: \"multi\n  line \\u00e9\"\nc: 'one\n\n   two'\nd:\n- long\n  item\n",
		"urls":          "a: http://x.y/z\nb: foo:bar\n",
		"empty values":  "a:\nb: \"\"\nc: ''\n",
	}
	for name, doc := range cases {
		t.Run(name, func(t *testing.T) {
			want, ok := slowCanonical(t, []byte(doc))
			if !ok {
				t.Fatalf("reference failed on %q", doc)
			}
			got, err := codec.FastYAMLToJSON([]byte(doc))
			if err != nil {
				t.Fatalf("fast path gave up on %q: %v", doc, err)
			}
			if diff := cmp.Diff(want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestFastYAMLFallsBack checks that YAML outside the subset is left to sigs.k8s.io/yaml.
func TestFastYAMLFallsBack(t *testing.T) {
	for _, doc := range []string{
		"a: &x 1\nb: *x\n", "a: !!str 1\n", "a: [1, 2]\n", "a: >\n  folded\n", "y: 1\n",
		"a: 1\na: 2\n", "1: a\n", "on: x\n", "- a\n", "a: \"esc\\\n  break\"\n", "? a\n: b\n",
		"a: .inf\n", "a:\tb\n",
	} {
		if got, err := codec.FastYAMLToJSON([]byte(doc)); err == nil {
			t.Errorf("fast path accepted %q: %s", doc, got)
		}
	}
}

// TestCorpusFastYAML compares the fast path with the reference on every document of the
// golden FBCs and the corpus.
func TestCorpusFastYAML(t *testing.T) {
	dirs := []string{opmTestdata}
	if !testing.Short() {
		if _, err := os.Stat(corpusFBC); err == nil {
			dirs = append(dirs, corpusFBC)
		}
	}
	n, fast := 0, 0
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			docs, err := splitYAML(data)
			if err != nil {
				return nil
			}
			for i, doc := range docs {
				got, ferr := codec.FastYAMLToJSON(doc)
				want, ok := slowCanonical(t, doc)
				n++
				if ferr != nil {
					continue
				}
				fast++
				if !ok || want != string(got) {
					t.Errorf("%s doc %d: fast path differs from sigs.k8s.io/yaml:\n%s", path, i, cmp.Diff(want, string(got)))
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d of %d documents took the fast path", fast, n)
}

func TestYAMLStyleFloat(t *testing.T) {
	re := regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	for _, s := range []string{"1", "1.", ".5", "-.5", "+1.5e10", "1e", "1e+", "e5", ".", "-", "1.2.3", "08", "1_0", "1.5E-3", "", "+", "1x"} {
		if got, want := codec.YAMLStyleFloat(s), re.MatchString(s); got != want {
			t.Errorf("yamlStyleFloat(%q) = %v, want %v", s, got, want)
		}
	}
}
