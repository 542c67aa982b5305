package render

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/opack/opack/internal/fbc"
)

// packageManifest is a package-manifest file (<name>.package.yaml): the package, its channels
// and their head CSVs.
type packageManifest struct {
	PackageName string `json:"packageName"`
	Channels    []struct {
		Name       string `json:"name"`
		CurrentCSV string `json:"currentCSV"`
	} `json:"channels"`
	DefaultChannel string `json:"defaultChannel"`
}

// packageManifestFile returns the package-manifest file directly in dir ("" if none): a
// file named *.package.yaml (or .yml/.json) or package.yaml declaring packageName.
func packageManifestFile(dir string, entries []os.DirEntry) string {
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !(strings.HasSuffix(n, "package.yaml") || strings.HasSuffix(n, "package.yml") || strings.HasSuffix(n, "package.json")) {
			continue
		}
		var pm packageManifest
		if decodeFirstInto(filepath.Join(dir, n), &pm) == nil && pm.PackageName != "" {
			return filepath.Join(dir, n)
		}
	}
	return ""
}

// renderPackageManifestDir renders a package-manifest tree (one folder of manifests per
// version next to the package file) into an olm.package, one olm.channel per channel (every
// bundle reachable from the channel's head through replaces and skips, with the CSVs'
// replaces, skips and olm.skipRange) and one olm.bundle per version.
func (r *Renderer) renderPackageManifestDir(dir, file string) (*fbc.DeclarativeConfig, error) {
	var pm packageManifest
	if err := decodeFirstInto(file, &pm); err != nil {
		return nil, fmt.Errorf("reading package manifest %s: %w", file, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	byName := map[string]*registryBundle{}
	cfg := &fbc.DeclarativeConfig{}
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		rb := &registryBundle{pkg: pm.PackageName}
		vdir := filepath.Join(dir, e.Name())
		if err := rb.addManifests(vdir, r.warnings()); err != nil {
			return nil, fmt.Errorf("reading bundle %s: %w", vdir, err)
		}
		derived, err := rb.derivedProperties(r.warnings())
		if err != nil {
			return nil, fmt.Errorf("reading bundle %s: failed to derive properties: %s", vdir, err)
		}
		rb.properties = derived
		if err := r.templateImageRef(rb); err != nil {
			return nil, fmt.Errorf("failed templating image reference from bundle for %q: %v", vdir, err)
		}
		if _, dup := byName[rb.name]; dup {
			return nil, fmt.Errorf("package manifest %s: two folders hold ClusterServiceVersion %s", dir, rb.name)
		}
		byName[rb.name] = rb
		b, err := rb.toFBC()
		if err != nil {
			return nil, err
		}
		cfg.Bundles = append(cfg.Bundles, *b)
	}
	pkg := fbc.Package{Schema: fbc.SchemaPackage, Name: pm.PackageName, DefaultChannel: pm.DefaultChannel}
	for _, ch := range pm.Channels {
		c, err := packageManifestChannel(pm.PackageName, ch.Name, ch.CurrentCSV, byName)
		if err != nil {
			return nil, fmt.Errorf("package manifest %s: %w", file, err)
		}
		cfg.Channels = append(cfg.Channels, c)
		if ch.Name == pm.DefaultChannel {
			head := byName[ch.CurrentCSV]
			pkg.Description, pkg.Icon = head.descriptionAndIcon()
		}
	}
	cfg.Packages = []fbc.Package{pkg}
	return cfg, nil
}

// packageManifestChannel walks from head along replaces and skips.
func packageManifestChannel(pkg, name, head string, byName map[string]*registryBundle) (fbc.Channel, error) {
	if _, ok := byName[head]; !ok {
		return fbc.Channel{}, fmt.Errorf("channel %q: head %q is not among the bundles", name, head)
	}
	ch := fbc.Channel{Schema: fbc.SchemaChannel, Name: name, Package: pkg, Entries: []fbc.ChannelEntry{}}
	seen := map[string]bool{}
	queue := []string{head}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		b, ok := byName[n]
		if !ok || seen[n] {
			continue
		}
		seen[n] = true
		e := fbc.ChannelEntry{Name: n}
		if raw, ok := b.spec["replaces"]; ok {
			_ = json.Unmarshal(raw, &e.Replaces)
		}
		if raw, ok := b.spec["skips"]; ok {
			_ = json.Unmarshal(raw, &e.Skips)
		}
		e.SkipRange = b.csv.GetAnnotations()["olm.skipRange"]
		ch.Entries = append(ch.Entries, e)
		if e.Replaces != "" {
			queue = append(queue, e.Replaces)
		}
		queue = append(queue, e.Skips...)
	}
	sort.Slice(ch.Entries, func(i, j int) bool { return ch.Entries[i].Name < ch.Entries[j].Name })
	return ch, nil
}

// descriptionAndIcon are the CSV's spec.description and first icon.
func (b *registryBundle) descriptionAndIcon() (string, *fbc.Icon) {
	var desc string
	if raw, ok := b.spec["description"]; ok {
		_ = json.Unmarshal(raw, &desc)
	}
	var icons []struct {
		MediaType  string `json:"mediatype"`
		Base64Data []byte `json:"base64data"`
	}
	if raw, ok := b.spec["icon"]; ok {
		_ = json.Unmarshal(raw, &icons)
	}
	if len(icons) == 0 {
		return desc, nil
	}
	return desc, &fbc.Icon{Data: icons[0].Base64Data, MediaType: icons[0].MediaType}
}
