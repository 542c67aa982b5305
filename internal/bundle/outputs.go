package bundle

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/opack/opack/internal/manifest"
)

// checkOutputDir refuses an output folder that equals, contains or lies inside an input: the
// kustomize tree (config/ for the usual layout), the --input-dir folder or the project's config/.
// The bundle folder is replaced as a whole, so such a folder would lose the project's sources.
func checkOutputDir(o *Options) error {
	out, err := filepath.Abs(o.OutputDir)
	if err != nil {
		return err
	}
	type input struct{ what, dir string }
	var ins []input
	if o.Input == nil && o.InputDir == "" || o.KustomizeDir != "" {
		k := filepath.Clean(o.KustomizeDir)
		ins = append(ins, input{"the kustomize folder", k})
		if filepath.Base(filepath.Dir(k)) == "config" {
			ins = append(ins, input{"the kustomize tree", filepath.Dir(k)})
		}
	}
	if o.InputDir != "" {
		ins = append(ins, input{"--input-dir", o.InputDir})
	}
	ins = append(ins, input{"the project's config folder", filepath.Join(o.ProjectDir, "config")})
	for _, in := range ins {
		a, err := filepath.Abs(in.dir)
		if err != nil {
			return err
		}
		if within(a, out) || within(out, a) {
			return fmt.Errorf("output folder %s overlaps %s %s: the bundle folder is replaced as a whole; choose a folder of its own (default bundle)", o.OutputDir, in.what, in.dir)
		}
	}
	return nil
}

func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

var dupPrefix = regexp.MustCompile(`^dup[0-9]+_`)

// generatorFile reports whether the file name of manifests/ holds what the generator writes
// under that name (operator-sdk's naming: <name>_<group>_<version>_<kind>.yaml, <group>_<plural>.yaml
// for CRDs, <package>.clusterserviceversion.yaml): only such files are removed as stale; any other
// file was not written by opack (or operator-sdk) and is kept.
func generatorFile(name string, data []byte) bool {
	base := dupPrefix.ReplaceAllString(path.Base(name), "")
	obj, err := manifest.DecodeObject(data)
	if err != nil || obj == nil {
		return false
	}
	str := func(m map[string]any, keys ...string) string {
		for _, k := range keys[:len(keys)-1] {
			m, _ = m[k].(map[string]any)
		}
		s, _ := m[keys[len(keys)-1]].(string)
		return s
	}
	kind, apiVersion := str(obj, "kind"), str(obj, "apiVersion")
	switch kind {
	case "ClusterServiceVersion":
		return strings.HasSuffix(base, ".clusterserviceversion.yaml")
	case "CustomResourceDefinition":
		return base == str(obj, "spec", "group")+"_"+str(obj, "spec", "names", "plural")+".yaml"
	}
	group, version, ok := strings.Cut(apiVersion, "/")
	if !ok {
		group, version = "", apiVersion
	}
	want := str(obj, "metadata", "name") + "_"
	if group != "" {
		want += group + "_"
	}
	return base == want+version+"_"+strings.ToLower(kind)+".yaml"
}
