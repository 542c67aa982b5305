package finding

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Severity says how bad a finding is.
type Severity string

// Severities, from worst to mildest.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
	SeverityInfo    Severity = "info"
)

func (s Severity) rank() int {
	switch s {
	case SeverityError:
		return 0
	case SeverityWarning:
		return 1
	default:
		return 2
	}
}

// Finding is one problem found by a validator.
type Finding struct {
	Severity Severity `json:"type"`
	// File is the file the finding is about (or the argument, when no single file is), as the user named it.
	File string `json:"file,omitempty"`
	// Line is the line of File the finding points at (1-based; 0 when unknown).
	Line int `json:"line,omitempty"`
	// Object names the object: "Kind name" (e.g. "ClusterServiceVersion memcached-operator.v0.0.1").
	Object string `json:"object,omitempty"`
	// Rule identifies the check that fired, e.g. "operator-sdk/format", "apiserver/crd", "best-practices/resources".
	Rule string `json:"rule,omitempty"`
	// Message says what is wrong and, where possible, what to do; for operator-sdk's checks it is operator-sdk's text.
	Message string `json:"message"`
	// CRD upgrade findings (`opack validate crds`) also carry their parts, so that -o json consumers need not
	// parse Message: the CRD's name, the version ("v1", or "v1 -> v2" for a served-version pair), the schema
	// path ("^.spec.replicas") or CRD field, the values before and after the change, the fix, and who
	// refuses the upgrade (apiserver, olm-v0, olm-v1) or breaks when nothing refuses it (clients).
	CRD     string `json:"crd,omitempty"`
	Version string `json:"version,omitempty"`
	Path    string `json:"path,omitempty"`
	Old     string `json:"old,omitempty"`
	New     string `json:"new,omitempty"`
	Fix     string `json:"fix,omitempty"`
	Actor   string `json:"actor,omitempty"`
	// Paths are the schema paths of a CRD upgrade finding of a catalog: the one path of the change, or
	// every copy of a struct a change was made to (echoes folded into one finding).
	Paths []string `json:"paths,omitempty"`
	// Package is the catalog package a catalog finding is about; Edges are the upgrade edges that make
	// the change (one, or every edge of the package making the same change).
	Package string `json:"package,omitempty"`
	Edges   []Edge `json:"edges,omitempty"`
	// Actors are who refuse the change or break (apiserver, olm-v0, olm-v1, clients); when empty, Actor
	// alone (if set).
	Actors []string `json:"actors,omitempty"`
	// Semantic is the severity of what a CRD upgrade finding's change does to existing objects and
	// clients; Severity is the higher of it and its refusers' (an installer refusing the change makes
	// it at least a warning, and an error when the project deploys with that installer or the refuser
	// is the API server). Empty on other findings.
	Semantic Severity `json:"semantic,omitempty"`
	// Published marks a finding on upgrade edges between releases already published in the catalog:
	// no build can change them (the message starts with PublishedPrefix).
	Published bool `json:"published,omitempty"`
}

// Edge is an upgrade edge of a package: From and To are bundle names.
type Edge struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// PublishedPrefix starts the message of every finding on an edge already published (Published).
const PublishedPrefix = "already published (this build cannot change it): "

// MarkPublished marks f as a finding on published edges: the message starts with PublishedPrefix
// (once) and an error becomes a warning (no build can fix it); warnings and info keep their severity.
func (f *Finding) MarkPublished() {
	f.Published = true
	if !strings.HasPrefix(f.Message, PublishedPrefix) {
		f.Message = PublishedPrefix + f.Message
	}
	if f.Severity == SeverityError {
		f.Severity = SeverityWarning
	}
}

// ActorList returns Actors, or Actor alone when Actors is empty.
func (f Finding) ActorList() []string {
	if len(f.Actors) == 0 && f.Actor != "" {
		return []string{f.Actor}
	}
	return f.Actors
}

// PackageOf returns the package an Object names ("package \"p\"", "package \"p\" channel ...", or
// unquoted "package p in range ..."), or "".
func PackageOf(object string) string {
	rest, ok := strings.CutPrefix(object, "package ")
	if !ok {
		return ""
	}
	if p, err := strconv.QuotedPrefix(rest); err == nil {
		if u, err := strconv.Unquote(p); err == nil {
			return u
		}
		return ""
	}
	name, _, _ := strings.Cut(rest, " ")
	return name
}

// String formats the finding as one line: "severity: file: object: message" without the empty parts.
func (f Finding) String() string {
	parts := []string{string(f.Severity)}
	if f.File != "" {
		parts = append(parts, f.File)
	}
	if f.Object != "" {
		parts = append(parts, f.Object)
	}
	msg := f.Message
	if f.Fix != "" && !strings.Contains(msg, "fix: ") {
		msg += "; fix: " + f.Fix // the text says what to do, as the JSON's fix field does
	}
	return strings.Join(parts, ": ") + ": " + msg
}

// Errorf returns an error finding.
func Errorf(file, object, rule, format string, args ...any) Finding {
	return Finding{Severity: SeverityError, File: file, Object: object, Rule: rule, Message: fmt.Sprintf(format, args...)}
}

// Warnf returns a warning finding.
func Warnf(file, object, rule, format string, args ...any) Finding {
	return Finding{Severity: SeverityWarning, File: file, Object: object, Rule: rule, Message: fmt.Sprintf(format, args...)}
}

// ObjectName formats a kind and a name as the Object of a finding.
func ObjectName(kind, name string) string {
	switch {
	case kind == "":
		return name
	case name == "":
		return kind
	}
	return kind + " " + name
}

// SortFindings orders findings by file, object, severity, rule and message. Use it where the order in which
// validators ran carries no meaning; operator-sdk's own order is kept otherwise.
func SortFindings(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Object, b.Object), cmp.Compare(a.Severity.rank(), b.Severity.rank()),
			cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Message, b.Message))
	})
}
