package image

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/manifest"
)

// bundleTrees are the directories of a bundle that go into its image, where operator-sdk's
// bundle.Dockerfile COPY lines put them; the scorecard tests are optional.
var bundleTrees = []struct {
	dir      string
	optional bool
}{{"manifests", false}, {"metadata", false}, {"tests/scorecard", true}}

// Bundle builds the image of the registry+v1 bundle in dir: FROM scratch, one layer holding
// manifests/, metadata/ and (when present) tests/scorecard/, labels from metadata/annotations.yaml
// plus WithLabels, and OCI annotations (created, and version from the CSV unless WithVersion).
func Bundle(ctx context.Context, dir string, opts ...Option) (v1.Image, error) {
	o := makeOptions(opts...)
	if err := o.checkFormat(); err != nil {
		return nil, err
	}
	annotations, err := readAnnotations(dir)
	if err != nil {
		return nil, err
	}
	trees, err := bundleTreesIn(dir)
	if err != nil {
		return nil, err
	}
	if err := checkManifests(dir); err != nil {
		return nil, err
	}
	if o.version == "" {
		o.version = csvVersion(filepath.Join(dir, "manifests"))
	}
	base := scratch(o.format)
	mt, err := base.MediaType()
	if err != nil {
		return nil, err
	}
	layer, err := buildLayer(trees, layerType(mt))
	if err != nil {
		return nil, fmt.Errorf("building bundle image of %s: %w", dir, err)
	}
	img, err := o.appendLayer(base, layer, "opack image bundle")
	if err != nil {
		return nil, err
	}
	return o.configure(img, annotations, func(cf *v1.ConfigFile) {
		cf.OS, cf.Architecture = defaultPlatform.OS, defaultPlatform.Architecture
	})
}

// checkManifests parses every file of manifests/ so that a bundle whose YAML does not parse is
// refused before it is packed; the error names the file.
func checkManifests(dir string) error {
	docs, err := manifest.ReadTree(filepath.Join(dir, "manifests"))
	if err != nil {
		return fmt.Errorf("reading bundle %s: %w", dir, err)
	}
	if len(docs) == 0 {
		return fmt.Errorf("reading bundle %s: manifests/ holds no objects", dir)
	}
	return nil
}

func bundleTreesIn(dir string) ([]tree, error) {
	var trees []tree
	for _, t := range bundleTrees {
		src := filepath.Join(dir, filepath.FromSlash(t.dir))
		fi, err := os.Stat(src)
		switch {
		case err == nil && fi.IsDir():
			trees = append(trees, tree{src: src, dst: t.dir})
		case os.IsNotExist(err) && t.optional:
		case err == nil:
			return nil, fmt.Errorf("reading bundle %s: %s is not a directory", dir, src)
		default:
			return nil, fmt.Errorf("reading bundle %s: %w (a bundle needs manifests/ and metadata/)", dir, err)
		}
	}
	return trees, nil
}

// readAnnotations reads metadata/annotations.yaml, whose annotations become the image labels.
func readAnnotations(dir string) (map[string]string, error) {
	p := filepath.Join(dir, "metadata", "annotations.yaml")
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("reading bundle annotations: %w", err)
	}
	var doc struct {
		Annotations map[string]string `json:"annotations"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("reading %s: %w (annotations must map strings to strings)", p, err)
	}
	if len(doc.Annotations) == 0 {
		return nil, fmt.Errorf("reading %s: no annotations; a bundle needs at least operators.operatorframework.io.bundle.package.v1", p)
	}
	return doc.Annotations, nil
}

// csvVersion returns spec.version of the ClusterServiceVersion in dir, or "" when there is none
// (validation is not this package's job).
func csvVersion(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			continue
		}
		var obj struct {
			Kind string `json:"kind"`
			Spec struct {
				Version string `json:"version"`
			} `json:"spec"`
		}
		if yaml.Unmarshal(data, &obj) == nil && obj.Kind == "ClusterServiceVersion" {
			return obj.Spec.Version
		}
	}
	return ""
}
