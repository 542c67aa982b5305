package codec

import (
	"bytes"
	"errors"
	"unicode/utf8"

	"github.com/opack/opack/internal/manifest"
)

// errNotSimple makes fastYAMLToJSON give up; the document then goes through sigs.k8s.io/yaml.
var errNotSimple = errors.New("not simple YAML")

// FastYAMLToJSON converts a YAML document written in the block style opm (and most people)
// write catalogs in straight to opm's canonical JSON: keys sorted, numbers as float64 would
// print them, HTML not escaped. That is what sigs.k8s.io/yaml.YAMLToJSON followed by opm's
// map round trip produces, at a fraction of the cost. Anything outside the subset (flow
// collections, anchors, tags, multi-line plain or quoted scalars, folded scalars, non-string
// keys, duplicate keys, unusual characters) returns errNotSimple and the caller falls back.
func FastYAMLToJSON(doc []byte) ([]byte, error) {
	var p Parser
	out, err := p.Convert(doc)
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), out...), nil
}

// Convert is fastYAMLToJSON on a reusable parser; the result is only valid until the next call.
func (p *Parser) Convert(doc []byte) ([]byte, error) {
	if !simpleChars(doc) || len(doc) == 0 || doc[len(doc)-1] != '\n' {
		return nil, errNotSimple // splitYAML ends every document with a line break
	}
	p.lines, p.out, p.pairs, p.i = p.lines[:0], p.out[:0], p.pairs[:0], 0
	p.split(doc)
	p.skipBlank()
	if p.i >= len(p.lines) {
		return nil, errNotSimple // empty document: let the fallback say "null"
	}
	l := p.lines[p.i]
	if l.isSeqItem() {
		return nil, errNotSimple // not an object: the fallback words opm's error
	}
	if err := p.mapping(l.indent); err != nil {
		return nil, err
	}
	p.skipBlank()
	if p.i < len(p.lines) {
		return nil, errNotSimple
	}
	return p.out, nil
}

type yline struct {
	indent int
	text   []byte // after the indentation, without the line break
	raw    []byte // the whole line
}

func (l yline) isSeqItem() bool {
	return len(l.text) > 0 && l.text[0] == '-' && (len(l.text) == 1 || l.text[1] == ' ')
}

func (l yline) blank() bool {
	t := bytes.TrimRight(l.text, " ")
	return len(t) == 0 || t[0] == '#'
}

// Parser converts block-style YAML documents to canonical JSON, reusing its buffers between calls.
type Parser struct {
	lines []yline
	i     int
	out   []byte
	pairs []pair // stack of the keys of the mappings being written
	tmp   []byte // scratch for scalars and reordering
}

func (p *Parser) split(doc []byte) {
	for len(doc) > 0 {
		end := bytes.IndexByte(doc, '\n')
		var raw []byte
		if end < 0 {
			raw, doc = doc, nil
		} else {
			raw, doc = doc[:end], doc[end+1:]
		}
		n := 0
		for n < len(raw) && raw[n] == ' ' {
			n++
		}
		p.lines = append(p.lines, yline{indent: n, text: raw[n:], raw: raw})
	}
}

func (p *Parser) skipBlank() {
	for p.i < len(p.lines) && p.lines[p.i].blank() {
		p.i++
	}
}

// pair is one key of a mapping being written: out[start:kend] is the quoted key and
// out[start:end] the whole "key":value.
type pair struct {
	start, kend, end int
}

func (p *Parser) key(pr pair) []byte { return p.out[pr.start+1 : pr.kend-1] }

// mapping parses the block mapping whose keys are at indent.
func (p *Parser) mapping(indent int) error {
	p.out = append(p.out, '{')
	open := len(p.out)
	base := len(p.pairs)
	for {
		p.skipBlank()
		if p.i >= len(p.lines) {
			break
		}
		l := p.lines[p.i]
		if l.indent < indent || l.isSeqItem() {
			break
		}
		if l.indent > indent {
			return errNotSimple
		}
		key, rest, err := p.splitKey(l.text)
		if err != nil {
			return err
		}
		if len(p.pairs) > base {
			p.out = append(p.out, ',')
		}
		start := len(p.out)
		p.out = append(p.out, '"')
		p.out = append(p.out, key...)
		p.out = append(p.out, '"', ':')
		kend := len(p.out) - 1
		p.i++
		if err := p.value(rest, indent, true); err != nil {
			return err
		}
		p.pairs = append(p.pairs, pair{start: start, kend: kend, end: len(p.out)})
	}
	if err := p.sortPairs(open, p.pairs[base:]); err != nil {
		return err
	}
	p.pairs = p.pairs[:base]
	p.out = append(p.out, '}')
	return nil
}

// sortPairs puts the pairs written since open in key order (as encoding/json sorts map keys);
// keys never need escaping here, so their quoted bytes sort like the keys.
func (p *Parser) sortPairs(open int, pairs []pair) error {
	var ok bool
	p.out, p.tmp, ok = sortObjectPairs(p.out, p.tmp, open, pairs, p.key)
	if !ok {
		return errNotSimple
	}
	return nil
}

// sequence parses the block sequence whose dashes are at indent.
func (p *Parser) sequence(indent int) error {
	p.out = append(p.out, '[')
	n := 0
	for {
		p.skipBlank()
		if p.i >= len(p.lines) {
			break
		}
		l := p.lines[p.i]
		if l.indent != indent || !l.isSeqItem() {
			if l.indent > indent {
				return errNotSimple
			}
			break
		}
		if n > 0 {
			p.out = append(p.out, ',')
		}
		n++
		rest := bytes.TrimLeft(l.text[1:], " ")
		if len(rest) > 0 && rest[0] != '#' && isCompactMapping(rest) {
			// "- key: value": a mapping whose keys are at the column of "key".
			col := indent + (len(l.text) - len(rest))
			p.lines[p.i] = yline{indent: col, text: rest, raw: l.raw}
			if err := p.mapping(col); err != nil {
				return err
			}
			continue
		}
		p.i++
		if err := p.value(rest, indent, false); err != nil {
			return err
		}
	}
	p.out = append(p.out, ']')
	return nil
}

// value writes the value that follows a key (inMapping) or a dash at indent; rest is the
// text after the key's colon or the dash.
func (p *Parser) value(rest []byte, indent int, inMapping bool) error {
	rest = bytes.TrimLeft(rest, " ")
	if len(rest) == 0 || rest[0] == '#' {
		p.skipBlank()
		if p.i < len(p.lines) {
			l := p.lines[p.i]
			switch {
			case l.indent > indent && l.isSeqItem():
				return p.sequence(l.indent)
			case l.indent > indent:
				return p.mapping(l.indent)
			case inMapping && l.indent == indent && l.isSeqItem():
				return p.sequence(indent)
			}
		}
		p.out = append(p.out, "null"...)
		return nil
	}
	switch rest[0] {
	case '|':
		return p.blockScalar(rest, indent)
	case '"', '\'':
		str, err := p.quoted(rest, indent)
		if err != nil {
			return err
		}
		p.out = manifest.AppendJSONString(p.out, str, false)
	case '[', '{':
		switch t := string(trimComment(rest)); t {
		case "[]", "{}":
			p.out = append(p.out, t...)
		default:
			return errNotSimple
		}
	default:
		plain, err := p.plain(rest, indent)
		if err != nil {
			return err
		}
		out, ok := resolvePlainBytes(p.out, plain)
		if !ok {
			return errNotSimple
		}
		p.out = out
	}
	return p.noContinuation(indent)
}

// splitKey splits "key: rest" (plain or quoted key). Keys that JSON would escape are refused.
func (p *Parser) splitKey(text []byte) ([]byte, []byte, error) {
	if len(text) == 0 {
		return nil, nil, errNotSimple
	}
	var key, rest []byte
	switch text[0] {
	case '"', '\'':
		q := text[0]
		end := closingQuote(text, q)
		if end < 0 || end+1 >= len(text) || text[end+1] != ':' || (end+2 < len(text) && text[end+2] != ' ') {
			return nil, nil, errNotSimple
		}
		k, err := p.unquote(text[:end+1])
		if err != nil {
			return nil, nil, err
		}
		key, rest = k, text[end+2:]
	default:
		i := bytes.Index(text, []byte(": "))
		if i < 0 {
			if text[len(text)-1] != ':' {
				return nil, nil, errNotSimple
			}
			i = len(text) - 1
		}
		key, rest = bytes.TrimRight(text[:i], " "), text[i+1:]
		if len(key) == 0 || !plainOK(key) || bytes.Contains(key, []byte(" #")) || !plainIsString(key) {
			return nil, nil, errNotSimple
		}
	}
	for _, c := range key {
		if c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			return nil, nil, errNotSimple
		}
	}
	return key, rest, nil
}
