package crd

import (
	"slices"
	"strconv"
	"strings"

	"golang.org/x/mod/semver"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/crd/preflight"
)

// OLMv1PreflightVersion is the first operator-controller release whose CRD upgrade-safety preflight is
// crdify's; the releases before it run the kapp-derived checks, which refuse every change they do not
// handle (descriptions included).
const OLMv1PreflightVersion = "v1.4.0"

// WithOLMv1MinVersion gives the oldest operator-controller release the clusters run (deploy.olmv1's
// minOLMVersion; "" for the oldest opack supports, v1.0.0): below v1.4.0, what the older preflight refuses
// is refused by OLM v1 too. Without it only the preflight of v1.4.0 and later is modelled.
func WithOLMv1MinVersion(v string) Option {
	return func(o *options) {
		o.preflights = []preflight.Preflight{preflight.Crdify}
		if v == "" || !semver.IsValid(v) || semver.Compare(v, OLMv1PreflightVersion) < 0 {
			o.preflights = append(o.preflights, preflight.Kapp)
		}
	}
}

// ruleKeywords are the schema keywords (JSON names, as the preflight names its checks and an unhandled
// change's keywords) whose change each schema rule reports: a refusal of such a change at the finding's
// node is the finding's.
var ruleKeywords = map[Rule][]string{
	RuleTypeChanged: {"type", "x-kubernetes-int-or-string", "anyOf"}, RuleTypeRemoved: {"type", "x-kubernetes-int-or-string", "anyOf"},
	RuleEnumAdded: {"enum"}, RuleEnumValueRemoved: {"enum"}, RuleEnumValueAdded: {"enum"}, RuleEnumRemoved: {"enum"},
	RuleRequiredAdded: {"required"},
	RuleMaxTightened:  {"maximum", "maxItems", "maxLength", "maxProperties", "exclusiveMaximum"},
	RuleMinTightened:  {"minimum", "minItems", "minLength", "minProperties", "exclusiveMinimum"},
	RuleDefaultAdded:  {"default"}, RuleDefaultChanged: {"default"}, RuleDefaultRemoved: {"default"},
	RulePatternAdded: {"pattern"}, RulePatternChanged: {"pattern"}, RulePatternRemoved: {"pattern"},
	RuleNullableAdded: {"nullable"}, RuleNullableRemoved: {"nullable"},
	RuleOneOfAdded: {"oneOf"}, RuleOneOfRemoved: {"oneOf"}, RuleOneOfLoosened: {"oneOf"},
	RuleAnyOfAdded: {"anyOf"}, RuleAnyOfRemoved: {"anyOf"}, RuleAnyOfLoosened: {"anyOf"},
	RuleAllOfAdded: {"allOf"}, RuleNotChanged: {"not"}, RuleFormatChanged: {"format"},
	RuleCELAdded: {"x-kubernetes-validations"}, RuleCELChanged: {"x-kubernetes-validations"}, RuleCELRemoved: {"x-kubernetes-validations"},
	RulePreserveUnknownFields: {"x-kubernetes-preserve-unknown-fields"}, RuleAdditionalProperties: {"additionalProperties"},
	RuleListTypeChanged: {"x-kubernetes-list-type", "x-kubernetes-list-map-keys"}, RuleMapTypeChanged: {"x-kubernetes-map-type"},
	RuleEmbeddedResource: {"x-kubernetes-embedded-resource"}, RuleUniqueItemsAdded: {"uniqueItems"},
	RuleMultipleOfTightened: {"multipleOf"},
}

// below says how a keyword's changes reach below its node, as opack spells the paths of the nodes it
// holds: a change inside them is a change of the keyword (crdify compares additionalProperties, anyOf,
// allOf and not as part of their node; kapp items and oneOf too).
var below = map[string]string{
	"additionalProperties": ".*", "anyOf": ".anyOf", "allOf": ".allOf", "not": ".not", "oneOf": ".oneOf", "items": "[*]",
}

// attachOLMv1 asks each modelled preflight what it refuses of the upgrade from oc (the live CRD holding
// the stored versions) to nc, and names it on the changes it refuses (OLMv1, OLMv1Kapp): a refusal is a
// change's when it is at the change's node and of the keyword the change's rule reports, below a field
// the change removes or retypes, or inside a keyword's subtree the change is in. A refusal no change
// accounts for (a keyword opack's rules find harmless, a removed field that loses nothing, a version whose
// schema no client reads) becomes a change of its own, semantically info, one per node whichever
// preflights refuse it: OLM v1 refuses it all the same.
func attachOLMv1(o *options, oc, nc *apiextv1.CustomResourceDefinition, changes []change) []change {
	// The live CRD holds the stored versions; the model reads it, so a copy of the top level will do.
	live := *oc
	live.Status.StoredVersions = o.stored(oc)
	var orphans []pref
	for _, p := range o.preflights {
		for _, r := range preflight.Check(&live, nc, p, preflight.TopmostRemovals()) {
			left := r.Keywords
			matched := false
			for i := range changes {
				kws, ok := covers(&changes[i].Finding, r)
				if !ok {
					continue
				}
				matched = true
				name(&changes[i].Finding, p, checkText(p, r, kws))
				left = slices.DeleteFunc(slices.Clone(left), func(k string) bool { return slices.Contains(kws, k) })
			}
			switch {
			case !matched:
				orphans = append(orphans, pref{p, r})
			case r.Check == preflight.CheckUnhandled && len(left) > 0:
				r.Keywords = left
				orphans = append(orphans, pref{p, r})
			}
		}
	}
	orphans = slices.DeleteFunc(orphans, func(o pref) bool { return nameAtNode(changes, o) })
	return append(changes, orphanChanges(nc.Name, orphans)...)
}

// nameAtNode names refusal o on a change of opack's rules at o's node, if there is one, and reports
// whether it did: what else a preflight refuses at a node is one change with what opack finds there (the
// node's fix keeps it all as it was), not a second finding whose fix would contradict the first's
// (raising OLM v1 to v1.4.0 lets through none of a node crdify refuses).
func nameAtNode(changes []change, o pref) bool {
	r := o.r
	if r.Removed || r.Kind == preflight.KindCRD && r.Path == "" {
		return false
	}
	switch r.Check {
	case preflight.CheckRemoved, preflight.CheckPanic:
		return false
	}
	served := r.Kind == preflight.KindServed
	named := false
	for i := range changes {
		f := &changes[i].Finding
		if f.Path == r.Path && f.Version == r.Version && (f.Rule == RuleServedVersion) == served {
			name(f, o.p, checkText(o.p, r, nil))
			named = true
		}
	}
	return named
}

// pref is a refusal of preflight p.
type pref struct {
	p preflight.Preflight
	r preflight.Refusal
}

// name records that preflight p refuses f's change for check.
func name(f *Finding, p preflight.Preflight, check string) {
	field := &f.OLMv1
	if p == preflight.Kapp {
		field = &f.OLMv1Kapp
	}
	if *field == "" {
		*field = check
	} else if !strings.Contains(*field, check) {
		*field += "; " + check
	}
}

// covers reports whether refusal r is f's change, and which of r's unhandled keywords f accounts for.
func covers(f *Finding, r preflight.Refusal) ([]string, bool) {
	rule := f.Rule
	switch r.Kind {
	case preflight.KindCRD:
		switch r.Check {
		case "scope":
			return nil, rule == RuleScopeChanged
		case "storedVersionRemoval":
			return nil, rule == RuleStoredVersionRemoved
		case preflight.CheckPanic:
			return nil, false
		}
		if rule == RuleServedVersion || f.Version != r.Version {
			return nil, false
		}
	case preflight.KindServed:
		if rule != RuleServedVersion || f.Version != r.Version {
			return nil, false
		}
		rule = f.Inner
	default:
		if rule == RuleServedVersion || f.Version != r.Version {
			return nil, false
		}
	}
	// A removed or retyped node holds everything below it: its finding is the change's.
	if (rule == RuleFieldRemoved || rule == RuleTypeChanged) && (r.Removed || r.Check == "type" || r.Check == preflight.CheckRemoved) && within(r.Path, f.Path) {
		return r.Keywords, true
	}
	if r.Removed || r.Check == preflight.CheckRemoved {
		return nil, false
	}
	kws := ruleKeywords[rule]
	var mine []string
	switch {
	case r.Check == preflight.CheckUnhandled:
		for _, k := range r.Keywords {
			if atNode(f, rule, r.Path, k) && slices.Contains(kws, k) || inside(f.Path, r.Path, k) {
				mine = append(mine, k)
			}
		}
		return mine, len(mine) > 0
	case rule == RuleRequiredAdded:
		return nil, r.Check == "required" && parentPath(f.Path) == r.Path
	}
	return nil, slices.Contains(kws, r.Check) && atNode(f, rule, r.Path, r.Check) || inside(f.Path, r.Path, r.Check)
}

// atNode reports whether f's change, of rule, is at the node at path for keyword k: its own path, or the
// combinator path opack gives alternatives ("^.spec.x.oneOf[1]"), or, for a required field, its parent.
func atNode(f *Finding, rule Rule, path, k string) bool {
	switch {
	case f.Path == path:
		return true
	case rule == RuleRequiredAdded:
		return parentPath(f.Path) == path
	}
	return false
}

// inside reports whether path lies inside keyword k's subtree of the node at node.
func inside(path, node, k string) bool {
	sep, ok := below[k]
	return ok && strings.HasPrefix(path, node+sep)
}

// within reports whether path is node or below it.
func within(path, node string) bool {
	return path == node || strings.HasPrefix(path, node+".") || strings.HasPrefix(path, node+"[")
}

// parentPath returns the node above path ("^.spec" for "^.spec.x" and "^.spec['a.b']").
func parentPath(path string) string {
	if strings.HasSuffix(path, "']") {
		if i := strings.LastIndex(path, "['"); i >= 0 {
			return path[:i]
		}
	}
	if i := strings.LastIndexAny(path, ".["); i >= 0 {
		return path[:i]
	}
	return path
}

// checkText names what refuses a change: "crdify's maxItems check", "crdify, as an unhandled change of
// x-kubernetes-list-type", "kapp's type check", "kapp, as an unknown change of description".
func checkText(p preflight.Preflight, r preflight.Refusal, kws []string) string {
	who := "crdify"
	if p == preflight.Kapp {
		who = "kapp"
	}
	switch r.Check {
	case preflight.CheckUnhandled:
		if len(kws) == 0 {
			kws = r.Keywords
		}
		what := "an unhandled change"
		if p == preflight.Kapp {
			what = "an unknown change"
		}
		return who + ", as " + what + " of " + strings.Join(kws, ", ")
	case preflight.CheckPanic:
		return who + ", which panics"
	}
	return who + "'s " + r.Check + " check"
}

// orphanChanges makes changes of the refusals no finding accounts for: one per node (and version, or
// served pair) whichever preflights refuse it, its rule the weightiest of its refusals' (orphanRules),
// its message listing what changed; a removed node below another removed one is the other's. They are semantically info: opack's own rules
// find no existing object or client affected.
//
// Those that differ in their path alone get the Echo of their node (the shape of the old node above it
// and the path below that): a change made to identical copies of a struct folds into one finding.
func orphanChanges(crdName string, refusals []pref) []change {
	removed := map[[3]string]bool{}
	for _, pr := range refusals {
		r := pr.r
		if r.Removed || r.Check == preflight.CheckRemoved {
			removed[[3]string{r.Kind, r.Version, r.Path}] = true
		}
	}
	belowRemoved := func(r preflight.Refusal) bool {
		for path, up := r.Path, parentPath(r.Path); up != path && up != ""; path, up = up, parentPath(up) {
			if removed[[3]string{r.Kind, r.Version, up}] {
				return true
			}
		}
		return false
	}
	type node struct {
		served     bool
		version    string
		path       string
		holder     *apiextv1.JSONSchemaProps
		holderPath string
		rule       Rule
		parts      []string
		texts      []string              // what refuses it (checkText), each once
		who        []preflight.Preflight // the preflight of each of texts
	}
	var nodes []*node
	index := map[[3]string]*node{}
	for _, pr := range refusals {
		r := pr.r
		if (r.Removed || r.Check == preflight.CheckRemoved) && belowRemoved(r) {
			continue
		}
		kind := r.Kind
		if kind == preflight.KindCRD && r.Check == preflight.CheckRemoved {
			kind = preflight.KindSame // the same node's comparison and its removal are one change
		}
		k := [3]string{kind, r.Version, r.Path}
		n := index[k]
		if n == nil {
			n = &node{served: r.Kind == preflight.KindServed, version: r.Version, path: r.Path, holder: r.Holder, holderPath: r.HolderPath}
			if r.Check == preflight.CheckPanic {
				n.path = "spec.versions"
			}
			index[k] = n
			nodes = append(nodes, n)
		}
		rule, part := orphanRule(r)
		if n.rule == "" || orphanWeight(rule) < orphanWeight(n.rule) {
			n.rule = rule
		}
		// Preflights name one change alike ("a change inside additionalProperties"): each part once.
		for _, sub := range strings.Split(part, "; ") {
			if !slices.Contains(n.parts, sub) {
				n.parts = append(n.parts, sub)
			}
		}
		if c := checkText(pr.p, r, nil); !slices.Contains(n.texts, c) {
			n.texts = append(n.texts, c)
			n.who = append(n.who, pr.p)
		}
	}
	out := make([]change, 0, len(nodes))
	alike := map[string]int{} // findings that differ in their path alone: echoes to hash
	for _, n := range nodes {
		if n.rule == RuleFieldRemoved {
			n.parts = []string{"field removed; existing objects keep its data (the API server keeps unknown fields here, never prunes metadata, or no client reads this version)"}
		}
		msg := strings.Join(n.parts, "; ")
		if n.served {
			msg = "served versions " + n.version + " differ: " + msg + " (no object is read or written through one version differently)"
		} else if n.rule != RuleFieldRemoved {
			msg += "; no existing object or client is affected"
		}
		c := change{Finding: Finding{Rule: n.rule, Version: n.version, Path: n.path, CRD: crdName, Message: msg}, ceiling: SeverityInfo}
		if n.served {
			c.Inner, c.Rule = n.rule, RuleServedVersion
		}
		for i, text := range n.texts {
			name(&c.Finding, n.who[i], text)
		}
		alike[echoKey(c.Finding)]++
		out = append(out, c)
	}
	// An Echo folds a change made to identical copies of a struct into one finding, as for the findings of
	// opack's rules: findings alike but for their path whose old nodes above are equal (but for their own
	// descriptions: each copy's is the field's that holds it) share one. Copies decoded from identical text
	// share their maps (load.FromJSONSharing), so comparing them costs next to nothing.
	var holders []*apiextv1.JSONSchemaProps
	for i, n := range nodes {
		if alike[echoKey(out[i].Finding)] < 2 || n.holder == nil || !strings.HasPrefix(n.path, n.holderPath) {
			continue
		}
		k := slices.IndexFunc(holders, func(h *apiextv1.JSONSchemaProps) bool { return sameShape(h, n.holder) })
		if k < 0 {
			k = len(holders)
			holders = append(holders, n.holder)
		}
		out[i].Echo = "shape" + strconv.Itoa(k) + n.path[len(n.holderPath):]
	}
	return out
}

// sameShape reports whether two schema nodes are equal but for their own descriptions.
func sameShape(a, b *apiextv1.JSONSchemaProps) bool {
	x, y := *a, *b
	x.Description, y.Description = "", ""
	return preflight.Equal(&x, &y)
}

// echoKey is what findings that fold share: all but their path.
func echoKey(f Finding) string {
	return strings.Join([]string{string(f.Rule), f.Version, f.Message, f.OLMv1, f.OLMv1Kapp}, "\x00")
}

// orphanWeights orders the rules of one node's refusals: the first names the change.
var orphanWeights = []Rule{
	RuleFieldRemoved, RuleTypeChanged, RuleTypeRemoved, RuleRequiredAdded, RuleEnumAdded, RuleEnumValueRemoved, RuleEnumRemoved,
	RuleMaxTightened, RuleMinTightened, RulePatternAdded, RulePatternChanged, RulePatternRemoved, RuleDefaultAdded,
	RuleDefaultChanged, RuleDefaultRemoved, RuleNullableRemoved, RuleNullableAdded, RuleOneOfAdded, RuleOneOfRemoved,
	RuleOneOfLoosened, RuleKeywordChanged,
}

func orphanWeight(r Rule) int {
	if i := slices.Index(orphanWeights, r); i >= 0 {
		return i
	}
	return len(orphanWeights)
}

// orphanRule returns the rule of a refusal no finding accounts for and what it says changed.
func orphanRule(r preflight.Refusal) (Rule, string) {
	val := func(s string) string {
		if s == "" {
			return "none"
		}
		return strconv.Quote(s)
	}
	change := r.Check + " " + orNone(r.Old) + " -> " + orNone(r.New)
	switch {
	case r.Check == preflight.CheckPanic:
		return RuleKeywordChanged, "a version without a schema in the live CRD gets one; " + r.Message
	case r.Removed || r.Check == preflight.CheckRemoved:
		return RuleFieldRemoved, "field removed"
	case r.Check == preflight.CheckUnhandled:
		return RuleKeywordChanged, changedKeywords(r)
	case r.Check == "type" && r.New == "":
		return RuleTypeRemoved, "type removed (" + val(r.Old) + " -> none): the field takes any value"
	case r.Check == "type" && r.Old == "":
		return RuleTypeChanged, "type " + val(r.New) + " set where none was"
	case r.Check == "type":
		return RuleTypeChanged, "type " + val(r.Old) + " -> " + val(r.New)
	case r.Check == "enum" && r.Old == "":
		return RuleEnumAdded, "enum added " + r.New
	case r.Check == "enum" && r.New == "":
		return RuleEnumRemoved, "enum removed " + r.Old + ": the field takes any value of its type"
	case r.Check == "enum":
		return RuleEnumValueRemoved, "enum " + r.Old + " -> " + r.New
	case r.Check == "required":
		return RuleRequiredAdded, "newly required: " + r.New
	case strings.HasPrefix(r.Check, "max"):
		return RuleMaxTightened, change
	case strings.HasPrefix(r.Check, "min"):
		return RuleMinTightened, change
	case r.Check == "default" && r.Old == "":
		return RuleDefaultAdded, change
	case r.Check == "default" && r.New == "":
		return RuleDefaultRemoved, change
	case r.Check == "default":
		return RuleDefaultChanged, change
	case r.Check == "pattern" && r.Old == "":
		return RulePatternAdded, "pattern added " + val(r.New)
	case r.Check == "pattern" && r.New == "":
		return RulePatternRemoved, "pattern removed " + val(r.Old)
	case r.Check == "pattern":
		return RulePatternChanged, "pattern " + val(r.Old) + " -> " + val(r.New)
	case r.Check == "nullable" && strings.Contains(r.Message, "added"):
		return RuleNullableAdded, "nullable added"
	case r.Check == "nullable":
		return RuleNullableRemoved, "nullable removed"
	case r.Check == "oneOf" && strings.Contains(r.Message, "schemas added"):
		return RuleOneOfLoosened, r.Message
	case r.Check == "oneOf" && strings.Contains(r.Message, "removed"):
		return RuleOneOfRemoved, r.Message
	case r.Check == "oneOf":
		return RuleOneOfAdded, r.Message
	}
	return RuleKeywordChanged, r.Message
}

// changedKeywords says what an unhandled refusal's keywords changed, from the model's message
// ("... (x-kubernetes-list-type unset -> \"atomic\"; a change inside additionalProperties (...))"),
// leaving out the keywords a finding already accounts for (those not in r.Keywords).
func changedKeywords(r preflight.Refusal) string {
	i := strings.Index(r.Message, "(")
	if i < 0 || !strings.HasSuffix(r.Message, ")") {
		return r.Message
	}
	var keep []string
	for _, part := range strings.Split(r.Message[i+1:len(r.Message)-1], "; ") {
		kw, _, _ := strings.Cut(strings.TrimPrefix(part, "a change inside "), " ")
		if slices.Contains(r.Keywords, kw) {
			keep = append(keep, part)
		}
	}
	if len(keep) == 0 {
		return strings.Join(r.Keywords, ", ") + " changed"
	}
	return strings.Join(keep, "; ")
}
