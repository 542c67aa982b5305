package fbc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/fbc/internal/codec"
	"github.com/opack/opack/internal/manifest"
)

// ParseStream decodes one file: a stream of JSON objects when its first non-space byte is
// '{', else a stream of YAML documents separated by "---" lines (opm's
// k8s YAMLOrJSONDecoder). It stops at the first bad document, as opm does.
func ParseStream(data []byte) (*DeclarativeConfig, error) {
	return parseStreamDropping(bytes.NewReader(data), nil)
}

// parseStreamDropping is parseStream emptying the values of the property types in drop as
// soon as each bundle is decoded and its objects are read (see WithoutPropertyValues).
func parseStreamDropping(r io.Reader, drop map[string]bool) (*DeclarativeConfig, error) {
	cfg := &DeclarativeConfig{}
	// Bundle objects are read as each bundle is decoded, so that the values dropped can
	// include olm.bundle.object (then held once, as Objects). Their first error is returned
	// only once the whole file has parsed, as opm reads them after parsing.
	dropped := 0
	var objErr error
	dropNew := func() {
		if drop == nil {
			return
		}
		if objErr == nil {
			objErr = ReadBundleObjects(cfg.Bundles[dropped:])
		}
		dropValues(cfg.Bundles[dropped:], drop)
		dropped = len(cfg.Bundles)
	}
	done := func() (*DeclarativeConfig, error) {
		if drop == nil {
			return cfg, ReadBundleObjects(cfg.Bundles)
		}
		dropNew()
		return cfg, objErr
	}
	br := bufio.NewReaderSize(r, 64<<10)
	lead, err := leadingSpace(br)
	if err != nil {
		return nil, err
	}
	if next, err := br.Peek(1); err == nil && next[0] == '{' {
		dec := json.NewDecoder(br)
		for {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				if errors.Is(err, io.EOF) {
					break
				}
				return nil, err
			}
			if err := cfg.add(raw, false); err != nil {
				return nil, err
			}
			dropNew()
		}
		return done()
	}
	var rest io.Reader = br // newDocReader reads br itself (bufio.NewReaderSize)
	if len(lead) > 0 {
		rest = io.MultiReader(bytes.NewReader(lead), br)
	}
	docs := newDocReader(rest)
	p := parsers.Get().(*codec.Parser)
	defer parsers.Put(p)
	var kvs []kv
	for {
		doc, err := docs.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		dropNew()
		if kvs, err = cfg.addYAML(p, doc, kvs); err != nil {
			if serr := docs.badSeparator(); serr != nil {
				return nil, serr
			}
			return nil, err
		}
	}
	return done()
}

// leadingSpace reads the white space that starts a stream (a JSON stream starts with '{' after it).
func leadingSpace(r *bufio.Reader) ([]byte, error) {
	var lead []byte
	for {
		c, err := r.ReadByte()
		if err == io.EOF {
			return lead, nil
		}
		if err != nil {
			return nil, err
		}
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return lead, r.UnreadByte()
		}
		lead = append(lead, c)
	}
}

// addYAML converts one YAML document to JSON and files it (kvs is scratch space, returned for reuse).
func (cfg *DeclarativeConfig) addYAML(p *codec.Parser, doc []byte, kvs []kv) ([]kv, error) {
	if out, err := p.Convert(doc); err == nil {
		blob := append(make([]byte, 0, len(out)+1), out...)
		var m Meta
		m, kvs, err = metaKVs(blob, kvs[:0])
		if err == nil {
			err = cfg.addMetaKVs(m, kvs)
		}
		return kvs, err
	}
	j, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return kvs, fmt.Errorf("error converting YAML to JSON: %v", err)
	}
	return kvs, cfg.add(j, true)
}

// parsers keeps YAML parsers (and their buffers) for reuse across files.
var parsers = sync.Pool{New: func() any { return new(codec.Parser) }}

// add decodes one blob (JSON from a JSON stream, or converted from YAML) and files it by schema.
func (cfg *DeclarativeConfig) add(raw []byte, fromYAML bool) error {
	m, err := decodeMeta(raw, fromYAML)
	if err != nil {
		return err
	}
	return cfg.addMeta(m)
}

// addMeta decodes a blob by its schema and files it.
func (cfg *DeclarativeConfig) addMeta(m Meta) error { return cfg.addMetaKVs(m, nil) }

// addMetaKVs is addMeta given the blob's top-level keys and values (nil: scan the blob).
func (cfg *DeclarativeConfig) addMetaKVs(m Meta, kvs []kv) error {
	switch m.Schema {
	case SchemaPackage:
		var p Package
		if err := json.Unmarshal(m.Blob, &p); err != nil {
			return fmt.Errorf("parse package: %v", typeErr(err))
		}
		cfg.Packages = append(cfg.Packages, p)
	case SchemaChannel:
		var c Channel
		if err := json.Unmarshal(m.Blob, &c); err != nil {
			return fmt.Errorf("parse channel: %v", typeErr(err))
		}
		cfg.Channels = append(cfg.Channels, c)
	case SchemaBundle:
		var b Bundle
		var ok bool
		if kvs != nil {
			b, ok = decodeBundleKVs(kvs)
		} else {
			b, ok = decodeBundle(bytes.TrimSuffix(m.Blob, []byte("\n")))
		}
		if !ok {
			b = Bundle{}
			if err := json.Unmarshal(m.Blob, &b); err != nil {
				return fmt.Errorf("parse bundle: %v", typeErr(err))
			}
		}
		cfg.Bundles = append(cfg.Bundles, b)
	case SchemaDeprecations:
		var d Deprecation
		if err := json.Unmarshal(m.Blob, &d); err != nil {
			return fmt.Errorf("parse deprecation: %v", typeErr(err))
		}
		cfg.Deprecations = append(cfg.Deprecations, d)
	case "":
		return fmt.Errorf("object '%s' is missing root schema field", excerpt(m.Blob))
	default:
		cfg.Others = append(cfg.Others, m)
	}
	return nil
}

// typeErr words json type errors with opm's Go type names (declcfg.X) so messages match opm's.
func typeErr(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return errors.New(strings.ReplaceAll(te.Error(), "fbc.", "declcfg."))
	}
	return err
}

// ReadBundleObjects decodes olm.bundle.object properties into Bundle.Objects and CsvJSON.
func ReadBundleObjects(bundles []Bundle) error {
	for i := range bundles {
		b := &bundles[i]
		n := 0
		for pi, p := range b.Properties {
			if p.Type != TypeBundleObject {
				continue
			}
			data, err := bundleObjectData(p.Value)
			if err != nil {
				perr := PropertyParseError{Index: pi, Type: p.Type, Err: err}
				return fmt.Errorf("read bundle objects: package %q, bundle %q: parse properties: %v", b.Package, b.Name, perr)
			}
			j, err := utilyaml.ToJSON(data) // as opm: JSON passes unchanged, YAML is converted
			if err != nil {
				return fmt.Errorf("read bundle objects: package %q, bundle %q: convert object[%d] to JSON: %v", b.Package, b.Name, n, err)
			}
			b.Objects = append(b.Objects, string(j))
			n++
		}
		b.CsvJSON = extractCSV(b.Objects)
	}
	return nil
}

func extractCSV(objs []string) string {
	for _, o := range objs {
		_, kind, ok := manifest.PeekKind([]byte(o))
		if !ok {
			var tm struct {
				Kind string `json:"kind"`
			}
			if json.Unmarshal([]byte(o), &tm) != nil {
				continue
			}
			kind = tm.Kind
		}
		if kind == "ClusterServiceVersion" {
			return o
		}
	}
	return ""
}

// maxQuoted is the longest object quoted whole in an error; opm quotes the whole object, which
// for a CSV or CRD put in the wrong folder is megabytes of output.
const maxQuoted = 512

// excerpt is blob, or for a long blob its first bytes and its size.
func excerpt(blob []byte) string {
	if len(blob) <= maxQuoted {
		return string(blob)
	}
	cut := 160
	for cut > 0 && !utf8.RuneStart(blob[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", blob[:cut], len(blob))
}
