package manifest

import (
	"strings"
	"unicode/utf8"
)

// The character classes and line shapes fastYAML reads.

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
