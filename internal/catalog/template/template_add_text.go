package template

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// lineInsert is new text to insert after line (0-based) of a template, for a block sequence
// whose dashes are in column dash.
type lineInsert struct {
	after int
	dash  int
	text  string
}

// insertLines appends each edit's item after the last item of its block sequence, as new
// lines indented like that item. It reports false when an edit cannot be made that way (no
// sequence yet, an empty or flow-style one, or an unusual layout).
//
// Several insertions can land after the same line: appending to a channel's entries and to
// the template's entries when that channel is the last entry. The inner (more indented)
// sequence's item must come first, or the outer item would end the inner sequence before it.
// Insertions are therefore ordered by line, then by indentation, deepest first; insertions
// into the same sequence keep the order of the edits.
func insertLines(data []byte, edits []templateEdit) ([]byte, bool) {
	lines := strings.SplitAfter(string(data), "\n")
	inserts := make([]lineInsert, 0, len(edits))
	for _, e := range edits {
		in, ok := lineInsertFor(lines, e)
		if !ok {
			return nil, false
		}
		inserts = append(inserts, in)
	}
	sort.SliceStable(inserts, func(i, j int) bool {
		if inserts[i].after != inserts[j].after {
			return inserts[i].after < inserts[j].after
		}
		return inserts[i].dash > inserts[j].dash
	})
	var out strings.Builder
	next := 0
	for i, l := range lines {
		out.WriteString(l)
		for ; next < len(inserts) && inserts[next].after == i; next++ {
			if !strings.HasSuffix(out.String(), "\n") {
				out.WriteByte('\n')
			}
			out.WriteString(inserts[next].text)
		}
	}
	return []byte(out.String()), true
}

// lineInsertFor places edit e's item after the last item of its sequence and the comment
// lines indented deeper than the sequence's dashes that follow it (they belong to that item).
func lineInsertFor(lines []string, e templateEdit) (lineInsert, bool) {
	if e.seq == nil || e.seq.Style&yaml.FlowStyle != 0 || len(e.seq.Content) == 0 {
		return lineInsert{}, false
	}
	last := e.seq.Content[len(e.seq.Content)-1]
	if last.Line < 1 || last.Line > len(lines) {
		return lineInsert{}, false
	}
	first := lines[last.Line-1]
	col := last.Column - 1
	if col > len(first) {
		return lineInsert{}, false
	}
	dash := strings.LastIndex(first[:col], "-")
	if dash < 0 || strings.TrimSpace(first[:dash]) != "" {
		return lineInsert{}, false
	}
	text, ok := itemLines(e.item, first[:dash])
	if !ok {
		return lineInsert{}, false
	}
	end := lastLine(last)
	if end > len(lines) {
		return lineInsert{}, false
	}
	for end < len(lines) && isCommentDeeper(lines[end], dash) {
		end++
	}
	return lineInsert{after: end - 1, dash: dash, text: text}, true
}

// isCommentDeeper reports whether line is a comment line indented more than col.
func isCommentDeeper(line string, col int) bool {
	body := strings.TrimLeft(line, " ")
	return strings.HasPrefix(body, "#") && len(line)-len(body) > col
}

// itemLines renders item as a block sequence item whose dash is preceded by prefix.
func itemLines(item *yaml.Node, prefix string) (string, bool) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(item); err != nil || enc.Close() != nil {
		return "", false
	}
	var out strings.Builder
	for i, l := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
		if i == 0 {
			out.WriteString(prefix + "- " + l + "\n")
		} else {
			out.WriteString(prefix + "  " + l + "\n")
		}
	}
	return out.String(), true
}

// lastLine is the last line (1-based) n and its descendants occupy.
func lastLine(n *yaml.Node) int {
	end := n.Line
	if n.Kind == yaml.ScalarNode && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		end = n.Line + strings.Count(strings.TrimRight(n.Value, "\n"), "\n") + 1
	}
	for _, c := range n.Content {
		if l := lastLine(c); l > end {
			end = l
		}
	}
	return end
}

// writeNodeJSON writes a YAML node tree as JSON indented by two spaces, keeping key order.
func writeNodeJSON(buf *bytes.Buffer, n *yaml.Node, indent string) {
	writeNodeJSONUnit(buf, n, indent, "  ")
}

// jsonIndentUnit is the indentation of the first indented line of a JSON text ("  " when none).
func jsonIndentUnit(data []byte) string {
	for _, l := range strings.Split(string(data), "\n")[1:] {
		if t := strings.TrimLeft(l, " \t"); t != "" && len(t) < len(l) {
			return l[:len(l)-len(t)]
		}
	}
	return "  "
}

// writeNodeJSONUnit writes a YAML node tree as JSON indented by unit, keeping key order.
func writeNodeJSONUnit(buf *bytes.Buffer, n *yaml.Node, indent, unit string) {
	inner := indent + unit
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) > 0 {
			writeNodeJSONUnit(buf, n.Content[0], indent, unit)
		}
	case yaml.AliasNode:
		writeNodeJSONUnit(buf, n.Alias, indent, unit)
	case yaml.MappingNode:
		if len(n.Content) == 0 {
			buf.WriteString("{}")
			return
		}
		buf.WriteString("{\n")
		for i := 0; i+1 < len(n.Content); i += 2 {
			buf.WriteString(inner)
			writeJSONString(buf, n.Content[i].Value)
			buf.WriteString(": ")
			writeNodeJSONUnit(buf, n.Content[i+1], inner, unit)
			if i+2 < len(n.Content) {
				buf.WriteByte(',')
			}
			buf.WriteByte('\n')
		}
		buf.WriteString(indent + "}")
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			buf.WriteString("[]")
			return
		}
		buf.WriteString("[\n")
		for i, c := range n.Content {
			buf.WriteString(inner)
			writeNodeJSONUnit(buf, c, inner, unit)
			if i+1 < len(n.Content) {
				buf.WriteByte(',')
			}
			buf.WriteByte('\n')
		}
		buf.WriteString(indent + "]")
	default:
		switch n.ShortTag() {
		case "!!int", "!!float", "!!bool":
			buf.WriteString(n.Value)
		case "!!null":
			buf.WriteString("null")
		default:
			writeJSONString(buf, n.Value)
		}
	}
}

func writeJSONString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	buf.Truncate(buf.Len() - 1) // Encode's newline
}
