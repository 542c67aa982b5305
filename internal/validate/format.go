package validate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/opack/opack/internal/packagemanifest"
	sigsyaml "sigs.k8s.io/yaml"
)

// formatErrors is operator-registry's ValidateBundleFormat: manifests/ and metadata/ folders, an annotations
// file in metadata/ whose keys match the bundle, and an optional dependencies file.
func formatErrors(dir, mediaType string) (errs []string, annotationsFile string) {
	var manifestsFound, metadataFound bool
	entries, err := os.ReadDir(dir)
	if err != nil {
		errs = append(errs, err.Error())
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		switch e.Name() {
		case "manifests":
			manifestsFound = true
		case "metadata":
			metadataFound = true
		}
	}
	if !manifestsFound {
		errs = append(errs, "Unable to locate manifests directory")
	}
	if !metadataFound {
		errs = append(errs, "Unable to locate metadata directory")
	}
	if len(errs) > 0 {
		return errs, ""
	}
	metadataDir := filepath.Join(dir, "metadata")
	files, err := os.ReadDir(metadataDir)
	if err != nil {
		errs = append(errs, err.Error())
	}
	var annotations map[string]string
	var deps *dependenciesFile
	for _, f := range files {
		if f.IsDir() {
			continue
		}
		path := filepath.Join(metadataDir, f.Name())
		raw, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		if annotations == nil {
			var doc struct {
				Annotations map[string]string `json:"annotations"`
			}
			if sigsyaml.Unmarshal(raw, &doc) == nil && doc.Annotations != nil {
				annotations, annotationsFile = doc.Annotations, path
				continue
			}
		}
		if deps == nil {
			var d dependenciesFile
			if sigsyaml.Unmarshal(raw, &d) == nil && len(d.Dependencies) > 0 {
				deps = &d
			}
		}
	}
	if annotations == nil {
		errs = append(errs, "Could not find annotations file")
	} else {
		errs = append(errs, annotationErrors(mediaType, annotations)...)
	}
	if deps != nil {
		errs = append(errs, deps.validate()...)
	}
	return errs, annotationsFile
}

// annotationErrors checks the required bundle annotations (in a fixed order; operator-registry iterates a map).
func annotationErrors(mediaType string, a map[string]string) []string {
	var errs []string
	for _, key := range []string{packagemanifest.AnnotationMediaType, packagemanifest.AnnotationManifests, packagemanifest.AnnotationMetadata, packagemanifest.AnnotationPackage, packagemanifest.AnnotationChannels} {
		val, ok := a[key]
		if !ok {
			errs = append(errs, fmt.Sprintf("Missing annotation %q", key))
		}
		switch key {
		case packagemanifest.AnnotationMediaType:
			if val != mediaType {
				errs = append(errs, fmt.Sprintf("Expecting annotation %q to have value %q instead of %q", key, mediaType, val))
			}
		case packagemanifest.AnnotationChannels:
			if val == "" {
				errs = append(errs, fmt.Sprintf("Expecting annotation %q to have non-empty value", key))
			}
		}
	}
	if val, ok := a[packagemanifest.AnnotationDefaultChannel]; ok && val == "" {
		errs = append(errs, fmt.Sprintf("Expecting annotation %q to have non-empty value", packagemanifest.AnnotationDefaultChannel))
	}
	return errs
}

// formatMessage is operator-sdk's single output for every format error.
func formatMessage(dir string, errs []string) string {
	return fmt.Sprintf("error validating format in %s: Bundle validation errors: %s", dir, strings.Join(errs, ","))
}
