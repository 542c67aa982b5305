package load

import (
	"hash/maphash"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// Consecutive releases of an operator ship CRDs that differ in a few fields, and a decoded schema
// takes 10-13x the bytes of its JSON: every properties map holds its 512-byte JSONSchemaProps
// values inline, in groups of 8 (a one-entry map takes ~4.9 KB). The fast decoder therefore
// indexes the properties maps it decodes by their JSON text, and a CRD decoded with the index of
// an earlier one shares the maps of byte-identical properties objects instead of decoding them
// again: an upgrade pair of 700 KB CRDs that share 70-84% of their text (appian-operator on
// certified-operators) takes ~11 MB decoded instead of ~19 MB, and less decoding.
//
// Each properties object is hashed whole, so the work is the schema's size times its depth: only
// the first MaxSchemaDepth levels share (a deeper schema is refused after decoding anyway), which
// keeps a hostile, deeply nested CRD linear.
//
// Sharing is safe because a properties object decodes to the same map wherever it appears
// (props reads nothing but its bytes), and decoded CRDs are read-only for their callers
// (nothing in opack writes to a decoded schema; FromJSON's defaulting touches no schema).

// SchemaIndex indexes the properties maps of a decoded CRD's schemas by their JSON text. It is
// read-only once FromJSONSharing returns it and safe for concurrent use.
type SchemaIndex struct {
	maps map[textKey]map[string]apiextv1.JSONSchemaProps
}

// textKey identifies a JSON text: two 64-bit hashes with independent random seeds, so that two
// different texts get the same key with probability ~2^-128 (the seeds are per process, so no
// input can be crafted to collide).
type textKey [2]uint64

var textSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

func keyOf(text []byte) textKey {
	return textKey{maphash.Bytes(textSeeds[0], text), maphash.Bytes(textSeeds[1], text)}
}

// FromJSONSharing is FromJSON, sharing the properties maps of the earlier CRDs indexed in from
// where the text is identical (pass one merged index, MergeSchemaIndexes, when decoding many CRDs
// against the same ones). It returns the index of the CRD's own maps (nil when the CRD was
// not decoded by the fast decoder: it then shares nothing).
func FromJSONSharing(data []byte, from ...*SchemaIndex) (c *apiextv1.CustomResourceDefinition, isCRD bool, idx *SchemaIndex, err error) {
	sh := &sharing{from: MergeSchemaIndexes(from...), own: &SchemaIndex{maps: map[textKey]map[string]apiextv1.JSONSchemaProps{}}}
	c, isCRD, fast, err := fromJSON(data, sh)
	if !fast {
		return c, isCRD, nil, err
	}
	return c, isCRD, sh.own, err
}

// sharing is what the schema decoder shares with earlier CRDs and records of its own.
type sharing struct {
	from *SchemaIndex // nil: none
	own  *SchemaIndex
}

// lookup returns an earlier map decoded from the same text.
func (s *sharing) lookup(k textKey) (map[string]apiextv1.JSONSchemaProps, bool) {
	if s.from != nil {
		if m, ok := s.from.maps[k]; ok {
			return m, true
		}
	}
	m, ok := s.own.maps[k] // the same object twice in one CRD
	return m, ok
}

// MergeSchemaIndexes returns one index of the maps of all of idx (nil entries are skipped), so
// that a lookup costs one map access however many CRDs the old bundle has.
func MergeSchemaIndexes(idx ...*SchemaIndex) *SchemaIndex {
	var nonNil []*SchemaIndex
	for _, x := range idx {
		if x != nil {
			nonNil = append(nonNil, x)
		}
	}
	switch len(nonNil) {
	case 0:
		return nil
	case 1:
		return nonNil[0]
	}
	n := 0
	for _, x := range nonNil {
		n += len(x.maps)
	}
	out := &SchemaIndex{maps: make(map[textKey]map[string]apiextv1.JSONSchemaProps, n)}
	for _, x := range nonNil {
		for k, m := range x.maps {
			out.maps[k] = m
		}
	}
	return out
}

// sharedPropsMap decodes the properties object at i, or takes the map of an identical one.
func (d *schemaDecoder) sharedPropsMap() (map[string]apiextv1.JSONSchemaProps, bool) {
	start := d.i
	end := skipValue(d.data, start)
	k := keyOf(d.data[start:end])
	if m, ok := d.share.lookup(k); ok {
		d.i = end
		d.share.own.maps[k] = m // so that the next CRD in a chain shares it too
		return m, true
	}
	m, ok := d.propsMap()
	if ok {
		d.share.own.maps[k] = m
	}
	return m, ok
}
