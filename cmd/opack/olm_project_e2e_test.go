package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/project/config"
)

// projectEnv names an opack project (a folder with opack.yaml, or an operator-sdk project `opack init`
// adopts) the OLM lifecycle tests run on instead of the go/v4 sample of testdata/project.
const projectEnv = "OPACK_E2E_PROJECT"

// lifecycleProject is the project an OLM lifecycle test releases, with what the phases need to know of it.
type lifecycleProject struct {
	*pipelineProject
	sample       bool   // the go/v4 sample of testdata/project
	pkg          string // the OLM package
	ns           string // deploy.olmv0.namespace, where OLM v0 installs it
	catalog      string // the ClusterCatalog's name
	extension    string // the ClusterExtension's name
	crdFile      string // the CRD the phases change (a file of config/crd/bases)
	crd          string // its name
	cr           string // an object of it (the project's sample, else an empty spec), as YAML
	crName, kind string
}

// newLifecycleProject copies the project of OPACK_E2E_PROJECT (default: the go/v4 sample) into a
// temporary folder and points its images at bundleRepo and catalogRepo: `opack init` when it has no
// opack.yaml, else its opack.yaml with bundle.image and the first catalog's image replaced.
func newLifecycleProject(t *testing.T, bundleRepo, catalogRepo string) *lifecycleProject {
	t.Helper()
	src := os.Getenv(projectEnv)
	if src == "" {
		p := newPipelineProject(t, bundleRepo, catalogRepo)
		return describeProject(t, p, true)
	}
	dir := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatalf("copying %s=%s: %v", projectEnv, src, err)
	}
	for _, junk := range []string{".git", "bin", "_output"} {
		os.RemoveAll(filepath.Join(dir, junk))
	}
	p := &pipelineProject{dir: dir}
	cfg := filepath.Join(dir, "opack.yaml")
	if _, err := os.Stat(cfg); err != nil {
		p.expect(t, 0, "", "init", dir, "--version", "0.0.1", "--bundle-image", bundleRepo, "--catalog-image", catalogRepo)
	} else {
		setImages(t, cfg, bundleRepo, catalogRepo)
	}
	return describeProject(t, p, false)
}

// setImages replaces bundle.image and catalogs[0].image of an opack.yaml.
func setImages(t *testing.T, cfg, bundleRepo, catalogRepo string) {
	t.Helper()
	var doc map[string]any
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("reading %s: %v", cfg, err)
	}
	doc["bundle"].(map[string]any)["image"] = bundleRepo
	doc["catalogs"].([]any)[0].(map[string]any)["image"] = catalogRepo + ":latest"
	out, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, cfg, string(out))
}

// describeProject reads what the phases need from the project's opack.yaml and CRDs: the first CRD of
// config/crd/bases (by file name) and an object of it from config/samples.
func describeProject(t *testing.T, p *pipelineProject, sample bool) *lifecycleProject {
	t.Helper()
	cfg, err := config.Load(filepath.Join(p.dir, "opack.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	lp := &lifecycleProject{pipelineProject: p, sample: sample, pkg: cfg.Package, ns: cfg.Deploy.OLMv0.Namespace,
		catalog: cfg.Catalogs[0].Name, extension: cfg.Deploy.OLMv1.Extension.Name}
	if lp.extension == "" {
		lp.extension = cfg.Package
	}
	if cfg.Deploy.OLMv1.Catalog.Name != "" {
		lp.catalog = cfg.Deploy.OLMv1.Catalog.Name
	}
	files, _ := filepath.Glob(filepath.Join(p.dir, "config", "crd", "bases", "*.yaml"))
	slices.Sort(files)
	if len(files) == 0 {
		t.Fatalf("%s has no CRD in config/crd/bases: the lifecycle changes a CRD between releases", p.dir)
	}
	lp.crdFile = files[0]
	crd := readYAMLMap(t, lp.crdFile)
	lp.crd = str(crd, "metadata", "name")
	group := str(crd, "spec", "group")
	lp.kind = str(crd, "spec", "names", "kind")
	version := storageVersion(crd)
	obj := map[string]any{"apiVersion": group + "/" + version, "kind": lp.kind, "metadata": map[string]any{"name": "opack-e2e"}, "spec": map[string]any{}}
	samples, _ := filepath.Glob(filepath.Join(p.dir, "config", "samples", "*.yaml"))
	slices.Sort(samples)
	for _, f := range samples {
		s := readYAMLMap(t, f)
		if s["kind"] == lp.kind && s["apiVersion"] == group+"/"+version {
			obj = s
			break
		}
	}
	meta := obj["metadata"].(map[string]any)
	meta["namespace"] = lp.ns
	lp.crName = meta["name"].(string)
	out, err := yaml.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	lp.cr = string(out)
	return lp
}

// The field the phases add in 0.0.2 (optional: a compatible change) and make required in 0.0.3 (the
// object created after 0.0.1 lacks it: OLM v0 finds it invalid against the new schema, OLM v1's preflight
// refuses a newly required field, and opack refuses it as required-added).
const e2eField = "opackE2eNote"

// addOptionalField adds the optional string field spec.opackE2eNote to every version of the CRD.
func (lp *lifecycleProject) addOptionalField(t *testing.T) {
	t.Helper()
	lp.editSpecSchemas(t, func(spec map[string]any) {
		props, _ := spec["properties"].(map[string]any)
		if props == nil {
			props = map[string]any{}
			spec["properties"] = props
		}
		props[e2eField] = map[string]any{"type": "string", "description": "A note, new in 0.0.2 (opack's OLM lifecycle test)."}
	})
}

// requireField makes spec.opackE2eNote required in every version of the CRD.
func (lp *lifecycleProject) requireField(t *testing.T) {
	t.Helper()
	lp.editSpecSchemas(t, func(spec map[string]any) {
		req, _ := spec["required"].([]any)
		spec["required"] = append(req, e2eField)
	})
}

func (lp *lifecycleProject) editSpecSchemas(t *testing.T, edit func(spec map[string]any)) {
	t.Helper()
	crd := readYAMLMap(t, lp.crdFile)
	spec := crd["spec"].(map[string]any)
	for _, v := range spec["versions"].([]any) {
		schema, _ := v.(map[string]any)["schema"].(map[string]any)
		root, _ := schema["openAPIV3Schema"].(map[string]any)
		props, _ := root["properties"].(map[string]any)
		s, _ := props["spec"].(map[string]any)
		if s == nil {
			t.Fatalf("%s: version %v has no spec schema to change", lp.crdFile, v.(map[string]any)["name"])
		}
		edit(s)
	}
	out, err := yaml.Marshal(crd)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, lp.crdFile, "---\n"+string(out))
}

func readYAMLMap(t *testing.T, file string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.TrimPrefix(strings.TrimSpace(string(data)), "---"))
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		t.Fatalf("reading %s: %v", file, err)
	}
	return m
}

func str(m map[string]any, path ...string) string {
	var v any = m
	for _, k := range path {
		mm, _ := v.(map[string]any)
		v = mm[k]
	}
	s, _ := v.(string)
	return s
}

func storageVersion(crd map[string]any) string {
	versions, _ := crd["spec"].(map[string]any)["versions"].([]any)
	for _, v := range versions {
		if m := v.(map[string]any); m["storage"] == true {
			return m["name"].(string)
		}
	}
	return ""
}
