package config

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/opack/opack/internal/rootfs"
)

// pathFields are the paths of opack.yaml, each with its field path: what build reads, writes
// or replaces.
func (p *Project) pathFields() []struct {
	path  []any
	value string
} {
	type field = struct {
		path  []any
		value string
	}
	fs := []field{
		{at("kustomizeDir"), p.KustomizeDir}, {at("bundle", "dir"), p.Bundle.Dir},
		{at("outputs", "dir"), p.Outputs.Dir}, {at("outputs", "deploy"), p.Outputs.Deploy},
		{at("versionFrom", "file"), p.VersionFrom.File}, {at("previous", "dir"), p.Previous.Dir},
		{at("deploy", "templates"), p.Deploy.Templates},
	}
	if s := p.Signing; s != nil {
		fs = append(fs, field{at("signing", "publicKey"), s.PublicKey})
		for i, t := range s.Trust {
			fs = append(fs, field{at("signing", "trust", i, "publicKey"), t.PublicKey})
		}
	}
	for i, c := range p.Catalogs {
		fs = append(fs, field{at("catalogs", i, "dir"), c.Dir}, field{at("catalogs", i, "file"), c.File}, field{at("catalogs", i, "template"), c.Template})
	}
	return fs
}

// confined checks, once the project's folder is known, that every path of opack.yaml stays
// inside it after resolving symlinks: the lexical checks of validate cannot see a symlink of the
// repository (lnk -> ../outside) that would take a read, a write or a removal out of it. The
// writes themselves go through an os.Root (internal/txn); this is the early, readable error.
func (p *Project) confined() []*FieldError {
	var errs []*FieldError
	for _, f := range p.pathFields() {
		if f.value == "" || !filepath.IsLocal(f.value) {
			continue // empty is defaulted; not local is reported by validate
		}
		if _, err := rootfs.Resolve(p.Dir, f.value); err != nil {
			var ee *rootfs.EscapeError
			msg := err.Error()
			if errors.As(err, &ee) {
				msg = fmt.Sprintf("%q leaves the project through the symlink %s (-> %s): opack reads and writes only inside the project; replace the symlink with the folder itself or choose another path",
					f.value, ee.Link, ee.Target)
			}
			errs = append(errs, &FieldError{File: p.File, Line: p.Line(f.path...), Field: fieldName(f.path...), Msg: msg})
		}
	}
	return errs
}
