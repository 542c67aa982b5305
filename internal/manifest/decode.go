package manifest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// Doc is one object of a YAML or JSON stream.
type Doc struct {
	File   string                     // path the document came from ("-" for stdin)
	Index  int                        // 0-based position in the file's stream (after skipping empty docs)
	Raw    []byte                     // the document's bytes as read
	Object *unstructured.Unstructured // the decoded object
}

// String names the document for error messages: "file (document N: Kind name)".
func (d Doc) String() string {
	s := d.File + " (document " + strconv.Itoa(d.Index+1)
	if d.Object != nil {
		if k := d.Object.GetKind(); k != "" {
			s += ": " + k
			if n := d.Object.GetName(); n != "" {
				s += " " + n
			}
		}
	}
	return s + ")"
}

// ReadFile reads the object stream of one file.
func ReadFile(path string, opts ...Option) ([]Doc, error) {
	data, err := ReadBytes(path, opts...)
	if err != nil {
		return nil, err
	}
	o := makeOptions(opts)
	return decodeData(data, path, o, opts)
}

// ReadBytes reads a whole file within the file-size limit: a regular file over the limit is
// refused from its size, unread; one within it is read into a buffer of its size.
func ReadBytes(path string, opts ...Option) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer f.Close()
	o := makeOptions(opts)
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return readAllLimited(f, path, o.maxFileSize)
	}
	if fi.Size() > o.maxFileSize {
		return nil, &LimitError{File: path, What: "file size", Limit: o.maxFileSize}
	}
	if err := chargeTotal(path, fi.Size()); err != nil {
		return nil, err
	}
	buf := bytes.NewBuffer(make([]byte, 0, fi.Size()+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, o.maxFileSize+1)); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if int64(buf.Len()) > o.maxFileSize { // the file grew while being read
		return nil, &LimitError{File: path, What: "file size", Limit: o.maxFileSize}
	}
	return buf.Bytes(), nil
}

// Decode splits a YAML or JSON stream into documents and decodes each into an object.
// Empty documents are skipped. A document that is not an object, is not valid YAML,
// or exceeds a limit is an error naming the file and the document.
func Decode(r io.Reader, file string, opts ...Option) ([]Doc, error) {
	o := makeOptions(opts)
	data, err := readAllLimited(r, file, o.maxFileSize)
	if err != nil {
		return nil, err
	}
	return decodeData(data, file, o, opts)
}

func decodeData(data []byte, file string, o options, opts []Option) ([]Doc, error) {
	raws, err := Split(data, file, opts...)
	if err != nil {
		return nil, err
	}
	docs := make([]Doc, 0, len(raws))
	for _, raw := range raws {
		d := Doc{File: file, Index: len(docs), Raw: raw}
		obj, err := decodeObject(raw, o)
		if err != nil {
			return nil, fmt.Errorf("decoding %s document %d: %w", file, d.Index+1, err)
		}
		if obj == nil {
			continue
		}
		d.Object = &unstructured.Unstructured{Object: obj}
		docs = append(docs, d)
	}
	return docs, nil
}

// Split cuts a stream into its non-empty documents without decoding them: a JSON stream
// (first byte '{' or '[') into its values, YAML at "---" lines.
func Split(data []byte, file string, opts ...Option) ([][]byte, error) {
	o := makeOptions(opts)
	if t := bytes.TrimSpace(data); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		if raws, err := splitJSON(t); err == nil {
			return raws, checkDocSizes(raws, file, o)
		}
	}
	var raws [][]byte
	rd := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := rd.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("splitting %s: %w", file, err)
		}
		if isEmptyYAML(doc) {
			continue
		}
		raws = append(raws, doc)
	}
	return raws, checkDocSizes(raws, file, o)
}

func checkDocSizes(raws [][]byte, file string, o options) error {
	for _, r := range raws {
		if err := CheckDocSize(r, file, WithMaxDocSize(o.maxDocSize)); err != nil {
			return err
		}
	}
	return nil
}

func splitJSON(data []byte) ([][]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var out [][]byte
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, raw)
	}
}

// isEmptyYAML reports whether a document holds only blank lines, comments and separators.
func isEmptyYAML(doc []byte) bool {
	for _, line := range bytes.Split(doc, []byte("\n")) {
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == '#' || bytes.Equal(t, []byte("---")) || bytes.Equal(t, []byte("...")) {
			continue
		}
		return false
	}
	return true
}

// decodeObject decodes one document into a map; nil, nil for a null document.
func decodeObject(raw []byte, o options) (map[string]interface{}, error) {
	// A JSON object is decoded as JSON; anything else, including a YAML flow mapping such as
	// "{kind: A}" that also starts with '{', goes through the YAML decoder, straight into the
	// values the JSON decoder gives.
	var v interface{}
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' || !json.Valid(t) {
		var err error
		if v, err = yamlToObject(raw, o.maxAliasNode); err != nil {
			return nil, err
		}
	} else if err := utiljson.Unmarshal(t, &v); err != nil { // utiljson keeps integers as int64
		return nil, err
	}
	switch m := v.(type) {
	case nil:
		return nil, nil
	case map[string]interface{}:
		return m, nil
	default:
		return nil, fmt.Errorf("the document is a %T, not an object (a YAML mapping with apiVersion and kind)", v)
	}
}

func readAllLimited(r io.Reader, file string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", file, err)
	}
	if int64(len(data)) > limit {
		return nil, &LimitError{File: file, What: "file size", Limit: limit}
	}
	return data, chargeTotal(file, int64(len(data)))
}

// DecodeObject decodes one document (no "---" splitting) into the object that
// sigs.k8s.io/yaml.YAMLToJSON followed by the API machinery's JSON decoder gives (integers as
// int64), without the JSON text in between; nil, nil for an empty or null document. Aliases
// are limited as in Decode; a document that is not a mapping is an error.
func DecodeObject(raw []byte, opts ...Option) (map[string]interface{}, error) {
	return decodeObject(raw, makeOptions(opts))
}
