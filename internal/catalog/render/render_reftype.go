package render

import (
	"errors"
	"fmt"
)

// RefType is a kind of reference render accepts; a mask of them limits what may be rendered.
type RefType uint

// Kinds of references (opm's action.RefType, plus package-manifest folders).
const (
	RefBundleImage RefType = 1 << iota
	RefSqliteImage
	RefSqliteFile
	RefDCImage
	RefDCDir
	RefBundleDir
	RefPackageManifestDir

	RefAll RefType = 0
)

// Allowed reports whether the mask r allows t.
func (r RefType) Allowed(t RefType) bool { return r == RefAll || r&t == t }

func (r RefType) String() string {
	switch r {
	case RefBundleImage:
		return "bundle image"
	case RefSqliteImage:
		return "sqlite image"
	case RefSqliteFile:
		return "sqlite file"
	case RefDCImage:
		return "declarative config image"
	case RefDCDir:
		return "declarative config directory"
	case RefBundleDir:
		return "bundle directory"
	case RefPackageManifestDir:
		return "package manifest directory"
	}
	return fmt.Sprintf("reference type %d", uint(r))
}

// errNotAllowed is returned for a reference whose kind the renderer does not accept.
var errNotAllowed = errors.New("not allowed")
