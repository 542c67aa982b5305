package project

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/opack/opack/internal/fbc"
)

// A version already in a catalog is a published release. A build of that version (the
// repository's Makefile still names it right after the release) regenerates the bundle and
// compares it with the catalog's: the same release, whatever image reference the catalog uses for
// it (a tag, another digest), leaves the catalog as it is; a different one is a release that
// changed without a new version, named by its first difference.

// unstamped are the annotations and labels a rebuild of the same release changes by itself.
var unstamped = []string{"createdAt", "operators.operatorframework.io/builder", "operators.operatorframework.io.metrics.builder"}

// releasedDifference says how bundle b (this build's) differs from old (the release of the same
// name in a catalog): "" when they are the same release. The image references of the bundles
// themselves, createdAt and the builder annotations are not compared; properties are compared
// where both bundles have them (a catalog may carry olm.csv.metadata where a render carries the
// objects).
func releasedDifference(old, b fbc.Bundle) string {
	if d := propertiesDifference(old, b); d != "" {
		return d
	}
	if len(old.Objects) > 0 && len(b.Objects) > 0 {
		if d := objectsDifference(old.Objects, b.Objects); d != "" {
			return d
		}
	}
	oi, bi := relatedImages(old), relatedImages(b)
	if !reflect.DeepEqual(oi, bi) {
		return fmt.Sprintf("relatedImages %v in the catalog, %v built", oi, bi)
	}
	return ""
}

// propertiesDifference compares the properties other than the bundle's objects, by type.
func propertiesDifference(old, b fbc.Bundle) string {
	byType := func(ps []fbc.Property) map[string][]string {
		out := map[string][]string{}
		for _, p := range ps {
			if p.Type == fbc.TypeBundleObject {
				continue
			}
			out[p.Type] = append(out[p.Type], canonicalJSON(p.Value, p.Type == fbc.TypeCSVMetadata))
		}
		for _, v := range out {
			sort.Strings(v)
		}
		return out
	}
	ot, bt := byType(old.Properties), byType(b.Properties)
	types := make([]string, 0, len(ot))
	for t := range ot {
		types = append(types, t)
	}
	sort.Strings(types)
	for _, t := range types {
		bv, ok := bt[t]
		if !ok {
			continue
		}
		if !reflect.DeepEqual(ot[t], bv) {
			return fmt.Sprintf("property %s: %s in the catalog, %s built", t, strings.Join(ot[t], ", "), strings.Join(bv, ", "))
		}
	}
	return ""
}

// objectsDifference compares the bundle objects by kind and name.
func objectsDifference(old, built []string) string {
	oo, bo := objectsByName(old), objectsByName(built)
	for _, n := range unionKeys(oo, bo) {
		o, inOld := oo[n]
		b, inBuilt := bo[n]
		switch {
		case !inOld:
			return n + " is built but not in the catalog's release"
		case !inBuilt:
			return n + " is in the catalog's release but not built"
		}
		if p := firstDifference(o, b, ""); p != "" {
			return n + ": " + p
		}
	}
	return ""
}

func objectsByName(objs []string) map[string]any {
	out := map[string]any{}
	for i, s := range objs {
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			out[fmt.Sprintf("object %d (not JSON)", i)] = s
			continue
		}
		unstamp(m)
		meta, _ := m["metadata"].(map[string]any)
		out[fmt.Sprintf("%v %v", m["kind"], meta["name"])] = m
	}
	return out
}

// unstamp drops what a rebuild of the same release changes by itself.
func unstamp(m map[string]any) {
	meta, _ := m["metadata"].(map[string]any)
	for _, k := range []string{"annotations", "labels"} {
		if a, ok := meta[k].(map[string]any); ok {
			for _, u := range unstamped {
				delete(a, u)
			}
		}
	}
	if a, ok := m["annotations"].(map[string]any); ok { // olm.csv.metadata
		for _, u := range unstamped {
			delete(a, u)
		}
	}
}

// firstDifference returns the path of the first difference between two decoded JSON values.
func firstDifference(a, b any, at string) string {
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			return orRoot(at)
		}
		for _, k := range unionKeys(av, bv) {
			if d := firstDifference(av[k], bv[k], at+"."+k); d != "" {
				return d
			}
		}
		return ""
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			return orRoot(at)
		}
		for i := range av {
			if d := firstDifference(av[i], bv[i], fmt.Sprintf("%s[%d]", at, i)); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(a, b) {
		return orRoot(at)
	}
	return ""
}

func orRoot(at string) string {
	if at == "" {
		return "the whole object"
	}
	return strings.TrimPrefix(at, ".") + " differs"
}

// canonicalJSON renders a property value with sorted keys (and, for olm.csv.metadata, without
// what a rebuild changes by itself).
func canonicalJSON(raw json.RawMessage, csvMeta bool) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(bytes.TrimSpace(raw))
	}
	if m, ok := v.(map[string]any); ok && csvMeta {
		unstamp(m)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(out)
}

// relatedImages are a bundle's related images other than its own image reference, sorted.
func relatedImages(b fbc.Bundle) []string {
	var out []string
	for _, ri := range b.RelatedImages {
		if ri.Image == b.Image || (ri.Name == "" && strings.Contains(ri.Image, "@sha256:") && ri.Image != b.Image && imageRepo(ri.Image) == imageRepo(b.Image)) {
			continue
		}
		out = append(out, ri.Name+"="+ri.Image)
	}
	sort.Strings(out)
	return out
}

// imageRepo is a reference without its tag or digest.
func imageRepo(ref string) string {
	if i := strings.Index(ref, "@"); i >= 0 {
		ref = ref[:i]
	}
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		ref = ref[:i]
	}
	return ref
}

// unionKeys returns the keys of a and b, sorted, each once.
func unionKeys[V any](a, b map[string]V) []string {
	keys := slices.Collect(maps.Keys(a))
	keys = slices.AppendSeq(keys, maps.Keys(b))
	slices.Sort(keys)
	return slices.Compact(keys)
}
