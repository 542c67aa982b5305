package image

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
)

// SourceKind tells what a command-line argument names.
type SourceKind string

// Kinds of sources.
const (
	SourcePath     SourceKind = "path"           // a local file or folder
	SourceLayout   SourceKind = "oci-layout"     // an OCI image layout on disk
	SourceRegistry SourceKind = "registry"       // an image in a registry
	SourceArchive  SourceKind = "docker-archive" // a docker-save tarball
)

// layoutMarker is the file every OCI image layout holds at its root.
const layoutMarker = "oci-layout"

// Source is a parsed command-line argument: a local path or an image reference.
type Source struct {
	Kind SourceKind
	Arg  string // the argument as given
	// Path is the local file or folder (SourcePath), the layout folder (SourceLayout) or the
	// tarball (SourceArchive).
	Path string
	// Ref is what Unpack and Inspect take: "oci:DIR[:TAG][@DIGEST]",
	// "docker-archive:FILE[:REPO:TAG]" or the registry reference; empty for SourcePath.
	Ref string
}

// IsImage reports whether s names an image (in a layout, a tarball or a registry).
func (s Source) IsImage() bool { return s.Kind != SourcePath }

// ParseSource decides whether arg is a local path or an image reference, the same way for every
// command:
//   - "oci:DIR[:TAG][@DIGEST]" is an OCI image layout (DIR must exist);
//   - "docker-archive:FILE[:REPO:TAG]" is a docker-save tarball (FILE must exist);
//   - an existing file or folder is a path, except a folder holding an oci-layout file and a tar
//     file holding a manifest.json (docker save), which are read as the image they are;
//   - an argument that reads as a path (starts with "/", "." or "~", or ends with "/") and does
//     not exist is an error;
//   - a reference with a registry host (a first component with "." or ":", or "localhost"), or
//     with a tag or digest, is a registry image;
//   - anything else ("nope", "dir/sub") is a missing path: an error saying so.
func ParseSource(arg string) (Source, error) {
	if arg == "" {
		return Source{}, fmt.Errorf("empty argument: give a folder or an image reference")
	}
	if lr, ok, err := parseLayoutRef(arg); ok {
		if err != nil {
			return Source{}, err
		}
		if _, err := os.Stat(lr.dir); err != nil {
			return Source{}, fmt.Errorf("%s: no such OCI image layout folder %s", arg, lr.dir)
		}
		return Source{Kind: SourceLayout, Arg: arg, Path: lr.dir, Ref: arg}, nil
	}
	if ar, ok, err := parseArchiveRef(arg); ok {
		if err != nil {
			return Source{}, err
		}
		if fi, err := os.Stat(ar.file); err != nil || !fi.Mode().IsRegular() {
			return Source{}, fmt.Errorf("%s: no such tarball %s", arg, ar.file)
		}
		return Source{Kind: SourceArchive, Arg: arg, Path: ar.file, Ref: arg}, nil
	}
	if fi, err := os.Stat(arg); err == nil {
		if fi.IsDir() && isLayoutDir(arg) {
			return Source{Kind: SourceLayout, Arg: arg, Path: arg, Ref: LayoutPrefix + arg}, nil
		}
		if fi.Mode().IsRegular() && isArchiveFile(arg) {
			return Source{Kind: SourceArchive, Arg: arg, Path: arg, Ref: ArchivePrefix + arg}, nil
		}
		return Source{Kind: SourcePath, Arg: arg, Path: arg}, nil
	}
	if !looksLikePath(arg) {
		if ref, err := name.ParseReference(arg); err == nil && (hasRegistryHost(arg) || hasTagOrDigest(arg, ref)) {
			return Source{Kind: SourceRegistry, Arg: arg, Ref: arg}, nil
		}
	}
	return Source{}, missingPathError(arg)
}

// missingPathError says arg is neither a path nor an image, pointing at the layout a
// "DIR:TAG" argument probably meant.
func missingPathError(arg string) error {
	if i := strings.LastIndex(arg, ":"); i > 0 && !strings.Contains(arg[i:], "/") && isLayoutDir(arg[:i]) {
		return fmt.Errorf("%s: no such file or folder; %s is an OCI image layout: write %s%s", arg, arg[:i], LayoutPrefix, arg)
	}
	return fmt.Errorf("%s: no such file or folder, and not an image reference (give a folder, or an image as REGISTRY/REPO:TAG, REPO@DIGEST or oci:DIR[:TAG])", arg)
}

// isLayoutDir reports whether dir is a folder holding an oci-layout file.
func isLayoutDir(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, layoutMarker))
	return err == nil && fi.Mode().IsRegular()
}

func looksLikePath(arg string) bool {
	return strings.HasPrefix(arg, "/") || strings.HasPrefix(arg, ".") || strings.HasPrefix(arg, "~") ||
		strings.HasSuffix(arg, "/") || strings.Contains(arg, `\`) || filepath.IsAbs(arg)
}

// hasRegistryHost reports whether the first component of arg names a registry host.
func hasRegistryHost(arg string) bool {
	first, _, ok := strings.Cut(arg, "/")
	return ok && (strings.ContainsAny(first, ".:") || first == "localhost")
}

// hasTagOrDigest reports whether arg gives a tag or digest explicitly (name.ParseReference
// defaults a missing tag to "latest").
func hasTagOrDigest(arg string, ref name.Reference) bool {
	if _, ok := ref.(name.Digest); ok {
		return true
	}
	last := arg[strings.LastIndex(arg, "/")+1:]
	return strings.Contains(last, ":")
}
