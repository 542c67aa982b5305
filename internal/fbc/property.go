package fbc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Properties is the typed view of a property list (what opm's property.Parse returns).
type Properties struct {
	Packages         []PackageProperty
	PackagesRequired []PackageRequired
	GVKs             []GVK
	GVKsRequired     []GVK
	BundleObjects    []BundleObject
	// Others holds every other property, olm.csv.metadata included (see ParseCSVMetadata).
	Others []Property
}

// PropertyParseError is the error of ParseProperties, worded as opm's.
type PropertyParseError struct {
	Index int
	Type  string
	Err   error
}

func (e PropertyParseError) Error() string {
	return fmt.Sprintf("parse property[%d] of type %q: %v", e.Index, e.Type, e.Err)
}

func (e PropertyParseError) Unwrap() error { return e.Err }

// ParseProperties decodes the known property types of in; unknown types must hold valid JSON
// and are returned in Others. The first bad property is returned as a PropertyParseError.
func ParseProperties(in []Property) (*Properties, error) {
	var out Properties
	for i, p := range in {
		var err error
		switch p.Type {
		case TypePackage:
			var v PackageProperty
			if err = json.Unmarshal(p.Value, &v); err == nil {
				out.Packages = append(out.Packages, v)
			}
		case TypePackageRequired:
			var v PackageRequired
			if err = json.Unmarshal(p.Value, &v); err == nil {
				out.PackagesRequired = append(out.PackagesRequired, v)
			}
		case TypeGVK:
			var v GVK
			if err = json.Unmarshal(p.Value, &v); err == nil {
				out.GVKs = append(out.GVKs, v)
			}
		case TypeGVKRequired:
			var v GVK
			if err = json.Unmarshal(p.Value, &v); err == nil {
				out.GVKsRequired = append(out.GVKsRequired, v)
			}
		case TypeBundleObject:
			var v BundleObject
			if err = json.Unmarshal(p.Value, &v); err == nil {
				out.BundleObjects = append(out.BundleObjects, v)
			}
		default:
			if json.Valid(p.Value) {
				out.Others = append(out.Others, p)
			} else {
				var v json.RawMessage
				err = json.Unmarshal(p.Value, &v)
			}
		}
		if err != nil {
			return nil, PropertyParseError{Index: i, Type: p.Type, Err: err}
		}
	}
	return &out, nil
}

// parseCSVMetadata decodes an olm.csv.metadata property value.
func parseCSVMetadata(p Property) (*CSVMetadata, error) {
	var v CSVMetadata
	if err := json.Unmarshal(p.Value, &v); err != nil {
		return nil, fmt.Errorf("parse %s property: %w", TypeCSVMetadata, err)
	}
	return &v, nil
}

// validateProperty reports opm's Property.Validate errors.
func validateProperty(p Property) error {
	if p.Type == "" {
		return errors.New("type must be set")
	}
	if len(p.Value) == 0 {
		return errors.New("value must be set")
	}
	if !json.Valid(p.Value) {
		var raw json.RawMessage
		return fmt.Errorf("value is not valid json: %v", json.Unmarshal(p.Value, &raw))
	}
	return nil
}

// buildProperty encodes v as the value of a property of type typ the way opm does
// (HTML not escaped, compact, struct field order kept).
func buildProperty(typ string, v any) (Property, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return Property{}, fmt.Errorf("encoding %s property: %w", typ, err)
	}
	var out bytes.Buffer
	if err := json.Compact(&out, buf.Bytes()); err != nil {
		return Property{}, fmt.Errorf("encoding %s property: %w", typ, err)
	}
	return Property{Type: typ, Value: out.Bytes()}, nil
}

// MustBuildProperty is BuildProperty for values that always encode (typed property structs).
func MustBuildProperty(typ string, v any) Property {
	p, err := buildProperty(typ, v)
	if err != nil {
		panic(err)
	}
	return p
}

// NewPackageProperty returns an olm.package property.
func NewPackageProperty(pkg, version string) Property {
	return MustBuildProperty(TypePackage, PackageProperty{PackageName: pkg, Version: version})
}

// NewGVKProperty returns an olm.gvk property.
func NewGVKProperty(group, version, kind string) Property {
	return MustBuildProperty(TypeGVK, GVK{Group: group, Kind: kind, Version: version})
}

// NewGVKRequiredProperty returns an olm.gvk.required property.
func NewGVKRequiredProperty(group, version, kind string) Property {
	return MustBuildProperty(TypeGVKRequired, GVK{Group: group, Kind: kind, Version: version})
}

// NewPackageRequiredProperty returns an olm.package.required property.
func NewPackageRequiredProperty(pkg, versionRange string) Property {
	return MustBuildProperty(TypePackageRequired, PackageRequired{PackageName: pkg, VersionRange: versionRange})
}

// NewBundleObjectProperty returns an olm.bundle.object property carrying data (a manifest).
func NewBundleObjectProperty(data []byte) Property {
	return MustBuildProperty(TypeBundleObject, BundleObject{Data: data})
}

// normalizeProperty re-encodes p's value as opm's Model.Normalize does: HTML not escaped,
// whitespace removed, key order kept.
func normalizeProperty(p Property) (Property, error) {
	var out bytes.Buffer
	if err := json.Compact(&out, p.Value); err != nil {
		return p, err
	}
	p.Value = out.Bytes()
	return p, nil
}
