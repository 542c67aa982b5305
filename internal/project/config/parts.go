package config

import (
	"fmt"
	"path"
	"path/filepath"
	"sort"

	"gopkg.in/yaml.v3"
)

// SetDir sets the project folder of the project and of its parts.
func (p *Project) SetDir(dir string) {
	p.Dir = dir
	for _, part := range p.parts {
		part.Dir = dir
	}
}

// decodeParts makes a project of each entry of bundles: the top-level fields, each one the entry
// sets replaced by the entry's. The document was decoded strictly already (bundles holds
// Projects), so every key here is known.
func (p *Project) decodeParts() (*Project, error) {
	var seq *yaml.Node
	var top []*yaml.Node
	for i := 0; i+1 < len(p.root.Content); i += 2 {
		if p.root.Content[i].Value == "bundles" {
			seq = p.root.Content[i+1]
			continue
		}
		top = append(top, p.root.Content[i], p.root.Content[i+1])
	}
	var errs []*FieldError
	for i, entry := range seq.Content {
		merged := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: entry.Line, Column: entry.Column}
		set := map[string]bool{}
		for j := 0; j+1 < len(entry.Content); j += 2 {
			set[entry.Content[j].Value] = true
		}
		for j := 0; j+1 < len(top); j += 2 {
			if !set[top[j].Value] {
				merged.Content = append(merged.Content, top[j], top[j+1])
			}
		}
		merged.Content = append(merged.Content, entry.Content...)
		part := &Project{}
		if err := merged.Decode(part); err != nil {
			return nil, configError(p.File, err)
		}
		if len(part.Bundles) > 0 {
			errs = append(errs, &FieldError{File: p.File, Line: entry.Line, Field: fmt.Sprintf("bundles[%d].bundles", i), Msg: "a bundle of bundles lists no bundles of its own"})
			continue
		}
		part.File, part.root, part.index = p.File, merged, i+1
		part.applyPartDefaults(len(seq.Content))
		for _, e := range part.validate() {
			e.Field = fmt.Sprintf("bundles[%d].%s", i, e.Field)
			errs = append(errs, e)
		}
		p.parts = append(p.parts, part)
	}
	errs = append(errs, p.partsApart()...)
	if len(errs) > 0 {
		sort.SliceStable(errs, func(i, j int) bool { return errs[i].Line < errs[j].Line })
		return nil, &ConfigError{Errs: errs}
	}
	return p, nil
}

// applyPartDefaults fills a part in: the defaults of a project, with the folders of each of
// several bundles apart (bundle/<name>, _output/<name>, deploy/<name>, catalogs/<name>).
func (p *Project) applyPartDefaults(n int) {
	def(&p.Name, p.Package)
	if n > 1 && p.Name != "" {
		def(&p.Bundle.Dir, path.Join(DefaultBundleDir, p.Name))
		def(&p.Outputs.Dir, path.Join(DefaultOutputDir, p.Name))
		def(&p.Outputs.Deploy, path.Join(DefaultDeployDir, p.Name))
		if len(p.Catalogs) == 1 && p.Catalogs[0].Mode != CatalogModeFBC {
			def(&p.Catalogs[0].Template, path.Join("catalog-templates", p.Name+".yaml"))
			if p.Catalogs[0].File == "" {
				def(&p.Catalogs[0].Dir, path.Join("catalogs", p.Name))
			}
		}
	}
	p.applyDefaults()
	if n > 1 {
		def(&p.Bundle.Dockerfile, p.Bundle.Dir+".Dockerfile")
	}
}

// partsApart checks that no two bundles share a name or an output.
func (p *Project) partsApart() []*FieldError {
	var errs []*FieldError
	type owner struct {
		part  *Project
		field []any
	}
	names := map[string]int{}
	seen := map[string]owner{}
	for i, part := range p.parts {
		if j, ok := names[part.Name]; ok && part.Name != "" {
			errs = append(errs, &FieldError{File: p.File, Line: part.Line("name"), Field: fmt.Sprintf("bundles[%d].name", i),
				Msg: fmt.Sprintf("%q is also bundles[%d]'s name (set name, or package, apart)", part.Name, j)})
		}
		names[part.Name] = i
		outs := []struct {
			field []any
			value string
		}{{at("bundle", "dir"), part.Bundle.Dir}, {at("bundle", "dockerfile"), part.Bundle.Dockerfile},
			{at("outputs", "dir"), part.Outputs.Dir}, {at("outputs", "deploy"), part.Outputs.Deploy}}
		for k, c := range part.Catalogs {
			outs = append(outs, struct {
				field []any
				value string
			}{at("catalogs", k, "dir"), c.Dir}, struct {
				field []any
				value string
			}{at("catalogs", k, "file"), c.File})
		}
		for _, o := range outs {
			if o.value == "" {
				continue
			}
			key := filepath.Clean(o.value)
			if prev, ok := seen[key]; ok && prev.part != part {
				errs = append(errs, &FieldError{File: p.File, Line: part.Line(o.field...), Field: fmt.Sprintf("bundles[%d].%s", i, fieldName(o.field...)),
					Msg: fmt.Sprintf("%q is also bundles[%d].%s: each bundle needs its own outputs", o.value, prev.part.index-1, fieldName(prev.field...))})
				continue
			}
			seen[key] = owner{part, o.field}
		}
	}
	return errs
}
