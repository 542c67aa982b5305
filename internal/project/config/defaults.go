package config

import (
	"path"
)

// Defaults of opack.yaml.
const (
	DefaultChannel          = "alpha"
	DefaultKustomizeDir     = "config/manifests"
	DefaultAPIsDir          = "api"
	DefaultBundleDir        = "bundle"
	DefaultBundleDockerfile = "bundle.Dockerfile"
	DefaultOutputDir        = "_output"
	DefaultDeployDir        = "deploy"
	DefaultCatalogTemplate  = "catalog-template.yaml"
	DefaultCatalogDir       = "catalog"
	DefaultSourceNamespace  = "olm"
	DefaultPollInterval     = "10m"
	DefaultPollMinutes      = 10
	DefaultGitTagPrefix     = "v"
	// MinOLMVersionNoCacheDir is the first OLM v0 release that serves a CatalogSource whose
	// extractContent has no cacheDir (v0.33.0 made cacheDir optional; v0.35.0 gave the cacheless
	// server the writable /tmp that v0.33.0's read-only root filesystem took away).
	MinOLMVersionNoCacheDir = "v0.35.0"
)

// applyDefaults fills in every value left out, so the rest of opack sees the effective configuration.
func (p *Project) applyDefaults() {
	if len(p.Channels) == 0 {
		p.Channels = []string{DefaultChannel}
	}
	p.defaultChannelSet = p.DefaultChannel != ""
	def(&p.DefaultChannel, p.Channels[0])
	def(&p.KustomizeDir, DefaultKustomizeDir)
	def(&p.Bundle.Dir, DefaultBundleDir)
	if p.index == 0 {
		def(&p.Bundle.Dockerfile, DefaultBundleDockerfile)
	}
	km := &p.KustomizeManifests
	def(&km.APIsDir, DefaultAPIsDir)
	def(&km.OutputDir, p.KustomizeDir)
	def(&km.InputDir, km.OutputDir)
	if g := p.VersionFrom.GitTag; g != nil && g.Prefix == nil {
		prefix := DefaultGitTagPrefix
		g.Prefix = &prefix
	}
	for i := range p.Catalogs {
		c := &p.Catalogs[i]
		def(&c.Mode, CatalogModeTemplate)
		if c.Mode == CatalogModeFBC {
			if c.Name == "" && len(p.Catalogs) == 1 && p.Package != "" {
				c.Name = p.Package + "-catalog"
			}
			def(&c.Dir, DefaultCatalogDir)
		} else if len(p.Catalogs) == 1 {
			if p.Package != "" {
				def(&c.Name, p.Package+"-catalog")
			}
			def(&c.Template, DefaultCatalogTemplate)
			if c.File == "" {
				def(&c.Dir, DefaultCatalogDir)
			}
		} else if c.Name != "" {
			def(&c.Template, path.Join("catalog-templates", c.Name+".yaml"))
			if c.File == "" {
				def(&c.Dir, path.Join("catalogs", c.Name))
			}
		}
		def(&c.Base, BaseScratch)
	}
	def(&p.Outputs.Dir, DefaultOutputDir)
	def(&p.Outputs.Deploy, DefaultDeployDir)
	p.defaultDeploy()
}

func (p *Project) defaultDeploy() {
	d := &p.Deploy
	def(&d.OLM, "both")
	if len(p.Catalogs) > 0 {
		def(&d.Catalog, p.Catalogs[0].Name)
	}
	v0 := &d.OLMv0
	if p.Package != "" { // a missing package is reported once, not once per name derived from it
		def(&v0.Namespace, p.Package+"-system")
		def(&v0.OperatorGroup, p.Package)
		def(&v0.Subscription, p.Package)
	}
	def(&v0.Channel, p.DefaultChannel)
	def(&v0.Approval, ApprovalAutomatic)
	def(&v0.CatalogSource.Name, d.Catalog)
	def(&v0.CatalogSource.Namespace, DefaultSourceNamespace)
	def(&v0.CatalogSource.PollInterval, DefaultPollInterval)
	def(&v0.CatalogSource.GRPCPodConfig.SecurityContextConfig, "restricted")

	v1 := &d.OLMv1
	def(&v1.Catalog.Name, d.Catalog)
	if v1.Catalog.PollIntervalMinutes == nil {
		n := DefaultPollMinutes
		v1.Catalog.PollIntervalMinutes = &n
	}
	if p.Package != "" {
		def(&v1.Extension.Name, p.Package)
	}
	def(&v1.Extension.Namespace, v0.Namespace)
	def(&v1.Extension.UpgradeConstraintPolicy, "CatalogProvided")
	if v1.Extension.SelectCatalog == nil {
		t := true
		v1.Extension.SelectCatalog = &t
	}
	if sa := v1.ServiceAccount; sa != nil {
		sa.Derive = sa.ClusterRole == "" && len(sa.Rules) == 0
		if sa.Derive || len(sa.Rules) > 0 {
			def(&sa.ClusterRole, sa.Name+"-installer")
		}
	}
}

func def(s *string, v string) {
	if *s == "" {
		*s = v
	}
}
