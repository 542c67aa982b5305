package finding

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
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

// WriteText writes one line per finding: "severity: file: object: message". Newlines inside a message are
// written as \n so that every finding stays on one line.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, f := range r.Findings {
		f.Message = strings.ReplaceAll(f.Message, "\n", `\n`)
		b.WriteString(f.String())
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// jsonReport is operator-sdk's json-alpha1 shape, extended with file, object and rule.
type jsonReport struct {
	Passed  bool         `json:"passed"`
	Outputs []jsonOutput `json:"outputs"`
}

type jsonOutput struct {
	Type    Severity `json:"type"`
	Message string   `json:"message"`
	File    string   `json:"file,omitempty"`
	Line    int      `json:"line,omitempty"`
	Object  string   `json:"object,omitempty"`
	Rule    string   `json:"rule,omitempty"`
	CRD     string   `json:"crd,omitempty"`
	Version string   `json:"version,omitempty"`
	Path    string   `json:"path,omitempty"`
	Old     string   `json:"old,omitempty"`
	New     string   `json:"new,omitempty"`
	Fix     string   `json:"fix,omitempty"`
	Actor   string   `json:"actor,omitempty"`
	Paths   []string `json:"paths,omitempty"`
}

// WriteJSON writes the report as operator-sdk's json-alpha1 document ({"passed", "outputs": [{"type",
// "message"}]}, indented with four spaces) with file, object and rule added to each output, and, for CRD
// upgrade findings, crd, version, path, old, new, fix, actor and paths (each left out when empty).
func (r *Report) WriteJSON(w io.Writer) error {
	out := jsonReport{Passed: r.Passed()}
	for _, f := range r.Findings {
		out.Outputs = append(out.Outputs, jsonOutput{Type: f.Severity, Message: f.Message, File: f.File, Line: f.Line, Object: f.Object, Rule: f.Rule,
			CRD: f.CRD, Version: f.Version, Path: f.Path, Old: f.Old, New: f.New, Fix: f.Fix, Actor: f.Actor, Paths: f.Paths})
	}
	data, err := json.MarshalIndent(out, "", "    ")
	if err != nil {
		return fmt.Errorf("encoding report: %w", err)
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// WriteGitHub writes one GitHub Actions workflow command per finding (::error, ::warning or ::notice), so that
// findings show as annotations on the pull request.
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
			props = append(props, "file="+escapeProperty(f.File))
			if f.Line > 0 {
				props = append(props, fmt.Sprintf("line=%d", f.Line))
			}
		}
		title := f.Rule
		if f.Object != "" {
			title = strings.TrimSpace(f.Object + " " + title)
		}
		if title != "" {
			props = append(props, "title="+escapeProperty(title))
		}
		b.WriteString("::" + level)
		if len(props) > 0 {
			b.WriteString(" " + strings.Join(props, ","))
		}
		b.WriteString("::" + escapeData(f.Message) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// escapeData escapes a workflow command's message as the GitHub Actions toolkit does.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value as the GitHub Actions toolkit does.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
