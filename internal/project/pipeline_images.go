package project

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/google/go-containerregistry/pkg/name"

	"github.com/opack/opack/internal/image"
)

// localImages is the image.Puller of a build: images referenced by digest are read from the
// OCI layouts of this build and of earlier offline builds, anything else from its registry.
type localImages struct {
	registry image.Puller
	mu       sync.Mutex
	layouts  []string          // searched in order for digests
	known    map[string]string // digest reference → oci:DIR@DIGEST
	remote   *atomic.Bool      // set when an image is read from a registry
}

func newLocalImages(opts []image.Option, remote *atomic.Bool) *localImages {
	return &localImages{registry: image.NewPuller(opts...), known: map[string]string{}, remote: remote}
}

// addLayout makes the images of the OCI layout dir (if it exists) available by digest. A layout
// that exists but cannot be read as one (a planted index.json that is a link to a device, a
// FIFO, a file over the limits) is an error.
func (s *localImages) addLayout(dir string) error {
	if _, err := image.LayoutHolds(dir, ""); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.layouts = append(s.layouts, dir)
	return nil
}

// addImage makes ref (REPO@DIGEST) resolve to the manifest digest in the layout dir.
func (s *localImages) addImage(ref, dir, digest string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.known[ref] = image.LayoutPrefix + dir + "@" + digest
}

// note records that ref is read from a registry (not the project's OCI layouts): a check that
// read one is not the project's alone, so its result is not kept (CheckCache).
func (s *localImages) note(ref string) string {
	if !image.IsLocalRef(ref) && s.remote != nil {
		s.remote.Store(true)
	}
	return ref
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
		if ok, _ := image.LayoutHolds(dir, d.DigestStr()); ok {
			local := image.LayoutPrefix + dir + "@" + d.DigestStr()
			s.known[ref] = local
			return local
		}
	}
	return ref
}

// Inspect implements image.Puller.
func (s *localImages) Inspect(ctx context.Context, ref string) (*image.Report, error) {
	return s.registry.Inspect(ctx, s.note(s.resolve(ref)))
}

// Unpack implements image.Puller.
func (s *localImages) Unpack(ctx context.Context, ref, dir string) (*image.Unpacked, error) {
	return s.registry.Unpack(ctx, s.note(s.resolve(ref)), dir)
}

// Attachments implements image.Puller.
func (s *localImages) Attachments(ctx context.Context, ref, kind string) (*image.Attachments, error) {
	return s.registry.Attachments(ctx, s.resolve(ref), kind)
}

// stageImage publishes a into the staged OCI layout dir under tag: an unchanged image leaves the
// layout byte for byte as it was, a rebuilt tag's old blobs are pruned.
func stageImage(ctx context.Context, dir, tag string, a image.Artifact) error {
	pub, err := image.NewLayoutPublisher(dir, tag, image.LayoutKeepUnchanged(), image.LayoutPrune())
	if err != nil {
		return err
	}
	_, err = pub.Publish(ctx, a)
	return err
}

// push publishes the bundle image, then the catalog images, to their release destinations (see
// destinations), and checks each is named by the digest the catalog and the deploy manifests
// reference. It runs only once every step passed: a failed build publishes nothing.
func (r *run) push(ctx context.Context) error {
	type release struct {
		tag, digest string
		a           image.Artifact
	}
	// One registry session for every push and signature: connections and tokens are reused.
	opts, err := image.Session(ctx, r.o.imageOpts...)
	if err != nil {
		return stepErr(StepPush, r.p.File, err, "")
	}
	saved := r.o.imageOpts
	r.o.imageOpts = opts
	defer func() { r.o.imageOpts = saved }()
	items := []release{{r.res.Bundle.Tag, r.res.Bundle.Digest, r.bundleImg}}
	for i, c := range r.catalogs {
		items = append(items, release{c.tag, r.res.Catalogs[i].Digest, c.art})
	}
	if err := r.loadSigner(); err != nil {
		return err
	}
	// Each image is signed while it is pushed: the signatures' tags need only its digest; they are
	// read back (and any referrer pushed) once the image is in the registry.
	signer := r.newReleaseSigner(ctx)
	pushed := make([]chan error, len(items))
	for i, it := range items {
		pushed[i] = make(chan error, 1)
		if err := image.Pushing(opts, it.digest); err != nil {
			return stepErr(StepPush, r.p.File, err, "")
		}
		signer.sign(pushedImage{it.tag, it.digest}, pushed[i])
	}
	fail := func(i int, err error) error {
		for _, ch := range pushed[i:] {
			ch <- fmt.Errorf("not pushed: %w", err)
		}
		_ = signer.wait()
		return err
	}
	for i, it := range items {
		pub, err := r.destinations(it.tag)
		if err != nil {
			return fail(i, stepErr(StepPush, r.p.File, err, "fix the image reference in "+r.p.File))
		}
		got, err := pub.Publish(ctx, it.a)
		if err != nil {
			return fail(i, stepErr(StepPush, r.p.File, err, "log in to the registry (docker login) and check the image references in "+r.p.File))
		}
		if got != it.digest {
			return fail(i, stepErr(StepPush, r.p.File, fmt.Errorf("pushed %s as %s, expected %s", it.tag, got, it.digest), ""))
		}
		r.o.logf("pushed %s", got)
		pushed[i] <- nil
	}
	return signer.wait()
}

// destinations is where a released image named tag goes, as one image.Publisher: its registry.
// A new destination of opack build (an extra registry, a tarball) is one more publisher here;
// the registry stays last, as the reference it returns is checked. The OCI layouts under
// outputs.dir are not release destinations: they are written into the stage by the image steps
// (templates read the bundle from there) and committed with the other outputs.
func (r *run) destinations(tag string) (image.Publisher, error) {
	reg, err := image.NewRegistryPublisher(tag, r.o.imageOpts...)
	if err != nil {
		return nil, err
	}
	return image.NewMultiPublisher(reg), nil
}

// copyTree copies the files below src (if it exists) into dst, hard-linking where it can (image
// blobs are immutable).
func copyTree(src, dst string) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	return image.CopyLayout(src, dst)
}
