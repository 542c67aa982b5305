package project

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"

	"github.com/opack/opack/internal/image"
)

// refNameAnnotation tags a manifest in an OCI layout.
const refNameAnnotation = "org.opencontainers.image.ref.name"

// localImages is the image.Puller of a build: images referenced by digest are read from the
// OCI layouts of this build and of earlier offline builds, anything else from its registry.
type localImages struct {
	registry image.Puller
	mu       sync.Mutex
	layouts  []string          // searched in order for digests
	known    map[string]string // digest reference → oci:DIR@DIGEST
}

func newLocalImages(opts []image.Option) *localImages {
	return &localImages{registry: image.NewPuller(opts...), known: map[string]string{}}
}

// addLayout makes the images of the OCI layout dir (if it exists) available by digest.
func (s *localImages) addLayout(dir string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.layouts = append(s.layouts, dir)
}

// addImage makes ref (REPO@DIGEST) resolve to the manifest digest in the layout dir.
func (s *localImages) addImage(ref, dir, digest string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.known[ref] = image.LayoutPrefix + dir + "@" + digest
}

// resolve returns the oci: reference holding ref, or ref itself.
func (s *localImages) resolve(ref string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if local, ok := s.known[ref]; ok {
		return local
	}
	d, err := name.NewDigest(ref)
	if err != nil {
		return ref
	}
	for _, dir := range s.layouts {
		if layoutHas(dir, d.DigestStr()) {
			local := image.LayoutPrefix + dir + "@" + d.DigestStr()
			s.known[ref] = local
			return local
		}
	}
	return ref
}

// Inspect implements image.Puller.
func (s *localImages) Inspect(ctx context.Context, ref string) (*image.Report, error) {
	return s.registry.Inspect(ctx, s.resolve(ref))
}

// Unpack implements image.Puller.
func (s *localImages) Unpack(ctx context.Context, ref, dir string) (*image.Unpacked, error) {
	return s.registry.Unpack(ctx, s.resolve(ref), dir)
}

// layoutHas reports whether the OCI layout dir lists a manifest with digest.
func layoutHas(dir, digest string) bool {
	idx, err := readLayoutIndex(dir)
	if err != nil {
		return false
	}
	for _, m := range idx {
		if m.digest == digest {
			return true
		}
	}
	return false
}

type layoutEntry struct{ digest, tag string }

func readLayoutIndex(dir string) ([]layoutEntry, error) {
	p, err := layout.FromPath(dir)
	if err != nil {
		return nil, err
	}
	ii, err := p.ImageIndex()
	if err != nil {
		return nil, err
	}
	im, err := ii.IndexManifest()
	if err != nil {
		return nil, err
	}
	out := make([]layoutEntry, len(im.Manifests))
	for i, m := range im.Manifests {
		out[i] = layoutEntry{digest: m.Digest.String(), tag: m.Annotations[refNameAnnotation]}
	}
	return out, nil
}

// publishLayout writes a into the OCI layout dir tagged tag, unless it is already there under
// that tag (so an unchanged rebuild leaves the layout byte for byte as it was).
func publishLayout(ctx context.Context, dir, tag string, a image.Artifact) error {
	h, err := a.Digest()
	if err != nil {
		return err
	}
	if idx, err := readLayoutIndex(dir); err == nil {
		for _, e := range idx {
			if e.tag == tag && e.digest == h.String() {
				return nil
			}
		}
	}
	pub, err := image.NewLayoutPublisher(dir, tag)
	if err != nil {
		return err
	}
	if _, err = pub.Publish(ctx, a); err != nil {
		return err
	}
	return pruneLayout(dir) // a rebuilt tag leaves its old image's blobs unreferenced
}

// pruneLayout removes the blobs of an OCI layout no manifest of its index refers to.
func pruneLayout(dir string) error {
	lp, err := layout.FromPath(dir)
	if err != nil {
		return err
	}
	ii, err := lp.ImageIndex()
	if err != nil {
		return err
	}
	keep := map[v1.Hash]bool{}
	if err := referenced(ii, keep); err != nil {
		return err
	}
	entries, err := os.ReadDir(filepath.Join(dir, "blobs", "sha256"))
	if err != nil {
		return err
	}
	for _, e := range entries {
		h := v1.Hash{Algorithm: "sha256", Hex: e.Name()}
		if !keep[h] {
			if err := lp.RemoveBlob(h); err != nil {
				return err
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

// push publishes the bundle image, then the catalog images, to their registries, and checks each
// registry names them by the digest the catalog and the deploy manifests reference.
func (r *run) push(ctx context.Context) error {
	items := []struct {
		tag, digest string
		a           image.Artifact
	}{{r.res.Bundle.Tag, r.res.Bundle.Digest, r.bundleImg}}
	for i, c := range r.catalogs {
		items = append(items, struct {
			tag, digest string
			a           image.Artifact
		}{c.tag, r.res.Catalogs[i].Digest, c.art})
	}
	for _, it := range items {
		pub, err := image.NewRegistryPublisher(it.tag, r.o.imageOpts...)
		if err != nil {
			return stepErr(StepPush, r.p.File, err, "fix the image reference in "+r.p.File)
		}
		got, err := pub.Publish(ctx, it.a)
		if err != nil {
			return stepErr(StepPush, r.p.File, err, "log in to the registry (docker login) and check the image references in "+r.p.File)
		}
		if got != it.digest {
			return stepErr(StepPush, r.p.File, fmt.Errorf("pushed %s as %s, expected %s", it.tag, got, it.digest), "")
		}
		r.o.logf("pushed %s", got)
	}
	return nil
}

// copyTree copies the files below src (if it exists) into dst, hard-linking where it can (image
// blobs are immutable).
func copyTree(src, dst string) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	if _, err := os.Stat(src); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return os.CopyFS(dst, os.DirFS(src))
}
