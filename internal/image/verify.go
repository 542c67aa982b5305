package image

import (
	"context"
	"fmt"
	"io"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// verifyPushed reads what ref (a digest reference) names back from the registry: the manifest
// (or index and each of its images), the config and every layer blob, each verified against its
// digest by go-containerregistry while read.
func verifyPushed(ctx context.Context, ref name.Digest, o *options) error {
	desc, err := remote.Get(ref, o.remoteOptions(ctx)...)
	if err != nil {
		return err
	}
	if desc.Digest.String() != ref.DigestStr() {
		return fmt.Errorf("the registry serves %s under %s", desc.Digest, ref.DigestStr())
	}
	if !desc.MediaType.IsIndex() {
		img, err := desc.Image()
		if err != nil {
			return err
		}
		return readImage(img)
	}
	idx, err := desc.ImageIndex()
	if err != nil {
		return err
	}
	im, err := idx.IndexManifest()
	if err != nil {
		return err
	}
	for _, d := range im.Manifests {
		if err := verifyPushed(ctx, ref.Context().Digest(d.Digest.String()), o); err != nil {
			return err
		}
	}
	return nil
}

func readImage(img v1.Image) error {
	if _, err := img.RawConfigFile(); err != nil {
		return fmt.Errorf("reading the config: %w", err)
	}
	layers, err := img.Layers()
	if err != nil {
		return err
	}
	for _, l := range layers {
		d, _ := l.Digest()
		rc, err := l.Compressed()
		if err != nil {
			return fmt.Errorf("reading layer %s: %w", d, err)
		}
		_, err = io.Copy(io.Discard, rc)
		rc.Close()
		if err != nil {
			return fmt.Errorf("reading layer %s: %w", d, err)
		}
	}
	return nil
}
