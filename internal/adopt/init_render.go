package adopt

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"text/template"

	"github.com/opack/opack/internal/project"
	"github.com/opack/opack/internal/project/config"

	"github.com/blang/semver/v4"
	"github.com/google/go-containerregistry/pkg/name"

	"github.com/opack/opack/internal/emit"
)

// initData is what opack.yaml's template is executed with.
type initData struct {
	// Name is the bundle's name among several ("" for one bundle).
	Name                                           string
	Package, Version, DefaultChannel, KustomizeDir string
	Channels                                       []string
	BundleImage, BundleDir, Namespace, OLM         string
	Catalogs                                       []initCatalog
	Images                                         []config.ImageAlias
	ExtraServiceAccounts                           []string
	// KustomizeManifests are the settings of the step that differ from opack's defaults.
	KustomizeManifests *config.KustomizeManifests
	// DeployDir is outputs.deploy (one bundle).
	DeployDir string
}

// initCatalog is one catalogs entry opack init writes.
type initCatalog struct {
	Name, Mode, Template, Dir, File, BundleFile, Image, Found string
}

func renderInit(sc scaffold, opts InitOptions) ([]byte, []string, error) {
	d, notes, err := initPart(sc, opts, "")
	if err != nil {
		return nil, notes, err
	}
	b, err := execute(initTemplate, d)
	return b, notes, err
}

// renderParts renders the opack.yaml of several bundles.
func renderParts(parts []initData, from string) ([]byte, error) {
	return execute(partsTemplate, struct {
		Parts []initData
		From  string
	}{parts, from})
}

// execute runs an opack.yaml template (with the bundle block defined).
func execute(text string, data any) ([]byte, error) {
	t := template.New("opack.yaml")
	t.Funcs(template.FuncMap{"quote": quoteYAML, "indent": indent, "include": func(name string, d any) (string, error) {
		var b bytes.Buffer
		err := t.ExecuteTemplate(&b, name, d)
		return b.String(), err
	}})
	template.Must(t.Parse(bundleTemplate))
	template.Must(t.Parse(text))
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// indent indents every line of s by two spaces.
func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "  " + l
		}
	}
	return strings.Join(lines, "\n")
}

// initPart is what opack.yaml says of one bundle; name is its name among several ("" for one).
func initPart(sc scaffold, opts InitOptions, name string) (initData, []string, error) {
	var notes []string
	d := initData{Name: name, Package: sc.Package, KustomizeDir: sc.KustomizeDir, BundleDir: sc.BundleDir, Namespace: sc.Namespace,
		OLM: string(opts.OLM), Images: sc.Make.Images}
	if d.Package == "" {
		return d, nil, errors.New("no package name: make bundle passes no --package and PROJECT names no projectName (or there is no PROJECT): pass --package")
	}
	notes = packageNotes(sc, notes)
	if r := sc.Make.Recipe; r != nil {
		d.ExtraServiceAccounts = r.ExtraServiceAccounts
		d.KustomizeManifests, notes = manifestsSettings(sc, r, notes)
	}
	d.Version, notes = initVersion(sc, opts, notes)
	d.Channels, d.DefaultChannel, notes = initChannels(sc, opts, notes)
	base := sc.Make.ImageTagBase
	d.BundleImage = first(opts.BundleImage, sc.Make.BundleImage)
	if opts.BundleImage == "" {
		if repo, tag, ok := cutTag(d.BundleImage); ok {
			d.BundleImage = repo
			notes = append(notes, fmt.Sprintf("bundle.image %s: the Makefile's %s %s gives every bundle the same tag %s; opack tags each bundle v<version>, as a catalog needs one reference per release (a template such as %s:{{.Version}} keeps another scheme)",
				repo, first(sc.Make.bundleImageFrom, "BUNDLE_IMG"), sc.Make.BundleImage, strings.TrimLeft(tag, ":"), repo))
		}
	}
	catalogImage := first(opts.CatalogImage, sc.Make.CatalogImage)
	if base != "" && d.BundleImage == "" {
		d.BundleImage = base + "-bundle"
		notes = append(notes, fmt.Sprintf("bundle.image %s derived from IMAGE_TAG_BASE as operator-sdk's Makefile does (BUNDLE_IMG is %s)", d.BundleImage, sc.Make.state("BUNDLE_IMG")))
	}
	if base != "" && catalogImage == "" {
		catalogImage = base + "-catalog:latest"
		notes = append(notes, fmt.Sprintf("catalog image %s derived from IMAGE_TAG_BASE as operator-sdk's Makefile does (CATALOG_IMG is %s)", catalogImage, sc.Make.state("CATALOG_IMG")))
	}
	if d.BundleImage == "" || catalogImage == "" {
		return d, notes, errors.New("no image names: the Makefile sets neither BUNDLE_IMG / CATALOG_IMG nor IMAGE_TAG_BASE (or they could not be read, see the notes); pass --bundle-image and --catalog-image")
	}
	for _, im := range []struct{ ref, flag, what string }{
		{d.BundleImage, opts.BundleImage, "bundle"}, {catalogImage, opts.CatalogImage, "catalog"},
	} {
		if im.flag == "" && noRegistry(im.ref) {
			return d, notes, fmt.Errorf("the Makefile's %s image %s names no registry (docker reads it as %s; a catalog references each "+
				"image in full, and opack does not guess where it is pushed): pass --%s-image with the registry it is pushed to, such as %s",
				im.what, im.ref, dockerReads(im.ref), im.what, dockerReads(im.ref))
		}
	}
	if name == "" {
		d.DeployDir, notes = deployDir(sc, notes)
	}
	d.Images, notes = readImages(sc, d.Images, notes)
	var err error
	if d.Catalogs, notes, err = initCatalogs(sc, d.Package, catalogImage, name, notes); err != nil {
		return d, notes, err
	}
	if d.OLM == "" {
		d.OLM = string(emit.TargetBoth)
	}
	return d, notes, nil
}

// initVersion is --version, the Makefile's VERSION, or the newest release of an adopted catalog.
func initVersion(sc scaffold, opts InitOptions, notes []string) (string, []string) {
	if v := first(opts.Version, sc.Make.Version); v != "" {
		return strings.TrimPrefix(v, "v"), notes
	}
	if r := sc.Make.Recipe; r != nil && !r.Has("version") && sc.BaseVersion != "" && config.CheckVersion(sc.BaseVersion) == nil && !catalogsNewer(sc, sc.BaseVersion) {
		return sc.BaseVersion, append(notes, fmt.Sprintf("%s: make %s passes no --version, so the bundle is the base CSV's version: %s (%s)", r.At.Pos, r.Target, sc.BaseVersion, sc.BaseCSV))
	}
	var latest *foundCatalog
	for i, c := range sc.Catalogs {
		if c.Latest != "" && (latest == nil || semver.MustParse(c.Latest).GT(semver.MustParse(latest.Latest))) {
			latest = &sc.Catalogs[i]
		}
	}
	if latest != nil {
		return latest.Latest, append(notes, fmt.Sprintf("version %s is the newest release in %s: build the next one with opack build --version <next>", latest.Latest, latest.Dir))
	}
	return "", append(notes, "no version found: opack reads it from git tags v<semver> on HEAD (versionFrom.gitTag) unless --version is passed")
}

// catalogsNewer reports whether a catalog of the project holds a release above v (a base CSV
// whose version is a placeholder such as 0.0.0).
func catalogsNewer(sc scaffold, v string) bool {
	for _, c := range sc.Catalogs {
		if newer(c.Latest, v) {
			return true
		}
	}
	return false
}

// initChannels are the flags', the Makefile's, the committed bundle's or the adopted catalog's.
func initChannels(sc scaffold, opts InitOptions, notes []string) ([]string, string, []string) {
	channels, from := opts.Channels, "--channels"
	if len(channels) == 0 {
		channels, from = sc.Make.Channels, "the Makefile's CHANNELS"
	}
	def := first(opts.DefaultChannel, sc.Make.DefaultChannel)
	// make bundle passes no --default-channel: the bundle names none, and opack.yaml sets one only
	// where the catalogs need another than the first channel
	bundleNamesNone := opts.DefaultChannel == "" && sc.Make.Recipe != nil && !sc.Make.Recipe.Has("default-channel")
	if r := sc.Make.Recipe; r != nil && len(opts.Channels) == 0 {
		channels, from, notes = recipeChannels(sc, r, notes)
		if opts.DefaultChannel == "" && !r.Has("default-channel") && sc.DefaultChannel != "" {
			notes = append(notes, fmt.Sprintf("%s: make %s passes no --default-channel (the bundle names none); %s/metadata/annotations.yaml names %s: set defaultChannel in %s if releases are built with it",
				r.At.Pos, r.Target, sc.BundleDir, sc.DefaultChannel, config.DefaultFile))
		}
	}
	if len(channels) == 0 {
		channels, from = sc.Channels, sc.BundleDir+"/metadata/annotations.yaml"
	}
	if sc.Make.Recipe == nil {
		def = first(def, sc.DefaultChannel)
	}
	for _, c := range sc.Catalogs {
		if len(channels) == 0 {
			channels, from = c.Channels, c.Dir
		}
		if def == "" && c.DefaultChannel != "" {
			switch {
			case bundleNamesNone && (len(channels) == 0 || c.DefaultChannel == channels[0]):
				// opack's default is the first channel already: the bundle names none, as make's
			case bundleNamesNone && slices.Contains(channels, c.DefaultChannel):
				def = c.DefaultChannel
				notes = append(notes, fmt.Sprintf("defaultChannel %s, %s's default: the bundle names it (make bundle passes no --default-channel)", def, c.Dir))
			case slices.Contains(channels, c.DefaultChannel) || len(channels) == 0:
				def = c.DefaultChannel
			default:
				notes = append(notes, fmt.Sprintf("%s's default channel is %s, which new releases do not go to (channels %s, %s): the catalog keeps it as its default",
					c.Dir, c.DefaultChannel, strings.Join(channels, ", "), from))
			}
		}
		if missing := without(c.Channels, channels); len(missing) > 0 {
			notes = append(notes, fmt.Sprintf("new releases go to channels %s (%s); %s also has %s, left as they are: list them under channels in %s to publish there too",
				strings.Join(channels, ", "), from, c.Dir, strings.Join(missing, ", "), config.DefaultFile))
		}
	}
	if r := sc.Make.Recipe; r != nil && opts.DefaultChannel == "" && def != "" && len(channels) > 0 && !slices.Contains(channels, def) {
		// As make bundle runs now, its bundle names a default channel it is not in (a channel made of
		// VERSION, a CHANNELS given only on release): opack.yaml cannot say that.
		notes = append(notes, fmt.Sprintf("%s: make %s's default channel %s is not one of its channels (%s, %s): not written; the first channel is the default, or pass --default-channel and --channels",
			r.At.Pos, r.Target, def, strings.Join(channels, ", "), from))
		def = ""
	}
	return channels, def, notes
}

// recipeChannels are the channels make bundle gives the bundle: its --channels, or
// operator-sdk's default alpha (noted when the committed bundle has others).
func recipeChannels(sc scaffold, r *recipe, notes []string) ([]string, string, []string) {
	from := fmt.Sprintf("%s: make %s", r.At.Pos, r.Target)
	if r.Has("channels") {
		return r.Channels, from, notes
	}
	if len(sc.Channels) > 0 && strings.Join(sc.Channels, ",") != config.DefaultChannel {
		notes = append(notes, fmt.Sprintf("%s: make %s passes no --channels, so its bundle is in operator-sdk's default channel alpha; %s/metadata/annotations.yaml has %s: set channels in %s if releases are built with them",
			r.At.Pos, r.Target, sc.BundleDir, strings.Join(sc.Channels, ","), config.DefaultFile))
	}
	return []string{config.DefaultChannel}, from + " (operator-sdk's default channel)", notes
}

// packageNotes say where the package init chose is not the one the repository's other files name.
func packageNotes(sc scaffold, notes []string) []string {
	if sc.BundlePackage != "" && sc.BundlePackage != sc.Package {
		notes = append(notes, fmt.Sprintf("the committed %s/metadata/annotations.yaml is package %s, make bundle builds package %s: opack build refuses to publish another package than the committed one until they agree (pass --package, or regenerate the bundle)",
			sc.BundleDir, sc.BundlePackage, sc.Package))
	}
	if sc.ProjectName != "" && sc.ProjectName != sc.Package && sc.Make.Recipe != nil {
		notes = append(notes, fmt.Sprintf("%s: make %s builds package %s (--package); PROJECT's projectName is %s", sc.Make.Recipe.At.Pos, sc.Make.Recipe.Target, sc.Package, sc.ProjectName))
	}
	return notes
}

// manifestsSettings are the kustomizeManifests settings of opack.yaml for the recipe's step,
// only where they differ from opack's defaults (the step reads and writes kustomizeDir, api).
func manifestsSettings(sc scaffold, r *recipe, notes []string) (*config.KustomizeManifests, []string) {
	m := r.Manifests
	if m == nil {
		return &config.KustomizeManifests{Skip: true}, append(notes, fmt.Sprintf("make %s runs no operator-sdk generate kustomize manifests: opack build does not either (kustomizeManifests.skip)", r.Target))
	}
	if m.Package != "" && m.Package != sc.Package {
		notes = append(notes, fmt.Sprintf("make %s runs generate kustomize manifests --package %s and generate bundle for package %s: opack builds %s", r.Target, m.Package, sc.Package, sc.Package))
	}
	km := &config.KustomizeManifests{}
	in, out := first(m.InputDir, config.DefaultKustomizeDir), first(m.OutputDir, config.DefaultKustomizeDir)
	if out != sc.KustomizeDir {
		km.OutputDir = out
	}
	if in != out {
		km.InputDir = in
	}
	if m.APIsDir != "" && m.APIsDir != config.DefaultAPIsDir {
		km.APIsDir = m.APIsDir
	}
	if *km == (config.KustomizeManifests{}) {
		return nil, notes
	}
	return km, notes
}

// without returns the items of a not in b.
func without(a, b []string) []string {
	in := map[string]bool{}
	for _, x := range b {
		in[x] = true
	}
	var out []string
	for _, x := range a {
		if !in[x] {
			out = append(out, x)
		}
	}
	return out
}

// initCatalogs are the catalogs entries: every catalog of the package found in the project (kept
// as a file-based catalog, or rendered from the template that renders it in opm's layout), every
// other template, or a new template.
func initCatalogs(sc scaffold, pkg, image, name string, notes []string) ([]initCatalog, []string, error) {
	var out []initCatalog
	used := map[string]bool{}
	for _, fc := range sc.Catalogs {
		ic := initCatalog{Mode: config.CatalogModeFBC, Dir: fc.Dir, BundleFile: fc.BundleFile,
			Found: fmt.Sprintf("found: %d bundles in %d files", fc.Bundles, len(fc.Files))}
		for _, t := range besideFirst(sc.Templates, fc.Dir) {
			if !t.renders(fc) || used[t.File] {
				continue
			}
			used[t.File] = true
			switch {
			case len(fc.Files) == 1 && fc.Files[0] == path.Join(fc.Dir, pkg, "catalog."+project.CatalogFormat):
				ic = initCatalog{Mode: config.CatalogModeTemplate, Template: t.File, Dir: fc.Dir, Found: "found: " + t.Schema + " template rendered here"}
			case len(fc.Files) == 1 && path.Dir(fc.Files[0]) == path.Dir(t.File) && strings.HasSuffix(fc.Files[0], ".yaml"):
				// opm alpha render-template -o yaml T > catalog.yaml, beside the template
				ic = initCatalog{Mode: config.CatalogModeTemplate, Template: t.File, File: fc.Files[0], Found: "found: " + t.Schema + " template rendered into the file beside it"}
			default:
				notes = append(notes, fmt.Sprintf("%s renders %s, whose files opack would lay out differently: opack keeps %s as it is and adds each release to it; %s is no longer updated",
					t.File, fc.Dir, fc.Dir, t.File))
			}
			break // one template renders one catalog
		}
		out = append(out, ic)
	}
	taken := map[string]bool{}
	for _, t := range sc.Templates {
		if !used[t.File] {
			dir := renderDir(t.File, len(sc.Templates))
			for i := 2; taken[dir]; i++ {
				dir = fmt.Sprintf("%s-%d", renderDir(t.File, len(sc.Templates)), i)
			}
			taken[dir] = true
			out = append(out, initCatalog{Mode: config.CatalogModeTemplate, Template: t.File, Dir: dir, Found: "found: " + t.Schema + " template"})
		}
	}
	if len(out) == 0 && name != "" {
		out = append(out, initCatalog{Mode: config.CatalogModeTemplate, Template: path.Join("catalog-templates", name+".yaml"), Dir: path.Join("catalogs", name)})
	}
	if len(out) == 0 {
		out = append(out, initCatalog{Mode: config.CatalogModeTemplate, Template: config.DefaultCatalogTemplate, Dir: config.DefaultCatalogDir})
	}
	for i := range out {
		if out[i].Mode == config.CatalogModeTemplate && out[i].File == "" {
			out[i].Dir, notes = freeDir(sc, out[i].Dir, pkg, notes)
		}
	}
	return nameCatalogs(out, pkg, image, notes)
}

// renderDir is where a found template is rendered: catalogs/<its name>, or, for one named as
// every other (catalog/v4.12/catalog-template.yaml), catalogs/<its folder's name>.
func renderDir(tmpl string, n int) string {
	if n == 1 {
		return config.DefaultCatalogDir
	}
	name := strings.TrimSuffix(path.Base(tmpl), path.Ext(tmpl))
	if name == strings.TrimSuffix(config.DefaultCatalogTemplate, ".yaml") && path.Dir(tmpl) != "." {
		name = path.Base(path.Dir(tmpl))
	}
	return path.Join("catalogs", name)
}

// besideFirst orders the templates with those in dir (beside the catalog) first.
func besideFirst(ts []foundTemplate, dir string) []foundTemplate {
	out := make([]foundTemplate, 0, len(ts))
	for _, t := range ts {
		if path.Dir(t.File) == dir {
			out = append(out, t)
		}
	}
	for _, t := range ts {
		if path.Dir(t.File) != dir {
			out = append(out, t)
		}
	}
	return out
}

// freeDir is dir, or, when dir holds files opack did not write (build replaces a rendered
// catalog's folder as a whole and refuses to delete them), the first free of catalogs/<pkg>,
// catalogs/<pkg>-2, ...
func freeDir(sc scaffold, dir, pkg string, notes []string) (string, []string) {
	if sc.foreign == nil {
		return dir, notes
	}
	files := sc.foreign(dir)
	if len(files) == 0 {
		return dir, notes
	}
	alt := path.Join("catalogs", pkg)
	for i := 2; len(sc.foreign(alt)) > 0; i++ {
		alt = path.Join("catalogs", fmt.Sprintf("%s-%d", pkg, i))
	}
	return alt, append(notes, fmt.Sprintf("%s holds files opack did not write (%s): the rendered catalog goes to %s, a folder opack build replaces as a whole; change catalogs[].dir to move it",
		dir, firstFew(files, 3), alt))
}

var notDNS = regexp.MustCompile(`[^a-z0-9.-]+`)

// nameCatalogs names the catalogs and gives each an image: the catalog image for the first,
// the same repository tagged with the catalog's name for the others.
func nameCatalogs(cats []initCatalog, pkg, image string, notes []string) ([]initCatalog, []string, error) {
	if len(cats) == 1 {
		cats[0].Name, cats[0].Image = pkg+"-catalog", image
		return cats, notes, nil
	}
	ref, err := name.ParseReference(strings.ReplaceAll(image, "{{.Version}}", "0.0.0"), name.WeakValidation)
	if err != nil {
		return nil, notes, fmt.Errorf("catalog image %q: %w", image, err)
	}
	seen := map[string]bool{}
	for i := range cats {
		n := strings.Trim(notDNS.ReplaceAllString(strings.ToLower(path.Base(first(cats[i].Dir, path.Dir(cats[i].File), cats[i].Template))), "-"), "-.")
		if n == "" || seen[n] {
			n = fmt.Sprintf("%s-catalog-%d", pkg, i+1)
		}
		seen[n] = true
		cats[i].Name = n
		cats[i].Image = image
		if i > 0 {
			cats[i].Image = ref.Context().Name() + ":" + n
		}
	}
	notes = append(notes, fmt.Sprintf("%d catalogs: each needs its own image; the first is %s, the others its repository tagged with the catalog's name: check catalogs image", len(cats), image))
	return cats, notes, nil
}

// firstFew joins the first n names, saying how many more there are.
func firstFew(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

// cutTag splits a fixed tag or digest off an image reference (not off a {{.Version}} template).
func cutTag(ref string) (repo, tag string, ok bool) {
	if ref == "" || strings.Contains(ref, "{{") {
		return ref, "", false
	}
	if i := strings.Index(ref, "@"); i >= 0 {
		return ref[:i], ref[i:], true
	}
	slash := strings.LastIndex(ref, "/")
	if i := strings.LastIndex(ref, ":"); i > slash {
		return ref[:i], ref[i:], true
	}
	return ref, "", false
}

// dockerReads is the repository docker reads a reference without registry as: docker.io/library/NAME for
// a bare name, docker.io/ORG/NAME else.
func dockerReads(ref string) string {
	repo := ref
	if i := strings.IndexAny(repo, ":@"); i >= 0 {
		repo = repo[:i]
	}
	if !strings.Contains(repo, "/") {
		repo = "library/" + repo
	}
	return "docker.io/" + repo
}

// noRegistry reports whether ref (a repository, reference or template) names no registry: its first
// component is no host (no dot or colon, not localhost), as docker reads a reference.
func noRegistry(ref string) bool {
	host, _, ok := strings.Cut(ref, "/")
	return !ok || !strings.ContainsAny(host, ".:") && host != "localhost"
}

// deployDirs are the folders outputs.deploy may be, in order of preference.
var deployDirs = []string{"deploy", "olm-deploy", "opack-deploy"}

// deployDir is outputs.deploy: deploy, unless make bundle's kustomize tree or bundle lies there or it
// holds files opack did not write (build replaces the folder as a whole).
func deployDir(sc scaffold, notes []string) (string, []string) {
	tree := strings.Split(path.Clean(sc.KustomizeDir), "/")[0]
	for _, dir := range deployDirs {
		why := ""
		switch {
		case dir == tree:
			why = "holds the kustomize tree of " + sc.KustomizeDir
		case dir == strings.Split(path.Clean(sc.BundleDir), "/")[0]:
			why = "holds the bundle folder " + sc.BundleDir
		case sc.foreign != nil && len(sc.foreign(dir)) > 0:
			why = "holds files opack did not write"
		}
		if why == "" {
			return dir, notes
		}
		notes = append(notes, fmt.Sprintf("outputs.deploy is not %s, which %s: opack writes the OLM deploy manifests elsewhere", dir, why))
	}
	return "", append(notes, "no folder for the OLM deploy manifests: set outputs.deploy in opack.yaml")
}

// readImages leaves out the images entries whose kustomization the bundle's build does not read:
// make bundle's edit there changes nothing the bundle holds (a Makefile edits a deployment of its own
// besides the bundle's), and opack build would warn about it on every run.
func readImages(sc scaffold, images []config.ImageAlias, notes []string) ([]config.ImageAlias, []string) {
	if sc.dir == "" || !sc.HasManifests {
		return images, notes
	}
	dirs, err := project.KustomizationDirs(sc.dir, sc.KustomizeDir)
	if err != nil {
		return images, notes
	}
	var out []config.ImageAlias
	for _, im := range images {
		if im.Dir != "" && !slices.Contains(dirs, path.Clean(im.Dir)) {
			notes = append(notes, fmt.Sprintf("kustomize edit set image %s in %s: the kustomize build of %s does not read %s, so the edit does not change the bundle; not an images entry",
				im.Name, im.Dir, sc.KustomizeDir, im.Dir))
			continue
		}
		out = append(out, im)
	}
	return out, notes
}
