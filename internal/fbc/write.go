package fbc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/opack/opack/internal/manifest"
	"sigs.k8s.io/yaml"
)

// WriteJSON writes cfg as opm's WriteJSON does: blobs grouped by package (packages sorted by
// name; package blob, channels by name, bundles by name, other schemas, deprecations), then
// other blobs without a package; 4-space indented JSON objects, HTML not escaped.
func WriteJSON(cfg DeclarativeConfig, w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "    ")
	enc.SetEscapeHTML(false)
	return writeBlobs(&cfg, enc.Encode)
}

// WriteYAML writes cfg as opm's WriteYAML does: the order of WriteJSON, each blob converted
// with sigs.k8s.io/yaml.JSONToYAML (keys sorted) and preceded by "---".
func WriteYAML(cfg DeclarativeConfig, w io.Writer) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return writeBlobs(&cfg, func(v any) error {
		buf.Reset()
		if err := enc.Encode(v); err != nil {
			return err
		}
		y, err := yaml.JSONToYAML(buf.Bytes())
		if err != nil {
			return err
		}
		if _, err := io.WriteString(w, "---\n"); err != nil {
			return err
		}
		_, err = w.Write(y)
		return err
	})
}

// Write writes cfg in format "json" or "yaml".
func Write(cfg DeclarativeConfig, format string, w io.Writer) error {
	switch format {
	case "json":
		return WriteJSON(cfg, w)
	case "yaml":
		return WriteYAML(cfg, w)
	}
	return fmt.Errorf("unknown output format %q: use one of json, yaml", format)
}

// WriteDir writes cfg as opm's WriteFS does: <dir>/<package>/catalog.<format> per package
// and <dir>/catalog.<format> for blobs without a package. Each file is written atomically.
func WriteDir(cfg DeclarativeConfig, dir, format string) error {
	if format != "json" && format != "yaml" {
		return fmt.Errorf("unknown output format %q: use one of json, yaml", format)
	}
	for _, pkg := range splitByPackage(&cfg) {
		name := "catalog." + format
		if pkg.name != "" {
			if !filepath.IsLocal(pkg.name) || filepath.Base(pkg.name) != pkg.name {
				return fmt.Errorf("invalid package name %q: must be a single local path element", pkg.name)
			}
			name = filepath.Join(pkg.name, name)
		}
		var buf bytes.Buffer
		if err := Write(*pkg.cfg, format, &buf); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		if err := manifest.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	return nil
}

type packageConfig struct {
	name string
	cfg  *DeclarativeConfig
}

// splitByPackage groups cfg by package name, sorted, the package-less blobs first.
func splitByPackage(cfg *DeclarativeConfig) []packageConfig {
	by := map[string]*DeclarativeConfig{}
	get := func(name string) *DeclarativeConfig {
		if by[name] == nil {
			by[name] = &DeclarativeConfig{}
		}
		return by[name]
	}
	for _, p := range cfg.Packages {
		get(p.Name).Packages = append(get(p.Name).Packages, p)
	}
	for _, c := range cfg.Channels {
		get(c.Package).Channels = append(get(c.Package).Channels, c)
	}
	for _, b := range cfg.Bundles {
		get(b.Package).Bundles = append(get(b.Package).Bundles, b)
	}
	for _, o := range cfg.Others {
		get(o.Package).Others = append(get(o.Package).Others, o)
	}
	for _, d := range cfg.Deprecations {
		get(d.Package).Deprecations = append(get(d.Package).Deprecations, d)
	}
	names := make([]string, 0, len(by))
	for n := range by {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]packageConfig, len(names))
	for i, n := range names {
		out[i] = packageConfig{name: n, cfg: by[n]}
	}
	return out
}

func writeBlobs(cfg *DeclarativeConfig, encode func(any) error) error {
	var unpackaged []Meta
	for _, pkg := range splitByPackage(cfg) {
		c := pkg.cfg
		if pkg.name == "" {
			unpackaged = c.Others // opm drops package-less packages, channels and bundles
			continue
		}
		sort.SliceStable(c.Channels, func(i, j int) bool { return c.Channels[i].Name < c.Channels[j].Name })
		sort.SliceStable(c.Bundles, func(i, j int) bool { return c.Bundles[i].Name < c.Bundles[j].Name })
		sort.SliceStable(c.Others, func(i, j int) bool { return c.Others[i].Schema < c.Others[j].Schema })
		for i := range c.Packages {
			if err := encode(&c.Packages[i]); err != nil {
				return err
			}
		}
		for i := range c.Channels {
			if err := encode(&c.Channels[i]); err != nil {
				return err
			}
		}
		for i := range c.Bundles {
			if err := encode(&c.Bundles[i]); err != nil {
				return err
			}
		}
		for i := range c.Others {
			if err := encode(c.Others[i]); err != nil {
				return err
			}
		}
		for i := range c.Deprecations {
			if err := encode(&c.Deprecations[i]); err != nil {
				return err
			}
		}
	}
	for _, o := range unpackaged {
		if err := encode(o); err != nil {
			return err
		}
	}
	return nil
}
