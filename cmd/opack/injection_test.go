//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
)

// injection is a name a pull request can give a package, channel, bundle, skipRange or
// kustomize resource: workflow commands after a newline and after a bare \r, a terminal escape,
// a legacy command, raw HTML, a mention, a link, the end of the markdown details, a code fence,
// a Mermaid directive and a click after a newline.
const injection = "x\n::error file=README.md,line=1::INJECTED\r::warning::CR\x1b[2J ##[stop-commands]tok <img src=x onerror=alert(1)> " +
	"@octocat [link](https://evil.example) </details> ``` %%{init: {'theme':'dark'}}%%\nclick n0 href \"javascript:alert(1)\" ;"

// TestE2EOutputInjection runs opack as a child process (as CI runs it) on a catalog and a project
// whose names carry injection, in every output format, beside a folder of canary files, and
// checks what reaches stdout and stderr: no line starts or holds a workflow command but opack's
// own annotations (one per finding), no control character reaches the log, the markdown renders
// (a GFM renderer) with no HTML, link or mention from the input and one details block, the
// Mermaid drawings hold only opack's statements, JSON parses; and that the canary folder is
// intact, no process outlives the run and it stays within its time and memory (runChild).
func TestE2EOutputInjection(t *testing.T) {
	if testing.Short() {
		t.Skip("child processes: runs without -short (test-slow)")
	}
	base, head := injectionCatalogs(t)
	project := demoProject(t)
	for _, args := range [][]string{
		{"init", project, "--version", "0.0.1", "--bundle-image", "quay.io/example/memcached-operator-bundle", "--catalog-image", "quay.io/example/memcached-operator-catalog"},
		{"build", "-f", filepath.Join(project, "opack.yaml")},
	} {
		if code, stdout, stderr := runOpack(t, "", args...); code != 0 {
			t.Fatalf("opack %v: exit %d\n%s%s", args, code, stdout, stderr)
		}
	}
	plantInjectedResource(t, project)
	type run struct {
		dir    string
		args   []string
		format string
	}
	var runs []run
	for _, f := range []string{"text", "github", "json"} {
		runs = append(runs, run{"", []string{"catalog", "validate", head, "-o", f}, f})
	}
	for _, f := range []string{"text", "github", "markdown", "mermaid", "json"} {
		runs = append(runs, run{"", []string{"catalog", "diff", base, head, "-o", f}, f})
	}
	for _, f := range []string{"text", "mermaid", "json"} {
		runs = append(runs, run{"", []string{"catalog", "upgrades", head, "-o", f}, f})
	}
	runs = append(runs, run{"", []string{"catalog", "graph", head, "-o", "mermaid"}, "mermaid"})
	for _, f := range []string{"text", "github", "json"} {
		runs = append(runs, run{project, []string{"check", "-v", "-o", f}, f})
	}
	runs = append(runs, run{project, []string{"build", "-v", "--version", "0.0.2"}, "text"})
	for _, r := range runs {
		t.Run(strings.Join(r.args[:2], " ")+" -o "+r.format, func(t *testing.T) {
			outside := filepath.Join(t.TempDir(), "outside")
			writeFiles(t, outside, map[string]string{"victim": "canary\n"})
			before := hashTree(t, outside)
			var stdout, stderr bytes.Buffer
			dir := r.dir
			if dir == "" {
				dir = filepath.Dir(head)
			}
			code := runChild(t, dir, r.args, nil, 90*time.Second, &stdout, &stderr)
			if code > 1 {
				t.Fatalf("opack %s: exit %d\n%s%s", strings.Join(r.args, " "), code, stdout.String(), stderr.String())
			}
			if after := hashTree(t, outside); !equalMaps(before, after) {
				t.Errorf("the canary folder changed")
			}
			checkNoInjection(t, r.format, stdout.String(), stderr.String())
			if r.format == "github" {
				var js bytes.Buffer
				jargs := append(append([]string(nil), r.args[:len(r.args)-1]...), "json")
				runChild(t, dir, jargs, nil, 90*time.Second, &js, &bytes.Buffer{})
				checkAnnotations(t, stdout.String(), js.Bytes())
			}
		})
	}
}

// injectionCatalogs writes BASE (a plain package) and HEAD (the same, and a package whose every
// name carries the injection) and returns their folders.
func injectionCatalogs(t *testing.T) (string, string) {
	t.Helper()
	root := t.TempDir()
	pkg := func(name, channel, skipRange string, bundles ...string) string {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.Encode(map[string]any{"schema": "olm.package", "name": name, "defaultChannel": channel})
		var entries []map[string]any
		for i, bn := range bundles {
			e := map[string]any{"name": bn}
			if i > 0 {
				e["replaces"] = bundles[i-1]
			}
			if skipRange != "" {
				e["skipRange"] = skipRange
			}
			entries = append(entries, e)
		}
		enc.Encode(map[string]any{"schema": "olm.channel", "name": channel, "package": name, "entries": entries})
		for i, bn := range bundles {
			enc.Encode(map[string]any{"schema": "olm.bundle", "name": bn, "package": name, "image": fmt.Sprintf("quay.io/example/p@sha256:%064x", i),
				"properties": []any{map[string]any{"type": "olm.package", "value": map[string]any{"packageName": name, "version": fmt.Sprintf("1.0.%d", i)}}}})
		}
		return b.String()
	}
	plain := pkg("plain", "stable", "", "plain.v1.0.0", "plain.v1.0.1")
	writeFiles(t, root, map[string]string{
		"base/plain/catalog.json": plain,
		"head/plain/catalog.json": plain,
		"head/evil/catalog.json":  pkg(injection, "c"+injection, "<1.0.0 "+injection, "b1"+injection, "b2"+injection),
	})
	return filepath.Join(root, "base"), filepath.Join(root, "head")
}

// plantInjectedResource adds to the project's kustomize tree (config/manifests, where no
// namePrefix applies: kustomize's prefix transformer cannot handle a comma in a name) an Issuer, a
// kind OLM cannot install from a bundle, so build and check report it dropped, named with the
// injection.
func plantInjectedResource(t *testing.T, project string) {
	t.Helper()
	issuer := "apiVersion: cert-manager.io/v1\nkind: Issuer\nmetadata:\n  name: " + strconvQuote(injection) + "\nspec:\n  selfSigned: {}\n"
	writeFiles(t, project, map[string]string{"config/manifests/evil-issuer.yaml": issuer})
	k := filepath.Join(project, "config", "manifests", "kustomization.yaml")
	data, err := os.ReadFile(k)
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte("resources:\n"), []byte("resources:\n- evil-issuer.yaml\n"), 1)
	if err := os.WriteFile(k, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// annotation is a workflow command opack's GitHub writer writes.
var annotation = regexp.MustCompile(`^::(error|warning|notice)( [^:]*)?::`)

// mermaidLine is every statement opack's Mermaid drawings hold.
var mermaidLine = regexp.MustCompile(`^\s*(graph LR|flowchart LR|end|%% .*|classDef \w+ [-a-zA-Z0-9:#,;. ]+|class [-\w.+,]+ \w+|style [-\w.+]+ fill:#\w+|linkStyle [\d,]+ [-a-zA-Z0-9:#,;. ]+|subgraph (\w[-\w.+]*)?(\[".*"\]|".*")|[-\w.+]+\[".*"\]( *(--|==>|-->|-\.->).*)?|[-\w.+]+ (-->|==>|-\.->|--) .*)$`)

// checkNoInjection checks what one run printed in format.
func checkNoInjection(t *testing.T, format, stdout, stderr string) {
	t.Helper()
	for _, stream := range []struct{ name, text string }{{"stdout", stdout}, {"stderr", stderr}} {
		if strings.ContainsAny(stream.text, "\r\x1b") {
			t.Errorf("%s holds a raw \\r or escape character", stream.name)
		}
		if strings.Contains(stream.text, "##[") {
			t.Errorf("%s holds a legacy workflow command (##[)", stream.name)
		}
		for _, line := range strings.Split(stream.text, "\n") {
			trimmed := strings.TrimLeftFunc(line, unicode.IsSpace)
			if !strings.HasPrefix(trimmed, "::") {
				continue
			}
			if format != "github" || stream.name != "stdout" || !annotation.MatchString(line) {
				t.Errorf("%s: a line starts a workflow command: %.200q", stream.name, line)
			}
		}
	}
	switch format {
	case "json":
		if !json.Valid([]byte(stdout)) {
			t.Errorf("-o json: stdout is not one JSON document")
		}
	case "mermaid":
		if strings.Contains(stdout, "%%{") {
			t.Errorf("-o mermaid: a directive (%%%%{) from the input")
		}
		for _, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
			if !mermaidLine.MatchString(line) {
				t.Errorf("-o mermaid: a line opack does not write: %.200q", line)
			}
		}
	case "markdown":
		checkMarkdown(t, stdout)
	}
}

// checkMarkdown renders the PR comment with a GFM renderer (goldmark: tables, autolinks,
// strikethrough, task lists) and checks that nothing from the input is live HTML, a link or a
// mention, and that it is one details block.
func checkMarkdown(t *testing.T, md string) {
	t.Helper()
	var rendered bytes.Buffer
	// Raw HTML is rendered, as GitHub renders it (details, br): what must not be there is HTML of the input.
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	if err := gm.Convert([]byte(md), &rendered); err != nil {
		t.Fatal(err)
	}
	out := rendered.String()
	for _, bad := range []string{"<img", "<script", `href="https://evil.example`, `href="javascript`} {
		if strings.Contains(out, bad) {
			t.Errorf("-o markdown renders %q from the input", bad)
		}
	}
	if n := strings.Count(out, "</details>"); n != 1 {
		t.Errorf("-o markdown renders %d </details>, want opack's one", n)
	}
	// Outside code, no mention, link text or workflow command of the input survives.
	outsideCode := regexp.MustCompile(`(?s)<code>.*?</code>|<pre>.*?</pre>`).ReplaceAllString(out, "")
	for _, live := range []string{"@octocat", "evil.example", "INJECTED", "stop-commands"} {
		if strings.Contains(outsideCode, live) {
			t.Errorf("-o markdown: %q outside code in the rendered comment", live)
		}
	}
}

// checkAnnotations: under -o github, opack writes one annotation per finding of the same run's
// JSON, and no other.
func checkAnnotations(t *testing.T, github string, js []byte) {
	t.Helper()
	var doc struct {
		Outputs  []json.RawMessage `json:"outputs"`
		Findings []json.RawMessage `json:"findings"`
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatalf("the same run's -o json: %v", err)
	}
	want := len(doc.Outputs) + len(doc.Findings)
	got := 0
	for _, line := range strings.Split(github, "\n") {
		if annotation.MatchString(line) {
			got++
		}
	}
	if got != want {
		t.Errorf("-o github: %d annotations, want one per finding (%d)", got, want)
	}
}
