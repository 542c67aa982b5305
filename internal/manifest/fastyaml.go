package manifest

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// fastYAML decodes the YAML that generators write (controller-gen, operator-sdk, kustomize,
// yaml.v2 and yaml.v3 marshallers) straight into the value yamlToObject gives, several times faster
// than yaml.v2's scanner, which was a third of `validate bundle`'s time. It is written by hand: no
// library decodes YAML 1.1 as yaml.v2 does without building its token stream and node tree first.
//
// It reads a subset: block mappings and sequences, plain scalars (also over several lines), quoted
// scalars on one line, literal block scalars, "[]" and "{}", and comments. For anything else, and
// wherever it is not sure yaml.v2 reads the text the same way, it gives up (ok is false) and the
// caller takes yaml.v2: anchors, aliases, tags, flow collections with content, folded block
// scalars, quoted scalars over several lines, indentation indicators, tabs, CR, characters YAML
// does not print, duplicate keys, keys that do not read as strings, NaN and infinities, a
// document without a final newline. So it never reports an error of its own: every error, and its
// wording, is yaml.v2's. TestFastYAMLSameAsYAMLv2, TestCorpusFastYAML and FuzzFastYAML hold it to
// yaml.v2's values.
func fastYAML(raw []byte) (map[string]interface{}, bool) {
	if len(raw) == 0 || raw[len(raw)-1] != '\n' {
		return nil, false
	}
	p := &fastParser{src: raw}
	n := p.next()
	head, body := p.pos, p.pos               // blank and comment lines before the content
	if n == 0 && string(p.line()) == "---" { // an explicit document start, as controller-gen writes
		body += len("---\n")
		p.pos = body
		n = p.next()
	}
	if n < 0 || !fastPrintable(raw[:head]) || !fastPrintable(raw[body:]) || !isKeyLine(p.line()[n:]) {
		return nil, false
	}
	m, ok := p.mapping(n, p.pos+n)
	if !ok || p.next() >= 0 {
		return nil, false
	}
	return m, true
}

// maxFastDepth bounds the parser's recursion; deeper documents are left to yaml.v2.
const maxFastDepth = 200

// maxSimpleKey bounds a key's bytes up to its ':' (libyaml refuses a simple key of more than 1024
// characters, spaces before the ':' included); longer keys are left to yaml.v2.
const maxSimpleKey = 1000

type fastParser struct {
	src   []byte
	pos   int // start of the line being read
	depth int
}

// line is the line starting at p.pos, without its line break.
func (p *fastParser) line() []byte {
	end, _ := p.bounds(p.pos)
	return p.src[p.pos:end]
}

// bounds returns where the line starting at start ends (its '\n') and where the next one starts.
func (p *fastParser) bounds(start int) (end, next int) {
	i := bytes.IndexByte(p.src[start:], '\n')
	if i < 0 {
		return len(p.src), len(p.src)
	}
	return start + i, start + i + 1
}

// next skips blank and comment lines and returns the indentation of the next line with content,
// p.pos at its start; -1 at the end of the document.
func (p *fastParser) next() int {
	for p.pos < len(p.src) {
		end, next := p.bounds(p.pos)
		line := p.src[p.pos:end]
		if n := indentOf(line); n < len(line) && line[n] != '#' {
			return n
		}
		p.pos = next
	}
	return -1
}

// block reads the mapping or sequence whose first line is at p.pos, indented by n.
func (p *fastParser) block(n int) (interface{}, bool) {
	rest := p.line()[n:]
	if isSeqEntry(rest) {
		return p.sequence(n)
	}
	if isKeyLine(rest) {
		return p.mapping(n, p.pos+n)
	}
	return nil, false // a scalar on its own line: rare, left to yaml.v2
}

// mapping reads a block mapping whose keys are at column ind, its first key at src[at:] (on the
// line at p.pos: mid-line after a sequence entry's "- ").
func (p *fastParser) mapping(ind, at int) (map[string]interface{}, bool) {
	if p.depth++; p.depth > maxFastDepth {
		return nil, false
	}
	defer func() { p.depth-- }()
	m := map[string]interface{}{}
	for {
		key, after, ok := p.key(at)
		if !ok {
			return nil, false
		}
		if _, dup := m[key]; dup {
			return nil, false
		}
		if m[key], ok = p.value(ind, after, true); !ok {
			return nil, false
		}
		n := p.next()
		if n < ind {
			return m, true
		}
		if n > ind || !isKeyLine(p.line()[n:]) {
			return nil, false
		}
		at = p.pos + n
	}
}

// sequence reads a block sequence whose "-" entries are at column ind, the first on the line at p.pos.
func (p *fastParser) sequence(ind int) (interface{}, bool) {
	if p.depth++; p.depth > maxFastDepth {
		return nil, false
	}
	defer func() { p.depth-- }()
	s := []interface{}{}
	for {
		line := p.line()
		j := ind + 1
		for j < len(line) && line[j] == ' ' {
			j++
		}
		var v interface{}
		var ok bool
		if rest := line[j:]; len(rest) > 0 && rest[0] != '#' && isKeyLine(rest) {
			v, ok = p.mapping(j, p.pos+j) // "- key: value": a mapping at the key's column
		} else {
			v, ok = p.value(ind, p.pos+ind+1, false)
		}
		if !ok {
			return nil, false
		}
		s = append(s, v)
		n := p.next()
		if n > ind {
			return nil, false
		}
		if n < ind || !isSeqEntry(p.line()[n:]) {
			return s, true // a key after an indentless sequence is its mapping's to read
		}
	}
}

// key reads the mapping key at src[at:] and returns it with the position after its ':'.
func (p *fastParser) key(at int) (string, int, bool) {
	end, _ := p.bounds(p.pos)
	line := p.src[at:end]
	if len(line) == 0 {
		return "", 0, false
	}
	if line[0] == '"' || line[0] == '\'' {
		s, n, ok := quoted(line, -1)
		if !ok {
			return "", 0, false
		}
		for n < len(line) && line[n] == ' ' {
			n++
		}
		if n == len(line) || line[n] != ':' || n+1 < len(line) && line[n+1] != ' ' || n > maxSimpleKey {
			return "", 0, false
		}
		return s, at + n + 1, true
	}
	if isIndicator(line[0]) {
		return "", 0, false
	}
	for i := 1; i < len(line); i++ {
		switch line[i] {
		case ':':
			if i+1 == len(line) || line[i+1] == ' ' {
				if i > maxSimpleKey {
					return "", 0, false
				}
				k := bytes.TrimRight(line[:i], " ")
				v, ok := plainScalar(k)
				s, isString := v.(string)
				if !ok || !isString {
					return "", 0, false // null, booleans, numbers as keys: left to yaml.v2
				}
				return s, at + i + 1, true
			}
		case '#':
			if line[i-1] == ' ' {
				return "", 0, false
			}
		}
	}
	return "", 0, false
}

// value reads the node after a key's ':' or an entry's '-' at src[at:], in a block at column ind
// (a mapping's if inMapping, which may then hold a sequence at its own column).
func (p *fastParser) value(ind, at int, inMapping bool) (interface{}, bool) {
	end, next := p.bounds(p.pos)
	rest := p.src[at:end]
	i := 0
	for i < len(rest) && rest[i] == ' ' {
		i++
	}
	if i == 0 && len(rest) > 0 {
		return nil, false // "-x" or "key:x" are not entries; the callers never get here with them
	}
	rest = rest[i:]
	if len(rest) == 0 || rest[0] == '#' {
		p.pos = next
		n := p.next()
		switch {
		case n > ind:
			return p.block(n)
		case n == ind && inMapping && isSeqEntry(p.line()[n:]):
			return p.sequence(ind)
		}
		return nil, true
	}
	switch rest[0] {
	case '|':
		p.pos = next
		return p.literal(ind, rest[1:])
	case '"', '\'':
		s, n, ok := quoted(p.src[at+i:], ind)
		if !ok {
			return nil, false
		}
		end, next := p.bounds(at + i + n)
		if !onlyComment(p.src[at+i+n : end]) {
			return nil, false
		}
		p.pos = next
		return s, true
	case '[':
		v, n, ok := flowSequence(rest)
		if !ok || !onlyComment(rest[n:]) {
			return nil, false
		}
		p.pos = next
		return v, true
	case '{':
		n := 1 + indentOf(rest[1:])
		if n == len(rest) || rest[n] != '}' || !onlyComment(rest[n+1:]) {
			return nil, false // only "{}": mappings with content are left to yaml.v2
		}
		p.pos = next
		return map[string]interface{}{}, true
	}
	if isIndicator(rest[0]) && (rest[0] != '-' || len(rest) == 1 || rest[1] == ' ') {
		return nil, false
	}
	p.pos = next
	return p.plain(ind, rest)
}

// plain reads a plain scalar starting with first (the rest of its line) and continued on the
// following lines indented past ind; p.pos is at the line after first's.
func (p *fastParser) plain(ind int, first []byte) (interface{}, bool) {
	text, more, ok := plainLine(first)
	if !ok {
		return nil, false
	}
	var buf []byte
	for q, breaks := p.pos, 0; more && q < len(p.src); {
		end, next := p.bounds(q)
		line := p.src[q:end]
		n := indentOf(line)
		if n == len(line) {
			breaks++
			q = next
			continue
		}
		if n <= ind || line[n] == '#' {
			break
		}
		var cont []byte
		if cont, more, ok = plainLine(line[n:]); !ok {
			return nil, false
		}
		if buf == nil {
			buf = append(buf, text...)
		}
		if breaks == 0 {
			buf = append(buf, ' ')
		}
		for ; breaks > 0; breaks-- {
			buf = append(buf, '\n')
		}
		buf = append(buf, cont...)
		p.pos, q = next, next
	}
	if buf != nil {
		return string(buf), true // folded over lines: never a number, boolean or null in yaml.v2
	}
	return plainScalar(text)
}

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

// unescape appends the escape at s[i] (a backslash) as libyaml decodes it and returns the index of
// its last byte.
func unescape(buf, s []byte, i int) ([]byte, int, bool) {
	if i+1 >= len(s) {
		return nil, 0, false // a line continuation
	}
	var width int
	switch s[i+1] {
	case '0':
		return append(buf, 0), i + 1, true
	case 'a':
		return append(buf, '\a'), i + 1, true
	case 'b':
		return append(buf, '\b'), i + 1, true
	case 't':
		return append(buf, '\t'), i + 1, true
	case 'n':
		return append(buf, '\n'), i + 1, true
	case 'v':
		return append(buf, '\v'), i + 1, true
	case 'f':
		return append(buf, '\f'), i + 1, true
	case 'r':
		return append(buf, '\r'), i + 1, true
	case 'e':
		return append(buf, 0x1b), i + 1, true
	case ' ', '"', '\'', '\\':
		return append(buf, s[i+1]), i + 1, true
	case 'N':
		return utf8.AppendRune(buf, 0x85), i + 1, true
	case '_':
		return utf8.AppendRune(buf, 0xa0), i + 1, true
	case 'L':
		return utf8.AppendRune(buf, 0x2028), i + 1, true
	case 'P':
		return utf8.AppendRune(buf, 0x2029), i + 1, true
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

// plainScalar resolves a one-line plain scalar as yaml.v2's resolve does and converts the result
// as direct does: null, booleans (YAML 1.1: yes, no, on, off too), integers in any base yaml.v2
// reads, floats; anything else is a string. NaN, infinities, "<<" and binary numbers are left to
// yaml.v2.
func plainScalar(b []byte) (interface{}, bool) {
	s := string(b)
	c := s[0]
	if strings.IndexByte("+-0123456789.yYnNtTfFoO~<", c) < 0 {
		return s, true
	}
	if leftToYAMLv2[s] {
		return nil, false
	}
	if v, ok := plainConstants[s]; ok {
		return v, true
	}
	switch {
	case c == '.':
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			v, err := direct(f)
			return v, err == nil
		}
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		plain := strings.ReplaceAll(s, "_", "")
		if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return i, true
		}
		if u, err := strconv.ParseUint(plain, 0, 64); err == nil {
			v, err := direct(u)
			return v, err == nil
		}
		if yamlStyleFloat(plain) {
			if f, err := strconv.ParseFloat(plain, 64); err == nil {
				v, err := direct(f)
				return v, err == nil
			}
		}
		if strings.HasPrefix(plain, "0b") || strings.HasPrefix(plain, "-0b") {
			return nil, false
		}
	}
	return s, true
}

// plainConstants are the nulls and booleans of yaml.v2's resolve table.
var plainConstants = func() map[string]interface{} {
	m := map[string]interface{}{}
	for v, words := range map[bool][]string{
		true:  {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"},
		false: {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"},
	} {
		for _, w := range words {
			m[w] = v
		}
	}
	for _, w := range []string{"~", "null", "Null", "NULL"} {
		m[w] = nil
	}
	return m
}()

// leftToYAMLv2 are the rest of the resolve table (NaN, infinities, the merge key): left to yaml.v2.
var leftToYAMLv2 = map[string]bool{
	".nan": true, ".NaN": true, ".NAN": true, ".inf": true, ".Inf": true, ".INF": true,
	"+.inf": true, "+.Inf": true, "+.INF": true, "-.inf": true, "-.Inf": true, "-.INF": true, "<<": true,
}

// yamlStyleFloat is yaml.v2's `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
func yamlStyleFloat(s string) bool {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	digits := func() int {
		n := 0
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		s = s[n:]
		return n
	}
	if s != "" && s[0] == '.' {
		s = s[1:]
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if s != "" && s[0] == '.' {
			s = s[1:]
			digits()
		}
	}
	if s != "" && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s != "" && (s[0] == '-' || s[0] == '+') {
			s = s[1:]
		}
		if digits() == 0 {
			return false
		}
	}
	return s == ""
}

// fastPrintable reports whether raw holds only what libyaml reads as printable characters and
// line feeds, no tab or CR (both have their own rules), no BOM or YAML line separators, and no line
// starting a directive or a document marker.
func fastPrintable(raw []byte) bool {
	lineStart := true
	for i := 0; i < len(raw); {
		c := raw[i]
		if lineStart && (c == '%' || (c == '-' || c == '.') && i+2 < len(raw) && raw[i+1] == c && raw[i+2] == c) {
			return false
		}
		lineStart = c == '\n'
		if c < 0x80 {
			if c != '\n' && (c < 0x20 || c == 0x7f) {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(raw[i:])
		if r == utf8.RuneError && size == 1 || r < 0xa0 || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff {
			return false
		}
		i += size
	}
	return true
}

func indentOf(line []byte) int {
	n := 0
	for n < len(line) && line[n] == ' ' {
		n++
	}
	return n
}

// isSeqEntry reports whether a line's content is a block sequence entry ("-" then a space or nothing).
func isSeqEntry(rest []byte) bool {
	return len(rest) > 0 && rest[0] == '-' && (len(rest) == 1 || rest[1] == ' ')
}

// isKeyLine reports whether a line's content starts with a mapping key (a ':' followed by a space
// or the end of the line before any comment).
func isKeyLine(rest []byte) bool {
	if len(rest) == 0 {
		return false
	}
	if rest[0] == '"' || rest[0] == '\'' {
		_, n, ok := quoted(rest, -1)
		for ok && n < len(rest) && rest[n] == ' ' {
			n++
		}
		return ok && n < len(rest) && rest[n] == ':'
	}
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case ':':
			if i+1 == len(rest) || rest[i+1] == ' ' {
				return true
			}
		case '#':
			if i > 0 && rest[i-1] == ' ' {
				return false
			}
		}
	}
	return false
}

// onlyComment reports whether s holds nothing but spaces and a comment after them.
func onlyComment(s []byte) bool {
	n := indentOf(s)
	return n == len(s) || n > 0 && s[n] == '#'
}

// isIndicator reports whether c is a YAML indicator character, which a plain scalar may not start with.
func isIndicator(c byte) bool {
	return strings.IndexByte("-?:,[]{}#&*!|>'\"%@`", c) >= 0
}
