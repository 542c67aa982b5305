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

// Finding is one unsafe (or noteworthy) change between an old and a new CRD. It states two facts: what
// the change does to existing objects and clients (Semantic) and who refuses it (Actor, Actors); its
// Severity is the higher of the two (judge).
type Finding struct {
	Rule     Rule     `json:"rule"`
	Severity Severity `json:"-"`
	// Semantic is the severity of what the change does to existing objects and clients, before any
	// installer's refusal is counted: the rule's default or the policy's, capped by a severity decision
	// (a default the description documents keeps the meaning of objects that omit the field: info).
	Semantic Severity `json:"-"`
	// CRD is the CRD's metadata.name.
	CRD string `json:"crd"`
	// Version is the CRD version ("v1"), a served-version pair ("v1 -> v2"), or empty for CRD-wide rules.
	Version string `json:"version,omitempty"`
	// Path is the schema node ("^.spec.replicas", "^" for the root) or the CRD field ("spec.scope").
	Path string `json:"path,omitempty"`
	// Old and New are the values before and after the change, as short strings.
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
	// Message says what changed and why it is unsafe; Fix says what to do about it: the rule's fix
	// when the change itself decides the severity, what lets the refuser install it when a refusal does.
	Message string `json:"message"`
	Fix     string `json:"fix,omitempty"`
	// File is where the new CRD (or the instance, for instance rules) came from, when known.
	File string `json:"file,omitempty"`
	// Actor is who refuses the upgrade first (Refusers), or clients when nobody refuses it and it
	// breaks them, or empty on an info finding nobody refuses: nothing breaks.
	Actor Actor `json:"actor,omitempty"`
	// Deployed: an installer the project deploys with (WithInstallers) refuses the change, so the
	// release would not install: the finding is an error.
	Deployed bool `json:"deployed,omitempty"`
	// OLMv1 names what of OLM v1's preflight (operator-controller v1.4 and later: crdify) refuses the
	// change ("crdify's maxItems check", "crdify, as an unhandled change of x-kubernetes-list-type"),
	// empty when it accepts it; OLMv1Kapp the same of the preflight of v1.0 to v1.3 (kapp's checks), set
	// only when the clusters may run those (WithOLMv1MinVersion). Either makes olm-v1 a refuser.
	OLMv1     string `json:"-"`
	OLMv1Kapp string `json:"-"`
	// Inner is the rule of a served-version finding's change (served-version-incompatible).
	Inner Rule `json:"-"`
	// Echo identifies a schema change within the old schema node that holds it: a hash of that node
	// (its own description left out) and the path below it. Two findings that differ only in Path and
	// share an Echo are one change made to identical copies of a struct (FoldEchoes). Empty for
	// changes not below a schema node.
	Echo string `json:"-"`
}

// String formats the finding on one line: "crd version path: message (old -> new); verdict".
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
	if v := f.Verdict(); v != "" {
		b.WriteString("; " + v)
	}
	return b.String()
}

// Verdict says who refuses the finding's change, or that clients break: "refused by olm-v1 (crdify's
// default check)", "refused by apiserver, olm-v0 and olm-v1 (...)", "breaks clients"; empty without an
// actor. It says ", which this project deploys with" when Deployed, and starts with "but" when the
// refusal alone raises the severity above the semantic one (the message said the change keeps objects
// and clients as they were).
func (f Finding) Verdict() string {
	switch {
	case f.Actor == "":
		return ""
	case f.Actor == ActorClients:
		return "breaks clients"
	}
	v := verdict(f)
	if f.Raised() {
		v = "but " + v
	}
	return v
}

// Raised reports whether an installer's refusal, not the change itself, decides the finding's
// severity: it is above the semantic one.
func (f Finding) Raised() bool { return f.Severity > f.Semantic && len(f.Refusers()) > 0 }

// Refusers returns who refuses the finding's change outright: its rule's refusers (RefusersOf) and
// olm-v1 when OLM v1's preflight refuses this change (OLMv1, OLMv1Kapp).
func (f Finding) Refusers() []Actor {
	out := RefusersOf(f.Rule)
	if (f.OLMv1 != "" || f.OLMv1Kapp != "") && !slices.Contains(out, ActorOLMv1) {
		out = append(slices.Clone(out), ActorOLMv1)
	}
	return out
}

// Actors lists who refuses the finding's change outright (the rule's refusers), or clients when the
// change breaks them; nil without an actor.
func (f Finding) Actors() []string {
	if f.Actor == "" {
		return nil
	}
	if f.Actor == ActorClients {
		return []string{string(ActorClients)}
	}
	var out []string
	for _, a := range f.Refusers() {
		out = append(out, string(a))
	}
	return out
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
