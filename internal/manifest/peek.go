package manifest

// PeekKind returns the top-level "apiVersion" and "kind" of a JSON object without decoding it: one
// pass over the bytes, no allocation, nested values skipped by their brackets. ok is false when
// data is not an object it can read that way (malformed, or a key or wanted value with escapes);
// the caller then decodes it properly. Values that are not strings read as "".
func PeekKind(data []byte) (apiVersion, kind string, ok bool) {
	p := peeker{data: data}
	if !p.expect('{') {
		return "", "", false
	}
	if p.ws(); p.at('}') {
		return "", "", p.end()
	}
	for {
		p.ws()
		key, plain := p.str()
		if !plain || !p.expect(':') {
			return "", "", false
		}
		p.ws()
		switch {
		case (key == "apiVersion" || key == "kind") && p.at('"'):
			v, plain := p.str()
			if !plain {
				return "", "", false
			}
			if key == "kind" {
				kind = v
			} else {
				apiVersion = v
			}
		case key == "apiVersion" || key == "kind":
			if !p.skip() {
				return "", "", false
			}
			if key == "kind" {
				kind = ""
			} else {
				apiVersion = ""
			}
		default:
			if !p.skip() {
				return "", "", false
			}
		}
		p.ws()
		switch {
		case p.at(','):
			p.i++
		case p.at('}'):
			if !p.end() {
				return "", "", false
			}
			return apiVersion, kind, true
		default:
			return "", "", false
		}
	}
}

type peeker struct {
	data []byte
	i    int
}

func (p *peeker) ws() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *peeker) at(c byte) bool { return p.i < len(p.data) && p.data[p.i] == c }

func (p *peeker) expect(c byte) bool {
	p.ws()
	if !p.at(c) {
		return false
	}
	p.i++
	return true
}

// end consumes the closing brace and reports whether only white space follows.
func (p *peeker) end() bool {
	p.i++
	p.ws()
	return p.i == len(p.data)
}

// str reads a string; plain is false when it is not one or holds an escape.
func (p *peeker) str() (s string, plain bool) {
	if !p.at('"') {
		return "", false
	}
	start := p.i + 1
	for i := start; i < len(p.data); i++ {
		switch p.data[i] {
		case '\\':
			return "", false
		case '"':
			p.i = i + 1
			return string(p.data[start:i]), true
		}
	}
	return "", false
}

// skip passes over one value: a string, a bracketed object or array (strings inside honoured),
// or a literal.
func (p *peeker) skip() bool {
	depth := 0
	for p.i < len(p.data) {
		c := p.data[p.i]
		switch {
		case c == '"':
			if !p.skipString() {
				return false
			}
			if depth == 0 {
				return true
			}
			continue
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			if depth == 0 {
				return true // the end of the enclosing object: a literal ended here
			}
			depth--
			if depth == 0 {
				p.i++
				return true
			}
		case depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			return true
		}
		p.i++
	}
	return depth == 0
}

func (p *peeker) skipString() bool {
	for i := p.i + 1; i < len(p.data); i++ {
		switch p.data[i] {
		case '\\':
			i++
		case '"':
			p.i = i + 1
			return true
		}
	}
	return false
}
