package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/manifest"

	"github.com/opack/opack/internal/fbc"
)

// The CSV annotation holding extra bundle properties as a JSON list.
const (
	csvPropertiesAnnotation = "olm.properties"
)

// registryBundle is a registry+v1 bundle read the way opm's bundle parser reads it
// (operator-registry pkg/registry/parse.go): the first object of each file in manifests/,
// the first ClusterServiceVersion only, and the first files of metadata/ that decode as
// annotations, dependencies and properties.
type registryBundle struct {
	name         string
	pkg          string
	image        string
	objects      []*unstructured.Unstructured
	csv          *unstructured.Unstructured
	spec         map[string]json.RawMessage
	properties   []fbc.Property
	dependencies []fbc.Property
}

// parseRegistryBundle reads the registry+v1 bundle in dir. warn receives opm's warnings
// (files of manifests/ that do not decode are skipped, as opm does).
func parseRegistryBundle(dir string, warn io.Writer) (*registryBundle, error) {
	b := &registryBundle{}
	if err := b.addManifests(filepath.Join(dir, "manifests"), warn); err != nil {
		return nil, err
	}
	if err := b.addMetadata(filepath.Join(dir, "metadata")); err != nil {
		return nil, err
	}
	derived, err := b.derivedProperties(warn)
	if err != nil {
		return nil, fmt.Errorf("failed to derive properties: %s", err)
	}
	b.properties = propertySet(append(b.properties, derived...))
	return b, nil
}

func (b *registryBundle) addManifests(dir string, warn io.Writer) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		obj, err := decodeFirstObject(filepath.Join(dir, e.Name()))
		if err != nil {
			fmt.Fprintf(warn, "warning: failed to decode: %s\n", err)
			continue
		}
		if obj == nil {
			continue
		}
		if obj.GetKind() == "ClusterServiceVersion" {
			if b.csv != nil {
				continue
			}
			b.csv = obj
		}
		b.objects = append(b.objects, obj)
	}
	if len(b.objects) == 0 {
		return errors.New("no bundle objects found")
	}
	if b.csv == nil {
		return errors.New("no csv in bundle")
	}
	b.name = b.csv.GetName()
	spec, err := csvSpecOf(b.csv)
	if err != nil {
		return err
	}
	b.spec = spec
	if err := b.allProvidedAPIsInBundle(); err != nil {
		return fmt.Errorf("error checking provided apis in bundle %s: %s", b.name, err)
	}
	return nil
}

// decodeFirstObject decodes the first document of a manifest file the way opm does
// (YAML converted to JSON, then decoded as an unstructured object, integers kept as int64).
// manifest.ReadFile already decoded it into those values; only an object without a kind,
// which opm refuses with the JSON in its message, is decoded again for that message.
func decodeFirstObject(path string) (*unstructured.Unstructured, error) {
	docs, err := manifest.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(docs) == 0 {
		return nil, fmt.Errorf("%s: no object", path)
	}
	if obj := docs[0].Object; obj != nil && obj.GetKind() != "" {
		return obj, nil
	}
	return unstructuredFromRaw(docs[0].Raw, docs[0].String())
}

func unstructuredFromRaw(raw []byte, name string) (*unstructured.Unstructured, error) {
	j, err := yaml.YAMLToJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("decoding %s: %w", name, err)
	}
	obj := &unstructured.Unstructured{}
	if err := obj.UnmarshalJSON(j); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", name, err)
	}
	return obj, nil
}

func csvSpecOf(csv *unstructured.Unstructured) (map[string]json.RawMessage, error) {
	spec := map[string]json.RawMessage{}
	raw, err := json.Marshal(csv.Object["spec"])
	if err != nil {
		return nil, fmt.Errorf("encoding the spec of ClusterServiceVersion %s: %w", csv.GetName(), err)
	}
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("ClusterServiceVersion %s: spec is not an object: %w", csv.GetName(), err)
	}
	return spec, nil
}

type annotationsFile struct {
	Annotations struct {
		PackageName        string `json:"operators.operatorframework.io.bundle.package.v1"`
		Channels           string `json:"operators.operatorframework.io.bundle.channels.v1"`
		DefaultChannelName string `json:"operators.operatorframework.io.bundle.channel.default.v1"`
	} `json:"annotations"`
}

type dependenciesFile struct {
	Dependencies []fbc.Property `json:"dependencies"`
}

type propertiesFile struct {
	Properties []fbc.Property `json:"properties"`
}

// addMetadata reads metadata/ as opm does: the first file that decodes as annotations (with
// one of the bundle annotations set), dependencies and properties, in file name order.
func (b *registryBundle) addMetadata(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var (
		af    *annotationsFile
		deps  []fbc.Property
		props []fbc.Property
	)
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if af == nil {
			var f annotationsFile
			if decodeFirstInto(path, &f) == nil && f.Annotations != (annotationsFile{}).Annotations {
				af = &f
			}
		}
		if deps == nil {
			var f dependenciesFile
			if decodeFirstInto(path, &f) == nil && len(f.Dependencies) > 0 {
				deps = f.Dependencies
			}
		}
		if props == nil {
			var f propertiesFile
			if decodeFirstInto(path, &f) == nil && len(f.Properties) > 0 {
				props = f.Properties
			}
		}
	}
	if af == nil {
		return errors.New("Could not find annotations file") //nolint:staticcheck // opm's message
	}
	b.pkg = af.Annotations.PackageName
	b.dependencies = deps
	b.properties = append(b.properties, props...)
	return nil
}

func decodeFirstInto(path string, into any) error {
	docs, err := manifest.ReadFile(path)
	if err != nil {
		return err
	}
	if len(docs) == 0 {
		return io.EOF
	}
	j, err := yaml.YAMLToJSON(docs[0].Raw)
	if err != nil {
		return err
	}
	return json.Unmarshal(j, into)
}

// derivedProperties returns the properties opm derives from the bundle: those of the CSV
// annotation olm.properties, the olm.package property and one olm.gvk per provided API.
func (b *registryBundle) derivedProperties(warn io.Writer) ([]fbc.Property, error) {
	var derived []fbc.Property
	if v, ok := b.csv.GetAnnotations()[csvPropertiesAnnotation]; ok {
		if err := json.Unmarshal([]byte(v), &derived); err != nil {
			fmt.Fprintf(warn, "warning: failed to unmarshal csv annotation properties: %s\n", err)
		}
	}
	if b.pkg != "" {
		version, err := b.version()
		if err != nil {
			return nil, err
		}
		release, err := b.release()
		if err != nil {
			return nil, err
		}
		value, err := json.Marshal(fbc.PackageProperty{PackageName: b.pkg, Version: version, Release: release})
		if err != nil {
			return nil, fmt.Errorf("failed to marshal package property: %s", err)
		}
		derived = append([]fbc.Property{{Type: fbc.TypePackage, Value: value}}, derived...)
	}
	provided, err := b.providedAPIs()
	if err != nil {
		return nil, fmt.Errorf("error getting provided apis: %s", err)
	}
	for _, k := range sortedAPIKeys(provided) {
		value, err := json.Marshal(fbc.GVK{Group: k.Group, Kind: k.Kind, Version: k.Version})
		if err != nil {
			return nil, fmt.Errorf("failed to marshal gvk property: %s", err)
		}
		derived = append(derived, fbc.Property{Type: fbc.TypeGVK, Value: value})
	}
	return propertySet(derived), nil
}

// propertySet drops repeated (type, value) pairs, keeping the first.
func propertySet(in []fbc.Property) []fbc.Property {
	seen := map[string]bool{}
	var out []fbc.Property
	for _, p := range in {
		k := p.Type + "\x00" + string(p.Value)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, p)
	}
	return out
}

// version is the CSV's spec.version ("" when absent).
func (b *registryBundle) version() (string, error) {
	raw, ok := b.spec["version"]
	if !ok || isJSONNull(raw) {
		return "", nil
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", err
	}
	return v, nil
}

// release is the CSV's spec.release, a string or a number ("" when absent).
func (b *registryBundle) release() (string, error) {
	raw, ok := b.spec["release"]
	if !ok || isJSONNull(raw) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return "", fmt.Errorf("spec.release of ClusterServiceVersion %s must be a string or a number: %w", b.name, err)
	}
	return n.String(), nil
}

func isJSONNull(raw json.RawMessage) bool { return strings.TrimSpace(string(raw)) == "null" }
