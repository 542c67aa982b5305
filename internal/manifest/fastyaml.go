package manifest

import (
	"bytes"
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
