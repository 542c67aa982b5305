package makefile

import (
	"fmt"
	"regexp"
	"strconv"
)

// A recipe line is expanded with marks: a reference make would only resolve by running something
// ($(shell ...), the environment) becomes a mark, a token that stands for it and for why, so that
// the rest of the line is still read word by word (`$(OPERATOR_SDK) generate bundle --package x`
// with OPERATOR_SDK unread is still a generate bundle with package x). A mark only ever replaces
// text: a function whose arguments hold an unread part is unread as a whole, never computed on a
// mark.

// markRE matches a mark; its number indexes File.marks.
var markRE = regexp.MustCompile(`OPACKUNREAD([0-9]+)X`)

// markUnread returns v, or a mark for why when marking and why is set (note is not called
// then); otherwise it passes why to note.
func (f *File) markUnread(v, why string, note func(string)) string {
	if why == "" {
		return v
	}
	if !f.marking || why == tooLarge {
		note(why)
		return v
	}
	f.marks = append(f.marks, why)
	return fmt.Sprintf("OPACKUNREAD%dX", len(f.marks)-1)
}

// pauseMarking turns marking off until the returned function is called.
func (f *File) pauseMarking() func() {
	was := f.marking
	f.marking = false
	return func() { f.marking = was }
}

// expandMarked expands s with marks for what cannot be read.
func (f *File) expandMarked(s string) (string, string) {
	was := f.marking
	f.marking = true
	defer func() { f.marking = was }()
	return f.expand(s, 0)
}

// unmark says why text holding marks is not known ("" when it holds none), and gives the text
// with every mark replaced by repl(reason).
func (f *File) unmark(text string, repl func(why string) string) (string, string) {
	why := ""
	out := markRE.ReplaceAllStringFunc(text, func(m string) string {
		n, _ := strconv.Atoi(markRE.FindStringSubmatch(m)[1])
		r := "an unread part"
		if n < len(f.marks) {
			r = f.marks[n]
		}
		if why == "" {
			why = r
		}
		return repl(r)
	})
	return out, why
}
