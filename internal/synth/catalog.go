package synth

import (
	"encoding/json"
	"path/filepath"
)

// writeCatalog writes the package's FBC: olm.package, one olm.channel, and an olm.bundle per
// bundle with olm.package, olm.gvk and olm.bundle.object properties, as `opm render` gives.
func writeCatalog(dir string, p *pkgModel) error {
	docs := []any{
		obj{"schema": "olm.package", "name": p.name, "defaultChannel": "stable"},
		p.channel(),
	}
	for _, b := range p.bundles {
		docs = append(docs, p.fbcBundle(b))
	}
	var out []byte
	for _, d := range docs {
		data, err := json.MarshalIndent(d, "", "    ")
		if err != nil {
			return err
		}
		out = append(append(out, data...), '\n')
	}
	return writeFile(filepath.Join(dir, "catalog.json"), out)
}

func (p *pkgModel) channel() obj {
	var entries []any
	for _, b := range p.bundles {
		e := obj{"name": b.name}
		if b.replaces != "" {
			e["replaces"] = b.replaces
		}
		if len(b.skips) > 0 {
			e["skips"] = toAny(b.skips)
		}
		if b.skipRange != "" {
			e["skipRange"] = b.skipRange
		}
		entries = append(entries, e)
	}
	return obj{"schema": "olm.channel", "name": "stable", "package": p.name, "entries": entries}
}

func (p *pkgModel) fbcBundle(b bundleModel) obj {
	props := []any{obj{"type": "olm.package", "value": obj{"packageName": p.name, "version": b.version}}}
	for _, kind := range p.kinds {
		props = append(props, obj{"type": "olm.gvk", "value": obj{"group": p.group, "kind": kind, "version": "v1"}})
	}
	objects := []any{p.csv(b)}
	for k := range p.kinds {
		objects = append(objects, p.crd(k, b))
	}
	for _, o := range objects {
		data, _ := json.Marshal(o) // []byte is base64-encoded by encoding/json, as opm stores it
		props = append(props, obj{"type": "olm.bundle.object", "value": obj{"data": data}})
	}
	return obj{
		"schema": "olm.bundle", "name": b.name, "package": p.name,
		"image":         p.image("bundle", b),
		"relatedImages": []any{obj{"name": "", "image": p.image("bundle", b)}, obj{"name": "controller", "image": p.image("controller", b)}},
		"properties":    props,
	}
}
