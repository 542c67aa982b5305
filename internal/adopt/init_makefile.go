package adopt

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/opack/opack/internal/makefile"
	"github.com/opack/opack/internal/project/config"
)

// versionMark stands for $(VERSION) when the image variables are read (make VERSION=<mark>), so
// that an image tagged with the version becomes a repository opack tags per release.
const versionMark = "OPACK_VERSION_MARK"

// makeInfo is what init takes from the Makefile.
type makeInfo struct {
	Version, DefaultChannel, BundleImage, CatalogImage, ImageTagBase string
	Channels                                                         []string
	Images                                                           []config.ImageAlias
	// Notes name every value that could not be read, with the line it came from.
	Notes []string
	// unread are the variables the Makefile sets that could not be read.
	unread map[string]bool
	// Recipe is what the bundle target runs (nil when no target runs generate bundle).
	Recipe *recipe
	// version is the version generate bundle gets, versionVar the Makefile's VERSION: what is
	// read with the version mark is checked against them.
	version, versionVar string
	// Profiles are the values of a variable the Makefile builds one bundle per (nil: one bundle).
	Profiles *profiles
	// bundleImageFrom names where BundleImage came from ("" for BUNDLE_IMG).
	bundleImageFrom string
}

// state says whether the Makefile leaves a variable unset or sets it in a way opack cannot read.
func (mi makeInfo) state(name string) string {
	if mi.unread[name] {
		return "not readable, see above"
	}
	return "not set"
}

// readMakefile reads the Makefile's release variables as make would (with extra, variables given
// on make's command line). A missing Makefile is no error.
func readMakefile(dir string, extra ...makefile.Option) (makeInfo, error) {
	var mi makeInfo
	path := filepath.Join(dir, "Makefile")
	plain, err := makefile.Read(path, extra...)
	if errors.Is(err, fs.ErrNotExist) {
		return mi, nil
	}
	if err != nil {
		return mi, err
	}
	marked, err := makefile.Read(path, append(extra, makefile.Override("VERSION", versionMark))...)
	if err != nil {
		return mi, err
	}
	for _, p := range plain.Problems {
		mi.Notes = append(mi.Notes, "Makefile: "+p)
	}
	rec, err := readRecipe(plain)
	if err != nil {
		return mi, err
	}
	mi.Recipe = rec
	if rec != nil && len(extra) == 0 {
		mi.Profiles = findProfiles(plain, rec, dir, extra)
	}
	if v := plain.Value("VERSION"); v.Unresolved == "" {
		mi.versionVar = strings.TrimPrefix(strings.TrimSpace(v.Text), "v")
	}
	mi.readVersion(plain, rec)
	mi.readChannels(plain, rec)
	mi.ImageTagBase = mi.value(plain, "IMAGE_TAG_BASE")
	mi.BundleImage = versionTemplate(mi.markedValue(plain, marked, "BUNDLE_IMG"))
	mi.CatalogImage = versionTemplate(mi.markedValue(plain, marked, "CATALOG_IMG"))
	if mi.BundleImage == "" && !mi.unread["BUNDLE_IMG"] {
		mi.BundleImage = versionTemplate(mi.imageFromBuild(plain, marked, "bundle", "bundle.Dockerfile", false))
	}
	if mi.CatalogImage == "" && !mi.unread["CATALOG_IMG"] {
		mi.CatalogImage = versionTemplate(mi.imageFromBuild(plain, marked, "catalog", "catalog.Dockerfile", true))
	}
	target := "bundle"
	if rec != nil {
		target = rec.Target
		mi.Notes = append(mi.Notes, rec.Notes...)
	} else if flags := mi.value(plain, "BUNDLE_GEN_FLAGS"); flags != "" {
		mi.genFlags(plain.Value("BUNDLE_GEN_FLAGS"), flags)
	}
	mi.imageEdits(plain, marked, target)
	return mi, nil
}

// readVersion is the version make bundle passes to generate bundle (--version), else VERSION.
func (mi *makeInfo) readVersion(plain *makefile.File, rec *recipe) {
	v, at := "", ""
	switch {
	case rec.Has("version"):
		v, at = rec.Version, fmt.Sprintf("%s: %s: generate bundle --version", rec.At.Pos, firstLine(rec.At.Text))
	default:
		v = mi.value(plain, "VERSION")
		val := plain.Value("VERSION")
		at = fmt.Sprintf("%s: %s: VERSION", val.At.Pos, val.At.Text)
	}
	if v == "" {
		return
	}
	if _, err := semver.Parse(strings.TrimPrefix(v, "v")); err != nil {
		mi.Notes = append(mi.Notes, fmt.Sprintf("%s is %q, not a semantic version: not used", at, v))
		return
	}
	mi.Version, mi.version = v, v
}

// readChannels are the channels make bundle passes to generate bundle; without a recipe,
// CHANNELS and DEFAULT_CHANNEL.
func (mi *makeInfo) readChannels(plain *makefile.File, rec *recipe) {
	if rec == nil {
		if ch := unquote(mi.value(plain, "CHANNELS")); ch != "" {
			mi.Channels = strings.Split(ch, ",")
		}
		mi.DefaultChannel = unquote(mi.value(plain, "DEFAULT_CHANNEL"))
		return
	}
	mi.Channels, mi.DefaultChannel = rec.Channels, rec.DefaultChannel
}

// templatable reports whether $(VERSION) in an image reference can become {{.Version}}: VERSION
// is a semantic version and the one generate bundle gets.
func (mi *makeInfo) templatable() bool {
	return mi.versionVar != "" && mi.versionVar == mi.version
}

// versionMismatch says why $(VERSION) in an image is not opack's {{.Version}}.
func (mi *makeInfo) versionMismatch() string {
	if mi.version == "" {
		return fmt.Sprintf("make puts VERSION (%s) in it, which is not a version opack builds", first(mi.versionVar, "not read"))
	}
	return fmt.Sprintf("make puts VERSION (%s) in it, and generate bundle gets another version (%s)", first(mi.versionVar, "not read"), mi.version)
}

// markedValue is a variable read with VERSION set to the version mark, so that a reference
// tagged with the version becomes a template. When make derives the value from VERSION in
// another way ($(origin VERSION), a function of it), the mark would change what make computes:
// the plain value is kept, fixed, and noted.
func (mi *makeInfo) markedValue(plain, marked *makefile.File, name string) string {
	m := mi.value(marked, name)
	if m == "" || !strings.Contains(m, versionMark) {
		return m
	}
	if !mi.templatable() {
		// VERSION is not the version opack builds: a {{.Version}} template would tag the
		// image with another one than make does
		v := plain.Value(name)
		p := mi.value(plain, name)
		if p != "" {
			mi.Notes = append(mi.Notes, fmt.Sprintf("%s: %s: %s is %s: %s: kept as make gives it now; check it for each release", v.At.Pos, v.At.Text, name, p, mi.versionMismatch()))
		}
		return p
	}
	if plain.Value(name).Unresolved != "" {
		return mi.value(plain, name) // make's own value is not known: noted, not guessed
	}
	p := strings.TrimSpace(plain.Value(name).Text)
	if strings.ReplaceAll(m, versionMark, mi.version) == p {
		return m
	}
	v := plain.Value(name)
	mi.Notes = append(mi.Notes, fmt.Sprintf("%s: %s: %s is %s with VERSION %s, and make gives it another way for another version (it tests or transforms VERSION): kept as make gives it now; check it for each release",
		v.At.Pos, v.At.Text, name, p, mi.version))
	return p
}

// value returns a variable's value, noting it when make would know it and opack does not.
func (mi *makeInfo) value(f *makefile.File, name string) string {
	v := f.Value(name)
	if v.Unresolved != "" {
		if mi.unread == nil {
			mi.unread = map[string]bool{}
		}
		mi.unread[name] = true
		why := strings.TrimPrefix(v.Unresolved, fmt.Sprintf("%s (%s: %s): ", name, v.At.Pos, v.At.Text))
		mi.Notes = append(mi.Notes, fmt.Sprintf("%s: %s: %s not read: %s", v.At.Pos, v.At.Text, name, strings.ReplaceAll(why, versionMark, "$(VERSION)")))
		return ""
	}
	return strings.TrimSpace(v.Text)
}

// imageEdits turns the `kustomize edit set image` lines of the bundle target (those before
// `generate bundle`: later ones roll the edit back) into image overrides. An edit whose value make
// derives from VERSION other than by putting it in is kept as make computes it, and noted.
func (mi *makeInfo) imageEdits(plain, marked *makefile.File, target string) {
	seen := map[string]bool{}
	plainEdits := plain.ImageEdits(target)
	for i, e := range marked.ImageEdits(target) {
		if i < len(plainEdits) && e.Unresolved == "" && strings.Contains(strings.Join(e.Args, " "), versionMark) && !mi.templatable() {
			pe := plainEdits[i]
			if pe.Unresolved == "" {
				mi.Notes = append(mi.Notes, fmt.Sprintf("%s: %s: the image is %s: %s: kept as make gives it now; check it for each release",
					e.At.Pos, firstLine(e.At.Text), strings.Join(pe.Args, " "), mi.versionMismatch()))
				e = pe
			}
		} else if mi.version != "" && i < len(plainEdits) && e.Unresolved == "" {
			pe := plainEdits[i]
			got := strings.ReplaceAll(strings.Join(e.Args, " "), versionMark, mi.version)
			if pe.Unresolved == "" && got != strings.Join(pe.Args, " ") {
				mi.Notes = append(mi.Notes, fmt.Sprintf("%s: %s: the image is %s with VERSION %s, and make gives it another way for another version (it tests or transforms VERSION): kept as make gives it now; check it for each release",
					e.At.Pos, firstLine(e.At.Text), strings.Join(pe.Args, " "), mi.version))
				e = pe
			}
		}
		if e.Unresolved != "" {
			mi.Notes = append(mi.Notes, fmt.Sprintf("%s: %s: image not read: %s", e.At.Pos, strings.TrimSpace(e.At.Text), strings.ReplaceAll(e.Unresolved, versionMark, "$(VERSION)")))
			continue
		}
		for _, arg := range e.Args {
			a, ok := parseImageArg(arg)
			if e.Dir != "" {
				a.Dir = path.Clean(e.Dir)
			}
			if !ok || seen[a.Name+"\x00"+a.Dir] {
				continue
			}
			seen[a.Name+"\x00"+a.Dir] = true
			mi.Images = append(mi.Images, a)
		}
	}
}

// parseImageArg reads name=newName:newTag, name=newName@digest or name=newName.
func parseImageArg(arg string) (config.ImageAlias, bool) {
	name, ref, ok := strings.Cut(arg, "=")
	if !ok || name == "" || ref == "" {
		return config.ImageAlias{}, false
	}
	a := config.ImageAlias{Name: name}
	if n, d, ok := strings.Cut(ref, "@"); ok {
		a.NewName, a.Digest = n, d
		return a, true
	}
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		a.NewName, a.NewTag = ref[:i], strings.ReplaceAll(ref[i+1:], versionMark, "{{.Version}}")
		return a, true
	}
	a.NewName = ref
	return a, true
}

// genFlags notes the flags of BUNDLE_GEN_FLAGS opack.yaml does not carry.
func (mi *makeInfo) genFlags(v makefile.Value, flags string) {
	var other []string
	fields := strings.Fields(flags)
	for i := 0; i < len(fields); i++ {
		name, _, hasValue := strings.Cut(fields[i], "=")
		switch name {
		case "-q", "--quiet", "--overwrite", "--manifests", "--metadata":
		case "--channels", "--default-channel", "--version", "-v", "--package":
			if !hasValue {
				i++ // the flag's value
			}
		default:
			other = append(other, fields[i])
		}
	}
	if len(other) > 0 {
		mi.Notes = append(mi.Notes, fmt.Sprintf("%s: %s: BUNDLE_GEN_FLAGS %s not carried over to opack.yaml: check opack generate bundle --help",
			v.At.Pos, v.At.Text, strings.Join(other, " ")))
	}
}

// versionTemplate turns an image whose tag is the version into what opack.yaml expects: the
// repository alone for tag v<version>, a {{.Version}} template for another use of the version.
func versionTemplate(ref string) string {
	if repo, ok := strings.CutSuffix(ref, ":v"+versionMark); ok {
		return repo
	}
	return strings.ReplaceAll(ref, versionMark, "{{.Version}}")
}

// unquote removes the shell quotes a Makefile value keeps ("alpha" is alpha once the shell ran).
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}
