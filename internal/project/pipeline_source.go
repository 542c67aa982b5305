package project

import (
	"path"
	"path/filepath"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/manifest"
	"github.com/opack/opack/internal/project/config"
)

// crdSources maps the name of each CRD defined under the kustomize tree (the folder holding
// kustomizeDir, config/ in operator-sdk projects) to its file, relative to the project: the file
// to edit when a finding names the bundle's generated copy. Files that do not parse, patches
// (no spec.names.kind) and names defined in several files are left out.
func (r *run) crdSources() map[string]string {
	rootRel := path.Dir(filepath.ToSlash(r.p.KustomizeDir))
	if rootRel == "." {
		rootRel = filepath.ToSlash(r.p.KustomizeDir)
	}
	files, err := manifest.Files(r.path(rootRel))
	if err != nil {
		return nil
	}
	skip := []string{path.Clean(r.p.Bundle.Dir) + "/", path.Clean(r.p.Outputs.Dir) + "/"}
	out := map[string]string{}
	dup := map[string]bool{}
	for _, f := range files {
		rel := path.Join(rootRel, f)
		if ext := path.Ext(f); ext != ".yaml" && ext != ".yml" && ext != ".json" || hasAnyPrefix(rel, skip) {
			continue
		}
		docs, err := manifest.ReadFile(r.path(rel))
		if err != nil {
			continue
		}
		for _, d := range docs {
			o := d.Object
			kind, _, _ := unstructured.NestedString(o.Object, "spec", "names", "kind")
			if o.GetKind() != "CustomResourceDefinition" || kind == "" || o.GetName() == "" {
				continue
			}
			if prev, ok := out[o.GetName()]; ok && prev != rel {
				dup[o.GetName()] = true
			}
			out[o.GetName()] = rel
		}
	}
	for n := range dup {
		delete(out, n)
	}
	return out
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// RuleDefaultChannel is the rule of the finding for a package whose default channel the
// rendered catalog does not have.
const RuleDefaultChannel = "build/default-channel"

// defaultChannelFindings explains opm's "channel must contain at least one bundle" for the
// project's package when its default channel is missing from the rendered catalog: which
// default channel, where it is set and which channels there are.
func (r *run) defaultChannelFindings(cfg *fbc.DeclarativeConfig, c config.Catalog) []finding.Finding {
	var out []finding.Finding
	for _, pkg := range cfg.Packages {
		if pkg.Name != r.p.Package || pkg.DefaultChannel == "" {
			continue
		}
		var names []string
		for _, ch := range cfg.Channels {
			if ch.Package == pkg.Name {
				if ch.Name == pkg.DefaultChannel {
					return nil
				}
				names = append(names, ch.Name)
			}
		}
		sort.Strings(names)
		out = append(out, finding.Errorf(c.Source(), "package "+pkg.Name, RuleDefaultChannel,
			"default channel %q not found: the catalog's channels of %s are %s; set defaultChannel in %s (and in %s) to one of them, or add %q to channels",
			pkg.DefaultChannel, pkg.Name, strings.Join(names, ", "), r.p.File, c.Source(), pkg.DefaultChannel))
	}
	return out
}
