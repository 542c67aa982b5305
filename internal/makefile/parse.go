// Package makefile reads the variables and recipes of a Makefile the way GNU make does, without
// running anything: assignments (=, :=, ::=, ?=, +=), $(VAR) and ${VAR} expansion, conditionals
// (ifeq, ifneq, ifdef, ifndef) and includes. What make would only know by running a command
// ($(shell ...), the environment) is kept as unresolved, with the line it came from, rather than
// guessed. No library reads Makefiles this way, so this is a small hand-written reader.
package makefile

import (
	"bufio"
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/opack/opack/internal/rootfs"
)

// Pos is a line of a Makefile.
type Pos struct {
	File string
	Line int
}

func (p Pos) String() string { return fmt.Sprintf("%s:%d", p.File, p.Line) }

// Line is one logical line (continuations joined) and where it starts.
type Line struct {
	Pos
	Text string
	// Uncertain says why make may or may not run a recipe line: a conditional around it could not
	// be evaluated ("" when it runs).
	Uncertain string
}

// variable is one make variable: its raw value (recursive) or expanded value (simple).
type variable struct {
	value      string
	simple     bool
	at         Line // the assignment that set it last
	unresolved string
	// marked is a simple variable's value expanded with marks where it could not be read, so a
	// recipe keeps its words (BUNDLE_CHANNELS := --channels=$(CHANNELS) with CHANNELS unread is
	// still a --channels flag).
	marked string
}

// File is a read Makefile.
type File struct {
	vars      map[string]*variable
	declared  map[string]bool // every variable assigned anywhere, taken branch or not
	overrides map[string]string
	recipes   map[string][]Line
	prereqs   map[string][]string // the prerequisites of each target, in order
	root      string
	includes  int
	spent     int64 // bytes scanned and produced by expansions so far (budget.go)
	// targetVars are the target-specific assignments (`bundle: VERSION = 1.0.0`), by target.
	targetVars map[string][]targetAssign
	// automatic are the automatic variables of the recipe being expanded ($@).
	automatic map[string]string
	// marking makes an unread part of an expansion a mark (marks.go) instead of failing it.
	marking bool
	marks   []string
	// Problems are lines make would read that opack could not (an include it cannot find).
	Problems []string
}

func (f *File) problem(l Line, msg string) {
	f.Problems = append(f.Problems, fmt.Sprintf("%s: %s: %s", l.Pos, strings.TrimSpace(l.Text), msg))
}

// Option configures Read.
type Option func(*File)

// Override sets a variable as `make NAME=value` does: assignments in the Makefile do not change it.
func Override(name, value string) Option {
	return func(f *File) { f.overrides[name] = value }
}

// Read reads the Makefile at path (and the files it includes). A missing file is an error.
func Read(path string, opts ...Option) (*File, error) {
	f := &File{vars: map[string]*variable{}, declared: map[string]bool{}, overrides: map[string]string{}, recipes: map[string][]Line{}, prereqs: map[string][]string{},
		targetVars: map[string][]targetAssign{}, root: filepath.Dir(path)}
	for _, o := range opts {
		o(f)
	}
	if err := f.readFile(path); err != nil {
		return nil, err
	}
	if f.spent > maxSpent {
		return nil, fmt.Errorf("reading %s: its variables expand to more than %d MiB (make would build them; opack stops): simplify the Makefile", path, maxSpent>>20)
	}
	return f, nil
}

const maxIncludes = 64

func (f *File) readFile(path string) error {
	rel, err := rootfs.Rel(f.root, path)
	if err != nil {
		return fmt.Errorf("reading makefile %s: outside the project (the Makefile's folder); opack reads only files inside the project", path)
	}
	data, err := rootfs.ReadFile(f.root, rel) // within --max-file-size
	if err != nil {
		return fmt.Errorf("reading makefile: %w", err)
	}
	lines, err := logicalLines(filepath.ToSlash(rel), data)
	if err != nil {
		return err
	}
	return f.parse(lines)
}

// maxLine bounds one logical line of a Makefile (the file itself is within --max-file-size).
const maxLine = 1 << 20

// logicalLines joins backslash continuations and drops comments outside recipes. A line longer
// than maxLine is an error: stopping there would read the rest of the file as missing.
func logicalLines(name string, data []byte) ([]Line, error) {
	var out []Line
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), maxLine)
	var cur strings.Builder // the logical line being joined
	start, n, open := 0, 0, false
	for sc.Scan() {
		n++
		text := strings.TrimSuffix(sc.Text(), "\r")
		if open {
			cur.WriteString("\n")
		} else {
			cur.Reset()
			start, open = n, true
		}
		cur.WriteString(text)
		if cur.Len() > maxLine {
			return nil, &SyntaxError{Pos: Pos{File: name, Line: start}, Msg: fmt.Sprintf("a logical line longer than %d bytes: not a Makefile opack reads", maxLine)}
		}
		if strings.HasSuffix(text, "\\") && !strings.HasSuffix(text, "\\\\") {
			continue
		}
		out = append(out, Line{Pos: Pos{File: name, Line: start}, Text: cur.String()})
		open = false
	}
	if err := sc.Err(); err != nil {
		return nil, &SyntaxError{Pos: Pos{File: name, Line: n + 1}, Msg: fmt.Sprintf("reading: %v (lines are limited to %d bytes)", err, maxLine)}
	}
	if open {
		out = append(out, Line{Pos: Pos{File: name, Line: start}, Text: cur.String()})
	}
	return out, nil
}

// SyntaxError is a Makefile make would refuse to read (and opack does not guess around): an
// unbalanced conditional, a line too long to read.
type SyntaxError struct {
	Pos
	Text string // the directive, when there is one
	Msg  string
}

func (e *SyntaxError) Error() string {
	if e.Text == "" {
		return e.Pos.String() + ": " + e.Msg
	}
	return e.Pos.String() + ": " + e.Text + ": " + e.Msg
}

// joinContinuations replaces each backslash-newline (and the blanks around it) with one space.
func joinContinuations(s string) string {
	if !strings.Contains(s, "\\\n") {
		return s
	}
	parts := strings.Split(s, "\\\n")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return strings.Join(parts, " ")
}

// stripComment removes a # comment (an escaped \# is kept as #).
func stripComment(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '#' && (i == 0 || s[i-1] != '\\') {
			return strings.ReplaceAll(s[:i], `\#`, "#")
		}
	}
	return strings.ReplaceAll(s, `\#`, "#")
}
