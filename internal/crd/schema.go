package crd

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/crd/load"
)

// change is one classified difference between two schema nodes. ceiling, when set, caps the severity the
// policy gives the rule (a new required field with a default is at most a warning).
type change struct {
	Finding
	ceiling Severity
	// olmV0 marks a change capped for the API server and OLM v1 that OLM v0 refuses when objects exist
	// (a required field with a default): Compare lifts the cap when a live CRD says objects exist.
	olmV0 bool
}

// schemaDiffer walks an old and a new schema side by side and reports every change that matters to
// existing objects or clients. It never recurses into nodes that exist only in the new schema (everything
// below a new optional field is new) nor below a removed field or a changed type (one finding per change).
type schemaDiffer struct {
	emit func(change)
	// statusSubresource says the old version has the status subresource: status is then written
	// by the controller through /status only, and rewritten by it.
	statusSubresource bool
	// keepsUnknown says the new CRD has spec.preserveUnknownFields: true (a v1beta1 CRD that does not
	// set it): the API server prunes nothing, so a field removed from the schema keeps its data.
	keepsUnknown bool
	// parent is the new schema's node above the one being compared (nil at the root).
	parent *apiextv1.JSONSchemaProps
	// oldNode is the old schema's node being compared, at nodePath; oldParent the one above it, at
	// parentPath (nil at the root). They give each change its Echo.
	oldNode, oldParent   *apiextv1.JSONSchemaProps
	nodePath, parentPath string
	shapes               *shapes
}

// DiffSchemas compares an old and a new openAPIV3Schema (either may be nil) and returns the findings
// without CRD, version or severity; Compare fills those in. It is exported for callers that hold bare
// schemas (catalog validation of upgrade edges, tests).
func DiffSchemas(old, new *apiextv1.JSONSchemaProps) []Finding {
	var out []Finding
	diffSchemas(old, new, func(c change) { out = append(out, c.Finding) })
	return out
}

func diffSchemas(old, new *apiextv1.JSONSchemaProps, emit func(change)) {
	diffSchemasIn(old, new, false, false, emit)
}

// diffVersions compares two versions' schemas, knowing whether the old one has the status subresource
// and whether the new CRD keeps unknown fields (spec.preserveUnknownFields).
func diffVersions(ov, nv *apiextv1.CustomResourceDefinitionVersion, keepsUnknown bool, emit func(change)) {
	diffSchemasIn(versionSchema(ov), versionSchema(nv), ov.Subresources != nil && ov.Subresources.Status != nil, keepsUnknown, emit)
}

func diffSchemasIn(old, new *apiextv1.JSONSchemaProps, statusSubresource, keepsUnknown bool, emit func(change)) {
	if old == nil {
		return
	}
	d := schemaDiffer{emit: emit, statusSubresource: statusSubresource, keepsUnknown: keepsUnknown, shapes: &shapes{}}
	d.node("^", old, new)
}

func (d schemaDiffer) add(r Rule, path, old, new, msg string) {
	d.capped(SeverityOff, r, path, old, new, msg)
}

// capped adds a finding whose severity is at most ceiling (SeverityOff: no cap).
func (d schemaDiffer) capped(ceiling Severity, r Rule, path, old, new, msg string) {
	d.emit(change{Finding: Finding{Rule: r, Path: path, Old: old, New: new, Message: msg, Echo: d.echo(path)}, ceiling: ceiling})
}

// pvcClaims reports whether the field name removed from the node at path is resources.claims of
// an embedded PersistentVolumeClaim spec: the node is "resources" and the node holding it has
// accessModes (a PVC spec under any name), or is an ephemeral volume's or a StatefulSet's claim
// template's spec by name (a trimmed template may leave accessModes out).
func (d schemaDiffer) pvcClaims(path, name string) bool {
	if name != "claims" || !strings.HasSuffix(path, ".resources") {
		return false
	}
	if strings.HasSuffix(path, "volumeClaimTemplate.spec.resources") || strings.HasSuffix(path, "volumeClaimTemplates[*].spec.resources") {
		return true
	}
	if d.parent == nil {
		return false
	}
	_, pvc := d.parent.Properties["accessModes"]
	return pvc
}

// draClaimSource reports whether the field name removed from the node at path (n in the new
// schema) is the source of a pod's resourceClaims[*] that k8s.io/api 1.31 flattened into the claim
// (resourceClaimName, resourceClaimTemplateName).
func draClaimSource(path, name string, n *apiextv1.JSONSchemaProps) bool {
	if name != "source" || !strings.HasSuffix(path, ".resourceClaims[*]") {
		return false
	}
	_, flat := n.Properties["resourceClaimName"]
	return flat
}

// removedField reports the property name of the node at path removed (n: the node in the new schema).
func (d schemaDiffer) removedField(path, name string, n *apiextv1.JSONSchemaProps) {
	const msg = "field removed; its data is pruned (lost) on the next write"
	switch {
	case d.pvcClaims(path, name):
		d.capped(SeverityInfo, RuleFieldRemoved, load.ChildPath(path, name), "", "", "field removed, but this is resources.claims of an embedded PersistentVolumeClaim, which k8s.io/api 1.29 dropped (VolumeResourceRequirements): claims were only ever for containers (dynamic resource allocation), so no working claim template sets it and pruning it loses nothing")
	case draClaimSource(path, name, n):
		d.capped(SeverityInfo, RuleFieldRemoved, load.ChildPath(path, name), "", "", "field removed, but this is the source of a pod's resource claim, which k8s.io/api 1.31 replaced by resourceClaimName and resourceClaimTemplateName on the claim itself: source belonged to the alpha dynamic resource allocation API (resource.k8s.io/v1alpha2, off unless its feature gate was on), and no API server since 1.31 reads it, so pruning it loses nothing")
	default:
		d.removed(load.ChildPath(path, name), msg)
	}
}

// removed reports a removed field. Under status, when the old version has the status subresource,
// the data is the controller's: it rewrites status from what it observes, so the loss is a warning.
// Without the subresource status is written with the rest of the object, by anyone, as spec is.
func (d schemaDiffer) removed(path, msg string) {
	if path != "^.status" && !strings.HasPrefix(path, "^.status.") && !strings.HasPrefix(path, "^.status[") {
		d.add(RuleFieldRemoved, path, "", "", msg)
		return
	}
	if !d.statusSubresource {
		d.add(RuleFieldRemoved, path, "", "", msg+" (no status subresource: status is written with the object, like spec)")
		return
	}
	d.capped(SeverityWarning, RuleFieldRemoved, path, "", "", msg+"; status is owned by the controller (status subresource), which rewrites it")
}

func (d schemaDiffer) node(path string, o, n *apiextv1.JSONSchemaProps) {
	d.oldParent, d.parentPath = d.oldNode, d.nodePath
	d.oldNode, d.nodePath = o, path
	if n == nil {
		d.removed(path, "field removed; its data is pruned (lost) on the next write")
		return
	}
	if d.typ(path, o, n) {
		return
	}
	d.enum(path, o, n)
	d.required(path, o, n)
	d.bounds(path, o, n)
	d.defaults(path, o, n)
	d.pattern(path, o, n)
	d.nullable(path, o, n)
	d.format(path, o, n)
	d.combinators(path, o, n)
	d.cel(path, o, n)
	d.extensions(path, o, n)
	d.children(path, o, n)
}

// typ reports a type change and returns true when the node's children should not be compared.
func (d schemaDiffer) typ(path string, o, n *apiextv1.JSONSchemaProps) bool {
	oldType, newType := typeName(o), typeName(n)
	switch {
	case oldType == newType:
		return false
	case path == "^" && oldType == "" && newType == "object":
		return false // every object the API server stores is a JSON object
	case n.XIntOrString && (o.Type == "integer" || o.Type == "string"):
		return false // widened to int-or-string
	case o.Type == "integer" && n.Type == "number" && !o.XIntOrString:
		return false // every integer is a number
	case newType == "":
		return false // untyped accepts anything the old type accepted
	}
	d.add(RuleTypeChanged, path, oldType, newType, "type changed; existing values of the old type no longer validate")
	return true
}

func typeName(s *apiextv1.JSONSchemaProps) string {
	if s.XIntOrString || (s.Type == "" && intOrStringAnyOf(s)) {
		return "int-or-string"
	}
	return s.Type
}

func (d schemaDiffer) enum(path string, o, n *apiextv1.JSONSchemaProps) {
	if len(n.Enum) == 0 {
		return
	}
	newVals := jsonSet(n.Enum)
	if len(o.Enum) == 0 {
		d.add(RuleEnumAdded, path, "", joinKeys(newVals), "enum constraint added to a field that had none")
		return
	}
	oldVals := jsonSet(o.Enum)
	if removed := missing(oldVals, newVals); len(removed) > 0 {
		d.add(RuleEnumValueRemoved, path, joinKeys(oldVals), joinKeys(newVals), "enum values removed: "+strings.Join(removed, ", "))
	}
	if added := missing(newVals, oldVals); len(added) > 0 {
		d.add(RuleEnumValueAdded, path, joinKeys(oldVals), joinKeys(newVals), "enum values added: "+strings.Join(added, ", "))
	}
}

func jsonSet(vals []apiextv1.JSON) map[string]bool {
	m := make(map[string]bool, len(vals))
	for _, v := range vals {
		m[rawKey(v.Raw)] = true
	}
	return m
}

// missing returns the sorted keys of a that are not in b.
func missing(a, b map[string]bool) []string {
	var out []string
	for k := range a {
		if !b[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func joinKeys(m map[string]bool) string {
	return "[" + strings.Join(missing(m, nil), ", ") + "]"
}

func (d schemaDiffer) required(path string, o, n *apiextv1.JSONSchemaProps) {
	if len(n.Required) == 0 {
		return
	}
	old := make(map[string]bool, len(o.Required))
	for _, r := range o.Required {
		old[r] = true
	}
	for _, r := range n.Required {
		if old[r] {
			continue
		}
		old[r] = true // report a name listed twice once
		if p, ok := n.Properties[r]; ok && p.Default != nil {
			d.emit(change{Finding: Finding{Rule: RuleRequiredAdded, Path: load.ChildPath(path, r), New: "required", Echo: d.echo(load.ChildPath(path, r)),
				Message: "field newly required, with a default (" + short(p.Default.Raw) + "): the API server defaults it when existing objects are " +
					"read, so they stay valid and writable (warning); an error for OLM v0 with existing objects (it validates them against the new " +
					"schema without defaulting: the upgrade fails if one omits the field)"},
				ceiling: SeverityWarning, olmV0: true})
			continue
		}
		d.add(RuleRequiredAdded, load.ChildPath(path, r), "", "required", "field newly required; existing objects without it no longer validate")
	}
}

func (d schemaDiffer) pattern(path string, o, n *apiextv1.JSONSchemaProps) {
	switch {
	case o.Pattern == n.Pattern:
	case o.Pattern == "":
		d.add(RulePatternAdded, path, "", n.Pattern, "pattern added to a field that had none")
	case n.Pattern == "":
		d.add(RulePatternRemoved, path, o.Pattern, "", "pattern removed")
	case patternWidened(o.Pattern, n.Pattern):
		d.capped(SeverityInfo, RulePatternChanged, path, o.Pattern, n.Pattern,
			"pattern widened: the new one is the old with an optional group before its end anchor, so it accepts every value the old one accepted")
	default:
		switch patternSubsumes(o.Pattern, n.Pattern) {
		case shownWider:
			d.capped(SeverityInfo, RulePatternChanged, path, o.Pattern, n.Pattern,
				"pattern widened: the new one differs from the old only where it accepts more (a wider character class, a looser quantifier or an added alternative), so it accepts every value the old one accepted")
		case undecided:
			d.add(RulePatternChanged, path, o.Pattern, n.Pattern, fmt.Sprintf("pattern changed (whether the new one accepts every value the old one accepted was not decided: "+
				"comparing the two patterns needs more than %d steps)", subsumeBudget))
		default:
			d.add(RulePatternChanged, path, o.Pattern, n.Pattern, "pattern changed")
		}
	}
}

// patternWidened reports whether new is old (ending in "$") with an optional group "(...)?" inserted
// before the "$": a value that matched old matches new with the group empty.
func patternWidened(old, new string) bool {
	if !strings.HasSuffix(old, "$") || strings.HasSuffix(old, `\$`) || !strings.HasSuffix(new, ")?$") {
		return false
	}
	body := strings.TrimSuffix(old, "$")
	if !strings.HasPrefix(new, body+"(") {
		return false
	}
	group := strings.TrimSuffix(strings.TrimPrefix(new, body), "?$") // "(...)"
	depth := 0
	for i := 0; i < len(group); i++ {
		switch group[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && i != len(group)-1 {
				return false // "(a)|(b)" and the like: not one group
			}
		case '|':
			if depth == 0 {
				return false
			}
		}
	}
	return depth == 0
}

func (d schemaDiffer) nullable(path string, o, n *apiextv1.JSONSchemaProps) {
	switch {
	case o.Nullable && !n.Nullable:
		d.add(RuleNullableRemoved, path, "true", "false", "nullable removed; the API server drops a stored or written null (or puts the default in its place) instead of failing validation")
	case !o.Nullable && n.Nullable:
		d.add(RuleNullableAdded, path, "false", "true", "nullable added; clients may now read null")
	}
}

// validatedFormats are the string formats the API server checks (k8s.io/apiextensions-apiserver
// pkg/apiserver/validation/formats.go); other formats are documentation only.
var validatedFormats = map[string]bool{
	"bsonobjectid": true, "uri": true, "email": true, "hostname": true, "ipv4": true, "ipv6": true,
	"cidr": true, "mac": true, "uuid": true, "uuid3": true, "uuid4": true, "uuid5": true, "isbn": true,
	"isbn10": true, "isbn13": true, "creditcard": true, "ssn": true, "hexcolor": true, "rgbcolor": true,
	"byte": true, "date": true, "duration": true, "datetime": true, "k8sshortname": true, "k8slongname": true,
}

func formatValidated(s *apiextv1.JSONSchemaProps) bool {
	if s.Format == "" || (s.Type != "string" && !s.XIntOrString) {
		return false
	}
	f := strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(s.Format))
	return validatedFormats[f]
}

func (d schemaDiffer) format(path string, o, n *apiextv1.JSONSchemaProps) {
	if o.Format == n.Format || !formatValidated(n) {
		return
	}
	msg := "format changed; existing values may not match it"
	if o.Format == "" || !formatValidated(o) {
		msg = "format added; the API server now rejects values that do not match it"
	}
	d.add(RuleFormatChanged, path, o.Format, n.Format, msg)
}

func (d schemaDiffer) extensions(path string, o, n *apiextv1.JSONSchemaProps) {
	if isTrue(o.XPreserveUnknownFields) && !isTrue(n.XPreserveUnknownFields) {
		d.add(RulePreserveUnknownFields, path, "true", "false",
			"x-kubernetes-preserve-unknown-fields removed; fields not in the schema are pruned (lost)")
	}
	if o.XEmbeddedResource != n.XEmbeddedResource {
		d.add(RuleEmbeddedResource, path, boolString(o.XEmbeddedResource), boolString(n.XEmbeddedResource),
			"x-kubernetes-embedded-resource changed")
	}
	if ol, nl := listType(o), listType(n); ol != nl {
		d.add(RuleListTypeChanged, path, ol, nl, "x-kubernetes-list-type changed")
	} else if ok, nk := strings.Join(o.XListMapKeys, ","), strings.Join(n.XListMapKeys, ","); ok != nk {
		d.add(RuleListTypeChanged, path, ok, nk, "x-kubernetes-list-map-keys changed")
	}
	if om, nm := mapType(o), mapType(n); om != nm {
		d.add(RuleMapTypeChanged, path, om, nm, "x-kubernetes-map-type changed; server-side apply merges the object differently, stored data and validation are unchanged")
	}
}

func isTrue(b *bool) bool { return b != nil && *b }

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func listType(s *apiextv1.JSONSchemaProps) string {
	if s.XListType != nil && *s.XListType != "" {
		return *s.XListType
	}
	if s.Type == "array" {
		return "atomic"
	}
	return ""
}

func mapType(s *apiextv1.JSONSchemaProps) string {
	if s.XMapType != nil && *s.XMapType != "" {
		return *s.XMapType
	}
	if s.Type == "object" || (s.Type == "" && len(s.Properties) > 0) {
		return "granular" // an untyped node with properties (v1beta1 CRDs) is merged as a map too
	}
	return ""
}

func (d schemaDiffer) children(path string, o, n *apiextv1.JSONSchemaProps) {
	// Properties decoded from identical text share one map (load.FromJSONSharing); every rule
	// reports a difference, so there is nothing to find below (TestSharedFindingsSameAsAlone,
	// TestCorpusSharedFindingsSameAsAlone, FuzzSharedFindings).
	if len(o.Properties) > 0 && !sameMap(o.Properties, n.Properties) {
		names := make([]string, 0, len(o.Properties))
		for name := range o.Properties {
			names = append(names, name)
		}
		sort.Strings(names)
		below := d
		below.parent = n
		for _, name := range names {
			op := o.Properties[name]
			if np, ok := n.Properties[name]; ok {
				below.node(load.ChildPath(path, name), &op, &np)
			} else if !isTrue(n.XPreserveUnknownFields) && !allowsAny(n) && !(path == "^" && alwaysKept[name]) && !underMetadata(path) && !d.keepsUnknown {
				d.removedField(path, name, n)
			}
		}
	}
	if o.Items != nil && o.Items.Schema != nil {
		if n.Items == nil || n.Items.Schema == nil {
			d.removed(path+"[*]", "items schema removed")
		} else {
			below := d
			below.parent = n
			below.node(path+"[*]", o.Items.Schema, n.Items.Schema)
		}
	}
	d.additionalProperties(path, o, n)
}

// sameMap reports whether a and b are one map.
func sameMap(a, b map[string]apiextv1.JSONSchemaProps) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// underMetadata reports whether path is the object's metadata or below it. The API server never
// prunes metadata by the schema (ObjectMeta is decoded as such; a structural schema may only
// restrict metadata.name and generateName), so a field removed from the metadata schema loses
// nothing: old v1beta1 CRDs listed every ObjectMeta field there (argocd-operator 0.0.3).
func underMetadata(path string) bool {
	return path == "^.metadata" || strings.HasPrefix(path, "^.metadata.")
}

// alwaysKept are the root fields the API server keeps whatever the schema says.
var alwaysKept = map[string]bool{"apiVersion": true, "kind": true, "metadata": true}

// allowsAny reports whether n keeps arbitrary map keys (additionalProperties true or a schema).
func allowsAny(n *apiextv1.JSONSchemaProps) bool {
	return n.AdditionalProperties != nil && (n.AdditionalProperties.Allows || n.AdditionalProperties.Schema != nil)
}

func (d schemaDiffer) additionalProperties(path string, o, n *apiextv1.JSONSchemaProps) {
	oa, na := o.AdditionalProperties, n.AdditionalProperties
	switch {
	case oa == nil:
		if na != nil && !na.Allows && na.Schema == nil && len(n.Properties) == 0 && !isTrue(n.XPreserveUnknownFields) {
			d.add(RuleAdditionalProperties, path, "", "false", "additionalProperties: false added")
		}
	case !oa.Allows && oa.Schema == nil:
		// The old schema already refused extra keys.
	case na == nil || (!na.Allows && na.Schema == nil):
		if !isTrue(n.XPreserveUnknownFields) {
			d.add(RuleAdditionalProperties, path, "allowed", "not allowed",
				"additionalProperties removed; existing map entries are pruned or rejected")
		}
	case oa.Schema != nil && na.Schema != nil:
		below := d
		below.parent = n
		below.node(path+".*", oa.Schema, na.Schema)
	}
}
