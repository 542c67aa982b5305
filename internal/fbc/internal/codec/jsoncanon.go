package codec

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/opack/opack/internal/manifest"
)

// CanonJSON rewrites one valid JSON value the way opm's decode into map[string]any and
// re-encode does (keys sorted, numbers printed as float64, strings as encoding/json writes
// them without HTML escaping, no whitespace), without building the map. ok is false for
// what it does not handle (duplicate keys, keys with escapes, numbers a float64 cannot hold);
// the caller then does the round trip itself.
func CanonJSON(src []byte) (out []byte, ok bool) {
	c := jsonCanon{src: src, out: make([]byte, 0, len(src))}
	c.skipSpace()
	if !c.value() {
		return nil, false
	}
	c.skipSpace()
	return c.out, c.pos == len(src)
}

type jsonCanon struct {
	src   []byte
	pos   int
	out   []byte
	pairs []pair
	tmp   []byte
}

func (c *jsonCanon) skipSpace() {
	for c.pos < len(c.src) {
		switch c.src[c.pos] {
		case ' ', '\t', '\n', '\r':
			c.pos++
		default:
			return
		}
	}
}

func (c *jsonCanon) value() bool {
	if c.pos >= len(c.src) {
		return false
	}
	switch ch := c.src[c.pos]; {
	case ch == '{':
		return c.object()
	case ch == '[':
		return c.array()
	case ch == '"':
		return c.str()
	case ch == 't' || ch == 'f' || ch == 'n':
		for _, lit := range []string{"true", "false", "null"} {
			if bytes.HasPrefix(c.src[c.pos:], []byte(lit)) {
				c.out = append(c.out, lit...)
				c.pos += len(lit)
				return true
			}
		}
		return false
	default:
		return c.number()
	}
}

func (c *jsonCanon) object() bool {
	c.pos++
	c.out = append(c.out, '{')
	open, base := len(c.out), len(c.pairs)
	c.skipSpace()
	for c.pos < len(c.src) && c.src[c.pos] != '}' {
		if len(c.pairs) > base {
			if c.src[c.pos] != ',' {
				return false
			}
			c.pos++
			c.skipSpace()
			c.out = append(c.out, ',')
		}
		start := len(c.out)
		end := SkipValue(c.src, c.pos)
		if end < 0 || c.src[c.pos] != '"' || bytes.IndexByte(c.src[c.pos:end], '\\') >= 0 || !asciiOnly(c.src[c.pos:end]) {
			return false
		}
		c.out = append(c.out, c.src[c.pos:end]...)
		kend := len(c.out)
		c.pos = end
		c.skipSpace()
		if c.pos >= len(c.src) || c.src[c.pos] != ':' {
			return false
		}
		c.pos++
		c.skipSpace()
		c.out = append(c.out, ':')
		if !c.value() {
			return false
		}
		c.pairs = append(c.pairs, pair{start: start, kend: kend, end: len(c.out)})
		c.skipSpace()
	}
	if c.pos >= len(c.src) {
		return false
	}
	c.pos++
	if !c.sortPairs(open, c.pairs[base:]) {
		return false
	}
	c.pairs = c.pairs[:base]
	c.out = append(c.out, '}')
	return true
}

func (c *jsonCanon) key(p pair) []byte { return c.out[p.start+1 : p.kend-1] }

func (c *jsonCanon) sortPairs(open int, pairs []pair) bool {
	var ok bool
	c.out, c.tmp, ok = sortObjectPairs(c.out, c.tmp, open, pairs, c.key)
	return ok
}

// sortObjectPairs puts the pairs of an object written to out since open in key order (as
// encoding/json sorts map keys), using tmp as scratch; it reports false when two keys are equal.
func sortObjectPairs(out, tmp []byte, open int, pairs []pair, key func(pair) []byte) ([]byte, []byte, bool) {
	less := func(i, j int) bool { return bytes.Compare(key(pairs[i]), key(pairs[j])) < 0 }
	sorted := sort.SliceIsSorted(pairs, less)
	if !sorted {
		sort.SliceStable(pairs, less)
	}
	for i := 1; i < len(pairs); i++ {
		if bytes.Equal(key(pairs[i]), key(pairs[i-1])) {
			return out, tmp, false
		}
	}
	if sorted {
		return out, tmp, true
	}
	tmp = tmp[:0]
	for i, p := range pairs {
		if i > 0 {
			tmp = append(tmp, ',')
		}
		tmp = append(tmp, out[p.start:p.end]...)
	}
	return append(out[:open], tmp...), tmp, true
}

func (c *jsonCanon) array() bool {
	c.pos++
	c.out = append(c.out, '[')
	c.skipSpace()
	n := 0
	for c.pos < len(c.src) && c.src[c.pos] != ']' {
		if n > 0 {
			if c.src[c.pos] != ',' {
				return false
			}
			c.pos++
			c.skipSpace()
			c.out = append(c.out, ',')
		}
		if !c.value() {
			return false
		}
		n++
		c.skipSpace()
	}
	if c.pos >= len(c.src) {
		return false
	}
	c.pos++
	c.out = append(c.out, ']')
	return true
}

// str copies a string that encoding/json would write the same way, else decodes and re-encodes it.
func (c *jsonCanon) str() bool {
	end := SkipValue(c.src, c.pos)
	if end < 0 {
		return false
	}
	raw := c.src[c.pos:end]
	c.pos = end
	body := raw[1 : len(raw)-1]
	plain := bytes.IndexByte(body, '\\') < 0
	if plain {
		for i := 0; i < len(body); {
			if body[i] < utf8.RuneSelf {
				i++
				continue
			}
			r, n := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError || r == '\u2028' || r == '\u2029' {
				plain = false
				break
			}
			i += n
		}
	}
	if plain {
		c.out = append(c.out, raw...)
		return true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return false
	}
	c.out = manifest.AppendJSONString(c.out, s, false)
	return true
}

// number copies short integers (exact as float64) and prints every other number as float64.
func (c *jsonCanon) number() bool {
	start := c.pos
	for c.pos < len(c.src) {
		ch := c.src[c.pos]
		if (ch >= '0' && ch <= '9') || ch == '-' || ch == '+' || ch == '.' || ch == 'e' || ch == 'E' {
			c.pos++
			continue
		}
		break
	}
	num := c.src[start:c.pos]
	if !jsonNumber(num) {
		return false // ParseFloat takes more than JSON does ("0100", "+1", ".5")
	}
	digits := num
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	simple := len(digits) > 0 && len(digits) <= 15 && (digits[0] != '0' || len(digits) == 1)
	for _, ch := range digits {
		simple = simple && ch >= '0' && ch <= '9'
	}
	if simple {
		c.out = append(c.out, num...)
		return true
	}
	f, err := strconv.ParseFloat(string(num), 64)
	if err != nil {
		return false
	}
	var ok bool
	c.out, ok = appendFloat(c.out, f)
	return ok
}

// jsonNumber reports whether num follows JSON's number grammar:
// -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
func jsonNumber(num []byte) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(num) && num[i] >= '0' && num[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(num) && num[i] == '-' {
		i++
	}
	if i < len(num) && num[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(num) && num[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(num) && (num[i] == 'e' || num[i] == 'E') {
		i++
		if i < len(num) && (num[i] == '+' || num[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(num)
}

func asciiOnly(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// skipString returns the index just past the JSON string starting at b[i] ('"'), or -1.
func skipString(b []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		n := 0 // backslashes right before the quote
		for n < j-i-1 && b[j-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return j + 1
		}
		j++
	}
}

// SkipValue returns the index just past the JSON value starting at i, or -1.
func SkipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end := skipString(b, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' {
		j++
	}
	return j
}
