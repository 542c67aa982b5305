package codec

import (
	"bytes"
	"unicode/utf8"

	"github.com/opack/opack/internal/manifest"
)

// continuation returns the lines after the current one that continue a flow scalar of a
// node at indent: blank lines and lines indented deeper, up to (not including) the first
// line that is neither. Trailing blank lines are not included.
func (p *Parser) continuation(indent int) []yline {
	j := p.i
	last := p.i
	for j < len(p.lines) {
		l := p.lines[j]
		if len(l.text) == 0 {
			j++
			continue
		}
		if l.indent <= indent {
			break
		}
		j++
		last = j
	}
	return p.lines[p.i:last]
}

// fold joins the segments of a multi-line flow scalar into p.tmp as YAML does: a line break
// becomes a space, n empty lines become n line feeds; whitespace around breaks is dropped.
func (p *Parser) fold(first []byte, lines []yline) []byte {
	p.tmp = append(p.tmp[:0], bytes.TrimRight(first, " \t")...)
	empty := 0
	for _, l := range lines {
		t := bytes.Trim(l.text, " \t")
		if len(t) == 0 {
			empty++
			continue
		}
		if empty == 0 {
			p.tmp = append(p.tmp, ' ')
		}
		for ; empty > 0; empty-- {
			p.tmp = append(p.tmp, '\n')
		}
		p.tmp = append(p.tmp, t...)
	}
	return p.tmp
}

// plain reads a plain scalar that may continue on deeper-indented lines.
func (p *Parser) plain(rest []byte, indent int) ([]byte, error) {
	first := trimComment(rest)
	if !plainOK(first) {
		return nil, errNotSimple
	}
	if len(first) != len(bytes.TrimRight(rest, " ")) {
		return first, nil // a comment ends the scalar
	}
	cont := p.continuation(indent)
	for _, l := range cont {
		if len(l.text) > 0 && (l.text[0] == '#' || bytes.Contains(l.text, []byte(": ")) || bytes.Contains(l.text, []byte(" #")) ||
			l.text[len(l.text)-1] == ':' || bytes.IndexByte(l.text, '\t') >= 0 || l.isSeqItem()) {
			return nil, errNotSimple
		}
	}
	p.i += len(cont)
	if len(cont) == 0 {
		return first, nil
	}
	return p.fold(first, cont), nil
}

// closesOnLine returns the index in text of the quote q that closes a quoted scalar begun on
// an earlier line, or -1.
func closesOnLine(text []byte, q byte) int {
	for j := 0; j < len(text); j++ {
		switch {
		case q == '"' && text[j] == '\\':
			j++
		case text[j] == q:
			if q == '\'' && j+1 < len(text) && text[j+1] == '\'' {
				j++
				continue
			}
			return j
		}
	}
	return -1
}

// quoted reads a single- or double-quoted scalar that may continue on deeper-indented lines.
func (p *Parser) quoted(rest []byte, indent int) ([]byte, error) {
	q := rest[0]
	if closingQuote(rest, q) > 0 {
		return p.unquote(rest)
	}
	cont := p.continuation(indent)
	end, closing := -1, -1
	for k, l := range cont {
		if c := closesOnLine(l.text, q); len(l.text) > 0 && c >= 0 {
			end, closing = k, c
			break
		}
	}
	if end < 0 {
		return nil, errNotSimple
	}
	lines := cont[:end+1]
	if q == '"' {
		if bytes.HasSuffix(bytes.TrimRight(rest, " \t"), []byte("\\")) {
			return nil, errNotSimple // escaped line breaks
		}
		for _, l := range lines[:end] {
			if bytes.HasSuffix(bytes.TrimRight(l.text, " \t"), []byte("\\")) {
				return nil, errNotSimple
			}
		}
	}
	p.i += len(lines)
	last := lines[end]
	if len(trimComment(last.text[closing+1:])) != 0 {
		return nil, errNotSimple
	}
	saved := last
	lines[end].text = last.text[:closing+1]
	folded := p.fold(rest, lines)
	lines[end] = saved
	return p.unquote(append([]byte(nil), folded...))
}

// unquote decodes a quoted scalar (quotes included, nothing but a comment after it).
func (p *Parser) unquote(t []byte) ([]byte, error) {
	if t[0] == '"' {
		end := closingQuote(t, '"')
		if end < 0 || len(trimComment(t[end+1:])) != 0 {
			return nil, errNotSimple
		}
		if bytes.IndexByte(t[1:end], '\\') < 0 {
			return t[1:end], nil
		}
		s, err := doubleQuoted(t)
		return []byte(s), err
	}
	end := closingQuote(t, '\'')
	if end < 0 || len(trimComment(t[end+1:])) != 0 {
		return nil, errNotSimple
	}
	if !bytes.Contains(t[1:end], []byte("''")) {
		return t[1:end], nil
	}
	return bytes.ReplaceAll(t[1:end], []byte("''"), []byte("'")), nil
}

// noContinuation refuses a scalar continued on more-indented lines (multi-line plain scalars).
func (p *Parser) noContinuation(indent int) error {
	j := p.i
	for j < len(p.lines) && p.lines[j].blank() {
		j++
	}
	if j < len(p.lines) && p.lines[j].indent > indent {
		return errNotSimple
	}
	return nil
}

// blockScalar reads a literal block scalar ("|", "|-" or "|+") whose content is more
// indented than indent.
func (p *Parser) blockScalar(header []byte, indent int) error {
	h := string(trimComment(header))
	var chomp byte
	switch h {
	case "|":
	case "|-":
		chomp = '-'
	case "|+":
		chomp = '+'
	default:
		return errNotSimple
	}
	contentIndent := -1
	p.tmp = p.tmp[:0]
	pendingEmpty := 0 // empty lines not yet known to be inside the content
	hasContent := false
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		isBlank := len(l.text) == 0
		if !isBlank && l.indent <= indent {
			break
		}
		switch {
		case isBlank && contentIndent >= 0 && l.indent > contentIndent:
			return errNotSimple // a line of spaces inside the content
		case isBlank && contentIndent < 0 && l.indent > 0:
			return errNotSimple // leading blank line with spaces: indentation rules get subtle
		case isBlank:
			pendingEmpty++
		default:
			if contentIndent < 0 {
				contentIndent = l.indent
			}
			if l.indent < contentIndent {
				return errNotSimple
			}
			if hasContent {
				p.tmp = append(p.tmp, '\n')
			}
			for ; pendingEmpty > 0; pendingEmpty-- {
				p.tmp = append(p.tmp, '\n')
			}
			p.tmp = append(p.tmp, l.raw[contentIndent:]...)
			hasContent = true
		}
		p.i++
	}
	switch {
	case !hasContent:
		p.tmp = p.tmp[:0]
		if chomp == '+' {
			for ; pendingEmpty > 0; pendingEmpty-- {
				p.tmp = append(p.tmp, '\n')
			}
		}
	case chomp == '-':
	case chomp == '+':
		p.tmp = append(p.tmp, '\n')
		for ; pendingEmpty > 0; pendingEmpty-- {
			p.tmp = append(p.tmp, '\n')
		}
	default:
		p.tmp = append(p.tmp, '\n')
	}
	p.out = manifest.AppendJSONString(p.out, p.tmp, false)
	return nil
}

// isCompactMapping reports whether the text after a dash starts a mapping ("key: value" or "key:").
func isCompactMapping(t []byte) bool {
	if t[0] == '"' || t[0] == '\'' {
		end := closingQuote(t, t[0])
		return end > 0 && end+1 < len(t) && t[end+1] == ':' && (end+2 == len(t) || t[end+2] == ' ')
	}
	if t[0] == '|' || t[0] == '[' || t[0] == '{' {
		return false
	}
	t = trimComment(t)
	return bytes.Contains(t, []byte(": ")) || (len(t) > 0 && t[len(t)-1] == ':')
}

func closingQuote(t []byte, q byte) int {
	for j := 1; j < len(t); j++ {
		switch {
		case q == '"' && t[j] == '\\':
			j++
		case t[j] == q:
			if q == '\'' && j+1 < len(t) && t[j+1] == '\'' {
				j++
				continue
			}
			return j
		}
	}
	return -1
}

// trimComment drops a " #" comment and trailing spaces from a plain value.
func trimComment(t []byte) []byte {
	if i := bytes.Index(t, []byte(" #")); i >= 0 {
		t = t[:i]
	}
	return bytes.TrimRight(t, " ")
}

// plainOK reports whether t is a plain scalar this parser understands.
func plainOK(t []byte) bool {
	if len(t) == 0 || bytes.Contains(t, []byte(": ")) || t[len(t)-1] == ':' || bytes.IndexByte(t, '\t') >= 0 {
		return false
	}
	switch t[0] {
	case '!', '&', '*', '|', '>', '%', '@', '`', '"', '\'', '[', ']', '{', '}', ',', '#':
		return false
	case '-', '?', ':':
		if len(t) == 1 || t[1] == ' ' {
			return false
		}
	}
	return true
}

// U+0085, U+2028 and U+2029.
func simpleChars(doc []byte) bool {
	for i := 0; i < len(doc); {
		c := doc[i]
		if c >= 0x20 && c < 0x7f || c == '\n' {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f || c == '\r' {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(doc[i:])
		if r == utf8.RuneError || r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xFEFF ||
			(r < 0xA0) || (r >= 0xD800 && r < 0xE000) || r == 0xFFFE || r == 0xFFFF {
			return false
		}
		i += n
	}
	return true
}
