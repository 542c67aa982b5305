package escape

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain name-1.2.3", "plain name-1.2.3"},
		{"ünïcode ✓", "ünïcode ✓"},
		{"a\nb", `a\nb`},
		{"a\rb", `a\rb`},
		{"tab\there", `tab\there`},
		{"esc\x1b[2J", `esc\x1b[2J`},
		{"nul\x00del\x7f", `nul\x00del\x7f`},
		{"c1\u0085", `c1\x85`},
		{"ls\u2028ps\u2029", `ls\u2028ps\u2029`},
		{"bidi\u202eevil\u2066", `bidi\u202eevil\u2066`},
		{"bad\xffutf8", `bad\xffutf8`},
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestGitHub(t *testing.T) {
	tests := []struct{ in, data, prop string }{
		{"plain", "plain", "plain"},
		{"a\nb", "a%0Ab", `a\nb`},
		{"a\rb", `a\rb`, `a\rb`},
		{"50%: x,y", "50%25: x,y", "50%25%3A x%2Cy"},
		{"x ##[stop-commands]t", `x #\u0023[stop-commands]t`, `x #\u0023[stop-commands]t`},
		{"\n::error::x", "%0A::error::x", `\n%3A%3Aerror%3A%3Ax`},
	}
	for _, tt := range tests {
		if got := GitHubData(tt.in); got != tt.data {
			t.Errorf("GitHubData(%q) = %q, want %q", tt.in, got, tt.data)
		}
		if got := GitHubProperty(tt.in); got != tt.prop {
			t.Errorf("GitHubProperty(%q) = %q, want %q", tt.in, got, tt.prop)
		}
	}
}

func TestMarkdownCode(t *testing.T) {
	tests := []struct {
		in      string
		inTable bool
		want    string
	}{
		{"etcd", false, "`etcd`"},
		{"", false, "` `"},
		{"a`b", false, "``a`b``"},
		{"```fence", false, "```` ```fence ````"},
		{"a|b", true, "`a\\|b`"},
		{"a|b", false, "`a|b`"},
		{"x\n</details>", false, "`x\\n</details>`"},
		{" spaced ", false, "`  spaced  `"},
	}
	for _, tt := range tests {
		if got := MarkdownCode(tt.in, tt.inTable); got != tt.want {
			t.Errorf("MarkdownCode(%q, %v) = %q, want %q", tt.in, tt.inTable, got, tt.want)
		}
	}
	if got := CodeFence("a\n````\nb ``` c"); got != "`````" {
		t.Errorf("CodeFence = %q, want five backticks", got)
	}
}

func TestMermaid(t *testing.T) {
	for in, want := range map[string]string{
		`a"b#c%%{init}%%<img src=x>&amp;` + "`\n": `a#quot;b#35;c#37;#37;{init}#37;#37;#lt;img src=x>#amp;amp;#96;\n`,
		"skipRange(<0.2.0)":                       "skipRange(<0.2.0)",
		">=1.0.0 <1.2.0 && x":                     ">=1.0.0 <1.2.0 && x",
		"</b><!-- x -->":                          "#lt;/b>#lt;!-- x -->",
	} {
		if got := MermaidLabel(in); got != want {
			t.Errorf("MermaidLabel(%q) = %q, want %q", in, got, want)
		}
	}
	for _, id := range []string{"etcd-alpha-etcdoperator.v0.9.4", "p-c-op.v1.0.0+build.1"} {
		if got := MermaidID(id); got != id {
			t.Errorf("MermaidID(%q) = %q, want it unchanged", id, got)
		}
	}
	for _, id := range []string{"end", "x\nclick", "a b", `a"b`, "-x"} {
		if got := MermaidID(id); !strings.HasPrefix(got, "h") || len(got) != 13 {
			t.Errorf("MermaidID(%q) = %q, want a hashed id", id, got)
		}
	}
}

// TestGuard: whatever is written, no line reaching the stream starts or holds a workflow
// command or a raw control character, but WriteCommand's and Raw's own bytes.
func TestGuard(t *testing.T) {
	var out bytes.Buffer
	g := NewGuard(&out)
	for _, w := range []string{
		"dropped: Issuer x", "\n::error file=README.md::INJECTED\n", // a line split across writes
		"   ::warning::after spaces\n",
		"\u00a0\u2003::notice::after unicode spaces\n",
		"ok ##[stop-commands]tok\n",
		"cr\rline\x1b[2J\n",
		"json: \"a\\n::error::b\"\n",
	} {
		g.Write([]byte(w))
	}
	g.WriteCommand("::error file=f.yaml::opack's own\n")
	g.Raw([]byte("\r\033[Kprogress"))
	g.Write([]byte("unfinished"))
	g.Flush()
	want := "dropped: Issuer x\n" +
		`\x3a:error file=README.md::INJECTED` + "\n" +
		`   \x3a:warning::after spaces` + "\n" +
		"\u00a0\u2003" + `\x3a:notice::after unicode spaces` + "\n" +
		`ok #\u0023[stop-commands]tok` + "\n" +
		`cr\rline\x1b[2J` + "\n" +
		"json: \"a\\n::error::b\"\n" +
		"::error file=f.yaml::opack's own\n" +
		"\r\033[Kprogress" +
		"unfinished"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("guarded output (-want +got):\n%s", diff)
	}
}
