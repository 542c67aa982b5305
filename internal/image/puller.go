package image

import "context"

// Puller is the one seam through which opack reads images: every command that takes an image
// (validate bundle and crds, catalog render, validate and graph, build and check) gets one.
// A ref is what ParseSource returns in Source.Ref: a registry reference,
// "oci:DIR[:TAG][@DIGEST]" for an OCI image layout or "docker-archive:FILE[:REPO:TAG]" for a
// docker-save tarball; a plain folder is no image and is read in place. Tests and `opack build` (images of the
// build's own OCI layouts) put their own implementation behind it.
type Puller interface {
	// Inspect reads the manifest(s) and config(s) of ref without downloading layers.
	Inspect(ctx context.Context, ref string) (*Report, error)
	// Unpack writes the flattened filesystem of ref to dst, a missing or empty folder.
	Unpack(ctx context.Context, ref, dst string) (*Unpacked, error)
	// Attachments reads the signatures or attestations (kind AttachSignatures or
	// AttachAttestations) attached to the manifest ref resolves to.
	Attachments(ctx context.Context, ref, kind string) (*Attachments, error)
}

// NewPuller returns the Puller of Inspect and Unpack with opts (registry options such as
// WithInsecure, WithKeychain, WithLogger; unpack limits such as WithMaxSize).
func NewPuller(opts ...Option) Puller { return puller(opts) }

type puller []Option

func (p puller) Inspect(ctx context.Context, ref string) (*Report, error) {
	return Inspect(ctx, ref, p...)
}

func (p puller) Unpack(ctx context.Context, ref, dst string) (*Unpacked, error) {
	return Unpack(ctx, ref, dst, p...)
}

func (p puller) Attachments(ctx context.Context, ref, kind string) (*Attachments, error) {
	return ReadAttachments(ctx, ref, kind, p...)
}
