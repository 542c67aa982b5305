package template

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/opack/opack/internal/fbc"
	"io"
	"path"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
	sigsyaml "sigs.k8s.io/yaml"
)

// FBCAddOptions configures AddToFBC.
type FBCAddOptions struct {
	// Channels are the channels the bundle becomes the new head of (created when missing).
	Channels []string
	// BundleFile, when set, is the file (slash path relative to the catalog folder) the bundle is
	// written to, alone; otherwise it is appended to the file holding the package's newest bundle.
	BundleFile string
}

// ErrBundleInCatalog is returned by AddToFBC when the catalog already has a bundle of that name.
var ErrBundleInCatalog = errors.New("the bundle is already in the catalog")

// fbcDoc is one blob of a catalog file: its text (with the separator before it) and keys.
type fbcDoc struct {
	text              string
	schema, pkg, name string
}

// AddToFBC adds bundle b to a file-based catalog given as its files (slash paths relative to
// the catalog folder → content) and returns only the files it changes or creates. Every other
// blob and byte stays as it is: the bundle is a new document, each channel gets one new entry
// (the new head, replacing the current one) inserted as a line where the layout allows, and a
// missing channel or package is a new document beside the package's others.
func AddToFBC(files map[string][]byte, b fbc.Bundle, opts FBCAddOptions) (map[string][]byte, error) {
	docs := map[string][]fbcDoc{}
	names := make([]string, 0, len(files))
	for name, data := range files {
		d, err := splitFBC(data, isJSONFile(name, data))
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		docs[name] = d
		names = append(names, name)
	}
	sort.Strings(names)
	var pkgFile, bundleFile string
	for _, n := range names {
		for _, d := range docs[n] {
			switch {
			case d.schema == fbc.SchemaPackage && d.name == b.Package:
				pkgFile = n
			case d.schema == fbc.SchemaBundle && d.pkg == b.Package:
				if d.name == b.Name {
					return nil, fmt.Errorf("%s: %w", n, ErrBundleInCatalog)
				}
				bundleFile = n
			}
		}
	}
	changed := map[string][]byte{}
	edit := func(n string) []fbcDoc { return docs[n] }
	if pkgFile == "" {
		pkgFile = path.Join(b.Package, "catalog.yaml")
		if _, ok := files[pkgFile]; ok {
			return nil, fmt.Errorf("package %s has no olm.package blob, and %s exists", b.Package, pkgFile)
		}
		docs[pkgFile] = []fbcDoc{}
		pkg := fbc.Package{Schema: fbc.SchemaPackage, Name: b.Package, DefaultChannel: first(opts.Channels)}
		if err := appendBlob(docs, pkgFile, pkg); err != nil {
			return nil, err
		}
		changed[pkgFile] = nil
	}
	for _, ch := range opts.Channels {
		n, err := addToChannel(docs, names, pkgFile, b, ch)
		if err != nil {
			return nil, err
		}
		changed[n] = nil
	}
	target := opts.BundleFile
	switch {
	case target != "":
		if _, ok := files[target]; ok {
			return nil, fmt.Errorf("%s exists: the new bundle's file must be new", target)
		}
		docs[target] = []fbcDoc{}
	case bundleFile != "":
		target = bundleFile
	default:
		target = pkgFile
	}
	if err := appendBlob(docs, target, b); err != nil {
		return nil, err
	}
	changed[target] = nil
	for n := range changed {
		var buf bytes.Buffer
		for _, d := range edit(n) {
			buf.WriteString(d.text)
		}
		changed[n] = buf.Bytes()
	}
	return changed, nil
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// addToChannel makes b the head of channel ch, returning the file it changed.
func addToChannel(docs map[string][]fbcDoc, names []string, pkgFile string, b fbc.Bundle, ch string) (string, error) {
	for _, n := range names {
		for i, d := range docs[n] {
			if d.schema != fbc.SchemaChannel || d.pkg != b.Package || d.name != ch {
				continue
			}
			text, err := editChannelDoc(d.text, b, ch, isJSONFile(n, []byte(d.text)))
			if err != nil {
				return "", fmt.Errorf("%s: %w", n, err)
			}
			docs[n][i].text = text
			return n, nil
		}
	}
	c := fbc.Channel{Schema: fbc.SchemaChannel, Name: ch, Package: b.Package, Entries: []fbc.ChannelEntry{{Name: b.Name}}}
	return pkgFile, appendBlob(docs, pkgFile, c)
}

// editChannelDoc inserts the new entry into one channel document, keeping its layout.
func editChannelDoc(text string, b fbc.Bundle, ch string, isJSON bool) (string, error) {
	lead, body := splitLead(text, isJSON)
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(body), &doc); err != nil {
		return "", fmt.Errorf("parsing channel %q: %w", ch, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return "", fmt.Errorf("channel %q is not a mapping", ch)
	}
	e, err := channelEntryEdit(doc.Content[0], b, ch)
	if err != nil {
		return "", err
	}
	out, err := applyTemplateEdits([]byte(body), &doc, []templateEdit{e})
	if err != nil {
		return "", err
	}
	if isJSON && !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	return lead + string(out), nil
}

// splitLead separates a YAML document's "---" line (and comments before it) from its body.
func splitLead(text string, isJSON bool) (string, string) {
	if isJSON {
		trimmed := strings.TrimLeft(text, " \t\r\n")
		return text[:len(text)-len(trimmed)], trimmed
	}
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "---") {
			return strings.Join(lines[:i+1], ""), strings.Join(lines[i+1:], "")
		}
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
			break
		}
	}
	return "", text
}

// appendBlob appends v as a new document of file n, in the file's format.
func appendBlob(docs map[string][]fbcDoc, n string, v any) error {
	cur := docs[n]
	var buf bytes.Buffer
	if strings.HasSuffix(n, ".json") {
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "    ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return err
		}
	} else {
		// One blob as opm's fbc.WriteYAML writes each: "---", then the JSON converted (keys sorted).
		js, err := json.Marshal(v)
		if err != nil {
			return err
		}
		y, err := sigsyaml.JSONToYAML(js)
		if err != nil {
			return err
		}
		buf.WriteString("---\n")
		buf.Write(y)
	}
	if len(cur) > 0 && !strings.HasSuffix(cur[len(cur)-1].text, "\n") {
		cur[len(cur)-1].text += "\n"
	}
	docs[n] = append(cur, fbcDoc{text: buf.String()})
	return nil
}

func isJSONFile(name string, data []byte) bool {
	if strings.HasSuffix(name, ".json") {
		return true
	}
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && t[0] == '{'
}

// splitFBC splits a catalog file into its documents, keeping every byte: YAML at "---" lines,
// JSON at the end of each top-level value.
func splitFBC(data []byte, isJSON bool) ([]fbcDoc, error) {
	var texts []string
	if isJSON {
		dec := json.NewDecoder(bytes.NewReader(data))
		start := int64(0)
		for {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				if errors.Is(err, io.EOF) {
					break
				}
				return nil, err
			}
			end := dec.InputOffset()
			texts = append(texts, string(data[start:end]))
			start = end
		}
		if rest := string(data[start:]); rest != "" {
			if len(texts) == 0 {
				texts = append(texts, rest)
			} else {
				texts[len(texts)-1] += rest
			}
		}
	} else {
		texts = splitYAMLDocs(string(data))
	}
	out := make([]fbcDoc, 0, len(texts))
	for _, t := range texts {
		d := fbcDoc{text: t}
		var keys struct {
			Schema  string `yaml:"schema"`
			Package string `yaml:"package"`
			Name    string `yaml:"name"`
		}
		if err := yaml.Unmarshal([]byte(t), &keys); err == nil {
			d.schema, d.pkg, d.name = keys.Schema, keys.Package, keys.Name
		}
		out = append(out, d)
	}
	return out, nil
}

// splitYAMLDocs splits a YAML stream before each "---" line; the first part holds what precedes it.
func splitYAMLDocs(s string) []string {
	var out []string
	var cur strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if strings.HasPrefix(l, "---") && (len(l) == 3 || strings.ContainsRune(" \t\r\n#", rune(l[3]))) && strings.TrimSpace(cur.String()) != "" {
			out = append(out, cur.String())
			cur.Reset()
		}
		cur.WriteString(l)
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// IsFBCName reports whether a file name is one a catalog file may have (.yaml, .yml, .json).
func IsFBCName(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// IsFBCFile reports whether data holds file-based catalog blobs (olm.package, olm.channel,
// olm.bundle, olm.deprecations): not a template, not a Kubernetes manifest.
func IsFBCFile(name string, data []byte) bool {
	if !bytes.Contains(data, []byte("olm.")) {
		return false
	}
	docs, err := splitFBC(data, isJSONFile(name, data))
	if err != nil {
		return false
	}
	found := false
	for _, d := range docs {
		switch d.schema {
		case fbc.SchemaPackage, fbc.SchemaChannel, fbc.SchemaBundle, fbc.SchemaDeprecations:
			found = true
		case "":
			if strings.TrimSpace(stripComments(d.text)) != "" && strings.TrimSpace(stripComments(d.text)) != "---" {
				return false
			}
		}
	}
	return found
}

func stripComments(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			b.WriteString(l)
		}
	}
	return b.String()
}

// ReplaceFBCBundle returns the file holding bundle b's blob with that blob replaced by b (a
// rebuild of a version never published); nothing else changes.
func ReplaceFBCBundle(files map[string][]byte, b fbc.Bundle) (map[string][]byte, error) {
	for name, data := range files {
		docs, err := splitFBC(data, isJSONFile(name, data))
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		for i, d := range docs {
			if d.schema != fbc.SchemaBundle || d.pkg != b.Package || d.name != b.Name {
				continue
			}
			lead, _ := splitLead(d.text, isJSONFile(name, data))
			tmp := map[string][]fbcDoc{name: nil}
			if err := appendBlob(tmp, name, b); err != nil {
				return nil, err
			}
			_, body := splitLead(tmp[name][0].text, isJSONFile(name, data))
			docs[i].text = lead + body
			var buf bytes.Buffer
			for _, d := range docs {
				buf.WriteString(d.text)
			}
			return map[string][]byte{name: buf.Bytes()}, nil
		}
	}
	return nil, fmt.Errorf("bundle %s is not in the catalog", b.Name)
}
