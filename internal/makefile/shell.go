package makefile

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Command is one simple command of a recipe as the shell would run it: the line expanded by make
// (marks.go), then parsed by a shell parser (mvdan.cc/sh) and each word taken after quote
// removal. Nothing is run.
type Command struct {
	Args []Word
	// Dir is where a `cd DIR` earlier on the same recipe line moved the shell (Text "" when none).
	Dir Word
	// Stdin is the command piped into this one (`kustomize build X | operator-sdk generate bundle`).
	Stdin *Command
	At    Line
	// Cond says why the command may not run at all (it is under a shell if, case or while).
	Cond string
	// Writes are the files its output redirections (>, >>) write.
	Writes []Word
}

// Word is one word of a command after make expansion, shell expansion and quote removal.
type Word struct {
	// Text is the word; where a part of it is unread, that part reads "…".
	Text string
	// Unread says why make or the shell would give a value opack cannot know ("" when read).
	Unread string
}

// Arg returns the i-th word (the command name is 0), or an empty Word.
func (c Command) Arg(i int) Word {
	if i < len(c.Args) {
		return c.Args[i]
	}
	return Word{}
}

// Texts returns the words' texts.
func (c Command) Texts() []string {
	out := make([]string, len(c.Args))
	for i, a := range c.Args {
		out[i] = a.Text
	}
	return out
}

// Commands returns the simple commands target's recipe runs, in order, with the target's
// target-specific variables and $@ applied. Problems name the recipe lines it could not read
// as the shell would.
func (f *File) Commands(target string) (cmds []Command, problems []string) {
	g := f.forTarget(target)
	defer f.spentFrom(g)
	for _, l := range f.recipes[target] {
		text := strings.TrimLeft(l.Text, "@+- \t")
		text = strings.ReplaceAll(text, "\\\n\t", "\\\n")
		expanded, why := g.expandMarked(text)
		if why != "" {
			problems = append(problems, fmt.Sprintf("%s: %s: not read: %s", l.Pos, firstLine(l.Text), why))
			continue
		}
		file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(expanded), l.Pos.String())
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %s: not read as the shell reads it: %v", l.Pos, firstLine(l.Text), err))
			continue
		}
		sr := &shellReader{f: g, at: l, vars: map[string]Word{}}
		dir := Word{}
		cond := ""
		if l.Uncertain != "" {
			cond = fmt.Sprintf("%s: make may not run it: %s", l.Pos, l.Uncertain)
		}
		sr.stmts(file.Stmts, &dir, cond)
		cmds = append(cmds, sr.cmds...)
	}
	return cmds, problems
}

// CommandsMade returns the commands `make target` runs: those of its prerequisites (each made
// once, depth first, as make does without -j), then its own. Problems are Commands'.
func (f *File) CommandsMade(target string) (cmds []Command, problems []string) {
	made := map[string]bool{}
	var visit func(t string, depth int)
	visit = func(t string, depth int) {
		if made[t] || depth > 16 {
			return
		}
		made[t] = true
		for _, pr := range f.prereqs[t] {
			visit(pr, depth+1)
		}
		c, p := f.Commands(t)
		cmds, problems = append(cmds, c...), append(problems, p...)
	}
	visit(target, 0)
	return cmds, problems
}

// firstLine is the first line of a recipe line, trimmed.
func firstLine(s string) string {
	first, _, more := strings.Cut(strings.TrimSpace(s), "\n")
	if more {
		return strings.TrimSuffix(strings.TrimSpace(first), "\\") + " …"
	}
	return first
}

// shellReader collects the commands of one parsed recipe line.
type shellReader struct {
	f    *File
	at   Line
	cmds []Command
	// vars are the shell variables whose value is known: loop variables over known words.
	vars map[string]Word
}

// stmts reads a list of statements; it returns the last command run (what a pipe reads from).
func (sr *shellReader) stmts(stmts []*syntax.Stmt, dir *Word, cond string) *Command {
	var last *Command
	for _, s := range stmts {
		last = sr.stmt(s, dir, nil, cond)
	}
	return last
}

// stmt reads one statement; it returns the last command it ran (what a pipe reads from).
func (sr *shellReader) stmt(s *syntax.Stmt, dir *Word, stdin *Command, cond string) *Command {
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		cmd := sr.call(c, dir, stdin, cond)
		if cmd != nil {
			for _, rd := range s.Redirs {
				if rd.Word != nil && (rd.Op == syntax.RdrOut || rd.Op == syntax.AppOut || rd.Op == syntax.RdrAll || rd.Op == syntax.AppAll || rd.Op == syntax.RdrClob) {
					cmd.Writes = append(cmd.Writes, sr.words(rd.Word)...)
				}
			}
		}
		return cmd
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			ld, rd := *dir, *dir // each side of a pipe runs in a subshell
			left := sr.stmt(c.X, &ld, stdin, cond)
			return sr.stmt(c.Y, &rd, left, cond)
		}
		sr.stmt(c.X, dir, stdin, cond)
		if c.Op == syntax.OrStmt && cond == "" {
			return sr.stmt(c.Y, dir, nil, fmt.Sprintf("%s: it runs only when the command before || fails", sr.at.Pos))
		}
		return sr.stmt(c.Y, dir, nil, cond)
	case *syntax.Subshell:
		d := *dir
		return sr.stmts(c.Stmts, &d, cond)
	case *syntax.Block:
		return sr.stmts(c.Stmts, dir, cond)
	case *syntax.ForClause:
		sr.loop(c, dir, cond)
	case *syntax.IfClause:
		inner := first(cond, fmt.Sprintf("%s: it is under a shell if", sr.at.Pos))
		for ic := c; ic != nil; ic = ic.Else {
			sr.stmts(ic.Cond, dir, inner)
			sr.stmts(ic.Then, dir, inner)
		}
	case *syntax.WhileClause:
		inner := first(cond, fmt.Sprintf("%s: it is under a shell while", sr.at.Pos))
		sr.stmts(c.Cond, dir, inner)
		sr.stmts(c.Do, dir, inner)
	case *syntax.CaseClause:
		inner := first(cond, fmt.Sprintf("%s: it is under a shell case", sr.at.Pos))
		for _, it := range c.Items {
			sr.stmts(it.Stmts, dir, inner)
		}
	}
	return nil
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func (sr *shellReader) call(c *syntax.CallExpr, dir *Word, stdin *Command, cond string) *Command {
	if len(c.Args) == 0 {
		return nil // only assignments
	}
	cmd := Command{Dir: *dir, Stdin: stdin, At: sr.at, Cond: cond}
	for _, w := range c.Args {
		cmd.Args = append(cmd.Args, sr.words(w)...)
	}
	if len(cmd.Args) == 0 {
		return nil
	}
	if len(cmd.Args) > 2 && cmd.Args[0].Text == "go" && cmd.Args[1].Text == "tool" && cmd.Args[0].Unread == "" && cmd.Args[1].Unread == "" {
		cmd.Args = cmd.Args[2:] // go tool kustomize: the tool, as go.mod's tool directive pins it
	}
	if cmd.Args[0].Text == "cd" && cmd.Args[0].Unread == "" {
		switch {
		case len(cmd.Args) < 2:
			*dir = Word{Unread: "cd without a folder goes to $HOME"}
		case dir.Text == "" || dir.Unread != "" || strings.HasPrefix(cmd.Args[1].Text, "/"):
			*dir = cmd.Args[1]
		default:
			*dir = Word{Text: dir.Text + "/" + cmd.Args[1].Text, Unread: cmd.Args[1].Unread}
		}
		return nil
	}
	sr.cmds = append(sr.cmds, cmd)
	return &sr.cmds[len(sr.cmds)-1]
}

// loop reads a for loop: over known words, its body once per word with the loop variable set;
// otherwise once, the loop variable unread.
func (sr *shellReader) loop(c *syntax.ForClause, dir *Word, cond string) {
	it, ok := c.Loop.(*syntax.WordIter)
	if !ok {
		sr.stmts(c.Do, dir, first(cond, fmt.Sprintf("%s: it is under a shell loop", sr.at.Pos)))
		return
	}
	var items []Word
	why := ""
	for _, w := range it.Items {
		for _, wd := range sr.words(w) {
			if wd.Unread != "" && why == "" {
				why = wd.Unread
			}
			items = append(items, wd)
		}
	}
	name := it.Name.Value
	saved, had := sr.vars[name]
	defer func() {
		if had {
			sr.vars[name] = saved
		} else {
			delete(sr.vars, name)
		}
	}()
	if why != "" {
		sr.vars[name] = Word{Unread: fmt.Sprintf("$%s, the variable of the loop over %s", name, why)}
		sr.stmts(c.Do, dir, cond)
		return
	}
	for _, item := range items {
		sr.vars[name] = item
		sr.stmts(c.Do, dir, cond)
	}
}

// words expands one shell word into the fields the shell would pass (quote removal, the loop
// variables split as the shell splits them); a parameter, command substitution, arithmetic or
// glob is unread, as one word.
func (sr *shellReader) words(w *syntax.Word) []Word {
	why := sr.unreadParts(w.Parts, false)
	env := map[string]string{}
	for k, v := range sr.vars {
		env[k] = v.Text
		if v.Unread != "" && why == "" && usesVar(w, k) {
			why = v.Unread
		}
	}
	if why != "" {
		text, _ := sr.f.unmark(printWord(w), func(string) string { return "…" })
		return []Word{{Text: text, Unread: why}}
	}
	pairs := make([]string, 0, len(env))
	for k, v := range env {
		pairs = append(pairs, k+"="+v)
	}
	fields, err := expand.Fields(&expand.Config{Env: expand.ListEnviron(pairs...)}, w)
	if err != nil {
		return []Word{{Text: printWord(w), Unread: "the shell cannot expand it: " + err.Error()}}
	}
	out := make([]Word, 0, len(fields))
	for _, f := range fields {
		text, why := sr.f.unmark(f, func(string) string { return "…" })
		out = append(out, Word{Text: text, Unread: why})
	}
	return out
}

// unreadParts says why the parts of a word are not known without running the shell.
func (sr *shellReader) unreadParts(parts []syntax.WordPart, quoted bool) string {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if !quoted && isGlob(unescaped(p.Value)) {
				return fmt.Sprintf("%q is a pattern the shell matches against the files present", p.Value)
			}
			if !quoted && strings.HasPrefix(p.Value, "~") {
				return "~ is the home folder of whoever runs make"
			}
		case *syntax.SglQuoted:
		case *syntax.DblQuoted:
			if why := sr.unreadParts(p.Parts, true); why != "" {
				return why
			}
		case *syntax.ParamExp:
			if p.Param == nil {
				return "a shell expansion opack does not read"
			}
			if _, ok := sr.vars[p.Param.Value]; ok && p.Exp == nil && p.Repl == nil && p.Slice == nil && p.Index == nil && !p.Length && !p.Excl {
				continue
			}
			return fmt.Sprintf("$%s, a variable of the shell that runs the recipe", p.Param.Value)
		case *syntax.CmdSubst:
			return "a command substitution, whose output opack does not run"
		case *syntax.ArithmExp:
			return "shell arithmetic"
		default:
			return "a shell expansion opack does not read"
		}
	}
	return ""
}

// isGlob reports whether an unquoted literal is a pattern the shell expands (*, ?, [...]).
func isGlob(s string) bool {
	if strings.ContainsAny(s, "*?") {
		return true
	}
	i := strings.IndexByte(s, '[')
	return i >= 0 && strings.IndexByte(s[i+1:], ']') > 0
}

// unescaped drops backslash-escaped characters from an unquoted literal.
func unescaped(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func usesVar(w *syntax.Word, name string) bool {
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		if pe, ok := n.(*syntax.ParamExp); ok && pe.Param != nil && pe.Param.Value == name {
			found = true
		}
		return !found
	})
	return found
}

func printWord(w *syntax.Word) string {
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, w); err != nil {
		return ""
	}
	return b.String()
}
