// Package safetemplate executes Go text/templates that come from the repository under review
// (deploy templates, image and file-name templates of opack.yaml) within a budget, so that a
// template cannot stall or exhaust the machine running the gate:
//
//   - steps: every iteration of a range and every call of a template counts one step; an
//     execution past MaxSteps stops with an error (a range over 10¹² with an empty body
//     included: the count is woven into the parsed tree, so it runs whatever the body does);
//   - output: an execution that writes more than MaxOutput bytes stops with an error;
//   - no recursion: a template that calls itself, directly or through others, is refused when
//     parsed (a chain of calls is bounded by the steps);
//   - builtins that allocate from their arguments are bounded: printf refuses a width or
//     precision over maxWidth, and the source is at most MaxSource bytes.
package safetemplate

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"text/template"
	"text/template/parse"
)

// Budgets of one template: its source, and each execution.
const (
	MaxSource = 1 << 20
	MaxSteps  = 100_000
	MaxOutput = 4 << 20
	maxWidth  = 1000
)

// stepFunc is the function the count of steps calls; its name cannot clash with a template's
// own identifiers (they cannot start with an underscore and a digit).
const stepFunc = "opackStep_"

// Template is a parsed template of the repository.
type Template struct {
	t *template.Template
}

// BudgetError says which budget an execution or a template exceeded.
type BudgetError struct {
	Name string
	What string
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("template %s: %s; opack bounds what a template of the repository may cost", e.Name, e.What)
}

// Parse parses text as the template name with funcs (and missingkey=error), after checking its
// size, and refuses recursion.
func Parse(name, text string, funcs template.FuncMap) (*Template, error) {
	if len(text) > MaxSource {
		return nil, &BudgetError{Name: name, What: fmt.Sprintf("the template is larger than %d bytes", MaxSource)}
	}
	all := template.FuncMap{stepFunc: func() string { return "" }, "printf": printf}
	for k, v := range funcs {
		all[k] = v
	}
	t, err := template.New(name).Option("missingkey=error").Funcs(all).Parse(text)
	if err != nil {
		return nil, err
	}
	step, err := template.New("").Funcs(all).Parse("{{" + stepFunc + "}}")
	if err != nil {
		return nil, err
	}
	count := step.Tree.Root.Nodes[0]
	calls := map[string][]string{}
	for _, tt := range t.Templates() {
		if tt.Tree == nil || tt.Tree.Root == nil {
			continue
		}
		instrument(tt.Tree.Root, count, tt.Name(), calls)
		tt.Tree.Root.Nodes = append([]parse.Node{count}, tt.Tree.Root.Nodes...)
	}
	if cycle := findCycle(calls); cycle != "" {
		return nil, &BudgetError{Name: name, What: "templates that call themselves (" + cycle + ") are not supported"}
	}
	return &Template{t: t}, nil
}

// instrument puts a step at the start of every range body below n and records the templates
// the template name calls.
func instrument(n parse.Node, count parse.Node, name string, calls map[string][]string) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, c := range n.Nodes {
			instrument(c, count, name, calls)
		}
	case *parse.RangeNode:
		instrument(n.List, count, name, calls)
		instrument(n.ElseList, count, name, calls)
		n.List.Nodes = append([]parse.Node{count}, n.List.Nodes...)
	case *parse.IfNode:
		instrument(n.List, count, name, calls)
		instrument(n.ElseList, count, name, calls)
	case *parse.WithNode:
		instrument(n.List, count, name, calls)
		instrument(n.ElseList, count, name, calls)
	case *parse.TemplateNode:
		calls[name] = append(calls[name], n.Name)
	}
}

// findCycle returns a cycle of template calls ("a → b → a"), or "".
func findCycle(calls map[string][]string) string {
	const (
		unseen = iota
		open
		done
	)
	state := map[string]int{}
	var path []string
	var visit func(string) string
	visit = func(n string) string {
		switch state[n] {
		case open:
			cycle := n
			for i := len(path) - 1; i >= 0 && path[i] != n; i-- {
				cycle = path[i] + " → " + cycle
			}
			return n + " → " + cycle
		case done:
			return ""
		}
		state[n] = open
		path = append(path, n)
		for _, c := range calls[n] {
			if s := visit(c); s != "" {
				return s
			}
		}
		path = path[:len(path)-1]
		state[n] = done
		return ""
	}
	for n := range calls {
		if s := visit(n); s != "" {
			return s
		}
	}
	return ""
}

// Execute runs the template on data into w, within MaxSteps steps and MaxOutput bytes.
func (t *Template) Execute(w io.Writer, data any) error {
	c, err := t.t.Clone()
	if err != nil {
		return err
	}
	steps := 0
	c.Funcs(template.FuncMap{stepFunc: func() (string, error) {
		if steps++; steps > MaxSteps {
			return "", &BudgetError{Name: t.t.Name(), What: fmt.Sprintf("it ran more than %d steps (loop iterations and template calls)", MaxSteps)}
		}
		return "", nil
	}})
	lw := &limitWriter{w: w, left: MaxOutput}
	err = c.Execute(lw, data)
	var be *BudgetError
	switch {
	case lw.over:
		return &BudgetError{Name: t.t.Name(), What: fmt.Sprintf("it wrote more than %d bytes", MaxOutput)}
	case errors.As(err, &be):
		return be
	}
	return err
}

// limitWriter fails a write past its budget.
type limitWriter struct {
	w    io.Writer
	left int64
	over bool
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if int64(len(p)) > l.left {
		l.over = true
		return 0, errors.New("output budget exceeded")
	}
	l.left -= int64(len(p))
	return l.w.Write(p)
}

// printf is text/template's printf with widths and precisions of at most maxWidth and none
// taken from an argument (*), so that a verb cannot allocate more than its arguments hold.
func printf(format string, args ...any) (string, error) {
	if err := checkWidths(format); err != nil {
		return "", fmt.Errorf("printf: %w", err)
	}
	return fmt.Sprintf(format, args...), nil
}

// checkWidths scans the verbs of a fmt format: %, flags, then argument indexes ([n]), widths
// and precisions up to the verb letter.
func checkWidths(format string) error {
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		if i < len(format) && format[i] == '%' {
			continue
		}
	spec:
		for ; i < len(format); i++ {
			c := format[i]
			switch {
			case c == '*':
				return errors.New("widths and precisions taken from arguments (*) are not supported")
			case c >= '0' && c <= '9':
				j := i
				for j < len(format) && format[j] >= '0' && format[j] <= '9' {
					j++
				}
				if n, err := strconv.Atoi(format[i:j]); err != nil || n > maxWidth {
					return fmt.Errorf("a width or precision over %d", maxWidth)
				}
				i = j - 1
			case c == '[':
				for i < len(format) && format[i] != ']' {
					i++
				}
			case c == '-' || c == '+' || c == '#' || c == ' ' || c == '.':
			default:
				break spec // the verb letter ends the spec
			}
		}
	}
	return nil
}
