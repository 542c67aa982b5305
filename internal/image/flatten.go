package image

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	v1 "github.com/google/go-containerregistry/pkg/v1"
)

// Whiteout markers of the OCI image layer spec.
const (
	whiteoutPrefix = ".wh."
	opaqueWhiteout = ".wh..wh..opq"
)

// flatten walks img's layers from the top down, as mutate.Extract does, and writes every visible
// entry: an entry is hidden by the same path in an upper layer, by a whiteout, by an opaque marker,
// or by a non-directory at one of its ancestors. Unlike mutate.Extract it reports hostile entries
// instead of dropping them silently.
func (x *extractor) flatten(ctx context.Context, layers []v1.Layer, budget *limitedReader) error {
	seen := map[string]bool{}   // paths handled; true when the entry hides its children
	opaque := map[string]bool{} // directories made opaque by an upper layer
	for i := len(layers) - 1; i >= 0; i-- {
		if err := x.layer(ctx, layers[i], seen, opaque, budget); err != nil {
			return fmt.Errorf("reading layer %d: %w", i+1, err)
		}
	}
	return nil
}

func (x *extractor) layer(ctx context.Context, l v1.Layer, seen, opaque map[string]bool, budget *limitedReader) error {
	rc, err := l.Uncompressed()
	if err != nil {
		return err
	}
	defer rc.Close()
	budget.r = rc
	tr := tar.NewReader(budget)
	layerOpaque, layerLinks := map[string]bool{}, map[string]bool{}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if err := x.visit(hdr, tr, seen, opaque, layerOpaque, layerLinks); err != nil {
			return err
		}
	}
	for d := range layerOpaque {
		opaque[d] = true
	}
	// Read to the end so that the layer's digest is verified.
	_, err = io.Copy(io.Discard, budget)
	return err
}

// visit applies the whiteout rules to one entry and writes it when it is visible and selected.
func (x *extractor) visit(hdr *tar.Header, r io.Reader, seen, opaque, layerOpaque, layerLinks map[string]bool) error {
	if hdr.Typeflag == tar.TypeXGlobalHeader {
		return nil
	}
	name, err := entryName(hdr.Name)
	if err != nil || name == "." {
		return err
	}
	if link := ancestorIn(layerLinks, name); link != "" {
		return fmt.Errorf("refusing entry %q: it lies below the symlink %q", hdr.Name, link)
	}
	dir, base := path.Dir(name), path.Base(name)
	if base == opaqueWhiteout {
		layerOpaque[dir] = true
		return nil
	}
	tombstone := strings.HasPrefix(base, whiteoutPrefix)
	if tombstone {
		name = path.Join(dir, strings.TrimPrefix(base, whiteoutPrefix))
	}
	if _, ok := seen[name]; (ok && !tombstone) || ancestorIn(seen, name) != "" || ancestorIn(opaque, name) != "" {
		return nil
	}
	seen[name] = tombstone || hdr.Typeflag != tar.TypeDir
	if tombstone || !x.selected(name) {
		return nil
	}
	if hdr.Typeflag == tar.TypeSymlink {
		layerLinks[name] = true
	}
	return x.entry(hdr, name, r)
}

// ancestorIn returns the nearest ancestor directory of name marked true in m, or "".
func ancestorIn(m map[string]bool, name string) string {
	for dir := path.Dir(name); ; dir = path.Dir(dir) {
		if m[dir] {
			return dir
		}
		if dir == "." {
			return ""
		}
	}
}
