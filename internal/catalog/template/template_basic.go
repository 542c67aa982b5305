package template

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/opack/opack/internal/fbc"
)

// basicTemplate is an olm.template.basic document: catalog blobs whose olm.bundle entries
// carry only a schema and an image (or, in opack, a bundle folder).
type basicTemplate struct {
	Schema  string            `json:"schema"`
	Entries []json.RawMessage `json:"entries"`
}

func parseBasicTemplate(data []byte) (*basicTemplate, error) {
	raw, err := firstDocJSON(data)
	if err != nil {
		return nil, fmt.Errorf("decoding template schema: %v", err)
	}
	bt := &basicTemplate{}
	if err := json.Unmarshal(raw, bt); err != nil {
		return nil, fmt.Errorf("unmarshalling template: %v", err)
	}
	if bt.Schema != schemaBasicTemplate {
		return nil, fmt.Errorf("template has unknown schema (%q), should be %q", bt.Schema, schemaBasicTemplate)
	}
	return bt, nil
}

// renderBasicTemplate loads the template's entries and replaces each bundle entry by the
// bundle its reference renders to.
func renderBasicTemplate(ctx context.Context, data []byte, render BundleRenderer) (*fbc.DeclarativeConfig, error) {
	bt, err := parseBasicTemplate(data)
	if err != nil {
		return nil, err
	}
	var stream bytes.Buffer
	for _, e := range bt.Entries {
		stream.Write(e)
		stream.WriteByte('\n')
	}
	cfg := &fbc.DeclarativeConfig{}
	if stream.Len() > 0 {
		if cfg, err = fbc.ParseStream(stream.Bytes()); err != nil {
			return nil, err
		}
	}
	refs := make([]string, 0, len(cfg.Bundles))
	seen := map[string]bool{}
	for _, b := range cfg.Bundles {
		if !isBundleTemplate(&b) {
			return nil, fmt.Errorf("unexpected fields present in basic template bundle")
		}
		if !seen[b.Image] {
			seen[b.Image] = true
			refs = append(refs, b.Image)
		}
	}
	rendered, err := renderRefs(ctx, refs, render)
	if err != nil {
		return nil, err
	}
	var out []fbc.Bundle
	for _, b := range cfg.Bundles {
		out = append(out, rendered[b.Image].Bundles...)
	}
	cfg.Bundles = out
	return cfg, nil
}

// isBundleTemplate reports whether a bundle entry has a schema and an image and nothing else.
func isBundleTemplate(b *fbc.Bundle) bool {
	return b.Schema != "" && b.Image != "" && b.Package == "" && len(b.Properties) == 0 && len(b.RelatedImages) == 0
}
