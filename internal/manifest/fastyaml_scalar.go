package manifest

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The scalars of fastYAML: plain, quoted, literal and flow sequences of them.

// flowSequence reads a flow sequence of scalars on one line ("[a, 'b', \"c\"]") at the start of s and
// returns it with the number of bytes it takes; ok is false for nested collections, keys, a
// trailing comma and a sequence that goes on to the next line.
func flowSequence(s []byte) ([]interface{}, int, bool) {
	out := []interface{}{}
	i := 1 + indentOf(s[1:])
	if i < len(s) && s[i] == ']' {
		return out, i + 1, true
	}
	for i < len(s) {
		var item interface{}
		switch c := s[i]; {
		case c == '"' || c == '\'':
			str, n, ok := quoted(s[i:], -1)
			if !ok {
				return nil, 0, false
			}
			item, i = str, i+n
		case isIndicator(c) && (c != '-' || i+1 == len(s) || strings.IndexByte(" ,[]{}", s[i+1]) >= 0):
			return nil, 0, false
		default:
			j := i
			for j < len(s) && strings.IndexByte(",[]{}:?", s[j]) < 0 && (s[j] != '#' || s[j-1] != ' ') {
				j++
			}
			if j < len(s) && (s[j] == ':' || s[j] == '?' || s[j] == '#') {
				return nil, 0, false // '?' ends a plain scalar in a flow collection, and yaml.v2 then refuses it
			}
			var ok bool
			if item, ok = plainScalar(bytes.TrimRight(s[i:j], " ")); !ok {
				return nil, 0, false
			}
			i = j
		}
		out = append(out, item)
		i += indentOf(s[i:])
		switch {
		case i < len(s) && s[i] == ']':
			return out, i + 1, true
		case i < len(s) && s[i] == ',':
			i++
			i += indentOf(s[i:])
			if i < len(s) && s[i] == ']' {
				return nil, 0, false
			}
		default:
			return nil, 0, false
		}
	}
	return nil, 0, false
}

// plainLine cuts one line of a plain scalar at its comment and trailing spaces; more is false when a
// comment ends the scalar. A ": " or a final ':' would make it a key: not a scalar yaml.v2 reads.
func plainLine(line []byte) (text []byte, more, ok bool) {
	more = true
	for i := 1; i < len(line); i++ {
		if line[i] == '#' && line[i-1] == ' ' {
			line, more = line[:i], false
			break
		}
	}
	text = bytes.TrimRight(line, " ")
	if len(text) == 0 || text[len(text)-1] == ':' || bytes.Contains(text, []byte(": ")) {
		return nil, false, false
	}
	return text, more, true
}

// literal reads a literal block scalar ("|", "|-" or "|+"; header is what follows the '|') whose
// content lines follow p.pos, in a block at column ind, as libyaml's scanner does.
func (p *fastParser) literal(ind int, header []byte) (interface{}, bool) {
	var chomp byte
	if len(header) > 0 && (header[0] == '-' || header[0] == '+') {
		chomp, header = header[0], header[1:]
	}
	if len(header) > 0 && header[0] != ' ' || !onlyComment(header) {
		return nil, false // an indentation indicator, or text after the header
	}
	var out []byte
	contentIndent, leadingMax, trailing, content := -1, 0, 0, false
	q := p.pos
	for q < len(p.src) {
		end, next := p.bounds(q)
		line := p.src[q:end]
		n := indentOf(line)
		if contentIndent < 0 {
			if n == len(line) {
				leadingMax = max(leadingMax, n)
				out = append(out, '\n')
				trailing++
				q = next
				continue
			}
			if n <= ind {
				break
			}
			if leadingMax > n {
				return nil, false // libyaml takes the longest leading blank line as the indentation
			}
			contentIndent = n
		}
		if n == len(line) && n <= contentIndent {
			out = append(out, '\n')
			trailing++
			q = next
			continue
		}
		if n < contentIndent {
			break
		}
		out = append(out, line[contentIndent:]...)
		out = append(out, '\n')
		trailing, content = 0, true
		q = next
	}
	p.pos = q
	switch {
	case !content:
		if chomp == '+' {
			return nil, false
		}
		return "", true
	case chomp == '+':
		return string(out), true
	case chomp == '-':
		return string(out[:len(out)-trailing-1]), true
	default:
		return string(out[:len(out)-trailing]), true
	}
}

// quoted reads the single- or double-quoted scalar at the start of s and returns it with the number
// of bytes it takes, folding line breaks as libyaml does. Its continuation lines must be indented
// past ind; with ind < 0 it must end on its line (a key). ok is false for escapes this reader leaves
// to yaml.v2 and for a scalar without its closing quote.
func quoted(s []byte, ind int) (string, int, bool) {
	q := s[0]
	var buf []byte
	escapedBreak := false
	for i := 1; ; {
		for i < len(s) && s[i] != ' ' && s[i] != '\n' && !escapedBreak {
			switch c := s[i]; {
			case c == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
				buf = append(buf, '\'')
				i += 2
			case c == q:
				return string(buf), i + 1, true
			case c == '\\' && q == '"' && i+1 < len(s) && s[i+1] == '\n':
				escapedBreak = true // the break and the next line's indentation are dropped
				if i += 2; ind < 0 || !continues(s[i:], ind) {
					return "", 0, false
				}
			case c == '\\' && q == '"':
				var ok bool
				if buf, i, ok = unescape(buf, s, i); !ok {
					return "", 0, false
				}
				i++
			default:
				buf = append(buf, c)
				i++
			}
		}
		// White space: kept inside a line; a line break folds to a space, or to one '\n' per empty line
		// after it (after an escaped break, only those).
		blanks, breaks := i, 0
		leading := escapedBreak
		for i < len(s) && (s[i] == ' ' || s[i] == '\n') {
			if s[i] == ' ' {
				i++
				continue
			}
			if ind < 0 {
				return "", 0, false
			}
			if leading {
				breaks++
			}
			leading = true
			i++
			if !continues(s[i:], ind) {
				return "", 0, false
			}
		}
		if i >= len(s) {
			return "", 0, false
		}
		switch {
		case !leading:
			buf = append(buf, s[blanks:i]...)
		case breaks == 0 && !escapedBreak:
			buf = append(buf, ' ')
		default:
			for ; breaks > 0; breaks-- {
				buf = append(buf, '\n')
			}
		}
		escapedBreak = false
	}
}

// continues reports whether the line at the start of s can go on a quoted scalar in a block at
// column ind: empty, or indented past ind.
func continues(s []byte, ind int) bool {
	n := indentOf(s)
	return n == len(s) || s[n] == '\n' || n > ind
}

// yamlEscapes are libyaml's one-character escapes in double-quoted scalars ("\\/" is not one).
var yamlEscapes = map[byte]rune{
	'0': 0, 'a': '\a', 'b': '\b', 't': '\t', 'n': '\n', 'v': '\v', 'f': '\f', 'r': '\r', 'e': 0x1b,
	' ': ' ', '"': '"', '\'': '\'', '\\': '\\', 'N': 0x85, '_': 0xa0, 'L': 0x2028, 'P': 0x2029,
}

// unescape appends the escape at s[i] (a backslash) as libyaml decodes it and returns the index of
// its last byte.
func unescape(buf, s []byte, i int) ([]byte, int, bool) {
	if i+1 >= len(s) {
		return nil, 0, false // a line continuation
	}
	if r, ok := yamlEscapes[s[i+1]]; ok {
		return utf8.AppendRune(buf, r), i + 1, true
	}
	var width int
	switch s[i+1] {
	case 'x':
		width = 2
	case 'u':
		width = 4
	case 'U':
		width = 8
	default:
		return nil, 0, false // yaml.v2 refuses it ("\/" included)
	}
	if i+2+width > len(s) {
		return nil, 0, false
	}
	v, err := strconv.ParseUint(string(s[i+2:i+2+width]), 16, 32)
	if err != nil || v >= 0xd800 && v <= 0xdfff || v > 0x10ffff {
		return nil, 0, false
	}
	return utf8.AppendRune(buf, rune(v)), i + 1 + width, true
}
