package fbc

import (
	"strings"

	"go.podman.io/image/v5/docker/reference"
)

// parseImageRef checks an image pull spec as opm does (reference.ParseNormalizedNamed). The
// common shapes (lowercase repository, optional tag, optional sha256 digest) are recognized
// by a scanner that accepts only what the grammar accepts; anything else goes to the parser,
// which words the error.
func parseImageRef(s string) error {
	if simpleImageRef(s) {
		return nil
	}
	_, err := reference.ParseNormalizedNamed(s)
	return err
}

func simpleImageRef(s string) bool {
	name := s
	if i := strings.IndexByte(s, '@'); i >= 0 {
		d := s[i+1:]
		if !strings.HasPrefix(d, "sha256:") || len(d) != len("sha256:")+64 || !isLowerHex(d[len("sha256:"):]) {
			return false
		}
		name = s[:i]
	}
	if i := strings.LastIndexByte(name, ':'); i > strings.LastIndexByte(name, '/') {
		if !validTag(name[i+1:]) {
			return false
		}
		name = name[:i]
	}
	if len(name) == 0 || len(name) > 255 {
		return false
	}
	parts := strings.Split(name, "/")
	if len(parts) < 2 || !validDomain(parts[0]) {
		return false // bare names are normalized to docker.io/library: leave them to the parser
	}
	for _, p := range parts[1:] {
		if !validPathComponent(p) {
			return false
		}
	}
	return true
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func validTag(t string) bool {
	if len(t) == 0 || len(t) > 128 || !(isAlnum(t[0]) || t[0] == '_') {
		return false
	}
	for i := 1; i < len(t); i++ {
		if c := t[i]; !(isAlnum(c) || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// validDomain accepts host names with at least one dot and an optional port.
func validDomain(d string) bool {
	if i := strings.IndexByte(d, ':'); i >= 0 {
		port := d[i+1:]
		if port == "" {
			return false
		}
		for j := 0; j < len(port); j++ {
			if port[j] < '0' || port[j] > '9' {
				return false
			}
		}
		d = d[:i]
	}
	if !strings.Contains(d, ".") {
		return false
	}
	for _, label := range strings.Split(d, ".") {
		if label == "" || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for j := 0; j < len(label); j++ {
			if !(isAlnum(label[j]) || label[j] == '-') {
				return false
			}
		}
	}
	return true
}

// validPathComponent accepts [a-z0-9]+ joined by single '.', '_', "__" or runs of '-'.
func validPathComponent(p string) bool {
	if p == "" {
		return false
	}
	sep := 0 // length of the current separator run
	var sepc byte
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			sep = 0
		case c == '.' || c == '_' || c == '-':
			if i == 0 || (sep > 0 && (c != sepc || c == '.' || (c == '_' && sep >= 2))) {
				return false
			}
			sep++
			sepc = c
		default:
			return false
		}
	}
	return sep == 0
}
