package template

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/opack/opack/internal/fbc"
)

// Template schemas.
const (
	SchemaBasicTemplate  = "olm.template.basic"
	SchemaSemverTemplate = "olm.semver"
)

// BundleRenderer renders one bundle reference (an image or, unlike opm, a bundle folder) into
// catalog blobs. Templates call it once per distinct reference; tests inject a fake.
type BundleRenderer func(ctx context.Context, ref string) (*fbc.DeclarativeConfig, error)

// templateSchemas maps the names a template type may be given by to its schema.
var templateSchemas = map[string]string{
	"basic":              SchemaBasicTemplate,
	SchemaBasicTemplate:  SchemaBasicTemplate,
	"semver":             SchemaSemverTemplate,
	SchemaSemverTemplate: SchemaSemverTemplate,
}

// RenderTemplate renders a basic or semver template to a catalog, as `opm alpha
// render-template` does. typ is "basic", "semver" (or their schemas), or "" to detect it
// from the schema field of the template's first document.
func RenderTemplate(ctx context.Context, data []byte, typ string, render BundleRenderer) (*fbc.DeclarativeConfig, error) {
	schema, err := templateSchema(data, typ)
	if err != nil {
		return nil, err
	}
	switch schema {
	case SchemaBasicTemplate:
		return renderBasicTemplate(ctx, data, render)
	default:
		return renderSemverTemplate(ctx, data, render)
	}
}

func templateSchema(data []byte, typ string) (string, error) {
	if typ != "" {
		s, ok := templateSchemas[typ]
		if !ok {
			return "", fmt.Errorf("invalid template type %q, must be one of: [basic semver]", typ)
		}
		return s, nil
	}
	s, err := DetectTemplateSchema(data)
	if err != nil {
		return "", err
	}
	if _, ok := templateSchemas[s]; !ok {
		return "", fmt.Errorf("auto-detecting template type: unknown template schema: %s", s)
	}
	return s, nil
}

// DetectTemplateSchema returns the schema field of the first document of a template.
func DetectTemplateSchema(data []byte) (string, error) {
	raw, err := firstDocJSON(data)
	if err != nil {
		return "", fmt.Errorf("auto-detecting template type: decoding template input: %v", err)
	}
	var doc struct {
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return "", fmt.Errorf("auto-detecting template type: unmarshalling template schema: %v", err)
	}
	if doc.Schema == "" {
		return "", errors.New("auto-detecting template type: template input missing required 'schema' field")
	}
	return doc.Schema, nil
}

// firstDocJSON decodes the first YAML or JSON document of data as JSON.
func firstDocJSON(data []byte) (json.RawMessage, error) {
	var raw json.RawMessage
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	if err := dec.Decode(&raw); err != nil {
		return nil, err
	}
	return raw, nil
}

// renderRefs renders each distinct reference once, in parallel, and returns the results by
// reference. The first failing reference in refs order is the error.
func renderRefs(ctx context.Context, refs []string, render BundleRenderer) (map[string]*fbc.DeclarativeConfig, error) {
	out := make([]*fbc.DeclarativeConfig, len(refs))
	errs := make([]error, len(refs))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, ref := range refs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			out[i], errs[i] = render(ctx, ref)
		}()
	}
	wg.Wait()
	m := make(map[string]*fbc.DeclarativeConfig, len(refs))
	for i, ref := range refs {
		if errs[i] != nil {
			return nil, errs[i]
		}
		m[ref] = out[i]
	}
	return m, nil
}

// LocalBundleRenderer lets template bundle entries name bundle folders relative to base (the
// template's folder): a reference that is a folder there is rendered from that folder;
// anything else is passed on unchanged.
func LocalBundleRenderer(base string, render BundleRenderer) BundleRenderer {
	return func(ctx context.Context, ref string) (*fbc.DeclarativeConfig, error) {
		if base != "" && !filepath.IsAbs(ref) {
			p := filepath.Join(base, ref)
			if st, err := os.Stat(p); err == nil && st.IsDir() {
				return render(ctx, p)
			}
		}
		return render(ctx, ref)
	}
}
