package template

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/fbc"
)

// TemplateAddOptions configures AddTemplateBundle.
type TemplateAddOptions struct {
	// Channels are the channels to add the bundle to: semver archetypes (candidate, fast,
	// stable) for semver templates, channel names for basic templates.
	Channels []string
	// Render renders the bundle reference; basic templates need it to learn the bundle's name
	// and package when Channels are given.
	Render BundleRenderer
}

// AddTemplateBundle returns data with the bundle ref appended: to the bundles of each given
// archetype of a semver template, or as an olm.bundle entry of a basic template (and as the
// new head of each given channel, replacing the channel's current head). YAML templates are
// edited in place (new lines only, comments and layout kept) where the lists already exist.
func AddTemplateBundle(ctx context.Context, data []byte, ref string, opts TemplateAddOptions) ([]byte, error) {
	schema, err := detectTemplateSchema(data)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("parsing template: %w", err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errors.New("parsing template: the template is not a mapping")
	}
	root := doc.Content[0]
	k, ok := kindOfSchema(schema)
	if !ok {
		return nil, fmt.Errorf("unknown template schema: %s", schema)
	}
	edits, err := k.addEdits(ctx, root, ref, opts)
	if err != nil {
		return nil, err
	}
	out, err := applyTemplateEdits(data, &doc, edits)
	if err != nil {
		return nil, err
	}
	// The result must still read as a template of its schema.
	if err := k.parse(out); err != nil {
		return nil, fmt.Errorf("the edited template does not parse (please report this): %w", err)
	}
	return out, nil
}

// templateEdit appends item to the sequence seq, or, when seq is nil, sets key to item in
// the mapping parent.
type templateEdit struct {
	seq    *yaml.Node
	parent *yaml.Node
	key    string
	item   *yaml.Node
}

// mapGet returns the value of key (matched case-insensitively, as Go's json does) in m.
func mapGet(m *yaml.Node, key string) (*yaml.Node, string) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, ""
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if strings.EqualFold(m.Content[i].Value, key) {
			return m.Content[i+1], m.Content[i].Value
		}
	}
	return nil, ""
}

// styled returns key in the style of sample: capitalized when sample is.
func styled(key, sample string) string {
	if sample != "" && sample[0] >= 'A' && sample[0] <= 'Z' {
		return strings.ToUpper(key[:1]) + key[1:]
	}
	return key
}

func scalar(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }

func mapping(kv ...string) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i := 0; i+1 < len(kv); i += 2 {
		m.Content = append(m.Content, scalar(kv[i]), scalar(kv[i+1]))
	}
	return m
}

func semverAddEdits(root *yaml.Node, ref string, channels []string) ([]templateEdit, error) {
	if len(channels) == 0 {
		return nil, errors.New("adding to a semver template needs --channel candidate, fast or stable")
	}
	_, schemaKey := mapGet(root, "schema")
	var edits []templateEdit
	for _, ch := range channels {
		arch := strings.ToLower(ch)
		if _, ok := archetypePriority[arch]; !ok {
			return nil, fmt.Errorf("semver templates have the channels candidate, fast and stable, not %q", ch)
		}
		archNode, archKey := mapGet(root, arch)
		if archNode == nil {
			bundlesKey := styled("bundles", schemaKey)
			item := mapping(styled("image", schemaKey), ref)
			value := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{
				scalar(bundlesKey), {Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{item}},
			}}
			edits = append(edits, templateEdit{parent: root, key: styled(arch, schemaKey), item: value})
			continue
		}
		bundles, bundlesKey := mapGet(archNode, "bundles")
		imageKey := styled("image", archKey)
		if bundles != nil {
			for _, b := range bundles.Content {
				img, k := mapGet(b, "image")
				if img != nil && img.Value == ref {
					return nil, fmt.Errorf("bundle %q is already in the %s channels of the template", ref, arch)
				}
				if k != "" {
					imageKey = k
				}
			}
		}
		item := mapping(imageKey, ref)
		if bundles == nil || bundles.Kind != yaml.SequenceNode {
			edits = append(edits, templateEdit{parent: archNode, key: styled("bundles", archKey),
				item: &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{item}}})
			continue
		}
		_ = bundlesKey
		edits = append(edits, templateEdit{seq: bundles, item: item})
	}
	return edits, nil
}

func basicAddEdits(ctx context.Context, root *yaml.Node, ref string, opts TemplateAddOptions) ([]templateEdit, error) {
	entries, _ := mapGet(root, "entries")
	if entries == nil || entries.Kind != yaml.SequenceNode {
		return nil, errors.New("the basic template has no entries list")
	}
	var edits []templateEdit
	present := false
	for _, e := range entries.Content {
		s, _ := mapGet(e, "schema")
		img, _ := mapGet(e, "image")
		if s != nil && s.Value == fbc.SchemaBundle && img != nil && img.Value == ref {
			present = true
		}
	}
	if present && len(opts.Channels) == 0 {
		return nil, fmt.Errorf("bundle %q is already in the template", ref)
	}
	if !present {
		edits = append(edits, templateEdit{seq: entries, item: mapping("schema", fbc.SchemaBundle, "image", ref)})
	}
	if len(opts.Channels) == 0 {
		return edits, nil
	}
	if opts.Render == nil {
		return nil, errors.New("adding a bundle to channels needs a renderer to learn the bundle's name")
	}
	cfg, err := opts.Render(ctx, ref)
	if err != nil {
		return nil, err
	}
	if len(cfg.Bundles) != 1 {
		return nil, fmt.Errorf("bundle reference %q resulted in %d bundles, expected 1", ref, len(cfg.Bundles))
	}
	b := cfg.Bundles[0]
	for _, ch := range opts.Channels {
		e, err := channelAddEdit(entries, b, ch)
		if err != nil {
			return nil, err
		}
		edits = append(edits, e)
	}
	return edits, nil
}

// channelAddEdit adds bundle b as the new head of channel name, replacing the current head,
// or creates the channel.
func channelAddEdit(entries *yaml.Node, b fbc.Bundle, name string) (templateEdit, error) {
	for _, e := range entries.Content {
		if isChannelNode(e, b.Package, name) {
			return channelEntryEdit(e, b, name)
		}
	}
	ch := mapping("schema", fbc.SchemaChannel, "package", b.Package, "name", name)
	ch.Content = append(ch.Content, scalar("entries"), &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq",
		Content: []*yaml.Node{mapping("name", b.Name)}})
	return templateEdit{seq: entries, item: ch}, nil
}

// isChannelNode reports whether the mapping e is the olm.channel blob name of package pkg.
func isChannelNode(e *yaml.Node, pkg, name string) bool {
	s, _ := mapGet(e, "schema")
	n, _ := mapGet(e, "name")
	p, _ := mapGet(e, "package")
	return s != nil && s.Value == fbc.SchemaChannel && n != nil && n.Value == name && (p == nil || p.Value == pkg)
}

// channelEntryEdit appends bundle b to the channel blob e as its new head, replacing the
// current head.
func channelEntryEdit(e *yaml.Node, b fbc.Bundle, name string) (templateEdit, error) {
	var ch fbc.Channel
	if err := e.Decode(&ch); err != nil {
		return templateEdit{}, fmt.Errorf("reading channel %q: %w", name, err)
	}
	heads := graph.Heads(ch.Entries)
	for _, ce := range ch.Entries {
		if ce.Name == b.Name {
			return templateEdit{}, fmt.Errorf("channel %q already has bundle %q", name, b.Name)
		}
	}
	item := mapping("name", b.Name)
	switch {
	case len(ch.Entries) == 0:
	case len(heads) == 1:
		item = mapping("name", b.Name, "replaces", heads[0])
	default:
		return templateEdit{}, fmt.Errorf("channel %q has %d heads (%s); add the bundle to it by hand", name, len(heads), strings.Join(heads, ", "))
	}
	seq, _ := mapGet(e, "entries")
	if seq == nil || seq.Kind != yaml.SequenceNode {
		return templateEdit{parent: e, key: "entries", item: &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{item}}}, nil
	}
	return templateEdit{seq: seq, item: item}, nil
}

// applyTemplateEdits inserts the new items as text lines when every edit appends to an
// existing block sequence of a YAML document and the result reads as the edited tree;
// otherwise it re-encodes the edited tree (as JSON for a JSON template).
func applyTemplateEdits(data []byte, doc *yaml.Node, edits []templateEdit) ([]byte, error) {
	isJSON := len(bytes.TrimLeft(data, " \t\r\n")) > 0 && bytes.TrimLeft(data, " \t\r\n")[0] == '{'
	var text []byte
	if !isJSON {
		text, _ = insertLines(data, edits) // before the tree edits: it reads the old last items
	}
	for _, e := range edits {
		if e.seq != nil {
			e.seq.Content = append(e.seq.Content, e.item)
		} else {
			e.parent.Content = append(e.parent.Content, scalar(e.key), e.item)
		}
	}
	if text != nil && sameContent(text, doc) {
		return text, nil
	}
	if isJSON {
		var buf bytes.Buffer
		writeNodeJSONUnit(&buf, doc.Content[0], "", jsonIndentUnit(data))
		buf.WriteByte('\n')
		return buf.Bytes(), nil
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("encoding template: %w", err)
	}
	return buf.Bytes(), enc.Close()
}

// sameContent reports whether the YAML text decodes to the same value as the tree doc: a
// text edit that does not (a layout insertLines misreads) is not used.
func sameContent(text []byte, doc *yaml.Node) bool {
	var got, want any
	if err := yaml.Unmarshal(text, &got); err != nil {
		return false
	}
	if err := doc.Decode(&want); err != nil {
		return false
	}
	return reflect.DeepEqual(got, want)
}
