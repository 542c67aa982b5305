package project

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/blang/semver/v4"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/catalog/check"
	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/crd"
	crdload "github.com/opack/opack/internal/crd/load"
	"github.com/opack/opack/internal/emit"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/finding"
)

// RuleCRDUpgrade is the rule of the crd-upgrade step's own findings (CRDs it could not read);
// a CRD upgrade finding has its rule's id, crd.Rule.ID ("crd-upgrade/<rule>"), as every command.
const RuleCRDUpgrade = "crd/upgrade"

// previousRelease is what the new bundle's CRDs are compared with.
type previousRelease struct {
	name string // bundle (CSV) name, when known
	desc string // how it is named in messages
	crds []*apiextv1.CustomResourceDefinition
}

// crdUpgrade compares the CRDs of the new bundle with the previous release's.
func (r *run) crdUpgrade(ctx context.Context) error {
	prev, err := r.previous(ctx)
	if err != nil {
		return err
	}
	if prev == nil {
		r.o.logf("  no previous release: the CRD upgrade check has nothing to compare with")
		return nil
	}
	if prev.name != "" {
		r.prevEdge = graph.EdgeKey{Package: r.p.Package, From: prev.name, To: r.csvName}
	}
	set, err := crdload.CRDs(ctx, r.bundleDir)
	if err != nil {
		return stepErr(StepCRDUpgrade, r.p.Bundle.Dir, err, "")
	}
	files := map[string]string{}
	for k, f := range set.Files {
		files[k] = r.projectName(f)
	}
	r.crdSrc = r.crdSources()
	opts := append([]crd.Option{crd.WithCSVRefs(nil, set.Refs), crd.WithFiles(files), crd.WithContext(ctx)}, r.installerOptions()...)
	if set.HasCSV {
		opts = append(opts, crd.WithNewGrants(set.Grants))
	}
	found := crd.Compare(prev.crds, set.CRDs, opts...)
	object := func(f crd.Finding) string { return "CustomResourceDefinition " + f.CRD }
	fs := r.crdFindings(found, "upgrade from "+prev.desc+" to "+r.version+": ", object, "")
	return r.splitFindings(StepCRDUpgrade, fs, fmt.Sprintf("unsafe CRD change(s) from %s to %s", prev.desc, r.version),
		"keep the CRD compatible (the findings say how), or, once reviewed, accept a finding with a waivers entry (rule, crd, path, reason) in "+r.p.File)
}

// installerOptions are the CRD check's options that say what the project deploys with: the installers,
// and, with OLM v1, the oldest operator-controller release of its clusters (deploy.olmv1.minOLMVersion):
// below v1.4.0, what that release's preflight refuses fails the release too.
func (r *run) installerOptions() []crd.Option {
	installers := r.installers()
	opts := []crd.Option{crd.WithInstallers(installers...)}
	if slices.Contains(installers, crd.ActorOLMv1) {
		opts = append(opts, crd.WithOLMv1MinVersion(r.p.Deploy.OLMv1.MinOLMVersion))
	}
	return opts
}

// installers are the OLM generations the project deploys with (deploy.olm): a CRD change one of them
// refuses fails the release, whatever the rule's default severity.
func (r *run) installers() []crd.Actor {
	t, err := emit.ParseTarget(r.p.Deploy.OLM)
	if err != nil { // config.Load refused it already
		t = emit.TargetBoth
	}
	var out []crd.Actor
	if t.V0() {
		out = append(out, crd.ActorOLMv0)
	}
	if t.V1() {
		out = append(out, crd.ActorOLMv1)
	}
	return out
}

// crdFindings applies the waivers and migrations of opack.yaml to CRD findings and converts them.
// A waived finding stays in the report as info, saying who accepted it and why.
func (r *run) crdFindings(found []crd.Finding, prefix string, object func(crd.Finding) string, file string) []finding.Finding {
	var out []finding.Finding
	for _, f := range found {
		sev := f.Severity.FindingSeverity()
		path := strings.TrimPrefix(strings.TrimPrefix(f.Path, "^."), "^")
		msg := prefix + f.String() + " [" + string(f.Rule) + "]"
		if src := r.crdSrc[f.CRD]; src != "" && file == "" {
			msg += "; source: " + src + " (the bundle's file is generated from it)"
		}
		if w, ok := r.waived(f, path); ok {
			sev, msg = finding.SeverityInfo, msg+"; waived in "+r.p.File+": "+w
		} else if f.Fix != "" {
			msg += "; fix: " + f.Fix
		}
		name := f.File
		if file != "" {
			name = file
		}
		var paths []string
		if f.Path != "" {
			paths = []string{f.Path}
		}
		out = append(out, finding.Finding{Severity: sev, Semantic: f.Semantic.FindingSeverity(), File: name, Object: object(f), Rule: f.Rule.ID(), Message: msg,
			CRD: f.CRD, Version: f.Version, Path: f.Path, Paths: paths, Old: f.Old, New: f.New, Fix: f.Fix, Actor: string(f.Actor), Actors: f.Actors()})
	}
	return out
}

// waived returns why a finding is accepted: a waivers entry, or a declared storage migration for
// the removal of a stored version. The waiver names the rule by any of crd.Rule.WaiverIDs.
func (r *run) waived(f crd.Finding, path string) (string, bool) {
	for _, rule := range f.Rule.WaiverIDs() {
		if i := r.p.WaiverIndex(rule, f.CRD, path); i >= 0 {
			if r.usedWaivers == nil {
				r.usedWaivers = map[int]bool{}
			}
			r.usedWaivers[i] = true
			return r.p.Waivers[i].Reason, true
		}
	}
	if f.Rule == crd.RuleStoredVersionRemoved || f.Rule == crd.RuleVersionRemoved {
		for _, v := range r.p.MigratedVersions(f.CRD) {
			if v == f.Version {
				return "storedVersions migrated off " + v + " (migrations)", true
			}
		}
	}
	return "", false
}

// splitFindings keeps warnings in the result and turns errors into the step's failure.
func (r *run) splitFindings(step string, fs []finding.Finding, what, fix string) error {
	var errs []finding.Finding
	for _, f := range fs {
		if f.Severity == finding.SeverityError {
			errs = append(errs, f)
		} else {
			r.res.Findings = append(r.res.Findings, f)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return &StepError{Step: step, File: errs[0].File, Findings: errs, Fix: fix, failed: true,
		Err: fmt.Errorf("%d %s", len(errs), what)}
}

// previous finds the release to compare with: previous.dir, previous.image, previous.version in
// the first catalog, or the highest version below this one in the first catalog's channels. nil:
// there is none (previous.none, or the first release).
func (r *run) previous(ctx context.Context) (*previousRelease, error) {
	pv := r.p.Previous
	switch {
	case pv.None:
		return nil, nil
	case pv.Dir != "":
		set, err := crdload.CRDs(ctx, r.path(pv.Dir))
		if err != nil {
			return nil, stepErr(StepCRDUpgrade, pv.Dir, err, "set previous.dir to the bundle folder of the previous release")
		}
		return &previousRelease{desc: pv.Dir, crds: set.CRDs}, nil
	case pv.Image != "":
		crds, err := r.imageCRDs(ctx, pv.Image)
		if err != nil {
			return nil, stepErr(StepCRDUpgrade, r.p.File, err, "set previous.image to a bundle image you can pull")
		}
		return &previousRelease{desc: pv.Image, crds: crds}, nil
	}
	c := r.p.Catalogs[0]
	cfg, err := r.renderCurrent(ctx, 0)
	if err != nil || cfg == nil {
		return nil, err
	}
	m, _ := check.ConvertToModel(cfg)
	b := r.previousBundle(m)
	if b == nil {
		if pv.Version != "" {
			return nil, stepErr(StepCRDUpgrade, c.Template, fmt.Errorf("previous.version %s is not in the catalog template", pv.Version),
				"set previous.version to a version of package "+r.p.Package+" in "+c.Template)
		}
		return nil, nil
	}
	crds, ok, err := check.ObjectCRDs{}.CRDs(ctx, b.Blob)
	if err == nil && !ok {
		crds, err = r.imageCRDs(ctx, b.Blob.Image)
	}
	if err != nil {
		return nil, stepErr(StepCRDUpgrade, c.Template, fmt.Errorf("reading the CRDs of %s: %w", b.Blob.Name, err), "")
	}
	return &previousRelease{name: b.Blob.Name, desc: b.Blob.Name, crds: crds}, nil
}

// previousBundle is the bundle of previous.version, or the highest version below the one being
// built among the bundles in the project's channels.
func (r *run) previousBundle(m *fbc.Model) *fbc.ModelBundle {
	pkg := m.Packages[r.p.Package]
	if pkg == nil {
		return nil
	}
	cur := semver.MustParse(r.version)
	var best *fbc.ModelBundle
	for _, chName := range r.p.Channels {
		ch := pkg.Channels[chName]
		if ch == nil {
			continue
		}
		for _, e := range ch.Entries {
			b := pkg.Bundles[e.Name]
			if b == nil || !b.HasVersion || b.Blob.Name == r.csvName {
				continue
			}
			if r.p.Previous.Version != "" {
				if b.Version.String() == r.p.Previous.Version {
					return b
				}
				continue
			}
			if b.Version.LT(cur) && (best == nil || b.Version.GT(best.Version)) {
				best = b
			}
		}
	}
	return best
}

// imageCRDs unpacks a bundle image and loads its CRDs.
func (r *run) imageCRDs(ctx context.Context, ref string) ([]*apiextv1.CustomResourceDefinition, error) {
	dir, err := os.MkdirTemp(r.stage, "previous-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if _, err := r.images.Unpack(ctx, ref, dir); err != nil {
		return nil, fmt.Errorf("pulling %s: %w", ref, err)
	}
	set, err := crdload.CRDs(ctx, filepath.Join(dir, "manifests"))
	if err != nil {
		return nil, err
	}
	return set.CRDs, nil
}

// edgeFindings checks the CRDs on every upgrade edge of a rendered catalog (waivers and
// migrations applied; the edge the crd-upgrade step checked is not compared again), and the
// storage versions along every upgrade path.
func (r *run) edgeFindings(ctx context.Context, cfg *fbc.DeclarativeConfig, file string) []finding.Finding {
	m, _ := check.ConvertToModel(cfg)
	g := graph.BuildGraph(m)
	type crds struct {
		list []*apiextv1.CustomResourceDefinition
		csv  string // the bundle's CSV as JSON, "" if none
		ok   bool
		err  error
	}
	cache := map[[2]string]crds{}
	get := func(pkg, name string) crds {
		k := [2]string{pkg, name}
		if c, ok := cache[k]; ok {
			return c
		}
		var c crds
		if b := m.Packages[pkg].Bundles[name]; b != nil {
			c.list, c.ok, c.err = check.ObjectCRDs{}.CRDs(ctx, b.Blob)
			c.csv = b.Blob.CsvJSON
		}
		cache[k] = c
		return c
	}
	seen := map[graph.EdgeKey]bool{}
	var out []finding.Finding
	for e := range g.All() {
		k := graph.EdgeKey{Package: e.Package, From: e.From, To: e.To}
		if seen[k] {
			continue
		}
		seen[k] = true
		oldC, newC := get(e.Package, e.From), get(e.Package, e.To)
		object := fmt.Sprintf("package %q edge %s -> %s", e.Package, e.From, e.To)
		for _, c := range []crds{oldC, newC} {
			if c.err != nil {
				f := finding.Errorf(file, object, RuleCRDUpgrade, "reading CRDs: %v", c.err)
				f.Package, f.Edges = e.Package, []finding.Edge{{From: e.From, To: e.To}}
				out = append(out, f)
			}
		}
		if !oldC.ok || !newC.ok || k == r.prevEdge {
			continue
		}
		found := compareEdgeCRDs(ctx, oldC.list, newC.list, newC.csv, r.installerOptions()...)
		for _, f := range r.crdFindings(found, fmt.Sprintf("upgrade %s -> %s: ", e.From, e.To), func(crd.Finding) string { return object }, file) {
			f.Package, f.Edges = e.Package, []finding.Edge{{From: e.From, To: e.To}}
			out = append(out, f)
		}
	}
	return append(out, r.storedVersionFindings(g, func(pkg, name string) ([]*apiextv1.CustomResourceDefinition, bool) {
		c := get(pkg, name)
		return c.list, c.ok
	}, file)...)
}

// compareEdgeCRDs compares the CRDs of an edge, with the new bundle's CSV (JSON, "" if none) saying
// whether the operator still creates a removed CRD's objects, as catalog validate does.
func compareEdgeCRDs(ctx context.Context, old, new []*apiextv1.CustomResourceDefinition, newCSV string, installers ...crd.Option) []crd.Finding {
	opts := append([]crd.Option{crd.WithContext(ctx)}, installers...)
	if newCSV != "" {
		if grants, ok := crdload.CSVGrants([]byte(newCSV)); ok {
			opts = append(opts, crd.WithNewGrants(grants))
		}
	}
	return crd.Compare(old, new, opts...)
}
