package crd

import (
	"context"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/crd/instance"
	"github.com/opack/opack/internal/crd/load"
	"github.com/opack/opack/internal/crd/preflight"
)

// Option configures Compare.
type Option func(*options)

type options struct {
	ctx            context.Context
	storedVersions []string
	storedSet      bool
	cluster        map[string]*apiextv1.CustomResourceDefinition
	policy         Policy
	instances      []load.Instance
	evidence       bool
	oldRefs        []load.VersionRef
	newRefs        []load.VersionRef
	files          map[string]string
	apiserver      bool
	newGrants      []load.Grant
	grantsKnown    bool
	installers     []Actor
	// preflights are the OLM v1 preflights modelled (WithOLMv1MinVersion); crdify's by default.
	preflights []preflight.Preflight
}

// WithInstallers names the installers the upgrade goes through (ActorOLMv0, ActorOLMv1: what the
// project deploys with). A finding whose change one of them refuses outright is an error whatever its
// rule's default or severity decision: the release would not install. A change only another installer
// refuses is at least a warning; without WithInstallers (a standalone check) every installer is
// another one.
func WithInstallers(installers ...Actor) Option {
	return func(o *options) { o.installers = installers }
}

// WithStoredVersions sets the live CRDs' status.storedVersions (the same list for every CRD; versions a
// CRD does not have are ignored for it). Without it, a CRD's stored versions come from the cluster CRD
// (WithClusterCRDs) or else from the old CRD's status.storedVersions; the old storage version is always added.
func WithStoredVersions(versions ...string) Option {
	return func(o *options) { o.storedVersions, o.storedSet = versions, true }
}

// WithClusterCRDs gives the CRDs as the cluster has them (kubectl get crd -o yaml); their
// status.storedVersions are the stored versions of the CRDs of the same name.
func WithClusterCRDs(crds []*apiextv1.CustomResourceDefinition) Option {
	return func(o *options) {
		o.cluster = make(map[string]*apiextv1.CustomResourceDefinition, len(crds))
		for _, c := range crds {
			o.cluster[c.Name] = c
		}
	}
}

// WithPolicy sets per-rule severities.
func WithPolicy(p Policy) Option { return func(o *options) { o.policy = p } }

// WithInstances gives existing objects; each is validated against the new schema of every version
// served in both the old and the new CRD (OLM v0's check), including x-kubernetes-validations.
// The objects are taken as the complete set of existing objects: findings of rules whose only risk is
// that existing objects stop validating (checkable) are then at most warnings.
func WithInstances(objs []load.Instance) Option {
	return func(o *options) { o.instances, o.evidence = objs, true }
}

// WithCSVRefs gives the CRD versions the old and new releases' CSVs own or require.
func WithCSVRefs(old, new []load.VersionRef) Option {
	return func(o *options) { o.oldRefs, o.newRefs = old, new }
}

// WithNewGrants gives the RBAC rules of the new release's CSVs: a removed CRD is then reported
// by whether the new CSV still holds create rights on it.
func WithNewGrants(grants []load.Grant) Option {
	return func(o *options) { o.newGrants, o.grantsKnown = grants, true }
}

// WithFiles maps CRD names to the files the new CRDs came from, for Finding.File.
func WithFiles(files map[string]string) Option { return func(o *options) { o.files = files } }

// WithAPIServerValidation turns the API server's update validation of each new CRD (K1-K22, ratcheted
// against the old CRD) on or off; it is on by default.
func WithAPIServerValidation(on bool) Option { return func(o *options) { o.apiserver = on } }

// WithContext sets the context that bounds CEL evaluation of instances.
func WithContext(ctx context.Context) Option { return func(o *options) { o.ctx = ctx } }

// Compare checks the upgrade from the old CRDs to the new ones (matched by name) and returns the
// findings, sorted, with severities from the policy; findings whose rule is off are dropped. CRDs only in
// new are additions (crd-added, info: nothing exists to break), and their CSV references are checked.
// Problems the old release already had and the new one keeps are reported as pre-existing (at most
// warnings): the upgrade does not cause them, and `opack validate bundle` judges a bundle on its own.
func Compare(old, new []*apiextv1.CustomResourceDefinition, opts ...Option) []Finding {
	o := options{ctx: context.Background(), apiserver: true, preflights: []preflight.Preflight{preflight.Crdify}}
	for _, opt := range opts {
		opt(&o)
	}
	newByName := make(map[string]*apiextv1.CustomResourceDefinition, len(new))
	for _, c := range new {
		newByName[c.Name] = c
	}
	var changes []change
	emit := func(c change) { changes = append(changes, c) }
	for _, oc := range old {
		nc, ok := newByName[oc.Name]
		if !ok {
			emit(change{Finding: Finding{Rule: RuleCRDRemoved, CRD: oc.Name, Message: removedMessage(oc, o.newGrants, o.grantsKnown)}})
			continue
		}
		compareCRD(&o, oc, nc, emit)
	}
	oldNames := make(map[string]bool, len(old))
	for _, oc := range old {
		oldNames[oc.Name] = true
	}
	for _, nc := range new {
		if !oldNames[nc.Name] {
			emit(change{Finding: Finding{Rule: RuleCRDAdded, CRD: nc.Name, Message: "CRD added by the new release; no object of it exists yet, so nothing can break"}})
		}
	}
	checkRefs(&o, old, new, emit)
	return finish(&o, changes)
}

// CompareSets is Compare for two loaded sets: it adds the sets' CSV references and file names.
func CompareSets(old, new *load.Set, opts ...Option) []Finding {
	opts = append([]Option{WithCSVRefs(old.Refs, new.Refs), WithFiles(new.Files)}, opts...)
	if new.HasCSV {
		opts = append([]Option{WithNewGrants(new.Grants)}, opts...)
	}
	return Compare(old.CRDs, new.CRDs, opts...)
}

func compareCRD(o *options, oc, nc *apiextv1.CustomResourceDefinition, emit func(change)) {
	var mine []change
	in := func(version string) func(change) {
		return func(c change) {
			c.CRD = nc.Name
			if c.Version == "" {
				c.Version = version
			}
			mine = append(mine, c)
		}
	}
	defer func() {
		for _, c := range attachOLMv1(o, oc, nc, mine) {
			emit(c)
		}
	}()
	compareNames(oc, nc, in(""))
	compareVersions(oc, nc, o.stored(oc), in(""))
	for i := range oc.Spec.Versions {
		ov := &oc.Spec.Versions[i]
		nv := findVersion(nc, ov.Name)
		// A version that starts or stops being served has no schema to keep compatible: no client
		// used it before, or none can use it after (version-unserved and the served-version round
		// trip cover those transitions).
		if nv == nil || ov.Served != nv.Served {
			continue
		}
		version := in(ov.Name)
		diffVersions(ov, nv, nc.Spec.PreserveUnknownFields, func(c change) { version(o.withEvidence(c)) })
	}
	compareServed(o.severity, oc, nc, in(""))
	if o.apiserver {
		validateUpdate(oc, nc, o.stored(oc), in(""))
	}
	if len(o.instances) > 0 {
		for _, p := range instance.Check(o.ctx, oc, nc, o.instances) {
			in(p.Version)(instanceChange(nc.Name, p))
		}
	}
}

// instanceRules are the rules of instance.Check's problems.
var instanceRules = map[instance.Kind]Rule{
	instance.Invalid: RuleInstanceInvalid, instance.CELInvalid: RuleInstanceCELInvalid,
	instance.Unserved: RuleVersionUnserved, instance.Removed: RuleVersionRemoved,
}

// instanceChange is the change of a problem of an existing object of CRD crd: at most a warning when
// the object was read through a conversion webhook (the webhook may give another object).
func instanceChange(crd string, p instance.Problem) change {
	c := change{Finding: Finding{Rule: instanceRules[p.Kind], CRD: crd, Version: p.Version, Path: p.Path, File: p.File, Message: p.Message}}
	if p.Converted {
		c.ceiling = SeverityWarning
	}
	return c
}

// withEvidence caps checkable findings at warnings when the existing objects are validated. Without
// them, a live CRD (stored versions or cluster CRDs given) says objects exist: a change OLM v0 refuses
// for existing objects is then an error.
func (o *options) withEvidence(c change) change {
	if c.olmV0 && !o.evidence && (o.storedSet || o.cluster != nil) {
		c.ceiling = SeverityOff
		c.Message += "; a live CRD was given, so objects exist: error"
	}
	if o.evidence && checkable[c.Rule] && (c.ceiling == SeverityOff || c.ceiling > SeverityWarning) {
		c.ceiling = SeverityWarning
		c.Message += " (existing objects were validated against the new schema)"
	}
	return c
}

// severity returns the effective severity of a schema rule: the policy's, capped by the evidence.
func (o *options) severity(r Rule) Severity {
	s := o.policy.Severity(r)
	if o.evidence && checkable[r] && s > SeverityWarning {
		s = SeverityWarning
	}
	return s
}

// stored returns the stored versions of the live CRD that oc describes.
func (o *options) stored(oc *apiextv1.CustomResourceDefinition) []string {
	var list []string
	switch {
	case o.storedSet:
		for _, v := range o.storedVersions {
			if findVersion(oc, v) != nil {
				list = append(list, v)
			}
		}
	case o.cluster[oc.Name] != nil:
		list = append(list, o.cluster[oc.Name].Status.StoredVersions...)
	default:
		list = append(list, oc.Status.StoredVersions...)
	}
	if sv := storageVersion(oc); sv != "" && !contains(list, sv) {
		list = append(list, sv)
	}
	return list
}

func versionSchema(v *apiextv1.CustomResourceDefinitionVersion) *apiextv1.JSONSchemaProps {
	if v.Schema == nil {
		return nil
	}
	return v.Schema.OpenAPIV3Schema
}

func findVersion(c *apiextv1.CustomResourceDefinition, name string) *apiextv1.CustomResourceDefinitionVersion {
	for i := range c.Spec.Versions {
		if c.Spec.Versions[i].Name == name {
			return &c.Spec.Versions[i]
		}
	}
	return nil
}

func storageVersion(c *apiextv1.CustomResourceDefinition) string {
	for _, v := range c.Spec.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// actorFor returns who refuses or breaks on f's change: its first refuser, else clients, except on an
// info finding nobody refuses: info says nothing breaks, so nobody is named.
func actorFor(f Finding) Actor {
	if r := f.Refusers(); len(r) > 0 {
		return r[0]
	}
	if f.Severity == SeverityInfo {
		return ""
	}
	return ActorClients
}

// finish applies the policy and the refusers (judge), fills in fixes and files, drops duplicates and
// sorts. A finding the refusal alone raises above its semantic severity gets the refuser's fix unless
// its change brought one.
func finish(o *options, changes []change) []Finding {
	out := make([]Finding, 0, len(changes))
	seen := make(map[Finding]bool, len(changes))
	for _, c := range changes {
		f := c.Finding
		sem := o.policy.Severity(f.Rule)
		if c.ceiling != SeverityOff && sem > c.ceiling {
			sem = c.ceiling
		}
		if sem == SeverityOff {
			continue
		}
		f.Semantic = sem
		f.Severity, f.Deployed = judge(sem, f.Refusers(), o.installers)
		if f.Fix == "" {
			f.Fix = FixFor(f.Rule)
			if f.Raised() {
				f.Fix = installerFix(f, f.Semantic <= SeverityInfo)
			}
		}
		if f.File == "" {
			f.File = o.files[f.CRD]
		}
		if f.Actor == "" {
			f.Actor = actorFor(f)
		}
		if seen[f] {
			continue
		}
		seen[f] = true
		out = append(out, f)
	}
	sortFindings(out)
	return out
}
