package apitypes

import (
	"fmt"
	"go/ast"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

// fieldInfo is a field reached from the kind's spec or status, with the JSON path segments to it.
type fieldInfo struct {
	markers.FieldInfo
	segments []string
	parent   *fieldInfo        // the field whose type holds this one (nil for the root)
	owner    *markers.TypeInfo // that type
}

// maxWalkedFields bounds the fields markedFields visits below one kind: every path is a field
// of its own, so types that nest one another (a 40-level diamond) would give 2^40 of them.
// Real API types stay in the low thousands.
const maxWalkedFields = 200_000

// onPath reports whether info is the type of a field on the path to f (a type holding itself,
// directly or through others: the walk would never end).
func (f *fieldInfo) onPath(info *markers.TypeInfo) bool {
	for ; f != nil; f = f.parent {
		if f.owner == info {
			return true
		}
	}
	return false
}

// descriptors returns the spec (or status) descriptors of a kind, as operator-sdk's
// getTypedDescriptors does: every field below kind.<descType> with a field marker of that type,
// ordered by marker order, then path.
func (u *universe) descriptors(pkg *loader.Package, kind *markers.TypeInfo, descType string) ([]v1alpha1.SpecDescriptor, error) {
	child, err := childField(kind, descType)
	if err != nil {
		return nil, err
	}
	fields, err := u.markedFields(pkg, child)
	if err != nil {
		return nil, err
	}
	buckets := map[int][]v1alpha1.SpecDescriptor{}
	var orders []int
	for _, f := range fields {
		if d, order, ok := f.descriptor(descType); ok {
			buckets[order] = append(buckets[order], d)
			orders = append(orders, order)
		}
	}
	sort.Ints(orders)
	var out []v1alpha1.SpecDescriptor
	for _, o := range orders {
		if b, ok := buckets[o]; ok {
			sort.SliceStable(b, func(i, j int) bool { return b[i].Path < b[j].Path })
			out = append(out, b...)
			delete(buckets, o)
		}
	}
	return out, nil
}

// childField finds the kind's top-level field whose JSON name is descType ("spec" or "status").
func childField(kind *markers.TypeInfo, descType string) (markers.FieldInfo, error) {
	for _, f := range kind.Fields {
		if name, _, ok := jsonTag(f.Tag); ok && name == descType {
			return f, nil
		}
	}
	return markers.FieldInfo{}, fmt.Errorf("no %s found for type %s", descType, kind.Name)
}

// markedFields walks the types below root breadth first, as operator-sdk's
// getMarkedChildrenOfField does, and returns the fields that carry markers, in walk order.
func (u *universe) markedFields(rootPkg *loader.Package, root markers.FieldInfo) ([]*fieldInfo, error) {
	imports, err := u.importIdents(rootPkg) // syntax only: no type check (go/types is exponential on some hostile types, and nothing here reads types)
	if err != nil {
		return nil, err
	}
	var marked []*fieldInfo
	next := []*fieldInfo{{FieldInfo: root}}
	walked := 0
	for len(next) > 0 {
		var fields []*fieldInfo
		for _, field := range next {
			var walkErr error
			ast.Inspect(field.RawField, func(n ast.Node) bool {
				info, ok := u.typeOf(rootPkg, imports, n)
				if !ok || field.onPath(info) { // operator-sdk would walk a recursive type forever
					return true
				}
				if walked += len(info.Fields); walked > maxWalkedFields {
					walkErr = fmt.Errorf("the Go types below field %s have more than %d fields along all their paths (types that nest one another too often); opack stops here", root.Name, maxWalkedFields)
					return false
				}
				for _, fi := range info.Fields {
					seg, err := pathSegment(fi)
					if err != nil {
						walkErr = fmt.Errorf("getting the path of type %s field %s: %w", info.Name, fi.Name, err)
						continue
					}
					if _, isArray := fi.RawField.Type.(*ast.ArrayType); isArray && seg != ignoredTag && seg != inlinedTag {
						seg += "[0]"
					}
					f := &fieldInfo{FieldInfo: fi, segments: append(append(make([]string, 0, len(field.segments)+1), field.segments...), seg), parent: field, owner: info}
					fields = append(fields, f)
					if len(fi.Markers) != 0 {
						marked = append(marked, f)
					}
				}
				return true
			})
			if walkErr != nil {
				return nil, walkErr
			}
		}
		next = fields
	}
	return marked, nil
}

// typeOf resolves an identifier or selector in a field's type to a type of the API packages.
func (u *universe) typeOf(rootPkg *loader.Package, imports importMap, n ast.Node) (*markers.TypeInfo, bool) {
	var id typeIdent
	switch nt := n.(type) {
	case *ast.SelectorExpr:
		pkg, ok := u.byPath[imports.pathFor(nt)]
		if !ok {
			return nil, false
		}
		id = typeIdent{pkg: pkg, name: nt.Sel.Name}
	case *ast.Ident:
		if nt.Obj != nil && nt.Obj.Kind != ast.Typ {
			return nil, false
		}
		id = typeIdent{pkg: rootPkg, name: nt.Name}
	default:
		return nil, false
	}
	info, ok := u.types[id]
	return info, ok
}

// importMap maps, per file of a package, the local names of its imports of API packages to
// their import paths: only those can name a type the walk looks up (a type of a dependency is
// never one of the API types). An import is named by its alias, else by the package's own name.
type importMap map[*ast.File]map[string]string

func (u *universe) importIdents(pkg *loader.Package) (importMap, error) {
	m := importMap{}
	for _, file := range pkg.Syntax {
		names := map[string]string{}
		for _, spec := range file.Imports {
			path, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return nil, err
			}
			path = loader.NonVendorPath(path)
			name := ""
			if imp, ok := u.byPath[path]; ok {
				name = imp.Name
			}
			if spec.Name != nil {
				name = spec.Name.Name
			}
			if name != "" && name != "_" && name != "." {
				names[name] = path
			}
		}
		m[file] = names
	}
	return m, nil
}

// pathFor is the import path a selector's package name refers to in the file holding it.
func (m importMap) pathFor(sel *ast.SelectorExpr) string {
	x, ok := sel.X.(*ast.Ident)
	if !ok {
		return ""
	}
	for file, names := range m {
		if file.Pos() <= sel.Pos() && sel.End() <= file.End() {
			return names[x.Name]
		}
	}
	return ""
}

// descriptor is operator-sdk's setDescriptorFields: ok is false when the field has no marker of
// descType or its path is not serialized.
func (f *fieldInfo) descriptor(descType string) (d v1alpha1.SpecDescriptor, order int, ok bool) {
	path, include := makePath(f.segments)
	if !include {
		return d, 0, false
	}
	var orderPtr *int
	for _, vals := range f.Markers {
		for _, m := range vals {
			m, isDesc := m.(Descriptor)
			if !isDesc || m.Type != descType {
				continue
			}
			if m.Order != nil {
				orderPtr = m.Order
			}
			if m.DisplayName != "" && d.DisplayName == "" {
				d.DisplayName = m.DisplayName
			}
			d.XDescriptors = append(d.XDescriptors, m.XDescriptors...)
			ok = true
		}
	}
	if d.DisplayName == "" {
		d.DisplayName = displayName(f.Name)
	}
	d.Description, d.Path = f.Doc, path
	order = math.MaxInt64
	if orderPtr != nil {
		order = *orderPtr
	}
	return d, order, ok
}

const (
	inlinedTag = "##inline##"
	ignoredTag = "##ignore##"
)

// makePath joins path segments; false when the path is not serialized.
func makePath(raw []string) (string, bool) {
	var segs []string
	for i, s := range raw {
		switch {
		case s == ignoredTag:
			return "", false
		case s == inlinedTag:
			if i == len(raw)-1 {
				return "", false
			}
			continue
		case strings.HasSuffix(s, "[0]") && i == len(raw)-1:
			s = strings.TrimSuffix(s, "[0]")
		}
		segs = append(segs, s)
	}
	return strings.Join(segs, "."), true
}

// pathSegment is the JSON path segment of a field, or inlinedTag / ignoredTag.
func pathSegment(f markers.FieldInfo) (string, error) {
	if len(f.RawField.Names) == 0 {
		return inlinedTag, nil
	}
	if f.Name == "" || unicode.IsLower(rune(f.Name[0])) {
		return ignoredTag, nil
	}
	if name, opts, ok := jsonTag(f.Tag); ok {
		switch {
		case contains(opts, "inline"):
			return inlinedTag, nil
		case name == "-" && len(opts) == 0:
			return ignoredTag, nil
		case name != "":
			return name, nil
		}
	}
	return f.Name, nil
}

// jsonTag splits a field's json tag into name and options.
func jsonTag(tag reflect.StructTag) (name string, opts []string, ok bool) {
	v, ok := tag.Lookup("json")
	if !ok {
		return "", nil, false
	}
	parts := strings.Split(v, ",")
	return parts[0], parts[1:], true
}

func contains(opts []string, s string) bool {
	for _, o := range opts {
		if o == s {
			return true
		}
	}
	return false
}
