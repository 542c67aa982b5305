package template

import (
	"context"
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/opack/opack/internal/fbc"
)

// Kind is one kind of catalog template: the one place that says how its documents are named,
// parsed, rendered and given a new bundle. Add a kind by adding it to kinds; rendering, adding
// a bundle, their errors and the CLI (`opack catalog template <name>`) all read this list.
type Kind struct {
	// Name is the short name (`opack catalog template <name>`, opm's --type).
	Name string
	// Schema is the schema field of the template's first document.
	Schema string
	// Short says in a few words what the template describes (CLI help).
	Short string

	parse    func(data []byte) error
	render   func(ctx context.Context, data []byte, render BundleRenderer) (*fbc.DeclarativeConfig, error)
	addEdits func(ctx context.Context, root *yaml.Node, ref string, opts TemplateAddOptions) ([]templateEdit, error)
}

// Template schemas.
const (
	schemaBasicTemplate  = "olm.template.basic"
	schemaSemverTemplate = "olm.semver"
)

var kinds = []Kind{
	{
		Name:   "basic",
		Schema: schemaBasicTemplate,
		Short:  "catalog blobs whose bundles are given by reference",
		parse: func(data []byte) error {
			_, err := parseBasicTemplate(data)
			return err
		},
		render:   renderBasicTemplate,
		addEdits: basicAddEdits,
	},
	{
		Name:   "semver",
		Schema: schemaSemverTemplate,
		Short:  "channels generated from the bundles' versions",
		parse: func(data []byte) error {
			_, err := parseSemverTemplate(data)
			return err
		},
		render: renderSemverTemplate,
		addEdits: func(_ context.Context, root *yaml.Node, ref string, opts TemplateAddOptions) ([]templateEdit, error) {
			return semverAddEdits(root, ref, opts.Channels)
		},
	},
}

// Kinds lists the template kinds opack knows, in CLI order.
func Kinds() []Kind { return append([]Kind(nil), kinds...) }

// kindNames lists the kinds' names, for error messages.
func kindNames() []string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.Name
	}
	return names
}

// kindOf returns the kind named typ (its name or its schema).
func kindOf(typ string) (*Kind, error) {
	for i, k := range kinds {
		if typ == k.Name || typ == k.Schema {
			return &kinds[i], nil
		}
	}
	return nil, fmt.Errorf("invalid template type %q, must be one of: %v", typ, kindNames())
}

// kindOfSchema returns the kind whose documents have schema.
func kindOfSchema(schema string) (*Kind, bool) {
	for i, k := range kinds {
		if schema == k.Schema {
			return &kinds[i], true
		}
	}
	return nil, false
}

// KindOf returns the kind of the template in data (ok false when its first document is not one).
func KindOf(data []byte) (Kind, bool) {
	s, err := detectTemplateSchema(data)
	if err != nil {
		return Kind{}, false
	}
	for _, k := range kinds {
		if k.Schema == s {
			return k, true
		}
	}
	return Kind{}, false
}
