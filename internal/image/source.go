package image

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// refNameAnnotation names a manifest inside an OCI image layout (the tag, as skopeo writes it).
const refNameAnnotation = "org.opencontainers.image.ref.name"

// containerdNameAnnotation holds the full image reference of a manifest in an OCI layout, as
// containerd (ctr export, nerdctl save) and opack write it.
const containerdNameAnnotation = "io.containerd.image.name"

// fetch resolves ref ("oci:DIR[:TAG][@DIGEST]", "docker-archive:FILE[:REPO:TAG]" or a registry
// reference) to the image or index it names.
func (o *options) fetch(ctx context.Context, ref string) (Artifact, error) {
	a, _, err := o.fetchNamed(ctx, ref)
	return a, err
}

// fetchNamed is fetch that also returns, for a manifest of an OCI layout or an image of a
// tarball, the full image reference recorded for it (see recordedName); "" otherwise. A new kind
// of source is one more case here and in ParseSource.
func (o *options) fetchNamed(ctx context.Context, ref string) (Artifact, string, error) {
	if ar, ok, err := parseArchiveRef(ref); ok {
		if err != nil {
			return nil, "", err
		}
		return o.fetchArchive(ar)
	}
	if lr, ok, err := parseLayoutRef(ref); ok {
		if err != nil {
			return nil, "", err
		}
		a, d, err := fetchLayout(lr)
		return a, recordedName(d), err
	}
	a, err := o.fetchRemote(ctx, ref)
	return a, "", err
}

// recordedName is the full image reference an OCI layout records for the manifest d:
// io.containerd.image.name, else org.opencontainers.image.ref.name when it is a full reference
// (with a registry and a tag or digest, as skopeo writes for oci:DIR:REGISTRY/REPO:TAG); "" when
// the layout records only a tag.
func recordedName(d v1.Descriptor) string {
	for _, k := range []string{containerdNameAnnotation, refNameAnnotation} {
		n := d.Annotations[k]
		if _, err := name.ParseReference(n, name.StrictValidation); err == nil && hasRegistryHost(n) {
			return n
		}
	}
	return ""
}

// fetchRemote gets the image or index a registry reference names.
func (o *options) fetchRemote(ctx context.Context, ref string) (Artifact, error) {
	r, err := parseRemoteRef(ref, o.insecure)
	if err != nil {
		return nil, err
	}
	desc, err := remote.Get(r, o.remoteOptions(ctx)...)
	if err != nil {
		return nil, fmt.Errorf("pulling %s: %w", ref, deadline(ctx, err))
	}
	if desc.MediaType.IsIndex() {
		return desc.ImageIndex()
	}
	return desc.Image()
}

// fetchLayout finds the manifest r names in an OCI image layout and returns it with its
// descriptor in the layout's index.
func fetchLayout(r layoutRef) (Artifact, v1.Descriptor, error) {
	var none v1.Descriptor
	ii, err := layoutDir(r.dir).index()
	if err != nil {
		return nil, none, err
	}
	im := ii.im
	var found []v1.Descriptor
	for _, d := range im.Manifests {
		// Several tags of one manifest (v1 and latest) are one manifest.
		if r.matches(d) && !slices.ContainsFunc(found, func(f v1.Descriptor) bool { return f.Digest == d.Digest }) {
			found = append(found, d)
		}
	}
	switch {
	case len(found) == 0:
		return nil, none, fmt.Errorf("reading %s: no such manifest in the layout (tags: %s)", r, layoutTags(im))
	case len(found) > 1:
		return nil, none, fmt.Errorf("reading %s: the layout holds %d manifests; name one as oci:DIR:TAG or oci:DIR@sha256:... (tags: %s)", r, len(found), layoutTags(im))
	}
	d := found[0]
	var a Artifact
	switch {
	case d.MediaType.IsIndex():
		a, err = ii.ImageIndex(d.Digest)
	case d.MediaType.IsImage():
		a, err = ii.Image(d.Digest)
	default:
		return nil, none, fmt.Errorf("reading %s: unsupported media type %s", r, d.MediaType)
	}
	if err != nil {
		return nil, none, fmt.Errorf("reading %s: %w", r, err)
	}
	if h, err := a.Digest(); err != nil || h != d.Digest {
		return nil, none, fmt.Errorf("reading %s: the manifest blob does not match its digest %s (%v); the layout is corrupt", r, d.Digest, err)
	}
	return a, d, nil
}

// verifyConfig checks that img's config blob hashes to the digest its manifest gives. Registry
// pulls are verified by go-containerregistry; an OCI layout on disk is not (its layer blobs are
// verified while unpacked, see openerFor).
func verifyConfig(img v1.Image) error {
	m, err := img.Manifest()
	if err != nil {
		return err
	}
	raw, err := img.RawConfigFile()
	if err != nil {
		return err
	}
	if h, _, err := v1.SHA256(bytes.NewReader(raw)); err != nil || h != m.Config.Digest {
		return fmt.Errorf("config blob does not match its digest %s; the layout is corrupt", m.Config.Digest)
	}
	return nil
}

func (r layoutRef) matches(d v1.Descriptor) bool {
	if r.digest != nil && d.Digest != *r.digest {
		return false
	}
	if r.tag == "" {
		return true
	}
	n := d.Annotations[refNameAnnotation]
	return n == r.tag || strings.HasSuffix(n, ":"+r.tag)
}

func layoutTags(im *v1.IndexManifest) string {
	var tags []string
	for _, d := range im.Manifests {
		if n := d.Annotations[refNameAnnotation]; n != "" {
			tags = append(tags, n)
		}
	}
	if len(tags) == 0 {
		return "none"
	}
	sort.Strings(tags)
	return strings.Join(tags, ", ")
}

// pickImage returns a itself when it is an image, or the image of an index that matches the first
// requested platform (default linux/amd64); an index with a single image gives that image.
func (o *options) pickImage(a Artifact) (v1.Image, error) {
	idx, ok := a.(v1.ImageIndex)
	if !ok {
		return a.(v1.Image), nil
	}
	want := defaultPlatform
	if len(o.platforms) > 0 {
		want = o.platforms[0]
	}
	im, err := idx.IndexManifest()
	if err != nil {
		return nil, fmt.Errorf("reading index: %w", err)
	}
	images := imageDescriptors(im)
	for _, d := range images {
		if d.Platform != nil && d.Platform.Satisfies(want) {
			return idx.Image(d.Digest)
		}
	}
	if len(images) == 1 && len(o.platforms) == 0 {
		return idx.Image(images[0].Digest)
	}
	return nil, fmt.Errorf("no image for platform %s in the index (platforms: %s)", want, platformList(images))
}

// imageDescriptors are the image manifests of an index, without attestations (unknown/unknown).
func imageDescriptors(im *v1.IndexManifest) []v1.Descriptor {
	var out []v1.Descriptor
	for _, d := range im.Manifests {
		if d.MediaType.IsImage() && (d.Platform == nil || d.Platform.OS != "unknown") {
			out = append(out, d)
		}
	}
	return out
}

func platformList(ds []v1.Descriptor) string {
	var ps []string
	for _, d := range ds {
		if d.Platform != nil {
			ps = append(ps, d.Platform.String())
		}
	}
	if len(ps) == 0 {
		return "none"
	}
	sort.Strings(ps)
	return strings.Join(ps, ", ")
}
