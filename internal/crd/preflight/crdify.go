package preflight

import (
	"fmt"
	"sort"
	"strings"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/crd/load"
)

// crdifyLocator spells locations as crdify's SchemaHas does (field.Path): "^.spec.list.items.name",
// "^.spec.x.oneOf[0]", "^.spec.map.additionalProperties".
type crdifyLocator struct{}

func (crdifyLocator) child(parent, kind, key string) string {
	switch kind {
	case "property":
		return parent + "." + key
	case "items", "not", "additionalProperties", "additionalItems":
		return parent + "." + kind
	case "itemsIndex":
		return parent + ".items[" + key + "]"
	}
	return parent + "." + kind + "[" + key + "]"
}

// crdifyHandled are the keywords crdify's validations handle (description too: operator-controller
// turns its enforcement off, but the validation still runs and clears it) and the children it compares
// as nodes of their own: a difference in any other keyword is "unhandled".
var crdifyHandled = map[string]bool{
	"type": true, "required": true, "default": true, "enum": true, "maximum": true, "maxItems": true,
	"maxLength": true, "maxProperties": true, "minimum": true, "minItems": true, "minLength": true,
	"minProperties": true, "description": true, "pattern": true, "nullable": true, "oneOf": true,
	"properties": true, "items": true,
}

// children are the keywords crdify compares as nodes of their own, not as part of their node.
var children = map[string]bool{"properties": true, "items": true}

// issue is one error of crdify's comparison of two schema nodes; key identifies it for the
// served-version validator, which drops the errors the old CRD's served versions already had (it
// compares crdify's error strings; a key is equal exactly when they are).
type issue struct {
	check, message string
	old, new       string
	keywords       []string
	key            string
}

func crdifyCheck(old, new *apiextv1.CustomResourceDefinition, topmost bool) []Refusal {
	if !schemaful(new) {
		return nil
	}
	if crdifyPanics(old, new) {
		return []Refusal{{Kind: KindCRD, Check: CheckPanic,
			Message: "crdify panics (runtime error: invalid memory address or nil pointer dereference): a version it compares has no schema"}}
	}
	out := crdWide(old, new, Crdify)
	// existingFieldRemoval and the same-version validator, on every version both CRDs have.
	for i := range old.Spec.Versions {
		ov := &old.Spec.Versions[i]
		nv := findVersion(new, ov.Name)
		if nv == nil || sameSchema(ov, nv) {
			continue
		}
		same, removed := compareVersionsCrdify(ov, nv, KindSame, ov.Name, topmost)
		for _, r := range removed {
			r.Kind, r.Check, r.Message = KindCRD, CheckRemoved, "removed field : "+ov.Name+"."+r.Property
			out = append(out, r)
		}
		for _, r := range same {
			out = append(out, r.Refusal)
		}
	}
	if isWebhook(new) {
		return out
	}
	// The served-version validator drops the errors OLD's served pairs already had: a pair of versions
	// served in both CRDs with the same schemas gives the same errors, all dropped.
	unchanged := func(a, b *apiextv1.CustomResourceDefinitionVersion) bool {
		oa, ob := findVersion(old, a.Name), findVersion(old, b.Name)
		return oa != nil && ob != nil && oa.Served && ob.Served && sameSchema(oa, a) && sameSchema(ob, b)
	}
	before := map[string]bool{}
	for _, r := range servedCrdify(old, topmost, func(a, b *apiextv1.CustomResourceDefinitionVersion) bool {
		na, nb := findVersion(new, a.Name), findVersion(new, b.Name)
		return na == nil || nb == nil || !na.Served || !nb.Served || unchanged(na, nb)
	}) {
		before[r.key] = true
	}
	for _, r := range servedCrdify(new, topmost, unchanged) {
		if !before[r.key] {
			out = append(out, r.Refusal)
		}
	}
	return out
}

// schemaful reports whether every version of c has a schema. One without is either a v1beta1 CRD, which
// the preflight does not check (and no API server since Kubernetes 1.22 takes), or a v1 CRD the API server
// refuses: OLM v1 installs neither, so the preflight's verdict is moot.
func schemaful(c *apiextv1.CustomResourceDefinition) bool {
	for i := range c.Spec.Versions {
		if c.Spec.Versions[i].Schema == nil {
			return false
		}
	}
	return true
}

// crdifyPanics reports whether crdify dereferences a version without a schema: one compared with
// itself, or a served one of a CRD with two served versions or more (compared when NEW does not
// convert with a webhook).
func crdifyPanics(old, new *apiextv1.CustomResourceDefinition) bool {
	for i := range old.Spec.Versions {
		if nv := findVersion(new, old.Spec.Versions[i].Name); nv != nil && (old.Spec.Versions[i].Schema == nil || nv.Schema == nil) {
			return true
		}
	}
	if isWebhook(new) {
		return false
	}
	for _, c := range []*apiextv1.CustomResourceDefinition{old, new} {
		served := servedSorted(c)
		for _, v := range served {
			if len(served) > 1 && v.Schema == nil {
				return true
			}
		}
	}
	return false
}

type keyed struct {
	Refusal
	key string
}

// servedCrdify compares every pair of served versions of c, older to newer, but those skip says give
// nothing that counts.
func servedCrdify(c *apiextv1.CustomResourceDefinition, topmost bool, skip func(a, b *apiextv1.CustomResourceDefinitionVersion) bool) []keyed {
	served := servedSorted(c)
	var out []keyed
	for i := 0; i < len(served); i++ {
		for j := i + 1; j < len(served); j++ {
			if skip(served[i], served[j]) || sameSchema(served[i], served[j]) {
				continue
			}
			pair := served[i].Name + " -> " + served[j].Name
			issues, _ := compareVersionsCrdify(served[i], served[j], KindServed, pair, topmost)
			out = append(out, issues...)
		}
	}
	return out
}

// compareVersionsCrdify compares every node of ov's schema with the node at the same location of nv's
// (crdify's CompareVersions): a node nv lacks is compared with an empty one, and returned among removed.
// Equal subtrees are skipped: they give nothing.
func compareVersionsCrdify(ov, nv *apiextv1.CustomResourceDefinitionVersion, kind, version string, topmost bool) (out []keyed, removed []Refusal) {
	os, _ := schemaOf(ov)
	ns, _ := schemaOf(nv)
	empty := &apiextv1.JSONSchemaProps{}
	walkPairs(os, ns, pos{loc: "^", path: "^"}, func(at pos, o, n *apiextv1.JSONSchemaProps) bool {
		gone := n == nil
		if gone {
			n = empty
			removed = append(removed, Refusal{Version: version, Path: at.path, Property: at.loc, Removed: true, Holder: at.parent, HolderPath: at.parentPath})
		}
		issues := compareNodes(o, n, kind == KindServed)
		for _, is := range issues {
			out = append(out, keyed{Refusal{Kind: kind, Version: version, Path: at.path, Property: at.loc, Check: is.check,
				Keywords: is.keywords, Removed: gone, Old: is.old, New: is.new, Message: is.message, Holder: at.parent, HolderPath: at.parentPath},
				strings.Join([]string{version, at.loc, is.check, is.key}, "\x00")})
		}
		// Below a removed node crdify compares every node with an empty one; a caller that reports the
		// removal once needs only the first refusals on the way down.
		// Not between served versions: their errors are dropped when OLD's had them, and what is new
		// may lie below a removal OLD made too.
		return !gone || !topmost || kind == KindServed || len(issues) == 0
	})
	return out, removed
}

// compareNodes runs crdify's validations, as operator-controller configures them, on two nodes (their
// properties and items left out: crdify compares those as nodes of their own).
//
// keyed asks for each issue's key (for the served-version validator).
func compareNodes(o, n *apiextv1.JSONSchemaProps, keyed bool) []issue {
	if len(differing(o, n, children)) == 0 {
		return nil // only what is below differs: crdify compares it as nodes of their own
	}
	var out []issue
	var old, new string
	add := func(check, msg string) {
		out = append(out, issue{check: check, message: msg, key: msg, old: old, new: new})
		old, new = "", ""
	}
	if o.Type != n.Type {
		old, new = o.Type, n.Type
		add("type", fmt.Sprintf("type changed : %q -> %q", o.Type, n.Type))
	}
	if added := minus(n.Required, o.Required); len(added) > 0 {
		new = strings.Join(added, ", ")
		add("required", "new required fields: ["+strings.Join(added, " ")+"]")
	}
	switch {
	case o.Default == nil && n.Default != nil:
		new = string(n.Default.Raw)
		add("default", fmt.Sprintf("default added when there was none previously : %q", string(n.Default.Raw)))
	case o.Default != nil && n.Default == nil:
		old = string(o.Default.Raw)
		add("default", fmt.Sprintf("default value removed : %q", string(o.Default.Raw)))
	case o.Default != nil && n.Default != nil && !load.JSONEqual(o.Default.Raw, n.Default.Raw):
		old, new = string(o.Default.Raw), string(n.Default.Raw)
		add("default", fmt.Sprintf("default value changed : %q -> %q", string(o.Default.Raw), string(n.Default.Raw)))
	}
	if msg := enumChange(o.Enum, n.Enum); msg != "" {
		old, new = enumList(o.Enum), enumList(n.Enum)
		add("enum", msg)
	}
	for _, b := range []struct {
		check    string
		old, new any
		max      bool
	}{
		{"maximum", o.Maximum, n.Maximum, true}, {"maxItems", o.MaxItems, n.MaxItems, true},
		{"maxLength", o.MaxLength, n.MaxLength, true}, {"maxProperties", o.MaxProperties, n.MaxProperties, true},
		{"minimum", o.Minimum, n.Minimum, false}, {"minItems", o.MinItems, n.MinItems, false},
		{"minLength", o.MinLength, n.MinLength, false}, {"minProperties", o.MinProperties, n.MinProperties, false},
	} {
		if msg := boundChange(b.old, b.new, b.max); msg != "" {
			old, new = fmtBound(b.old), fmtBound(b.new)
			add(b.check, msg)
		}
	}
	if o.Pattern != n.Pattern {
		old, new = o.Pattern, n.Pattern
	}
	switch {
	case o.Pattern == n.Pattern:
	case o.Pattern == "":
		add("pattern", fmt.Sprintf("pattern added : %q -> %q", o.Pattern, n.Pattern))
	case n.Pattern == "":
		add("pattern", fmt.Sprintf("pattern removed : %q -> %q", o.Pattern, n.Pattern))
	default:
		add("pattern", fmt.Sprintf("pattern changed : %q -> %q", o.Pattern, n.Pattern))
	}
	switch {
	case !o.Nullable && n.Nullable:
		add("nullable", "nullable added : false -> true")
	case o.Nullable && !n.Nullable:
		add("nullable", "nullable removed : true -> false")
	}
	if is, ok := oneOfChange(o.OneOf, n.OneOf); ok {
		out = append(out, is)
	}
	if kws := differing(o, n, crdifyHandled); len(kws) > 0 {
		is := issue{check: CheckUnhandled, keywords: kws, message: "unhandled changes found (" + describe(o, n, kws) + ")"}
		if keyed {
			is.key = diffKey(o, n, kws)
		}
		out = append(out, is)
	}
	return out
}

// minus returns the names of a that b lacks, sorted (crdify prints them in a set's order).
func minus(a, b []string) []string {
	have := map[string]bool{}
	for _, s := range b {
		have[s] = true
	}
	var out []string
	for _, s := range a {
		if !have[s] {
			have[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// enumChange is crdify's enum validation with additions allowed.
func enumChange(o, n []apiextv1.JSON) string {
	oldVals, newVals := map[string]string{}, map[string]string{}
	for _, v := range o {
		oldVals[load.RawKey(v.Raw)] = string(v.Raw)
	}
	for _, v := range n {
		newVals[load.RawKey(v.Raw)] = string(v.Raw)
	}
	list := func(m map[string]string, keys []string) string {
		var vals []string
		for _, k := range keys {
			vals = append(vals, m[k])
		}
		sort.Strings(vals)
		return "[" + strings.Join(vals, " ") + "]"
	}
	switch {
	case len(oldVals) == 0 && len(newVals) > 0:
		return "enum constraint added when there was none previously : " + list(newVals, sortedKeys(newVals))
	case len(oldVals) > 0:
		var removed []string
		for _, k := range sortedKeys(oldVals) {
			if _, ok := newVals[k]; !ok {
				removed = append(removed, k)
			}
		}
		if len(removed) > 0 {
			return "allowed enum values removed : " + list(oldVals, removed)
		}
	}
	return ""
}

// boundChange is crdify's MaxVerification (max) or MinVerification.
func boundChange(old, new any, max bool) string {
	ov, nv, oset, nset := boundValue(old), boundValue(new), !isNilPtr(old), !isNilPtr(new)
	kind := "minimum"
	if max {
		kind = "maximum"
	}
	switch {
	case !nset:
	case !oset:
		return kind + " constraint added when there was none previously : " + fmtBound(new)
	case max && nv < ov:
		return "maximum decreased : " + fmtBound(old) + " -> " + fmtBound(new)
	case !max && nv > ov:
		return "minimum increased : " + fmtBound(old) + " -> " + fmtBound(new)
	}
	return ""
}

func isNilPtr(v any) bool {
	switch p := v.(type) {
	case *float64:
		return p == nil
	case *int64:
		return p == nil
	}
	return true
}

func boundValue(v any) float64 {
	switch p := v.(type) {
	case *float64:
		if p != nil {
			return *p
		}
	case *int64:
		if p != nil {
			return float64(*p)
		}
	}
	return 0
}

func fmtBound(v any) string {
	switch p := v.(type) {
	case *float64:
		if p != nil {
			return fmt.Sprint(*p)
		}
	case *int64:
		if p != nil {
			return fmt.Sprint(*p)
		}
	}
	return ""
}

// enumList renders an enum for a message: its values, cut to a readable length.
func enumList(vals []apiextv1.JSON) string {
	if len(vals) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("[")
	for i, v := range vals {
		if i > 0 {
			b.WriteString(", ")
		}
		if b.Len() > 80 {
			fmt.Fprintf(&b, "... %d values in all", len(vals))
			break
		}
		b.Write(v.Raw)
	}
	b.WriteString("]")
	return b.String()
}

// oneOfChange is crdify's oneOf validation with its defaults (adding and removing alternatives both
// refused): alternatives are matched by value, their own description, title, example and externalDocs
// left out.
func oneOfChange(o, n []apiextv1.JSONSchemaProps) (issue, bool) {
	set := func(list []apiextv1.JSONSchemaProps) map[string]bool {
		m := map[string]bool{}
		for i := range list {
			s := list[i]
			s.Description, s.Title, s.Example, s.ExternalDocs = "", "", nil, nil
			m[canonical(&s)] = true
		}
		return m
	}
	oldSet, newSet := set(o), set(n)
	var removed, added []string
	for k := range oldSet {
		if !newSet[k] {
			removed = append(removed, k)
		}
	}
	for k := range newSet {
		if !oldSet[k] {
			added = append(added, k)
		}
	}
	sort.Strings(removed)
	sort.Strings(added)
	var msg string
	var key []string
	switch {
	case len(oldSet) == 0 && len(newSet) > 0:
		msg, key = fmt.Sprintf("oneOf constraint added when there was none previously: %d schemas", len(newSet)), sortedKeys(newSet)
	case len(removed) > 0:
		msg, key = fmt.Sprintf("allowed oneOf schemas removed: %d schemas", len(removed)), removed
	case len(added) > 0:
		msg, key = fmt.Sprintf("allowed oneOf schemas added: %d schemas", len(added)), added
	default:
		return issue{}, false
	}
	return issue{check: "oneOf", message: msg, key: msg + "\x00" + strings.Join(key, "\x00")}, true
}
