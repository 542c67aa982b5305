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

// BundleRenderer renders one bundle reference (an image or, unlike opm, a bundle folder) into
// catalog blobs. Templates call it once per distinct reference; tests inject a fake.
type BundleRenderer func(ctx context.Context, ref string) (*fbc.DeclarativeConfig, error)

// RenderTemplate renders a template to a catalog, as `opm alpha render-template` does. typ
// is a kind's name or schema (Kinds), or "" to detect it from the schema field of the
// template's first document.
func RenderTemplate(ctx context.Context, data []byte, typ string, render BundleRenderer) (*fbc.DeclarativeConfig, error) {
	k, err := templateKind(data, typ)
	if err != nil {
		return nil, err
	}
	return k.render(ctx, data, render)
}

// templateKind returns the kind typ names or, when typ is "", the kind of data's schema.
func templateKind(data []byte, typ string) (*Kind, error) {
	if typ != "" {
		return kindOf(typ)
	}
	s, err := detectTemplateSchema(data)
	if err != nil {
		return nil, err
	}
	k, ok := kindOfSchema(s)
	if !ok {
		return nil, fmt.Errorf("auto-detecting template type: unknown template schema: %s", s)
	}
	return k, nil
}

// detectTemplateSchema returns the schema field of the first document of a template.
func detectTemplateSchema(data []byte) (string, error) {
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
