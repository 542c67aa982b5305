package escape

import (
	"bytes"
	"io"
	"strings"
	"sync"
)

// Guard is a process's stdout or stderr. Whatever writes to it (opack's writers, a library's
// message, an error quoting input), every line that reaches the stream has its control
// characters escaped as Text does, \n and \t kept, and starts no GitHub Actions workflow command
// and holds no legacy one: a line that would (after the whitespace the runner trims) begins with
// "\x3a:" instead of "::", and "##[" is written "#\u0023[" (valid in a JSON string too: JSON
// output stays a valid document, the same data). Only WriteCommand writes a command,
// and Raw opack's own control bytes (a progress line redrawn with \r). Lines are written whole;
// Flush writes an unfinished last line.
type Guard struct {
	mu      sync.Mutex
	w       io.Writer
	pending []byte // the start of a line not yet ended
}

// NewGuard guards w.
func NewGuard(w io.Writer) *Guard { return &Guard{w: w} }

// Write implements io.Writer: complete lines are escaped and written, the rest kept until its
// line ends (or Flush, Raw, WriteCommand).
func (g *Guard) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.pending = append(g.pending, p...)
	i := bytes.LastIndexByte(g.pending, '\n')
	if i < 0 {
		return len(p), nil
	}
	out := guardLines(string(g.pending[:i+1]))
	g.pending = append(g.pending[:0], g.pending[i+1:]...)
	if _, err := io.WriteString(g.w, out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what Write holds of an unfinished line.
func (g *Guard) Flush() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.flush()
}

func (g *Guard) flush() error {
	if len(g.pending) == 0 {
		return nil
	}
	out := guardLines(string(g.pending))
	g.pending = g.pending[:0]
	_, err := io.WriteString(g.w, out)
	return err
}

// WriteCommand writes lines of opack's own workflow commands (::error ...), as they are.
func (g *Guard) WriteCommand(lines string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := g.flush(); err != nil {
		return err
	}
	_, err := io.WriteString(g.w, lines)
	return err
}

// Unwrap returns the guarded writer (to ask whether it is a terminal).
func (g *Guard) Unwrap() io.Writer { return g.w }

// Raw writes opack's own bytes as they are (a progress line redrawn with \r on a terminal).
func (g *Guard) Raw(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := g.flush(); err != nil {
		return 0, err
	}
	return g.w.Write(p)
}

// guardLines escapes text of whole lines (the last one may be unfinished).
func guardLines(text string) string {
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		body, nl := strings.CutSuffix(l, "\n")
		body = breakLegacy(escapeControls(body, true))
		if trimmed := strings.TrimLeftFunc(body, isSpaceRune); strings.HasPrefix(trimmed, "::") {
			lead := len(body) - len(trimmed)
			body = body[:lead] + `\x3a` + trimmed[1:]
		}
		if nl {
			body += "\n"
		}
		lines[i] = body
	}
	return strings.Join(lines, "")
}

// Commands is where a writer of workflow commands sends them: w's WriteCommand when w is a
// Guard (or wraps one), else w itself (a buffer in a test).
func Commands(w io.Writer) func(lines string) error {
	if c, ok := w.(interface{ WriteCommand(string) error }); ok {
		return c.WriteCommand
	}
	return func(lines string) error {
		_, err := io.WriteString(w, lines)
		return err
	}
}

// RawWriter is where opack's own control bytes go: w's Raw when w is a Guard, else w.
func RawWriter(w io.Writer) io.Writer {
	if g, ok := w.(*Guard); ok {
		return rawWriter{g}
	}
	return w
}

type rawWriter struct{ g *Guard }

func (r rawWriter) Write(p []byte) (int, error) { return r.g.Raw(p) }

// LineWriter returns a writer for log messages that each Write as one line ("warning: ...\n"):
// everything but the final newline is escaped as Text, so a message quoting input stays one line.
func LineWriter(w io.Writer) io.Writer { return lineWriter{w} }

type lineWriter struct{ w io.Writer }

func (l lineWriter) Write(p []byte) (int, error) {
	s := string(p)
	body, nl := strings.CutSuffix(s, "\n")
	out := Text(body)
	if nl {
		out += "\n"
	}
	if _, err := io.WriteString(l.w, out); err != nil {
		return 0, err
	}
	return len(p), nil
}
