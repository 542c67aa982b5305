package render

import (
	"encoding/binary"
	"errors"

	"github.com/opack/opack/internal/fbc"
)

// The render cache stores its records (entry headers, bundle models, stat index records) in a
// small binary form: unsigned varints and length-prefixed byte strings. Decoding is a copy, not a
// parse of escaped JSON, and every record is checksummed by its caller.

// errShortRecord reports a record that ends before its fields do.
var errShortRecord = errors.New("truncated record")

type recordWriter struct{ buf []byte }

func (w *recordWriter) uint(v uint64) { w.buf = binary.AppendUvarint(w.buf, v) }
func (w *recordWriter) int(v int64)   { w.buf = binary.AppendVarint(w.buf, v) }
func (w *recordWriter) bytes(b []byte) {
	w.uint(uint64(len(b)))
	w.buf = append(w.buf, b...)
}
func (w *recordWriter) string(s string) {
	w.uint(uint64(len(s)))
	w.buf = append(w.buf, s...)
}

// recordReader reads what a recordWriter wrote; the first error sticks and zero values follow.
type recordReader struct {
	buf []byte
	err error
}

func (r *recordReader) uint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.buf)
	if n <= 0 {
		r.err = errShortRecord
		return 0
	}
	r.buf = r.buf[n:]
	return v
}

func (r *recordReader) int() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.buf)
	if n <= 0 {
		r.err = errShortRecord
		return 0
	}
	r.buf = r.buf[n:]
	return v
}

// count reads a length or count that must fit in what is left of the record (each counted
// item takes at least one byte), so a corrupted record cannot ask for a huge allocation.
func (r *recordReader) count() int {
	n := r.uint()
	if r.err == nil && n > uint64(len(r.buf)) {
		r.err = errShortRecord
		return 0
	}
	return int(n)
}

func (r *recordReader) bytes() []byte {
	n := r.count()
	if r.err != nil {
		return nil
	}
	b := r.buf[:n:n]
	r.buf = r.buf[n:]
	return b
}

func (r *recordReader) string() string { return string(r.bytes()) }

// fixed reads exactly len(dst) bytes.
func (r *recordReader) fixed(dst []byte) {
	if r.err != nil {
		return
	}
	if len(r.buf) < len(dst) {
		r.err = errShortRecord
		return
	}
	copy(dst, r.buf)
	r.buf = r.buf[len(dst):]
}

// end checks that the whole record was read.
func (r *recordReader) end() error {
	if r.err == nil && len(r.buf) != 0 {
		r.err = errors.New("trailing bytes in record")
	}
	return r.err
}

// Property value kinds in an encoded bundle model.
const (
	propInline = iota // the value follows
	propObject        // an olm.bundle.object property of Objects[k]: the value is rebuilt from it
	propNil           // a nil value (written as null), kept apart from an empty one
)

// encodeBundleModel encodes b losslessly, CsvJSON and Objects included. An olm.bundle.object
// property whose value is exactly the one NewBundleObjectProperty makes from one of Objects is
// stored as that object's index, so the manifests are stored once, not a second time in base64.
func encodeBundleModel(b *fbc.Bundle) []byte {
	byValue := make(map[string]int, len(b.Objects))
	for i, o := range b.Objects {
		byValue[string(fbc.NewBundleObjectProperty([]byte(o)).Value)] = i
	}
	w := &recordWriter{}
	w.string(b.Schema)
	w.string(b.Name)
	w.string(b.Package)
	w.string(b.Image)
	w.uint(uint64(len(b.Properties)))
	for _, p := range b.Properties {
		w.string(p.Type)
		if k, ok := byValue[string(p.Value)]; ok && p.Type == fbc.TypeBundleObject {
			w.uint(propObject)
			w.uint(uint64(k))
			continue
		}
		if p.Value == nil {
			w.uint(propNil)
			continue
		}
		w.uint(propInline)
		w.bytes(p.Value)
	}
	w.uint(uint64(len(b.RelatedImages)))
	for _, ri := range b.RelatedImages {
		w.string(ri.Name)
		w.string(ri.Image)
	}
	w.uint(uint64(len(b.Objects)))
	csv := -1
	for i, o := range b.Objects {
		w.string(o)
		if csv < 0 && b.CsvJSON != "" && o == b.CsvJSON {
			csv = i
		}
	}
	w.int(int64(csv))
	if csv < 0 {
		w.string(b.CsvJSON)
	}
	return w.buf
}

// decodeBundleModel is the inverse of encodeBundleModel.
func decodeBundleModel(data []byte) (*fbc.Bundle, error) {
	r := &recordReader{buf: data}
	b := &fbc.Bundle{Schema: r.string(), Name: r.string(), Package: r.string(), Image: r.string()}
	type objectRef struct{ prop, obj int }
	var refs []objectRef
	if n := r.count(); n > 0 {
		b.Properties = make([]fbc.Property, n)
		for i := range b.Properties {
			b.Properties[i].Type = r.string()
			switch r.uint() {
			case propInline:
				b.Properties[i].Value = r.bytes()
			case propObject:
				refs = append(refs, objectRef{i, int(r.uint())})
			case propNil:
			default:
				r.err = errors.New("unknown property kind")
			}
		}
	}
	if n := r.count(); n > 0 {
		b.RelatedImages = make([]fbc.RelatedImage, n)
		for i := range b.RelatedImages {
			b.RelatedImages[i] = fbc.RelatedImage{Name: r.string(), Image: r.string()}
		}
	}
	if n := r.count(); n > 0 {
		b.Objects = make([]string, n)
		for i := range b.Objects {
			b.Objects[i] = r.string()
		}
	}
	if csv := r.int(); csv >= 0 && csv < int64(len(b.Objects)) {
		b.CsvJSON = b.Objects[csv]
	} else if csv < 0 {
		b.CsvJSON = r.string()
	} else {
		r.err = errors.New("csv index out of range")
	}
	if err := r.end(); err != nil {
		return nil, err
	}
	for _, ref := range refs {
		if ref.obj < 0 || ref.obj >= len(b.Objects) {
			return nil, errors.New("object index out of range")
		}
		b.Properties[ref.prop].Value = fbc.NewBundleObjectProperty([]byte(b.Objects[ref.obj])).Value
	}
	return b, nil
}
