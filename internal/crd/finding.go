package crd

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Severity says how bad a finding is. The zero value is SeverityOff.
type Severity int

// Severities, from mildest to worst.
const (
	SeverityOff Severity = iota
	SeverityInfo
	SeverityWarning
	SeverityError
)

// String returns the policy spelling: off, info, warn or error.
func (s Severity) String() string {
	switch s {
	case SeverityInfo:
		return "info"
	case SeverityWarning:
		return "warn"
	case SeverityError:
		return "error"
	}
	return "off"
}

// ParseSeverity reads a policy severity: error, warn (or warning), info or off.
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "error":
		return SeverityError, nil
	case "warn", "warning":
		return SeverityWarning, nil
	case "info":
		return SeverityInfo, nil
	case "off", "none", "ignore":
		return SeverityOff, nil
	}
	return SeverityOff, fmt.Errorf("unknown severity %q (want error, warn, info or off)", s)
}

// Finding is one unsafe (or noteworthy) change between an old and a new CRD.
type Finding struct {
	Rule     Rule     `json:"rule"`
	Severity Severity `json:"-"`
	// CRD is the CRD's metadata.name.
	CRD string `json:"crd"`
	// Version is the CRD version ("v1"), a served-version pair ("v1 -> v2"), or empty for CRD-wide rules.
	Version string `json:"version,omitempty"`
	// Path is the schema node ("^.spec.replicas", "^" for the root) or the CRD field ("spec.scope").
	Path string `json:"path,omitempty"`
	// Old and New are the values before and after the change, as short strings.
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
	// Message says what changed and why it is unsafe; Fix says what to do about it.
	Message string `json:"message"`
	Fix     string `json:"fix,omitempty"`
	// File is where the new CRD (or the instance, for instance rules) came from, when known.
	File string `json:"file,omitempty"`
	// Actor is who refuses the upgrade (or breaks when nothing refuses it): ActorOf(Rule) unless set;
	// empty on an info finding of a rule nothing refuses (crd-added): nobody refuses and nothing breaks.
	Actor Actor `json:"actor,omitempty"`
	// Deployed: Actor is an installer the project deploys with (WithInstallers), so the release would
	// not install: the finding is an error whatever its rule's severity.
	Deployed bool `json:"deployed,omitempty"`
	// Echo identifies a schema change within the old schema node that holds it: a hash of that node
	// (its own description left out) and the path below it. Two findings that differ only in Path and
	// share an Echo are one change made to identical copies of a struct (FoldEchoes). Empty for
	// changes not below a schema node.
	Echo string `json:"-"`
}

// String formats the finding on one line: "crd version path: message (old -> new); refused by actor".
func (f Finding) String() string {
	var b strings.Builder
	b.WriteString(f.CRD)
	if f.Version != "" {
		b.WriteString(" " + f.Version)
	}
	if f.Path != "" {
		b.WriteString(" " + f.Path)
	}
	b.WriteString(": " + f.Message)
	if f.Old != "" || f.New != "" {
		fmt.Fprintf(&b, " (%s -> %s)", orNone(f.Old), orNone(f.New))
	}
	if f.Actor != "" {
		b.WriteString("; " + f.Verdict())
	}
	return b.String()
}

// Verdict says who refuses the finding's change, or that clients break: "refused by olm-v1; by olm-v0
// too when an existing object no longer validates", "refused by apiserver, olm-v0 and olm-v1", "breaks
// clients" (empty without an actor), and ", which this project deploys with" when Deployed.
func (f Finding) Verdict() string {
	if f.Actor == "" {
		return ""
	}
	v := verdict(f.Rule, f.Actor)
	if f.Deployed {
		v += ", which this project deploys with"
	}
	return v
}

// Actors lists who refuses the finding's change outright (Actor and, for the rule's own actor, the
// installers whose own check refuses it too), or Actor alone.
func (f Finding) Actors() []string {
	if f.Actor == "" {
		return nil
	}
	return refusers(f.Rule, f.Actor)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// HasErrors reports whether any finding has SeverityError.
func HasErrors(fs []Finding) bool {
	for _, f := range fs {
		if f.Severity == SeverityError {
			return true
		}
	}
	return false
}

// sortFindings orders findings by CRD, version, path, rule and message.
func sortFindings(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.CRD, b.CRD), cmp.Compare(a.Version, b.Version), cmp.Compare(a.Path, b.Path),
			cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Message, b.Message))
	})
}
