package packagemanifest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	sigsyaml "sigs.k8s.io/yaml"
)

// Bundle annotation keys (operator-registry's pkg/lib/bundle).
const (
	AnnotationMediaType      = "operators.operatorframework.io.bundle.mediatype.v1"
	AnnotationManifests      = "operators.operatorframework.io.bundle.manifests.v1"
	AnnotationMetadata       = "operators.operatorframework.io.bundle.metadata.v1"
	AnnotationPackage        = "operators.operatorframework.io.bundle.package.v1"
	AnnotationChannels       = "operators.operatorframework.io.bundle.channels.v1"
	AnnotationDefaultChannel = "operators.operatorframework.io.bundle.channel.default.v1"

	MediaTypeRegistryV1 = "registry+v1"
	MediaTypeHelm       = "helm"
	mediaTypePlain      = "plain"
)

type annotationsDoc struct {
	Annotations map[string]string `json:"annotations"`
}

// findBundleMetadata is operator-sdk's FindBundleMetadata: metadata/annotations.yaml, else the first
// non-hidden file below dir holding a non-empty annotations map.
func findBundleMetadata(dir string) (map[string]string, string, error) {
	file := filepath.Join(dir, "metadata", "annotations.yaml")
	if a, err := readAnnotations(file); err == nil && len(a) > 0 {
		return a, file, nil
	}
	var found map[string]string
	var foundFile string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && path != dir {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		if a, err := readAnnotations(path); err == nil && len(a) > 0 {
			found, foundFile = a, path
			return filepath.SkipAll
		}
		return nil
	})
	if err != nil {
		return nil, "", fmt.Errorf("reading %s: %w", dir, err)
	}
	if found == nil {
		if _, statErr := os.Stat(file); statErr == nil {
			_, readErr := readAnnotations(file)
			if readErr == nil {
				readErr = fmt.Errorf("no annotations in it")
			}
			return nil, "", &LoadError{File: file, Err: fmt.Errorf("metadata not found in %s: %s: %w", dir, file, readErr)}
		}
		return nil, "", fmt.Errorf("metadata not found in %s", dir)
	}
	return found, foundFile, nil
}

func readAnnotations(path string) (map[string]string, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if !strings.Contains(string(raw), "annotations") {
		return nil, fmt.Errorf("no annotations in %s", path)
	}
	var doc annotationsDoc
	if err := sigsyaml.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	return doc.Annotations, nil
}
