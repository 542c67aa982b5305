// Package escape makes strings that came from input (a repository, a pull request, a catalog,
// an image) safe in each output format opack writes, and guards the process's output streams:
//
//   - Text: one line, whatever the string holds — control characters (a bare \r included, which
//     a CI runner treats as a line break), Unicode line separators, bidirectional overrides and
//     invalid UTF-8 are written as Go-style escapes (\n, \r, \x1b, \u2028, \xff);
//   - GitHubData and GitHubProperty: a workflow command's message and properties, escaped as the
//     Actions toolkit escapes them, with the legacy "##[" command prefix broken;
//   - MarkdownCode: a GFM code span (no HTML, link, mention, emphasis or autolink is live in one)
//     whose fence the string cannot close, pipes escaped for table cells;
//   - MermaidLabel and MermaidID: a quoted Mermaid label (entity codes for quotes, '#', '%',
//     '<', '>', '&' and backticks: no directive or markdown string from input) and a node id;
//   - Guard: every line of stdout and stderr, whatever wrote it, is escaped as Text keeps a line
//     (control characters but \n and \t) and can start no GitHub workflow command: only opack's
//     own commands (WriteCommand) can.
package escape

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text returns s as one line of text output: every control character and line separator, and
// every byte of invalid UTF-8, written as an escape. A string without them is returned as is.
func Text(s string) string { return escapeControls(s, false) }

// escapeControls escapes what Text escapes; keepLines keeps \n and \t (the guard of a stream).
func escapeControls(s string, keepLines bool) string {
	clean := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || unsafeRune(r, keepLines) {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case !unsafeRune(r, keepLines):
			b.WriteString(s[i : i+n])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += n
	}
	return b.String()
}

// unsafeRune reports whether r could break a line, hide text or reorder it on display: C0 and C1
// controls and DEL, Unicode line and paragraph separators, bidirectional embeddings, overrides
// and isolates.
func unsafeRune(r rune, keepLines bool) bool {
	switch {
	case keepLines && (r == '\n' || r == '\t'):
		return false
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
		return true
	case r == 0x2028 || r == 0x2029 || r == 0x061c || r == 0x200e || r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// legacyCommand is the prefix of the runner's legacy workflow commands ("##[command]data"),
// which it accepts anywhere in a line.
const legacyCommand = "##["

// breakLegacy writes "##[" as "#\u0023[" so that no runner reads a legacy command in s: an escape
// that reads as '#' in text and is the same string in JSON (a JSON document stays valid).
func breakLegacy(s string) string {
	if !strings.Contains(s, legacyCommand) {
		return s
	}
	return strings.ReplaceAll(s, legacyCommand, `#\u0023[`)
}

// GitHubData escapes a workflow command's message as the Actions toolkit does (%, \r, \n), after
// escaping every other control character as Text does and breaking legacy command prefixes.
func GitHubData(s string) string {
	s = breakLegacy(escapeControls(s, true))
	return strings.NewReplacer("%", "%25", "\n", "%0A").Replace(s)
}

// GitHubProperty escapes a workflow command's property value as the Actions toolkit does (%, \r,
// \n, ':' and ','), after Text's escapes.
func GitHubProperty(s string) string {
	s = breakLegacy(Text(s))
	return strings.NewReplacer("%", "%25", ":", "%3A", ",", "%2C").Replace(s)
}

// backticks finds runs of backticks.
var backticks = regexp.MustCompile("`+")

// MarkdownCode returns s as a GitHub-flavoured markdown code span: one line (Text), fenced with
// more backticks than any run in s, padded when s starts or ends with a backtick, and with '|'
// escaped so that it stays inside a table cell (GFM removes the backslash there; a code span
// outside a table shows it). Nothing in a code span is a link, mention, emoji, emphasis or HTML.
func MarkdownCode(s string, inTable bool) string {
	s = Text(s)
	if inTable {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	fence := "`"
	for _, run := range backticks.FindAllString(s, -1) {
		if len(run) >= len(fence) {
			fence = strings.Repeat("`", len(run)+1)
		}
	}
	if s == "" {
		return fence + " " + fence
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || (strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ")) {
		s = " " + s + " "
	}
	return fence + s + fence
}

// CodeFence returns a fence of backticks for a fenced code block around text: longer than any
// run of backticks in it, so that no line of text closes the block.
func CodeFence(text string) string {
	fence := "```"
	for _, run := range backticks.FindAllString(text, -1) {
		if len(run) >= len(fence) {
			fence = strings.Repeat("`", len(run)+1)
		}
	}
	return fence
}

// MermaidLabel returns the text of a quoted Mermaid label ("..." around it is the caller's):
// one line (Text), with entity codes for what Mermaid would read in it: the quote that would end
// it, '#' that starts an entity code, '%' of directives and comments, the backtick of markdown
// strings, '<' where it could start an HTML tag and '&' where it could start an HTML entity. A
// bundle name or a semver range ("<0.2.0") is returned as is, as opm writes it.
func MermaidLabel(s string) string {
	s = Text(s)
	if !strings.ContainsAny(s, "\"#%`<&") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		next := byte(0)
		if i+1 < len(s) {
			next = s[i+1]
		}
		switch c := s[i]; {
		case c == '"':
			b.WriteString("#quot;")
		case c == '#':
			b.WriteString("#35;")
		case c == '%':
			b.WriteString("#37;")
		case c == '`':
			b.WriteString("#96;")
		case c == '<' && (isLetter(next) || next == '/' || next == '!' || next == '?'):
			b.WriteString("#lt;")
		case c == '&' && (isLetter(next) || next == '#'):
			b.WriteString("#amp;")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// mermaidIDSafe are the names used as node ids as they are (opm's own ids).
var mermaidIDSafe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]*$`)

// MermaidID returns s when it is a safe Mermaid node id (letters, digits, '.', '_', '+', '-'),
// else an id derived from its hash: a name from input can then start no statement.
func MermaidID(s string) string {
	if mermaidIDSafe.MatchString(s) && !isKeyword(s) {
		return s
	}
	sum := sha256.Sum256([]byte(s))
	return "h" + hex.EncodeToString(sum[:6])
}

// isKeyword reports the words Mermaid's flowchart grammar reads as statements.
func isKeyword(s string) bool {
	switch strings.ToLower(s) {
	case "end", "subgraph", "click", "style", "classdef", "class", "linkstyle", "graph", "flowchart", "direction", "call", "href":
		return true
	}
	return false
}

// isSpaceRune is .NET's Char.IsWhiteSpace, which the Actions runner trims before a command.
func isSpaceRune(r rune) bool { return unicode.IsSpace(r) || r == 0x180e }
