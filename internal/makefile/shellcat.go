package makefile

import (
	"bytes"
	"errors"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/opack/opack/internal/rootfs"
)

// maxShellCat is the largest file $(shell cat FILE) is read from: a version or a name, not data.
const maxShellCat = 4 << 10

// catWord is a file name the shell passes to cat as it is written: no quoting, expansion,
// globbing or redirection can change it.
var catWord = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._/-]*$`)

// shellCat evaluates $(shell cat FILE), the one shell command a Makefile commonly runs to read a
// value (VERSION ?= $(shell cat VERSION)), as make would: FILE, a plain relative name below the
// Makefile's folder, is read (confined, bounded), a missing file gives "" (cat only complains on
// stderr), and its output is folded as make folds a shell function's: a CR before a newline
// dropped, trailing newlines removed, the others made spaces. ok is false for anything else,
// which stays a command opack does not run.
func (f *File) shellCat(raw string, depth int) (string, bool) {
	cmd, why := f.expand(raw, depth+1)
	if why != "" {
		return "", false
	}
	words := strings.Fields(cmd)
	if len(words) != 2 || words[0] != "cat" || !catWord.MatchString(words[1]) {
		return "", false
	}
	name := path.Clean(words[1])
	if name == ".." || strings.HasPrefix(name, "../") {
		return "", false
	}
	data, err := rootfs.ReadFile(f.root, name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", true
	case err != nil, len(data) > maxShellCat, bytes.IndexByte(data, 0) >= 0:
		return "", false
	}
	out := strings.ReplaceAll(string(data), "\r\n", "\n")
	out = strings.TrimRight(out, "\n")
	return strings.ReplaceAll(out, "\n", " "), true
}
