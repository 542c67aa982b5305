package crd

import (
	"encoding/json"
	"fmt"
	"hash/maphash"
	"strings"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// A Go struct that a CRD embeds in several places (a container template as driver.common,
// initContainers[*] and sideCars[*]) is copied into the schema at each place; a field removed from
// the struct is then one finding per copy, echoes of one change. Echo (a Finding field) keys a
// change by the old node that holds it and the path below that node, so that FoldEchoes can
// report the copies as one change listing every path.

// shapeSeeds seed the two 64-bit hashes of a node's shape: 128 bits, so that two different shapes
// of one comparison never share a key.
var shapeSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// shapes hashes old schema nodes, once per node a diff reports a change under.
type shapes struct {
	m map[*apiextv1.JSONSchemaProps]string
}

// of returns the hash of s without its own description: the copies of a struct differ only in the
// description of the field that holds each copy.
func (h *shapes) of(s *apiextv1.JSONSchemaProps) string {
	if k, ok := h.m[s]; ok {
		return k
	}
	bare := *s
	bare.Description = ""
	data, err := json.Marshal(&bare)
	if err != nil {
		return "" // not foldable; no JSONSchemaProps of a decoded CRD fails to encode
	}
	key := fmt.Sprintf("%016x%016x", maphash.Bytes(shapeSeeds[0], data), maphash.Bytes(shapeSeeds[1], data))
	if h.m == nil {
		h.m = map[*apiextv1.JSONSchemaProps]string{}
	}
	h.m[s] = key
	return key
}

// echo returns the Echo of a change at path: the hash of the old node holding it (the node being
// compared for a change below it, the node above for a change of the node itself) and the path
// below that node; "" when no node holds it (the root).
func (d schemaDiffer) echo(path string) string {
	holder, at := d.oldNode, d.nodePath
	if path == d.nodePath {
		holder, at = d.oldParent, d.parentPath
	}
	if holder == nil || d.shapes == nil || !strings.HasPrefix(path, at) {
		return ""
	}
	h := d.shapes.of(holder)
	if h == "" {
		return ""
	}
	return h + path[len(at):]
}

// FoldEchoes groups fs (sorted as Compare returns them) into echoes: findings that differ only in
// their Path and share a non-empty Echo are the same change of one rule in one CRD version, made to
// identical copies of an old struct. Each group lists its findings in order; groups come in the
// order of their first finding. A finding without an Echo is a group of its own.
func FoldEchoes(fs []Finding) [][]Finding {
	var out [][]Finding
	at := map[Finding]int{}
	for _, f := range fs {
		k := f
		k.Path = ""
		if f.Echo == "" {
			out = append(out, []Finding{f})
			continue
		}
		if i, ok := at[k]; ok {
			out[i] = append(out[i], f)
			continue
		}
		at[k] = len(out)
		out = append(out, []Finding{f})
	}
	return out
}
