package image

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/match"
	"go.podman.io/image/v5/docker/reference"

	"github.com/opack/opack/internal/manifest"
)

// LayoutOption changes how a layout publisher writes (see NewLayoutPublisher).
type LayoutOption func(*layoutPublisher)

// LayoutKeepUnchanged leaves the layout untouched, byte for byte, when it already holds the
// artifact under the publisher's tag, so an unchanged rebuild changes no file.
func LayoutKeepUnchanged() LayoutOption { return func(p *layoutPublisher) { p.keepUnchanged = true } }

// LayoutPrune removes, after writing, the blobs no manifest of the layout refers to any more (the
// image a rebuilt tag replaced). Only for a layout opack owns: blobs of manifests another tool
// wrote but did not list in index.json are removed too.
func LayoutPrune() LayoutOption { return func(p *layoutPublisher) { p.prune = true } }

// NewLayoutPublisher writes into the OCI image layout dir (created when missing), replacing the
// manifest tagged tag (org.opencontainers.image.ref.name), or the one with the same digest when
// tag is empty. tag may be a full reference (REGISTRY/REPO:TAG): its tag names the manifest and
// the whole reference is recorded as io.containerd.image.name, so that rendering the layout
// knows the image's real name. The layout is replaced as a whole (see manifest.ReplaceDir): an
// interrupted write leaves the previous one intact.
func NewLayoutPublisher(dir, tag string, opts ...LayoutOption) (Publisher, error) {
	full := ""
	if strings.ContainsAny(tag, "/:") {
		n, err := reference.ParseNormalizedNamed(tag)
		t, ok := n.(reference.NamedTagged)
		if err != nil || !ok {
			return nil, fmt.Errorf("bad OCI layout reference %q: want TAG or REGISTRY/REPO:TAG", tag)
		}
		full, tag = t.String(), t.Tag()
	}
	if tag != "" {
		if _, err := name.NewTag("localhost/x:"+tag, name.StrictValidation); err != nil {
			return nil, fmt.Errorf("bad OCI layout tag %q: %w", tag, err)
		}
	}
	p := &layoutPublisher{dir: dir, tag: tag, full: full}
	for _, o := range opts {
		o(p)
	}
	return p, nil
}

type layoutPublisher struct {
	dir, tag, full string
	keepUnchanged  bool
	prune          bool
}

func (p *layoutPublisher) Publish(_ context.Context, a Artifact) (string, error) {
	h, err := a.Digest()
	if err != nil {
		return "", fmt.Errorf("computing digest: %w", err)
	}
	done := layoutRef{dir: p.dir, digest: &h}.String()
	if p.keepUnchanged && p.holds(h) {
		return done, nil
	}
	// go-containerregistry rewrites index.json in place: stage the new layout beside the old one
	// (blobs hard-linked, they are immutable) and swap it in, so an interrupted write leaves the
	// previous layout intact.
	err = manifest.ReplaceDir(p.dir, func(tmp string) error {
		if err := stageLayout(p.dir, tmp); err != nil {
			return err
		}
		if err := p.write(tmp, a, h); err != nil {
			return err
		}
		if p.prune {
			return pruneLayout(tmp)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return done, nil
}

// holds reports whether the layout already lists h under p's tag (under any tag when p has none).
func (p *layoutPublisher) holds(h v1.Hash) bool {
	im, err := readLayoutIndex(p.dir)
	if err != nil {
		return false
	}
	for _, d := range im.Manifests {
		if d.Digest == h && (p.tag == "" || d.Annotations[refNameAnnotation] == p.tag) {
			return true
		}
	}
	return false
}

// write puts a into the layout in dir, tagged as p says.
func (p *layoutPublisher) write(dir string, a Artifact, h v1.Hash) error {
	path, err := openLayout(dir)
	if err != nil {
		return err
	}
	matcher, lopts := match.Digests(h), []layout.Option(nil)
	if p.tag != "" {
		matcher = match.Annotation(refNameAnnotation, p.tag)
		ann := map[string]string{refNameAnnotation: p.tag}
		if p.full != "" {
			ann[containerdNameAnnotation] = p.full
		}
		lopts = append(lopts, layout.WithAnnotations(ann))
	}
	switch t := a.(type) {
	case v1.ImageIndex:
		err = path.ReplaceIndex(t, matcher, lopts...)
	case v1.Image:
		err = path.ReplaceImage(t, matcher, lopts...)
	default:
		err = fmt.Errorf("unsupported artifact %T", a)
	}
	if err != nil {
		return fmt.Errorf("writing OCI layout %s: %w", p.dir, err)
	}
	return nil
}

// openLayout opens the OCI layout in dir, creating it when dir is missing or empty.
func openLayout(dir string) (layout.Path, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) || (err == nil && len(entries) == 0) {
		p, err := layout.Write(dir, empty.Index)
		if err != nil {
			return "", fmt.Errorf("creating OCI layout %s: %w", dir, err)
		}
		return p, nil
	}
	p, err := layout.FromPath(dir)
	if err != nil {
		return "", fmt.Errorf("opening OCI layout %s: %w (choose a missing or empty directory)", dir, err)
	}
	return p, nil
}

// pruneLayout removes the blobs of the OCI layout in dir no manifest of its index refers to.
func pruneLayout(dir string) error {
	ii, err := layoutDir(dir).index() // the staged copy: blobs linked from a layout opack may not have written
	if err != nil {
		return err
	}
	keep := map[v1.Hash]bool{}
	if err := referenced(ii, keep); err != nil {
		return fmt.Errorf("pruning OCI layout: %w", err)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "blobs", "sha256"))
	if err != nil {
		return fmt.Errorf("pruning OCI layout: %w", err)
	}
	for _, e := range entries {
		if h := (v1.Hash{Algorithm: "sha256", Hex: e.Name()}); !keep[h] {
			if err := os.Remove(filepath.Join(dir, "blobs", "sha256", e.Name())); err != nil {
				return fmt.Errorf("pruning OCI layout: %w", err)
			}
		}
	}
	return nil
}

// referenced adds every blob an index refers to (manifests, configs, layers, nested indexes) to keep.
func referenced(ii v1.ImageIndex, keep map[v1.Hash]bool) error {
	im, err := ii.IndexManifest()
	if err != nil {
		return err
	}
	for _, d := range im.Manifests {
		keep[d.Digest] = true
		switch {
		case d.MediaType.IsIndex():
			child, err := ii.ImageIndex(d.Digest)
			if err != nil {
				return err
			}
			if err := referenced(child, keep); err != nil {
				return err
			}
		case d.MediaType.IsImage():
			img, err := ii.Image(d.Digest)
			if err != nil {
				return err
			}
			m, err := img.Manifest()
			if err != nil {
				return err
			}
			keep[m.Config.Digest] = true
			for _, l := range m.Layers {
				keep[l.Digest] = true
			}
		}
	}
	return nil
}
