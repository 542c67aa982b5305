package image

import (
	"context"
	"fmt"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
)

// Report describes an image or index: what `opack image inspect` prints.
type Report struct {
	Ref string `json:"ref"`
	// Name is the full image reference an OCI layout records for the manifest
	// (io.containerd.image.name, or org.opencontainers.image.ref.name when it is one), or the
	// RepoTag a docker-save tarball records for (or is asked for) the image; empty for registry
	// references and for layouts that record only a tag.
	Name        string            `json:"name,omitempty"`
	Digest      string            `json:"digest"`
	MediaType   string            `json:"mediaType"`
	Annotations map[string]string `json:"annotations,omitempty"`
	Images      []ImageReport     `json:"images"` // one per platform; one for a single image
}

// ImageReport describes one image manifest.
type ImageReport struct {
	Digest      string            `json:"digest"`
	MediaType   string            `json:"mediaType"`
	Platform    string            `json:"platform"`
	Config      string            `json:"config"` // config digest, the image ID
	Created     string            `json:"created,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Entrypoint  []string          `json:"entrypoint,omitempty"`
	Cmd         []string          `json:"cmd,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
	Layers      []LayerReport     `json:"layers"`
}

// LayerReport describes one layer.
type LayerReport struct {
	Digest    string `json:"digest"`
	DiffID    string `json:"diffID"`
	Size      int64  `json:"size"`
	MediaType string `json:"mediaType"`
}

// Inspect reads the manifest(s) and config(s) of the image or index ref names (a registry
// reference, "oci:DIR[:TAG]" or "docker-archive:FILE[:REPO:TAG]"); layer contents are not
// downloaded.
func Inspect(ctx context.Context, ref string, opts ...Option) (*Report, error) {
	o := makeOptions(opts...)
	a, recorded, err := o.fetchNamed(ctx, ref)
	if err != nil {
		return nil, err
	}
	r, err := reportOf(ref, a)
	if err != nil {
		return nil, fmt.Errorf("inspecting %s: %w", ref, err)
	}
	r.Name = recorded
	return r, nil
}

func reportOf(ref string, a Artifact) (*Report, error) {
	h, err := a.Digest()
	if err != nil {
		return nil, err
	}
	mt, err := a.MediaType()
	if err != nil {
		return nil, err
	}
	r := &Report{Ref: ref, Digest: h.String(), MediaType: string(mt)}
	switch t := a.(type) {
	case v1.ImageIndex:
		return r, r.addIndex(t)
	case v1.Image:
		ir, err := imageReport(t)
		if err != nil {
			return nil, err
		}
		r.Images = []ImageReport{ir}
	}
	return r, nil
}

func (r *Report) addIndex(idx v1.ImageIndex) error {
	im, err := idx.IndexManifest()
	if err != nil {
		return err
	}
	r.Annotations = im.Annotations
	for _, d := range imageDescriptors(im) {
		img, err := idx.Image(d.Digest)
		if err != nil {
			return fmt.Errorf("reading %s: %w", d.Digest, err)
		}
		ir, err := imageReport(img)
		if err != nil {
			return fmt.Errorf("reading %s: %w", d.Digest, err)
		}
		r.Images = append(r.Images, ir)
	}
	return nil
}

func imageReport(img v1.Image) (ImageReport, error) {
	m, err := img.Manifest()
	if err != nil {
		return ImageReport{}, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return ImageReport{}, err
	}
	h, err := img.Digest()
	if err != nil {
		return ImageReport{}, err
	}
	ir := ImageReport{
		Digest: h.String(), MediaType: string(m.MediaType), Config: m.Config.Digest.String(),
		Platform: platformString(cf.Platform()), Labels: cf.Config.Labels, Annotations: m.Annotations,
		Entrypoint: cf.Config.Entrypoint, Cmd: cf.Config.Cmd, Layers: []LayerReport{},
	}
	if !cf.Created.IsZero() {
		ir.Created = cf.Created.UTC().Format(time.RFC3339)
	}
	for i, l := range m.Layers {
		lr := LayerReport{Digest: l.Digest.String(), Size: l.Size, MediaType: string(l.MediaType)}
		if i < len(cf.RootFS.DiffIDs) {
			lr.DiffID = cf.RootFS.DiffIDs[i].String()
		}
		ir.Layers = append(ir.Layers, lr)
	}
	return ir, nil
}

// platformString is p as os/arch[/variant], or "" for an image that names none.
func platformString(p *v1.Platform) string {
	if p == nil {
		return ""
	}
	return p.String()
}
