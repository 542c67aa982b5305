package image

import (
	"context"
	"errors"
)

// NewMultiPublisher returns a Publisher that publishes to each of ps in turn, as ko's
// multi-publisher does: it stops at the first failure (the destinations before it keep what they
// received) and returns the reference the last destination names the artifact by.
func NewMultiPublisher(ps ...Publisher) Publisher { return multiPublisher(ps) }

type multiPublisher []Publisher

func (m multiPublisher) Publish(ctx context.Context, a Artifact) (string, error) {
	if len(m) == 0 {
		return "", errors.New("publishing: no destination (give a registry, an OCI layout or a tarball)")
	}
	var ref string
	for _, p := range m {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		r, err := p.Publish(ctx, a)
		if err != nil {
			return "", err
		}
		ref = r
	}
	return ref, nil
}
