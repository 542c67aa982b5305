package packagemanifest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	k8syaml "k8s.io/apimachinery/pkg/util/yaml"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/crd/load"
	"github.com/opack/opack/internal/manifest"
)

// SourceFile is one manifest file read and decoded once: its first document as operator-framework's loader
// decodes it, and how many documents the file holds (the loader reads only the first).
type SourceFile struct {
	Path string
	Raw  []byte
	json []byte                     // the first document as JSON, made on first use (jsonBytes)
	Obj  *unstructured.Unstructured // the first document; nil when decodeErr is set
	// decodeErr is the error operator-framework/api's loader reports for this file (k8s YAMLToJSONDecoder).
	decodeErr error
	Docs      int          // non-empty documents in the file
	sum       *[32]byte    // SHA-256 of Raw, when the run's ParseCache decoded it
	entry     *parsedEntry // the run's ParseCache entry of this content, whose objects the file shares
}

// fileCache reads every file of one bundle at most once; decoded content is shared across the bundles of a
// run through the run's ParseCache.
type fileCache struct {
	files  map[string]*SourceFile
	shared *ParseCache
	used   map[*parsedEntry]bool // shared contents this bundle holds: a second file with one gets its own objects
}

func newFileCache(shared *ParseCache) fileCache {
	return fileCache{files: map[string]*SourceFile{}, shared: shared, used: map[*parsedEntry]bool{}}
}

func (c fileCache) get(path string) (*SourceFile, error) {
	if f, ok := c.files[path]; ok {
		return f, nil
	}
	raw, err := manifest.ReadBytes(path)
	if err != nil {
		return nil, err
	}
	if err := manifest.CheckStreamDocSizes(raw, path); err != nil {
		f := &SourceFile{Path: path, decodeErr: err}
		c.files[path] = f
		return f, nil
	}
	f := c.decode(path, raw)
	if le := (*manifest.LimitError)(nil); errors.As(f.decodeErr, &le) {
		f.Raw = nil // refused: nothing reads it again, and it must not stay in memory
	}
	c.files[path] = f
	return f, nil
}

// decode is the file's content decoded, shared with other bundles of the run where it was seen before.
func (c fileCache) decode(path string, raw []byte) *SourceFile {
	if c.shared == nil {
		return decodeFirst(path, raw)
	}
	key := sha256.Sum256(raw)
	if e := c.shared.lookup(&key); e != nil && !c.used[e] {
		if f := e.file(path, raw, &key); f != nil {
			c.used[e] = true
			return f
		}
	}
	f := c.shared.decode(path, raw, &key)
	if f.entry != nil {
		c.used[f.entry] = true
	}
	return f
}

// Sum is the SHA-256 of the file's bytes, the one the run's ParseCache keyed it by when it did.
func (f *SourceFile) Sum() *[32]byte {
	if f.sum == nil {
		sum := sha256.Sum256(f.Raw)
		f.sum = &sum
	}
	return f.sum
}

// decodeFirst decodes the first YAML or JSON document of raw as k8s.io/apimachinery's YAMLToJSONDecoder does,
// with the same error messages, keeping the JSON for typed decoding.
func decodeFirst(path string, raw []byte) *SourceFile {
	f := &SourceFile{Path: path, Raw: raw}
	reader := k8syaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(raw)))
	doc, err := reader.Read()
	if err != nil && !errors.Is(err, io.EOF) {
		f.decodeErr = err
		return f
	}
	if lerr := manifest.CheckDocSize(doc, path); lerr != nil {
		f.decodeErr = lerr
		return f
	}
	if len(doc) == 0 {
		f.decodeErr = err
		if err == nil {
			f.decodeErr = io.EOF
		}
		return f
	}
	if !blank(doc) {
		f.Docs = 1
	}
	// YAML goes straight into the values the JSON round trip below gives (manifest.DecodeObject, tested
	// against it); what that path would refuse, JSON text and objects without a kind take the round trip,
	// for the loader's exact results and messages.
	if t := bytes.TrimSpace(doc); len(t) > 0 && t[0] != '{' && t[0] != '[' {
		m, err := manifest.DecodeObject(doc)
		if kc := (*manifest.KeyCollisionError)(nil); errors.As(err, &kc) {
			// sigs.k8s.io/yaml would keep one of the keys at random: refused as image bundle refuses it.
			f.decodeErr = err
			return f
		}
		if err == nil && m != nil {
			if kind, _ := m["kind"].(string); kind != "" {
				f.Obj = &unstructured.Unstructured{Object: m}
				f.countDocs(reader)
				return f
			}
		}
	}
	j, cerr := sigsyaml.YAMLToJSON(doc)
	if cerr != nil {
		f.decodeErr = fmt.Errorf("error converting YAML to JSON: %w", cerr)
		return f
	}
	obj := &unstructured.Unstructured{}
	if uerr := obj.UnmarshalJSON(j); uerr != nil {
		f.decodeErr = fmt.Errorf("error unmarshaling JSON: while decoding JSON: %w", uerr)
		return f
	}
	f.json, f.Obj = j, obj
	f.countDocs(reader)
	return f
}

// countDocs counts the non-empty documents after the first.
func (f *SourceFile) countDocs(reader *k8syaml.YAMLReader) {
	for {
		next, rerr := reader.Read()
		if lerr := manifest.CheckDocSize(next, f.Path); lerr != nil {
			f.decodeErr, f.Obj, f.json = lerr, nil, nil
			return
		}
		if len(next) > 0 && !blank(next) {
			f.Docs++
		}
		if rerr != nil {
			return
		}
	}
}

// jsonBytes is the first document as JSON (as sigs.k8s.io/yaml.YAMLToJSON writes it), nil when it could
// not be decoded.
func (f *SourceFile) jsonBytes() []byte {
	if f.json == nil && f.Obj != nil {
		f.json, _ = manifest.MarshalJSON(f.Obj.Object)
	}
	return f.json
}

// decodeV1CRD decodes the file's first document as decodeTyped does into an apiextensions.k8s.io/v1
// CRD, with load.DecodeV1 where it gives the same value in one pass over the schemas (encoding/json
// decodes every nested items and additionalProperties subtree again). A CRD shared by the run's
// ParseCache comes defaulted (SetObjectDefaults_CustomResourceDefinition); internal/validate defaults the
// others before it reads them.
func (f *SourceFile) decodeV1CRD() (*apiextensionsv1.CustomResourceDefinition, error) {
	if f.entry != nil {
		if c := f.entry.v1CRD(f); c != nil {
			return c, nil
		}
	}
	return f.decodeV1CRDOnce()
}

// decodeV1CRDOnce is decodeV1CRD without the run's cache.
func (f *SourceFile) decodeV1CRDOnce() (*apiextensionsv1.CustomResourceDefinition, error) {
	if j := f.exactJSON(); j != nil {
		if c, ok := load.DecodeV1(j); ok {
			return c, nil
		}
	}
	c := &apiextensionsv1.CustomResourceDefinition{}
	return c, f.decodeTyped(c)
}

// exactJSON is jsonBytes when its numbers are those sigs.k8s.io/yaml writes (manifest.MayLoseNumbers),
// nil otherwise.
func (f *SourceFile) exactJSON() []byte {
	if f.entry != nil {
		if f.entry.mayLoseNumbers(f.Raw) {
			return nil
		}
	} else if manifest.MayLoseNumbers(f.Raw) {
		return nil
	}
	return f.jsonBytes()
}

// blank reports whether a YAML document holds only separators, comments and white space.
func blank(doc []byte) bool {
	for len(doc) > 0 {
		line := doc
		if i := bytes.IndexByte(doc, '\n'); i >= 0 {
			line, doc = doc[:i], doc[i+1:]
		} else {
			doc = nil
		}
		t := bytes.TrimSpace(line)
		if len(t) > 0 && t[0] != '#' && string(t) != "---" && string(t) != "..." {
			return false
		}
	}
	return true
}

// decodeTyped decodes the file's first document into a typed object as sigs.k8s.io/yaml does: the JSON
// conversion is reused when it decodes cleanly, and the YAML is decoded against the target type otherwise
// (which turns numbers and booleans into strings where the target field is a string).
func (f *SourceFile) decodeTyped(into any) error {
	if j := f.exactJSON(); j != nil && json.Unmarshal(j, into) == nil {
		return nil
	}
	v := reflect.ValueOf(into).Elem()
	v.Set(reflect.Zero(v.Type()))
	reader := k8syaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(f.Raw)))
	doc, err := reader.Read()
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return sigsyaml.Unmarshal(doc, into)
}
