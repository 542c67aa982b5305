package finding

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/opack/opack/internal/escape"
)

// Report is the result of a validation run: the findings of every validator, in the order they were found.
type Report struct {
	Findings []Finding
}

// Add appends findings to the report.
func (r *Report) Add(fs ...Finding) { r.Findings = append(r.Findings, fs...) }

// Count returns how many findings have severity s.
func (r *Report) Count(s Severity) int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == s {
			n++
		}
	}
	return n
}

// Passed reports whether the report holds no error finding (warnings pass).
func (r *Report) Passed() bool { return r.Count(SeverityError) == 0 }

// Exit codes of a validation run, shared by every `opack validate` command.
const (
	exitPassed   = 0 // no error finding (warnings allowed)
	exitFindings = 1 // at least one error finding
)

// ExitCode returns exitFindings (1) when the report holds an error finding, else exitPassed (0).
func (r *Report) ExitCode() int {
	if r.Passed() {
		return exitPassed
	}
	return exitFindings
}

// Summary returns a one-line count of the findings, e.g. "2 errors, 1 warning".
func (r *Report) Summary() string {
	return plural(r.Count(SeverityError), "error") + ", " + plural(r.Count(SeverityWarning), "warning")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// Output formats understood by Write.
const (
	FormatText   = "text"
	FormatJSON   = "json"
	FormatGitHub = "github"
)

// Formats lists the output formats, for flag help and checks.
var Formats = []string{FormatText, FormatJSON, FormatGitHub}

// formatJSONAlpha1 is operator-sdk's name for the json format, accepted as an alias.
const formatJSONAlpha1 = "json-alpha1"

// CheckFormat returns nil when format is one of supported (json also accepts operator-sdk's "json-alpha1"),
// else the error every opack command gives for a bad -o value:
// `unknown output format "x": use one of text, json, github`.
func CheckFormat(format string, supported ...string) error {
	for _, s := range supported {
		if format == s || (s == FormatJSON && format == formatJSONAlpha1) {
			return nil
		}
	}
	return fmt.Errorf("unknown output format %q: use one of %s", format, strings.Join(supported, ", "))
}

// Write writes the report in format (text, json or github; "json-alpha1" is accepted as json).
func (r *Report) Write(w io.Writer, format string) error {
	switch format {
	case FormatText, "":
		return r.WriteText(w)
	case FormatJSON, formatJSONAlpha1:
		return r.WriteJSON(w)
	case FormatGitHub:
		return r.WriteGitHub(w)
	}
	return CheckFormat(format, Formats...)
}

// WriteText writes one line per finding: "severity: file: object: message". Control characters
// in the file, object, message or fix (newlines, a bare \r) are written as escapes
// (escape.Text) so that every finding stays on one line.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, f := range r.Findings {
		b.WriteString(escape.Text(f.String()))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// jsonReport is operator-sdk's json-alpha1 shape ({"passed", "outputs": [{"type", "message"}]}), each
// output extended with the fields of the findings JSON contract (docs/findings.schema.json).
type jsonReport struct {
	Passed  bool      `json:"passed"`
	Outputs []Finding `json:"outputs"`
}

// jsonFinding is a finding in JSON: operator-sdk's type and message, then the contract's fields.
// severity, rule and file are always present (file "" when the finding is about no one file).
type jsonFinding struct {
	Type      Severity `json:"type"`
	Message   string   `json:"message"`
	File      string   `json:"file"`
	Line      int      `json:"line,omitempty"`
	Object    string   `json:"object,omitempty"`
	Rule      string   `json:"rule"`
	CRD       string   `json:"crd,omitempty"`
	Version   string   `json:"version,omitempty"`
	Path      string   `json:"path,omitempty"`
	Old       string   `json:"old,omitempty"`
	New       string   `json:"new,omitempty"`
	Fix       string   `json:"fix,omitempty"`
	Actor     string   `json:"actor,omitempty"`
	Paths     []string `json:"paths,omitempty"`
	Severity  Severity `json:"severity"`
	Package   string   `json:"package,omitempty"`
	Edges     []Edge   `json:"edges,omitempty"`
	Actors    []string `json:"actors,omitempty"`
	Published bool     `json:"published,omitempty"`
	Semantic  Severity `json:"semantic,omitempty"`
}

// MarshalJSON writes the finding as every command's -o json does (docs/findings.schema.json):
// operator-sdk's type and message, severity, rule and file always, the rest when set; a
// finding's package is read from its object ("package \"p\" ...") when not set.
func (f Finding) MarshalJSON() ([]byte, error) {
	pkg := f.Package
	if pkg == "" {
		pkg = PackageOf(f.Object)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the caller's encoder escapes, or not, as it was told
	err := enc.Encode(jsonFinding{Type: f.Severity, Message: f.Message, Severity: f.Severity, Rule: f.Rule, File: f.File, Line: f.Line,
		Object: f.Object, Package: pkg, Edges: f.Edges, CRD: f.CRD, Version: f.Version, Path: f.Path, Paths: f.Paths,
		Old: f.Old, New: f.New, Fix: f.Fix, Actor: f.Actor, Actors: f.ActorList(), Published: f.Published, Semantic: f.Semantic})
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
}

// WriteJSON writes the report as operator-sdk's json-alpha1 document ({"passed", "outputs": [{"type",
// "message"}]}, indented with four spaces), each output with the fields of the findings JSON contract
// (Finding.MarshalJSON): severity, rule, file, and when set line, object, package, edges, crd, version,
// path, paths, old, new, fix, actor, actors and published.
func (r *Report) WriteJSON(w io.Writer) error {
	out := jsonReport{Passed: r.Passed(), Outputs: r.Findings}
	data, err := json.MarshalIndent(out, "", "    ")
	if err != nil {
		return fmt.Errorf("encoding report: %w", err)
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// WriteGitHub writes one GitHub Actions workflow command per finding (::error, ::warning or ::notice), so that
// findings show as annotations on the pull request. Properties and messages are escaped as the Actions
// toolkit escapes them (escape.GitHubProperty, escape.GitHubData), and the commands go to w's
// escape.Commands: on a guarded stream, only these lines may start a workflow command.
func (r *Report) WriteGitHub(w io.Writer) error {
	var b strings.Builder
	for _, f := range r.Findings {
		level := "notice"
		switch f.Severity {
		case SeverityError:
			level = "error"
		case SeverityWarning:
			level = "warning"
		}
		var props []string
		if f.File != "" {
			props = append(props, "file="+escape.GitHubProperty(f.File))
			if f.Line > 0 {
				props = append(props, fmt.Sprintf("line=%d", f.Line))
			}
		}
		title := f.Rule
		if f.Object != "" {
			title = strings.TrimSpace(f.Object + " " + title)
		}
		if title != "" {
			props = append(props, "title="+escape.GitHubProperty(title))
		}
		b.WriteString("::" + level)
		if len(props) > 0 {
			b.WriteString(" " + strings.Join(props, ","))
		}
		msg := f.Message
		if f.Fix != "" && !strings.Contains(msg, "fix: ") {
			msg += "; fix: " + f.Fix
		}
		b.WriteString("::" + escape.GitHubData(msg) + "\n")
	}
	return escape.Commands(w)(b.String())
}
