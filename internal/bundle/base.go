package bundle

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/opack/opack/internal/apitypes"
	"github.com/opack/opack/internal/manifest"
)

// baseCSV picks the CSV to start from, as operator-sdk does: the first input CSV named
// "<pkg>.*"; else, when the input holds no CSV at all, <kustomizeDir>/bases/<pkg>.clusterserviceversion.yaml
// (as regenerated in generated, when it is there); else a default base. fromDefault reports the last case.
func baseCSV(c *collection, pkg, kustomizeDir string, generated *BaseResult) (csv *v1alpha1.ClusterServiceVersion, fromDefault bool, err error) {
	for i := range c.CSVs {
		if strings.HasPrefix(c.CSVs[i].GetName(), pkg+".") {
			return c.CSVs[i].DeepCopy(), false, nil
		}
	}
	if len(c.CSVs) == 0 && kustomizeDir != "" {
		path := BaseFile(kustomizeDir, pkg)
		csv, err := readBaseFile(path)
		if data, ok := generated.data(path); ok {
			csv, err = decodeBase(manifest.Decode(bytes.NewReader(data), path))
		}
		if err != nil || csv != nil {
			return csv, false, err
		}
	}
	return DefaultCSV(pkg), true, nil
}

// readBaseFile reads the first CSV of a base file; nil, nil when the file does not exist.
func readBaseFile(path string) (*v1alpha1.ClusterServiceVersion, error) {
	docs, err := manifest.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return decodeBase(docs, err)
}

// decodeBase returns the first CSV of a base file's documents.
func decodeBase(docs []manifest.Doc, err error) (*v1alpha1.ClusterServiceVersion, error) {
	if err != nil {
		return nil, fmt.Errorf("reading the base ClusterServiceVersion: %w", err)
	}
	for _, d := range docs {
		if d.Object.GetKind() != "ClusterServiceVersion" {
			continue
		}
		csv := &v1alpha1.ClusterServiceVersion{}
		if err := decode(d, csv); err != nil {
			return nil, err
		}
		return csv, nil
	}
	return nil, nil
}

// DefaultCSV returns the base CSV operator-sdk scaffolds for package pkg
// (`generate kustomize manifests` without flags writes exactly this).
func DefaultCSV(pkg string) *v1alpha1.ClusterServiceVersion {
	name := DisplayName(pkg)
	return &v1alpha1.ClusterServiceVersion{
		TypeMeta: metav1.TypeMeta{APIVersion: v1alpha1.ClusterServiceVersionAPIVersion, Kind: v1alpha1.ClusterServiceVersionKind},
		ObjectMeta: metav1.ObjectMeta{
			Name:      pkg + ".v0.0.0",
			Namespace: "placeholder",
			Annotations: map[string]string{
				"capabilities": "Basic Install",
				"alm-examples": "[]",
			},
		},
		Spec: v1alpha1.ClusterServiceVersionSpec{
			DisplayName: name,
			Description: name + " description. TODO.",
			Maturity:    "alpha",
			Keywords:    []string{pkg},
			Links:       []v1alpha1.AppLink{{Name: name, URL: "https://" + pkg + ".domain"}},
			Icon:        []v1alpha1.Icon{{Data: "", MediaType: ""}},
			Provider:    v1alpha1.AppLink{Name: "Provider Name", URL: "https://your.domain"},
			Maintainers: []v1alpha1.Maintainer{{Name: "Maintainer Name", Email: "your@email.com"}},
			InstallModes: []v1alpha1.InstallMode{
				{Type: v1alpha1.InstallModeTypeOwnNamespace, Supported: false},
				{Type: v1alpha1.InstallModeTypeSingleNamespace, Supported: false},
				{Type: v1alpha1.InstallModeTypeMultiNamespace, Supported: false},
				{Type: v1alpha1.InstallModeTypeAllNamespaces, Supported: true},
			},
		},
	}
}

// DisplayName turns a name in snake, kebab, camel or dotted case into a title-cased,
// space-separated display name ("memcached-operator" → "Memcached Operator"), as operator-sdk does.
func DisplayName(name string) string { return apitypes.DisplayName(name) }
