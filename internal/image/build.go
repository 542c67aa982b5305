package image

import (
	"fmt"
	"maps"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// Artifact is what the builders return and a Publisher writes: a v1.Image, or a v1.ImageIndex
// for a multi-arch catalog.
type Artifact interface {
	Digest() (v1.Hash, error)
	MediaType() (types.MediaType, error)
	RawManifest() ([]byte, error)
}

// OCI annotation keys written on built manifests.
const (
	AnnotationCreated  = "org.opencontainers.image.created"
	AnnotationVersion  = "org.opencontainers.image.version"
	AnnotationSource   = "org.opencontainers.image.source"
	AnnotationRevision = "org.opencontainers.image.revision"
)

// defaultPlatform is what scratch images declare; bundles are data and docker-built bundles say
// linux/amd64 too.
var defaultPlatform = v1.Platform{OS: "linux", Architecture: "amd64"}

func (o *options) checkFormat() error {
	switch o.format {
	case "", FormatOCI, FormatDocker:
		return nil
	}
	return fmt.Errorf("unknown image format %q: use %q or %q", o.format, FormatOCI, FormatDocker)
}

// scratch is an empty image with the manifest and config media types of the format.
func scratch(f Format) v1.Image {
	if f == FormatDocker {
		return empty.Image // Docker-typed
	}
	return mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON)
}

// appendLayer adds layer to base with a history entry dated o.created.
func (o *options) appendLayer(base v1.Image, layer v1.Layer, createdBy string) (v1.Image, error) {
	img, err := mutate.Append(base, mutate.Addendum{
		Layer:   layer,
		History: v1.History{Created: v1.Time{Time: o.created}, CreatedBy: createdBy, Comment: "opack"},
	})
	if err != nil {
		return nil, fmt.Errorf("appending layer: %w", err)
	}
	return img, nil
}

// configure edits a copy of img's config: created time, labels (base labels, then labels, then
// --label), and whatever edit changes.
func (o *options) configure(img v1.Image, labels map[string]string, edit func(*v1.ConfigFile)) (v1.Image, error) {
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, fmt.Errorf("reading config: %w", err)
	}
	cf = cf.DeepCopy()
	cf.Created = v1.Time{Time: o.created}
	all := map[string]string{}
	maps.Copy(all, cf.Config.Labels)
	maps.Copy(all, labels)
	maps.Copy(all, o.labels)
	cf.Config.Labels = all
	if edit != nil {
		edit(cf)
	}
	img, err = mutate.ConfigFile(img, cf)
	if err != nil {
		return nil, fmt.Errorf("writing config: %w", err)
	}
	return o.annotate(img)
}

// annotations are the OCI annotations known for this build.
func (o *options) annotations() map[string]string {
	a := map[string]string{AnnotationCreated: o.created.Format(time.RFC3339)}
	for k, v := range map[string]string{AnnotationVersion: o.version, AnnotationSource: o.source, AnnotationRevision: o.revision} {
		if v != "" {
			a[k] = v
		}
	}
	return a
}

// annotate adds the OCI annotations to an OCI manifest; Docker manifests have no annotations field.
func (o *options) annotate(img v1.Image) (v1.Image, error) {
	mt, err := img.MediaType()
	if err != nil {
		return nil, fmt.Errorf("reading media type: %w", err)
	}
	if mt != types.OCIManifestSchema1 {
		return img, nil
	}
	return mutate.Annotations(img, o.annotations()).(v1.Image), nil
}
