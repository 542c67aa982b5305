package load

import (
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// props decodes one JSONSchemaProps object (see fastCRD).
func (d *schemaDecoder) props() (*apiextv1.JSONSchemaProps, bool) {
	d.depth++
	defer func() { d.depth-- }()
	p := &apiextv1.JSONSchemaProps{}
	ok := d.object(func(key string) bool {
		var ok bool
		switch key {
		case "id":
			p.ID, ok = d.str()
		case "$schema":
			var s string
			s, ok = d.str()
			p.Schema = apiextv1.JSONSchemaURL(s)
		case "$ref":
			p.Ref, ok = d.strPtr()
		case "description":
			p.Description, ok = d.str()
		case "type":
			p.Type, ok = d.str()
		case "format":
			p.Format, ok = d.str()
		case "title":
			p.Title, ok = d.str()
		case "default":
			j := d.raw()
			p.Default, ok = &j, true
		case "maximum":
			p.Maximum, ok = d.float()
		case "exclusiveMaximum":
			p.ExclusiveMaximum, ok = d.boolean()
		case "minimum":
			p.Minimum, ok = d.float()
		case "exclusiveMinimum":
			p.ExclusiveMinimum, ok = d.boolean()
		case "maxLength":
			p.MaxLength, ok = d.integer()
		case "minLength":
			p.MinLength, ok = d.integer()
		case "pattern":
			p.Pattern, ok = d.str()
		case "maxItems":
			p.MaxItems, ok = d.integer()
		case "minItems":
			p.MinItems, ok = d.integer()
		case "uniqueItems":
			p.UniqueItems, ok = d.boolean()
		case "multipleOf":
			p.MultipleOf, ok = d.float()
		case "enum":
			p.Enum = []apiextv1.JSON{}
			ok = d.array(func() bool {
				p.Enum = append(p.Enum, d.raw())
				return true
			}, true)
		case "maxProperties":
			p.MaxProperties, ok = d.integer()
		case "minProperties":
			p.MinProperties, ok = d.integer()
		case "required":
			p.Required, ok = d.strings()
		case "items":
			p.Items, ok = d.orArray()
		case "allOf":
			p.AllOf, ok = d.propsList()
		case "oneOf":
			p.OneOf, ok = d.propsList()
		case "anyOf":
			p.AnyOf, ok = d.propsList()
		case "not":
			p.Not, ok = d.props()
		case "properties":
			if d.share != nil && d.depth <= MaxSchemaDepth {
				p.Properties, ok = d.sharedPropsMap()
			} else {
				p.Properties, ok = d.propsMap()
			}
		case "additionalProperties":
			p.AdditionalProperties, ok = d.orBool()
		case "additionalItems":
			p.AdditionalItems, ok = d.orBool()
		case "patternProperties":
			ok = d.kjsonValue(&p.PatternProperties)
		case "dependencies":
			ok = d.kjsonValue(&p.Dependencies)
		case "definitions":
			ok = d.kjsonValue(&p.Definitions)
		case "externalDocs":
			ok = d.kjsonValue(&p.ExternalDocs)
		case "example":
			j := d.raw()
			p.Example, ok = &j, true
		case "nullable":
			p.Nullable, ok = d.boolean()
		case "x-kubernetes-preserve-unknown-fields":
			var b bool
			b, ok = d.boolean()
			p.XPreserveUnknownFields = &b
		case "x-kubernetes-embedded-resource":
			p.XEmbeddedResource, ok = d.boolean()
		case "x-kubernetes-int-or-string":
			p.XIntOrString, ok = d.boolean()
		case "x-kubernetes-list-map-keys":
			p.XListMapKeys, ok = d.strings()
		case "x-kubernetes-list-type":
			p.XListType, ok = d.strPtr()
		case "x-kubernetes-map-type":
			p.XMapType, ok = d.strPtr()
		case "x-kubernetes-validations":
			ok = d.kjsonValue(&p.XValidations)
		default:
			d.value() // kjson ignores unknown fields
			ok = !d.strict
		}
		return ok
	})
	return p, ok
}

// orArray decodes items: a schema, or a list of schemas (JSONSchemaPropsOrArray.UnmarshalJSON).
func (d *schemaDecoder) orArray() (*apiextv1.JSONSchemaPropsOrArray, bool) {
	switch d.data[d.i] {
	case '{':
		p, ok := d.props()
		return &apiextv1.JSONSchemaPropsOrArray{Schema: p}, ok
	case '[':
		list, ok := d.propsList()
		return &apiextv1.JSONSchemaPropsOrArray{JSONSchemas: list}, ok
	}
	return nil, false
}

// orBool decodes additionalProperties and additionalItems (JSONSchemaPropsOrBool.UnmarshalJSON).
func (d *schemaDecoder) orBool() (*apiextv1.JSONSchemaPropsOrBool, bool) {
	if d.data[d.i] == '{' {
		p, ok := d.props()
		return &apiextv1.JSONSchemaPropsOrBool{Allows: true, Schema: p}, ok
	}
	b, ok := d.boolean()
	return &apiextv1.JSONSchemaPropsOrBool{Allows: b}, ok
}
