package config

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/blang/semver/v4"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/opack/opack/internal/emit"
	modsemver "golang.org/x/mod/semver"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
)

// checker collects field errors with their lines.
type checker struct {
	p    *Project
	errs []*FieldError
}

func (c *checker) addf(path []any, format string, args ...any) {
	c.errs = append(c.errs, &FieldError{File: c.p.File, Line: c.p.Line(path...), Field: fieldName(path...), Msg: fmt.Sprintf(format, args...)})
}

func at(path ...any) []any { return path }

// validate checks the defaulted project and returns every problem, sorted by line.
func (p *Project) validate() []*FieldError {
	c := &checker{p: p}
	c.top()
	c.catalogs()
	c.paths()
	c.deploy()
	c.lists()
	c.signing()
	sort.SliceStable(c.errs, func(i, j int) bool { return c.errs[i].Line < c.errs[j].Line })
	return c.errs
}

func (c *checker) top() {
	p := c.p
	switch {
	case p.Package == "":
		c.addf(at("package"), "must be set: the OLM package name (operator-sdk's projectName)")
	default:
		c.dns1123(at("package"), p.Package, validation.IsDNS1123Subdomain)
	}
	if p.Version != "" {
		if err := CheckVersion(p.Version); err != nil {
			c.addf(at("version"), "%v", err)
		}
	}
	vf := p.VersionFrom
	if p.Version != "" && (vf.GitTag != nil || vf.File != "") {
		c.addf(at("versionFrom"), "set either version or versionFrom, not both")
	}
	if vf.GitTag != nil && vf.File != "" {
		c.addf(at("versionFrom"), "set one of gitTag and file")
	}
	seen := map[string]bool{}
	for i, ch := range p.Channels {
		switch {
		case ch == "":
			c.addf(at("channels", i), "must not be empty")
		case seen[ch]:
			c.addf(at("channels", i), "channel %q is listed twice", ch)
		}
		seen[ch] = true
	}
	if !seen[p.DefaultChannel] {
		c.addf(at("defaultChannel"), "%q is not one of channels %v", p.DefaultChannel, p.Channels)
	}
	if p.Bundle.Image == "" {
		c.addf(at("bundle", "image"), "must be set: the bundle image repository, e.g. quay.io/me/%s-bundle (tagged v<version>)", p.Package)
	} else if _, err := expandImage(p.Bundle.Image, "0.0.1", p.Package, false); err != nil {
		c.addf(at("bundle", "image"), "%v", err)
	}
	c.previous()
}

func (c *checker) previous() {
	pr := c.p.Previous
	n := 0
	for _, set := range []bool{pr.Version != "", pr.Image != "", pr.Dir != "", pr.None} {
		if set {
			n++
		}
	}
	if n > 1 {
		c.addf(at("previous"), "set at most one of version, image, dir and none")
	}
	if pr.Version != "" {
		if err := CheckVersion(pr.Version); err != nil {
			c.addf(at("previous", "version"), "%v", err)
		}
	}
	if pr.Image != "" {
		if _, err := name.ParseReference(pr.Image); err != nil {
			c.addf(at("previous", "image"), "not an image reference: %v", err)
		}
	}
}

func (c *checker) catalogs() {
	p := c.p
	if len(p.Catalogs) == 0 {
		c.addf(at("catalogs"), "list at least one catalog, e.g. - image: quay.io/me/%s-catalog:latest", p.Package)
	}
	names := map[string]bool{}
	for i, cat := range p.Catalogs {
		switch {
		case cat.Name == "":
			c.addf(at("catalogs", i, "name"), "must be set when there are several catalogs")
		case names[cat.Name]:
			c.addf(at("catalogs", i, "name"), "catalog %q is listed twice", cat.Name)
		default:
			c.dns1123(at("catalogs", i, "name"), cat.Name, validation.IsDNS1123Subdomain)
		}
		names[cat.Name] = true
		if cat.Image == "" {
			c.addf(at("catalogs", i, "image"), "must be set: the catalog image, e.g. quay.io/me/%s-catalog:latest", p.Package)
		} else if _, err := expandImage(cat.Image, "0.0.1", p.Package, true); err != nil {
			c.addf(at("catalogs", i, "image"), "%v", err)
		}
		switch cat.Mode {
		case CatalogModeTemplate:
			if cat.BundleFile != "" {
				c.addf(at("catalogs", i, "bundleFile"), "only applies to mode: fbc (the template mode renders its own files)")
			}
			if cat.File != "" && cat.Dir != "" {
				c.addf(at("catalogs", i, "file"), "set file (the rendered catalog as one file) or dir (as a folder), not both")
			}
		case CatalogModeFBC:
			if cat.File != "" {
				c.addf(at("catalogs", i, "file"), "only applies to mode: template (mode fbc keeps the catalog in dir)")
			}
			if cat.Template != "" {
				c.addf(at("catalogs", i, "template"), "mode fbc has no template: remove it, or remove mode to render the template")
			}
			if cat.BundleFile != "" {
				if f, err := FBCBundleFile(cat.BundleFile, "0.0.1", p.Package); err != nil || !filepath.IsLocal(f) {
					c.addf(at("catalogs", i, "bundleFile"), "must be a file name below dir, with {{.Version}} (e.g. bundle-v{{.Version}}.yaml)")
				}
			}
		default:
			c.addf(at("catalogs", i, "mode"), "must be %s or %s, not %q", CatalogModeTemplate, CatalogModeFBC, cat.Mode)
		}
		if cat.Base != BaseScratch {
			if _, err := name.ParseReference(cat.Base); err != nil {
				c.addf(at("catalogs", i, "base"), "must be scratch or an image holding opm: %v", err)
			}
		}
	}
}

// paths checks that every path stays inside the project and that outputs do not overlap.
func (c *checker) paths() {
	p := c.p
	type out struct {
		path  []any
		value string
	}
	outs := []out{{at("bundle", "dir"), p.Bundle.Dir}, {at("outputs", "dir"), p.Outputs.Dir}, {at("outputs", "deploy"), p.Outputs.Deploy}}
	for i, cat := range p.Catalogs {
		outs = append(outs, out{at("catalogs", i, "dir"), cat.Dir}, out{at("catalogs", i, "file"), cat.File})
		c.local(at("catalogs", i, "template"), cat.Template)
	}
	c.local(at("kustomizeDir"), p.KustomizeDir)
	c.local(at("bundle", "dockerfile"), p.Bundle.Dockerfile)
	c.local(at("kustomizeManifests", "apisDir"), p.KustomizeManifests.APIsDir)
	c.local(at("kustomizeManifests", "inputDir"), p.KustomizeManifests.InputDir)
	c.local(at("kustomizeManifests", "outputDir"), p.KustomizeManifests.OutputDir)
	c.local(at("versionFrom", "file"), p.VersionFrom.File)
	c.local(at("previous", "dir"), p.Previous.Dir)
	c.local(at("deploy", "templates"), p.Deploy.Templates)
	ins := c.inputs()
	for i, a := range outs {
		if !c.local(a.path, a.value) || a.value == "" {
			continue
		}
		if filepath.Clean(a.value) == "." {
			c.addf(a.path, "must be a folder below the project, not the project itself")
			continue
		}
		if in, ok := overlapsInput(a.value, ins); ok {
			c.addf(a.path, "%q overlaps %s %q: an output is replaced as a whole and must not hold, or lie inside, an input; choose a folder of its own", a.value, in.what, in.path)
			continue
		}
		for _, b := range outs[:i] {
			if b.value != "" && filepath.IsLocal(b.value) && overlaps(a.value, b.value) {
				c.addf(a.path, "%q overlaps %s %q: outputs are replaced as a whole and must not nest", a.value, fieldName(b.path...), b.value)
			}
		}
	}
}

// input is a path opack reads (or the project's sources): no output may overlap it.
type input struct{ what, path string }

// projectSources are the usual files and folders of an operator project besides config/.
var projectSources = []string{"go.mod", "go.sum", "PROJECT", "Makefile", "Dockerfile", "main.go", "api", "apis", "cmd",
	"internal", "pkg", "controllers", "hack", "test", ".git", ".github"}

// inputs are the project's inputs: the kustomize tree (config/ when the kustomization lies in it),
// config/, the catalog templates, previous.dir, deploy.templates, versionFrom.file, the project
// file itself and the project's sources.
func (c *checker) inputs() []input {
	p := c.p
	k := filepath.Clean(p.KustomizeDir)
	ins := []input{{"kustomizeDir", k}, {"the kustomize tree", strings.Split(filepath.ToSlash(k), "/")[0]}, {"the project's", "config"}}
	for i, cat := range p.Catalogs {
		ins = append(ins, input{fieldName(at("catalogs", i, "template")...), cat.Template})
	}
	ins = append(ins, input{"previous.dir", p.Previous.Dir}, input{"deploy.templates", p.Deploy.Templates},
		input{"versionFrom.file", p.VersionFrom.File}, input{"the project file", filepath.Base(p.File)})
	if s := p.Signing; s != nil {
		ins = append(ins, input{"signing.publicKey", s.PublicKey})
		for i, t := range s.Trust {
			ins = append(ins, input{fieldName(at("signing", "trust", i, "publicKey")...), t.PublicKey})
		}
	}
	for _, s := range projectSources {
		ins = append(ins, input{"the project's source", s})
	}
	return ins
}

func overlapsInput(out string, ins []input) (input, bool) {
	for _, in := range ins {
		if in.path != "" && in.path != "." && filepath.IsLocal(in.path) && overlaps(out, in.path) {
			return in, true
		}
	}
	return input{}, false
}

func (c *checker) local(path []any, v string) bool {
	if v != "" && !filepath.IsLocal(v) {
		c.addf(path, "%q must be a relative path inside the project", v)
		return false
	}
	return true
}

func overlaps(a, b string) bool {
	a, b = filepath.Clean(a)+string(filepath.Separator), filepath.Clean(b)+string(filepath.Separator)
	return strings.HasPrefix(a, b) || strings.HasPrefix(b, a)
}

func (c *checker) deploy() {
	p, d := c.p, &c.p.Deploy
	if _, err := emit.ParseTarget(d.OLM); err != nil {
		c.addf(at("deploy", "olm"), "%v", err)
	}
	if _, ok := p.CatalogNamed(d.Catalog); !ok && len(p.Catalogs) > 0 {
		c.addf(at("deploy", "catalog"), "%q is not the name of a catalog in catalogs", d.Catalog)
	}
	v0 := d.OLMv0
	c.dns1123(at("deploy", "olmv0", "namespace"), v0.Namespace, validation.IsDNS1123Label)
	for i, ns := range v0.TargetNamespaces {
		c.dns1123(at("deploy", "olmv0", "targetNamespaces", i), ns, validation.IsDNS1123Label)
	}
	c.dns1123(at("deploy", "olmv0", "catalogSource", "namespace"), v0.CatalogSource.Namespace, validation.IsDNS1123Label)
	c.dns1123(at("deploy", "olmv0", "catalogSource", "name"), v0.CatalogSource.Name, validation.IsDNS1123Subdomain)
	c.oneOf(at("deploy", "olmv0", "approval"), v0.Approval, ApprovalAutomatic, ApprovalManual)
	if v0.Channel != p.DefaultChannel { // the default channel is checked on its own
		c.channel(at("deploy", "olmv0", "channel"), v0.Channel)
	}
	if iv := v0.CatalogSource.PollInterval; iv != "0" {
		if dur, err := time.ParseDuration(iv); err != nil || dur <= 0 {
			c.addf(at("deploy", "olmv0", "catalogSource", "pollInterval"), "%q is not a positive duration such as 10m or 1h (0 disables polling)", iv)
		}
	}
	g := v0.CatalogSource.GRPCPodConfig
	c.oneOf(at("deploy", "olmv0", "catalogSource", "grpcPodConfig", "securityContextConfig"), g.SecurityContextConfig, "restricted", "legacy")
	if g.MemoryTarget != "" {
		if _, err := resource.ParseQuantity(g.MemoryTarget); err != nil {
			c.addf(at("deploy", "olmv0", "catalogSource", "grpcPodConfig", "memoryTarget"), "%q is not a quantity such as 512Mi", g.MemoryTarget)
		}
	}
	c.olmv1()
}

func (c *checker) olmv1() {
	v1 := c.p.Deploy.OLMv1
	c.dns1123(at("deploy", "olmv1", "catalog", "name"), v1.Catalog.Name, validation.IsDNS1123Subdomain)
	if n := v1.Catalog.PollIntervalMinutes; n != nil && *n < 0 {
		c.addf(at("deploy", "olmv1", "catalog", "pollIntervalMinutes"), "must be 0 (no polling) or more")
	}
	c.dns1123(at("deploy", "olmv1", "extension", "name"), v1.Extension.Name, validation.IsDNS1123Subdomain)
	c.dns1123(at("deploy", "olmv1", "extension", "namespace"), v1.Extension.Namespace, validation.IsDNS1123Label)
	for i, ch := range v1.Extension.Channels {
		c.channel(at("deploy", "olmv1", "extension", "channels", i), ch)
	}
	c.oneOf(at("deploy", "olmv1", "extension", "upgradeConstraintPolicy"), v1.Extension.UpgradeConstraintPolicy, "CatalogProvided", "SelfCertified")
	if m := v1.MinOLMVersion; m != "" && !modsemver.IsValid(m) {
		c.addf(at("deploy", "olmv1", "minOLMVersion"), "%q is not an operator-controller release such as %s", m, emit.OLMv1WebhooksVersion)
	}
	sa := v1.ServiceAccount
	if sa == nil {
		return
	}
	base := at("deploy", "olmv1", "serviceAccount")
	if sa.Name == "" {
		c.addf(append(base, "name"), "must be set")
	} else {
		c.dns1123(append(base, "name"), sa.Name, validation.IsDNS1123Subdomain)
	}
	for i, r := range sa.Rules {
		if len(r.Verbs) == 0 {
			c.addf(append(base, "rules", i, "verbs"), "list at least one verb")
		}
		if len(r.Resources) == 0 && len(r.NonResourceURLs) == 0 {
			c.addf(append(base, "rules", i), "list resources or nonResourceURLs")
		}
	}
}

func (c *checker) lists() {
	for i, w := range c.p.Waivers {
		if w.Rule == "" {
			c.addf(at("waivers", i, "rule"), "must be set: the rule id of the finding to accept")
		}
		if strings.TrimSpace(w.Reason) == "" {
			c.addf(at("waivers", i, "reason"), "must be set: say why the finding was reviewed and accepted")
		}
	}
	for i, m := range c.p.Migrations {
		if m.CRD == "" {
			c.addf(at("migrations", i, "crd"), "must be set: the CRD name, e.g. widgets.example.com")
		}
		if m.Version == "" {
			c.addf(at("migrations", i, "version"), "must be set: the version no longer in status.storedVersions")
		}
	}
	for i, sa := range c.p.Bundle.ExtraServiceAccounts {
		c.dns1123(at("bundle", "extraServiceAccounts", i), sa, validation.IsDNS1123Subdomain)
	}
	for i, im := range c.p.Images {
		c.local(at("images", i, "dir"), im.Dir)
		if im.Name == "" {
			c.addf(at("images", i, "name"), "must be set: the image name used in config/, e.g. controller")
		}
	}
}

func (c *checker) channel(path []any, ch string) {
	for _, x := range c.p.Channels {
		if x == ch {
			return
		}
	}
	c.addf(path, "%q is not one of channels %v", ch, c.p.Channels)
}

func (c *checker) oneOf(path []any, v string, allowed ...string) {
	for _, a := range allowed {
		if v == a {
			return
		}
	}
	c.addf(path, "%q is not one of %s", v, strings.Join(allowed, ", "))
}

// dns1123 checks a name; an empty one is a consequence of a missing package or catalog name,
// which is reported on its own.
func (c *checker) dns1123(path []any, v string, check func(string) []string) {
	if v == "" {
		return
	}
	if msgs := check(v); len(msgs) > 0 {
		c.addf(path, "%q is not a valid name: %s", v, strings.Join(msgs, "; "))
	}
}

// CheckVersion checks that v is a strict semantic version as OLM writes it: no leading v, no
// leading zeros ("1.02.0"), nothing the parser would silently normalise.
func CheckVersion(v string) error {
	sv, err := semver.Parse(v)
	if err != nil {
		if strings.HasPrefix(v, "v") {
			return fmt.Errorf("version %q: write it without the leading v (%s)", v, strings.TrimPrefix(v, "v"))
		}
		return fmt.Errorf("version %q is not a semantic version (MAJOR.MINOR.PATCH): %v", v, err)
	}
	if sv.String() != v {
		return fmt.Errorf("version %q contains bad values (parses to %s)", v, sv)
	}
	return nil
}

// CatalogNamed returns the catalog named n.
func (p *Project) CatalogNamed(n string) (Catalog, bool) {
	for _, c := range p.Catalogs {
		if c.Name == n {
			return c, true
		}
	}
	return Catalog{}, false
}
