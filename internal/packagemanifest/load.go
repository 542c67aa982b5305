package packagemanifest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/opack/opack/internal/finding"
	"github.com/operator-framework/api/pkg/manifests"
	operatorsv1alpha1 "github.com/operator-framework/api/pkg/operators/v1alpha1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsv1beta1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/manifest"
)

// Bundle is a bundle as operator-sdk's `bundle validate` loads it, plus where each object came from.
type Bundle struct {
	dir          string
	metadataFile string            // the annotations file found, "" when none
	annotations  map[string]string // its annotations
	manifestsDir string
	MediaType    string            // MediaTypeRegistryV1, MediaTypeHelm or mediaTypePlain
	Manifests    *manifests.Bundle // as operator-framework/api's loader returns it
	CSVFile      string
	ObjFile      map[*unstructured.Unstructured]string
	CRDFile      map[string]string   // CRD name -> file
	CRDSrc       map[any]*SourceFile // typed CRD -> its file
	ExtraDocs    []*SourceFile       // files holding more than one document
	badFiles     []string            // files the loader refused
	files        fileCache
}

// LoadError is a failure that stops operator-sdk before any validator runs; file names what could not be read.
type LoadError struct {
	File string
	Err  error
}

func (e *LoadError) Error() string { return e.Err.Error() }

// Unwrap returns the loader's error.
func (e *LoadError) Unwrap() error { return e.Err }

// LoadBundleDir reads dir as operator-sdk's getBundleDataFromDir does: metadata, media type, then the bundle
// through operator-framework/api's loader semantics (same walk, same errors).
func LoadBundleDir(dir string, pc *ParseCache) (*Bundle, error) {
	lb := &Bundle{dir: dir, files: newFileCache(pc), ObjFile: map[*unstructured.Unstructured]string{}, CRDFile: map[string]string{}, CRDSrc: map[any]*SourceFile{}}
	annotations, file, err := findBundleMetadata(dir)
	if err != nil {
		var le *LoadError
		if errors.As(err, &le) {
			return nil, le
		}
		return nil, &LoadError{File: dir, Err: err}
	}
	lb.annotations, lb.metadataFile = annotations, file
	manifestsName := "manifests/"
	if v, ok := annotations[AnnotationManifests]; ok {
		manifestsName = v
	}
	lb.manifestsDir = filepath.Join(dir, filepath.Clean(manifestsName))
	if !within(dir, lb.manifestsDir) {
		return nil, &LoadError{File: file, Err: fmt.Errorf("annotation %s=%q points outside the bundle %s; use manifests/", AnnotationManifests, manifestsName, dir)}
	}
	if lb.MediaType, err = lb.detectMediaType(); err != nil {
		return nil, &LoadError{File: lb.manifestsDir, Err: err}
	}
	if err := lb.load(); err != nil {
		file := lb.manifestsDir
		if len(lb.badFiles) == 1 {
			file = lb.badFiles[0]
		}
		return nil, &LoadError{File: file, Err: err}
	}
	return lb, nil
}

func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// detectMediaType is operator-registry's GetMediaType: helm when the folder is a chart, registry+v1 when a
// top-level file holds a CSV, plain otherwise.
func (lb *Bundle) detectMediaType() (string, error) {
	entries, err := os.ReadDir(lb.manifestsDir)
	if err != nil && !os.IsNotExist(err) {
		return "", err
	}
	var files []string
	for _, e := range entries {
		if !e.IsDir() {
			files = append(files, filepath.Join(lb.manifestsDir, e.Name()))
		}
	}
	if len(files) == 0 {
		return "", fmt.Errorf("The directory %s contains no yaml files", lb.manifestsDir)
	}
	if _, err := os.Stat(filepath.Join(lb.manifestsDir, "Chart.yaml")); err == nil {
		return MediaTypeHelm, nil
	}
	for _, path := range files {
		f, err := lb.files.get(path)
		if le := (*manifest.LimitError)(nil); errors.As(err, &le) {
			return "", err
		}
		if err != nil {
			return "", fmt.Errorf("Unable to read file %s in bundle", path)
		}
		if f.Obj != nil && f.Obj.GetKind() == operatorsv1alpha1.ClusterServiceVersionKind {
			return MediaTypeRegistryV1, nil
		}
	}
	return mediaTypePlain, nil
}

// load mirrors operator-framework/api's bundleLoader.LoadBundle.
func (lb *Bundle) load() error {
	var errs []error
	var foundCSV bool
	var annotationsFile manifests.AnnotationsFile
	err := filepath.Walk(lb.manifestsDir, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		if info.IsDir() {
			if strings.HasPrefix(info.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(info.Name(), ".") {
			return nil
		}
		f, err := lb.files.get(path)
		if err != nil {
			errs = append(errs, fmt.Errorf("unable to load file %s: %s", path, err))
			return nil
		}
		if strings.HasPrefix(info.Name(), "annotations") {
			if err := sigsyaml.Unmarshal(f.Raw, &annotationsFile); err != nil {
				errs = append(errs, fmt.Errorf("unable to load the annotations file %s: %s", path, err))
				return nil
			}
		}
		if f.Obj == nil || f.Obj.GetKind() != operatorsv1alpha1.ClusterServiceVersionKind {
			return nil
		}
		foundCSV = true
		if err := lb.loadCSVDir(f.Obj.GetName(), filepath.Dir(path)); err != nil {
			errs = append(errs, err)
		}
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	if lb.Manifests != nil {
		if err := lb.measure(); err != nil {
			errs = append(errs, err)
		}
		channels := strings.Split(annotationsFile.Annotations.Channels, ",")
		if len(lb.Manifests.Channels) == 0 {
			lb.Manifests.Channels = channels
		}
		lb.Manifests.DefaultChannel = annotationsFile.Annotations.DefaultChannelName
		lb.Manifests.Package = annotationsFile.Annotations.PackageName
	}
	if !foundCSV {
		errs = append(errs, fmt.Errorf("unable to find a csv in bundle directory %s", lb.manifestsDir))
	} else if lb.Manifests == nil {
		errs = append(errs, fmt.Errorf("unable to load bundle from directory %s", lb.manifestsDir))
	}
	return utilerrors.NewAggregate(errs)
}

// loadCSVDir mirrors the walk function's handling of a CSV: load the folder holding it as the bundle.
func (lb *Bundle) loadCSVDir(csvName, dir string) error {
	var errs []error
	b, csvFile, err := lb.loadObjects(csvName, dir)
	if err != nil {
		errs = append(errs, fmt.Errorf("error loading objs in directory: %s", err))
	}
	if b == nil || b.CSV == nil {
		errs = append(errs, fmt.Errorf("no bundle csv found"))
		return utilerrors.NewAggregate(errs)
	}
	lb.Manifests, lb.CSVFile = b, csvFile
	return utilerrors.NewAggregate(errs)
}

// loadObjects mirrors operator-framework/api's loadBundle: every entry of dir is one object (first document).
func (lb *Bundle) loadObjects(csvName, dir string) (*manifests.Bundle, string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, "", err
	}
	var errs []error
	b := &manifests.Bundle{Name: csvName}
	var csvFile string
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if e.IsDir() {
			errs = append(errs, fmt.Errorf("bundle manifests dir contains directory: %s", path))
			lb.badFiles = append(lb.badFiles, path)
			continue
		}
		if strings.HasPrefix(e.Name(), ".") {
			errs = append(errs, fmt.Errorf("bundle manifests dir has hidden file: %s", path))
			lb.badFiles = append(lb.badFiles, path)
			continue
		}
		f, err := lb.files.get(path)
		if err != nil {
			errs = append(errs, fmt.Errorf("unable to load file %s: %s", path, err))
			continue
		}
		if f.decodeErr != nil {
			errs = append(errs, fmt.Errorf("unable to decode object: %s", f.decodeErr))
			lb.badFiles = append(lb.badFiles, path)
			continue
		}
		obj := f.Obj // shared read-only with other bundles of the run (ParseCache), never twice in one
		b.Objects = append(b.Objects, obj)
		lb.ObjFile[obj] = path
		if f.Docs > 1 {
			lb.ExtraDocs = append(lb.ExtraDocs, f)
		}
		if err := lb.addTyped(b, f, obj, e.Name()); err != nil {
			return nil, "", err
		}
		if obj.GetKind() == operatorsv1alpha1.ClusterServiceVersionKind {
			csvFile = path
		}
	}
	return b, csvFile, utilerrors.NewAggregate(errs)
}

// addTyped decodes CSVs and CRDs into their typed form, as the loader does.
func (lb *Bundle) addTyped(b *manifests.Bundle, f *SourceFile, obj *unstructured.Unstructured, name string) error {
	switch obj.GetKind() {
	case operatorsv1alpha1.ClusterServiceVersionKind:
		if b.CSV != nil {
			return fmt.Errorf("invalid bundle: contains multiple CSVs")
		}
		csv := operatorsv1alpha1.ClusterServiceVersion{}
		if err := f.decodeTyped(&csv); err != nil {
			return fmt.Errorf("unable to parse CSV %s: %s", name, err.Error())
		}
		b.CSV = &csv
	case "CustomResourceDefinition":
		switch version := obj.GetAPIVersion(); version {
		case apiextensionsv1beta1.SchemeGroupVersion.String():
			crd := apiextensionsv1beta1.CustomResourceDefinition{}
			if err := f.decodeTyped(&crd); err != nil {
				return fmt.Errorf("unable to parse CRD %s: %s", name, err.Error())
			}
			b.V1beta1CRDs = append(b.V1beta1CRDs, &crd)
			lb.CRDFile[crd.Name], lb.CRDSrc[&crd] = f.Path, f
		case apiextensionsv1.SchemeGroupVersion.String():
			crd, err := f.decodeV1CRD()
			if err != nil {
				return fmt.Errorf("unable to parse CRD %s: %s", name, err.Error())
			}
			b.V1CRDs = append(b.V1CRDs, crd)
			lb.CRDFile[crd.Name], lb.CRDSrc[crd] = f.Path, f
		default:
			return fmt.Errorf("unsupported CRD version %s for %s", version, name)
		}
	}
	return nil
}

// CSVObject names the bundle's CSV as findings do ("ClusterServiceVersion/NAME"), "" when it has none.
func (lb *Bundle) CSVObject() string {
	if lb.Manifests == nil || lb.Manifests.CSV == nil {
		return ""
	}
	return finding.ObjectName("ClusterServiceVersion", lb.Manifests.CSV.GetName())
}
