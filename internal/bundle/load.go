package bundle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	"sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/manifest"
)

// Load reads the bundle folder dir: every object of every file in manifests/ (which must
// hold files only, as registry+v1 requires), exactly one ClusterServiceVersion among them,
// and metadata/annotations.yaml when present. Files lists everything else in the folder.
//
// Load checks structure only; content checks belong to internal/validate. Errors name the
// file and, where one is at fault, the object.
func Load(ctx context.Context, dir string, opts ...manifest.Option) (*Bundle, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	files, err := manifest.Files(dir, opts...)
	if err != nil {
		return nil, fmt.Errorf("loading bundle %s: %w", dir, err)
	}
	if err := checkManifestsDir(dir); err != nil {
		return nil, err
	}
	b := &Bundle{Dir: dir, Files: files}
	for _, rel := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if path.Dir(rel) != ManifestsDir {
			continue
		}
		if err := b.addManifestFile(dir, rel, opts); err != nil {
			return nil, err
		}
	}
	if b.CSV == nil {
		return nil, fmt.Errorf("loading bundle %s: no ClusterServiceVersion in %s/ (generate one with `opack generate bundle`)", dir, ManifestsDir)
	}
	ann, err := readAnnotations(filepath.Join(dir, filepath.FromSlash(AnnotationsFile)))
	if err != nil {
		return nil, err
	}
	b.Annotations = ann
	return b, nil
}

// checkManifestsDir refuses a bundle without manifests/ or with a folder inside it.
func checkManifestsDir(dir string) error {
	mdir := filepath.Join(dir, ManifestsDir)
	entries, err := os.ReadDir(mdir)
	if err != nil {
		return fmt.Errorf("loading bundle %s: reading %s: %w", dir, mdir, err)
	}
	for _, e := range entries {
		if e.IsDir() {
			return fmt.Errorf("loading bundle %s: %s is a folder; registry+v1 bundles keep manifests directly in %s/ (move or remove it)",
				dir, filepath.Join(mdir, e.Name()), ManifestsDir)
		}
	}
	return nil
}

func (b *Bundle) addManifestFile(dir, rel string, opts []manifest.Option) error {
	docs, err := manifest.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)), opts...)
	if err != nil {
		return fmt.Errorf("loading bundle %s: %w", dir, err)
	}
	for _, d := range docs {
		o := Object{File: rel, Index: d.Index, Object: d.Object, Raw: d.Raw}
		gvk := d.Object.GroupVersionKind()
		switch {
		case gvk.Kind == "":
			return fmt.Errorf("loading bundle %s: %s has no kind (every manifest needs apiVersion and kind)", dir, d)
		case gvk.Group == "operators.coreos.com" && gvk.Kind == "ClusterServiceVersion":
			if b.CSV != nil {
				return fmt.Errorf("loading bundle %s: %s is a second ClusterServiceVersion (the first is in %s); a bundle holds exactly one",
					dir, d, b.CSVFile)
			}
			csv, err := decodeCSV(d.Object.Object)
			if err != nil {
				return fmt.Errorf("loading bundle %s: decoding %s: %w", dir, d, err)
			}
			b.CSV, b.CSVFile = csv, rel
		case gvk.Group == "apiextensions.k8s.io" && gvk.Kind == "CustomResourceDefinition":
			b.CRDs = append(b.CRDs, o)
		default:
			b.Others = append(b.Others, o)
		}
	}
	return nil
}

// decodeCSV converts a decoded object into a typed ClusterServiceVersion.
func decodeCSV(obj map[string]interface{}) (*v1alpha1.ClusterServiceVersion, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	csv := &v1alpha1.ClusterServiceVersion{}
	if err := json.Unmarshal(data, csv); err != nil {
		return nil, err
	}
	return csv, nil
}

// readAnnotations reads the annotations map of an annotations.yaml file; nil, nil when absent.
func readAnnotations(file string) (map[string]string, error) {
	data, err := manifest.ReadBytes(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var doc struct {
		Annotations map[string]string `json:"annotations"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("reading %s: %w (expected a map under the key \"annotations\")", file, err)
	}
	if doc.Annotations == nil {
		return nil, fmt.Errorf("reading %s: no \"annotations\" map (expected `annotations:` with the bundle labels)", file)
	}
	return doc.Annotations, nil
}

// ManifestName returns the part of an Object's File below manifests/.
func (o Object) ManifestName() string { return strings.TrimPrefix(o.File, ManifestsDir+"/") }
