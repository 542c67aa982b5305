package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/opack/opack/internal/manifest"
	"github.com/opack/opack/internal/rootfs"
	"gopkg.in/yaml.v3"
)

// MaxFileSize bounds opack.yaml; a project file is a few kilobytes.
const MaxFileSize = 1 << 20

// ErrNoProject is returned by Load when the project file does not exist.
var ErrNoProject = errors.New("not found")

// NoProject is the error for a project file that does not exist.
func NoProject(path string) error {
	abs, _ := filepath.Abs(path)
	return fmt.Errorf("no project file: looked for %s: %w; run opack init in the operator's root folder to create it (or pass -f FILE)", abs, ErrNoProject)
}

// Load reads opack.yaml (or another file in its format), applies defaults and validates it. Every
// problem is reported, each with its line, in one *ConfigError.
func Load(path string) (*Project, error) {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, NoProject(path)
	}
	// the project file is read as every file of the project: below its folder (a symlink to
	// /etc/passwd or /dev/zero is refused), a regular file, within its own limit
	data, err := rootfs.ReadFile(filepath.Dir(path), filepath.Base(path), manifest.WithMaxFileSize(MaxFileSize))
	if err != nil {
		return nil, fmt.Errorf("reading project file: %w", err)
	}
	p, err := Decode(data, path)
	if err != nil {
		return nil, err
	}
	p.SetDir(filepath.Dir(path))
	var errs []*FieldError
	for _, part := range p.Parts() {
		errs = append(errs, part.confined()...)
	}
	if len(errs) > 0 {
		return nil, &ConfigError{Errs: errs}
	}
	return p, nil
}

// Decode parses opack.yaml content; file names it in errors. Dir is left empty.
func Decode(data []byte, file string) (*Project, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, configError(file, err)
	}
	if root.Kind == 0 || len(root.Content) == 0 || root.Content[0].Kind == yaml.ScalarNode && root.Content[0].Tag == "!!null" {
		return nil, &ConfigError{Errs: []*FieldError{{File: file, Msg: "the file is empty: start it with apiVersion: " + APIVersion + " and kind: " + Kind}}}
	}
	if root.Content[0].Kind != yaml.MappingNode {
		return nil, &ConfigError{Errs: []*FieldError{{File: file, Line: root.Content[0].Line, Msg: "the document must be a mapping (apiVersion, kind, package, ...)"}}}
	}
	if err := checkHeader(file, root.Content[0]); err != nil {
		return nil, err
	}
	p := &Project{}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(p); err != nil {
		return nil, configError(file, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &ConfigError{Errs: []*FieldError{{File: file, Line: extra.Line, Msg: "a second YAML document: opack.yaml holds exactly one"}}}
	} else if !errors.Is(err, io.EOF) {
		return nil, configError(file, err)
	}
	p.File, p.root = file, root.Content[0]
	if len(p.Bundles) > 0 {
		return p.decodeParts()
	}
	p.applyDefaults()
	if errs := p.validate(); len(errs) > 0 {
		return nil, &ConfigError{Errs: errs}
	}
	return p, nil
}

// checkHeader checks apiVersion and kind before anything else, so a file of another format or
// version is named as such rather than reported field by field.
func checkHeader(file string, doc *yaml.Node) error {
	get := func(key string) (string, int) {
		for i := 0; i+1 < len(doc.Content); i += 2 {
			if doc.Content[i].Value == key {
				return doc.Content[i+1].Value, doc.Content[i+1].Line
			}
		}
		return "", 0
	}
	var errs []*FieldError
	switch v, line := get("apiVersion"); {
	case line == 0:
		errs = append(errs, &FieldError{File: file, Field: "apiVersion", Msg: "missing: add apiVersion: " + APIVersion})
	case v != APIVersion:
		msg := fmt.Sprintf("unsupported apiVersion %q: this opack reads %s", v, APIVersion)
		if strings.HasPrefix(v, "opack.dev/") {
			msg += " (upgrade opack to read newer project files)"
		}
		errs = append(errs, &FieldError{File: file, Line: line, Field: "apiVersion", Msg: msg})
	}
	switch v, line := get("kind"); {
	case line == 0:
		errs = append(errs, &FieldError{File: file, Field: "kind", Msg: "missing: add kind: " + Kind})
	case v != Kind:
		errs = append(errs, &FieldError{File: file, Line: line, Field: "kind", Msg: fmt.Sprintf("unsupported kind %q: must be %s", v, Kind)})
	}
	if len(errs) > 0 {
		return &ConfigError{Errs: errs}
	}
	return nil
}

// configError converts a yaml.v3 error into a *ConfigError with one entry per message.
func configError(file string, err error) error {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		ce := &ConfigError{}
		for _, msg := range te.Errors {
			ce.Errs = append(ce.Errs, decodeError(file, msg))
		}
		return ce
	}
	return &ConfigError{Errs: []*FieldError{decodeError(file, err.Error())}}
}

// Line returns the line of the node at path ("catalogs", 1, "image") in the decoded document, or of
// the deepest existing ancestor; 0 when nothing of the path exists.
func (p *Project) Line(path ...any) int {
	n := p.root
	if n == nil {
		return 0
	}
	best := 0
	for _, step := range path {
		var next *yaml.Node
		switch s := step.(type) {
		case string:
			if n.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(n.Content); i += 2 {
					if n.Content[i].Value == s {
						best = n.Content[i].Line
						next = n.Content[i+1]
					}
				}
			}
		case int:
			if n.Kind == yaml.SequenceNode && s < len(n.Content) {
				next = n.Content[s]
				best = next.Line
			}
		}
		if next == nil {
			return best
		}
		n = next
	}
	return best
}

// fieldName renders a path as "catalogs[1].image".
func fieldName(path ...any) string {
	var b strings.Builder
	for _, step := range path {
		switch s := step.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s)
		case int:
			b.WriteString("[" + strconv.Itoa(s) + "]")
		}
	}
	return b.String()
}
