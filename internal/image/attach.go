package image

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/remote/transport"
	"github.com/google/go-containerregistry/pkg/v1/static"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// Kinds of artifacts attached to an image, as cosign and containers/image name them: the tag
// sha256-<hex>.<kind> in the image's repository, and the OCI 1.1 artifact type
// application/vnd.dev.cosign.artifact.<kind>.v1+json of a referrer.
const (
	AttachSignatures   = "sig"
	AttachAttestations = "att"
)

// Bounds of what an attachment may hold: a signature payload is a few hundred bytes, an
// attestation a few hundred kilobytes; containers/image refuses signature layers over 4 MiB.
const (
	maxAttachedLayer  = 4 << 20
	maxAttachedLayers = 256
	maxReferrers      = 256
)

// AttachedLayer is one layer of an attached artifact: a signature (payload and annotations) or an
// attestation (a DSSE envelope).
type AttachedLayer struct {
	MediaType   string            `json:"mediaType"`
	Annotations map[string]string `json:"annotations,omitempty"`
	Data        []byte            `json:"-"`
}

// Attachment is one artifact manifest attached to an image.
type Attachment struct {
	// Ref names the artifact: REPO:sha256-<hex>.<kind> for the tag scheme, REPO@sha256:... for a
	// referrer.
	Ref string `json:"ref"`
	// Referrer is true when the artifact was found through the OCI referrers API.
	Referrer bool            `json:"referrer,omitempty"`
	Layers   []AttachedLayer `json:"layers"`
}

// Attachments are the artifacts of one kind attached to an image.
type Attachments struct {
	// Digest is the manifest digest the image reference resolves to: what the artifacts are
	// attached to.
	Digest string
	Found  []Attachment
}

// AttachTag is the tag cosign and containers/image give the artifact of kind attached to the
// manifest digest d: sha256-<hex>.<kind>.
func AttachTag(d v1.Hash, kind string) string { return d.Algorithm + "-" + d.Hex + "." + kind }

// ArtifactType is the OCI 1.1 artifact type cosign gives a referrer of kind.
func ArtifactType(kind string) string {
	return "application/vnd.dev.cosign.artifact." + kind + ".v1+json"
}

// ReadAttachments resolves ref (a registry reference or an OCI layout) and reads the artifacts of
// kind attached to the manifest it names: the tag sha256-<hex>.<kind> of its repository (or of its
// layout), and, from a registry that serves the OCI referrers API, the referrers of that artifact
// type. A docker-save tarball holds none.
func ReadAttachments(ctx context.Context, ref, kind string, opts ...Option) (*Attachments, error) {
	o := makeOptions(opts...)
	h, err := o.resolveDigest(ctx, ref)
	if err != nil {
		return nil, err
	}
	out := &Attachments{Digest: h.String()}
	if lr, ok, _ := parseLayoutRef(ref); ok {
		att, err := layoutAttachment(lr.dir, AttachTag(h, kind))
		if err != nil || att == nil {
			return out, err
		}
		out.Found = append(out.Found, *att)
		return out, nil
	}
	if _, ok, _ := parseArchiveRef(ref); ok {
		return out, nil
	}
	r, err := parseRemoteRef(ref, o.insecure)
	if err != nil {
		return nil, err
	}
	return out, o.remoteAttachments(ctx, r.Context(), h, kind, out)
}

// resolveDigest is the manifest digest ref names, read from its registry or layout; a session
// reads a digest reference's manifest once (its content was checked against the digest then).
func (o *options) resolveDigest(ctx context.Context, ref string) (v1.Hash, error) {
	s := o.session
	if s != nil {
		s.mu.Lock()
		h, ok := s.resolved[ref]
		s.mu.Unlock()
		if ok {
			return h, nil
		}
	}
	a, _, err := o.fetchNamed(ctx, ref)
	if err != nil {
		return v1.Hash{}, err
	}
	h, err := a.Digest()
	if err != nil {
		return v1.Hash{}, fmt.Errorf("reading %s: %w", ref, err)
	}
	if d, derr := name.NewDigest(ref); s != nil && derr == nil && d.DigestStr() == h.String() {
		s.mu.Lock()
		s.resolved[ref] = h
		s.mu.Unlock()
	}
	return h, nil
}

func (o *options) remoteAttachments(ctx context.Context, repo name.Repository, h v1.Hash, kind string, out *Attachments) error {
	tag := repo.Tag(AttachTag(h, kind))
	img, err := remote.Image(tag, o.remoteOptions(ctx)...)
	switch {
	case isNotFound(err):
	case err != nil:
		return fmt.Errorf("reading %s: %w", tag, deadline(ctx, err))
	default:
		att, err := attachmentOf(tag.Name(), img)
		if err != nil {
			return fmt.Errorf("reading %s: %w", tag, err)
		}
		out.Found = append(out.Found, *att)
	}
	refs, err := o.referrers(ctx, repo, h, ArtifactType(kind))
	if err != nil {
		return err
	}
	for _, d := range refs {
		dref := repo.Digest(d.String())
		img, err := remote.Image(dref, o.remoteOptions(ctx)...)
		if err != nil {
			return fmt.Errorf("reading referrer %s: %w", dref, deadline(ctx, err))
		}
		att, err := attachmentOf(dref.Name(), img)
		if err != nil {
			return fmt.Errorf("reading referrer %s: %w", dref, err)
		}
		att.Referrer = true
		out.Found = append(out.Found, *att)
	}
	return nil
}

// layoutAttachment reads the manifest tagged tag in the OCI layout dir, if there is one.
func layoutAttachment(dir, tag string) (*Attachment, error) {
	a, _, err := fetchLayout(layoutRef{dir: dir, tag: tag})
	if err != nil {
		if strings.Contains(err.Error(), "no such manifest") {
			return nil, nil
		}
		return nil, err
	}
	img, ok := a.(v1.Image)
	if !ok {
		return nil, fmt.Errorf("reading %s%s:%s: an index, not an artifact manifest", LayoutPrefix, dir, tag)
	}
	return attachmentOf(LayoutPrefix+dir+":"+tag, img)
}

// attachmentOf reads the layers of an artifact manifest, each within maxAttachedLayer and checked
// against its digest.
func attachmentOf(ref string, img v1.Image) (*Attachment, error) {
	m, err := img.Manifest()
	if err != nil {
		return nil, err
	}
	if len(m.Layers) > maxAttachedLayers {
		return nil, fmt.Errorf("%d layers: more than the %d an attachment may hold", len(m.Layers), maxAttachedLayers)
	}
	att := &Attachment{Ref: ref}
	for _, d := range m.Layers {
		if d.Size > maxAttachedLayer {
			return nil, fmt.Errorf("layer %s is %d bytes: more than the %d a signature or attestation may be", d.Digest, d.Size, maxAttachedLayer)
		}
		l, err := img.LayerByDigest(d.Digest)
		if err != nil {
			return nil, err
		}
		rc, err := l.Compressed()
		if err != nil {
			return nil, fmt.Errorf("reading layer %s: %w", d.Digest, err)
		}
		data, err := io.ReadAll(io.LimitReader(rc, maxAttachedLayer+1))
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("reading layer %s: %w", d.Digest, err)
		}
		if got, _, _ := v1.SHA256(bytes.NewReader(data)); got != d.Digest || int64(len(data)) != d.Size {
			return nil, fmt.Errorf("layer %s does not match its digest", d.Digest)
		}
		att.Layers = append(att.Layers, AttachedLayer{MediaType: string(d.MediaType), Annotations: d.Annotations, Data: data})
	}
	return att, nil
}

// referrers lists the referrers of h with artifactType, when the registry serves the OCI
// referrers API; nil when it does not (no fallback tag is read: that scheme is the tag above).
func (o *options) referrers(ctx context.Context, repo name.Repository, h v1.Hash, artifactType string) ([]v1.Hash, error) {
	idx, ok, err := o.referrersIndex(ctx, repo, h)
	if err != nil || !ok {
		return nil, err
	}
	var out []v1.Hash
	for _, d := range idx.Manifests {
		if d.ArtifactType == artifactType && len(out) < maxReferrers {
			out = append(out, d.Digest)
		}
	}
	return out, nil
}

// referrersIndex asks the registry for GET /v2/<repo>/referrers/<digest>; ok is false when the
// registry does not serve the API (404 or another answer than an OCI index).
func (o *options) referrersIndex(ctx context.Context, repo name.Repository, h v1.Hash) (*v1.IndexManifest, bool, error) {
	s := o.session
	if s != nil {
		s.mu.Lock()
		none := s.noReferrers[repo.Name()]
		s.mu.Unlock()
		if none {
			return nil, false, nil // this operation already found that the registry serves no referrers API
		}
	}
	idx, ok, err := o.fetchReferrersIndex(ctx, repo, h)
	if s != nil && err == nil && !ok {
		s.mu.Lock()
		s.noReferrers[repo.Name()] = true
		s.mu.Unlock()
	}
	return idx, ok, err
}

// fetchReferrersIndex is referrersIndex's request.
func (o *options) fetchReferrersIndex(ctx context.Context, repo name.Repository, h v1.Hash) (*v1.IndexManifest, bool, error) {
	auth, err := authn.Resolve(ctx, o.keychain, repo)
	if err != nil {
		return nil, false, fmt.Errorf("resolving credentials for %s: %w", repo, err)
	}
	rt, err := transport.NewWithContext(ctx, repo.Registry, auth, o.httpTransport(), []string{repo.Scope(transport.PullScope)})
	if err != nil {
		return nil, false, fmt.Errorf("reaching %s: %w", repo.Registry, deadline(ctx, err))
	}
	u := fmt.Sprintf("%s://%s/v2/%s/referrers/%s", repo.Registry.Scheme(), repo.RegistryStr(), repo.RepositoryStr(), h)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, false, err
	}
	req.Header.Set("Accept", string(types.OCIImageIndex))
	resp, err := (&http.Client{Transport: rt}).Do(req)
	if err != nil {
		return nil, false, fmt.Errorf("GET %s: %w", u, deadline(ctx, err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), string(types.OCIImageIndex)) {
		return nil, false, nil
	}
	var idx v1.IndexManifest
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxLayoutManifest)).Decode(&idx); err != nil {
		return nil, false, fmt.Errorf("GET %s: %w", u, err)
	}
	return &idx, true, nil
}

// Attached is what Attach wrote: the tag and, where the registry serves the referrers API, the
// referrer manifest.
type Attached struct {
	Tag      string
	Referrer string
}

// Attach adds layers to the artifact of kind attached to the image subject (REPO@sha256:...) in
// its registry, as cosign and containers/image do: the manifest tagged sha256-<hex>.<kind> keeps
// the layers it holds (other signers' signatures) and gains those it lacks; where the registry
// serves the OCI referrers API the same layers are also pushed as a referrer of subject with
// cosign's artifact type. Credentials, retries and the plain-HTTP rules are those of every push.
func Attach(ctx context.Context, subject, kind string, layers []AttachedLayer, opts ...Option) (*Attached, error) {
	o := makeOptions(opts...)
	r, err := parseRemoteRef(subject, o.insecure)
	if err != nil {
		return nil, err
	}
	d, ok := r.(name.Digest)
	if !ok {
		return nil, fmt.Errorf("attaching to %s: name the image by digest", subject)
	}
	h, err := v1.NewHash(d.DigestStr())
	if err != nil {
		return nil, err
	}
	tag := d.Context().Tag(AttachTag(h, kind))
	have, err := o.existingLayers(ctx, tag)
	if err != nil {
		return nil, err
	}
	all := mergeLayers(have, layers)
	img, err := artifactImage(all)
	if err != nil {
		return nil, err
	}
	if err := remote.Write(tag, img, o.remoteOptions(ctx)...); err != nil {
		return nil, fmt.Errorf("pushing %s: %w", tag, deadline(ctx, err))
	}
	fmt.Fprintf(o.log, "pushed %s\n", tag)
	out := &Attached{Tag: tag.Name()}
	if _, served, err := o.referrersIndex(ctx, d.Context(), h); err != nil || !served {
		return out, err
	}
	desc, err := remote.Head(d, o.remoteOptions(ctx)...)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", d, deadline(ctx, err))
	}
	ref, err := o.pushReferrer(ctx, d, desc, img, kind)
	if err != nil {
		return nil, err
	}
	out.Referrer = ref
	return out, nil
}

// existingLayers reads the layers of the artifact tagged tag; none when there is no such tag.
func (o *options) existingLayers(ctx context.Context, tag name.Tag) ([]AttachedLayer, error) {
	img, err := remote.Image(tag, o.remoteOptions(ctx)...)
	if isNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", tag, deadline(ctx, err))
	}
	att, err := attachmentOf(tag.Name(), img)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", tag, err)
	}
	return att.Layers, nil
}

// mergeLayers appends to have each layer of add it does not hold (same content and annotations).
func mergeLayers(have, add []AttachedLayer) []AttachedLayer {
	out := append([]AttachedLayer(nil), have...)
	for _, l := range add {
		if !slices.ContainsFunc(out, func(h AttachedLayer) bool { return sameLayer(h, l) }) {
			out = append(out, l)
		}
	}
	return out
}

func sameLayer(a, b AttachedLayer) bool {
	if a.MediaType != b.MediaType || !bytes.Equal(a.Data, b.Data) || len(a.Annotations) != len(b.Annotations) {
		return false
	}
	for k, v := range a.Annotations {
		if w, ok := b.Annotations[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// artifactImage is the OCI manifest cosign writes for signatures and attestations: an OCI config
// whose rootfs lists the layers, and one layer per signature or attestation.
func artifactImage(layers []AttachedLayer) (v1.Image, error) {
	img := mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON)
	adds := make([]mutate.Addendum, 0, len(layers))
	for _, l := range layers {
		adds = append(adds, mutate.Addendum{Layer: static.NewLayer(l.Data, types.MediaType(l.MediaType)), Annotations: l.Annotations})
	}
	return mutate.Append(img, adds...)
}

// pushReferrer pushes img as an OCI 1.1 referrer of the image d (descriptor desc), as cosign's
// --registry-referrers-mode=oci-1-1 does: the config media type and artifactType are cosign's
// artifact type of kind, subject is the image.
func (o *options) pushReferrer(ctx context.Context, d name.Digest, desc *v1.Descriptor, img v1.Image, kind string) (string, error) {
	at := types.MediaType(ArtifactType(kind))
	ref := mutate.ConfigMediaType(img, at)
	withSubject, ok := mutate.Subject(ref, v1.Descriptor{MediaType: desc.MediaType, Size: desc.Size, Digest: desc.Digest}).(v1.Image)
	if !ok {
		return "", errors.New("building the referrer manifest")
	}
	h, err := withSubject.Digest()
	if err != nil {
		return "", err
	}
	target := d.Context().Digest(h.String())
	if err := remote.Write(target, withSubject, o.remoteOptions(ctx)...); err != nil {
		return "", fmt.Errorf("pushing the referrer %s: %w", target, deadline(ctx, err))
	}
	fmt.Fprintf(o.log, "pushed referrer %s of %s\n", target, d)
	return target.Name(), nil
}

// isNotFound reports whether err is a registry's 404 (no such manifest or repository).
func isNotFound(err error) bool {
	var terr *transport.Error
	return errors.As(err, &terr) && terr.StatusCode == http.StatusNotFound
}
