package sign

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/sigstore/sigstore/pkg/signature/payload"
)

// Media types and annotations of the sigstore signature format (cosign's, which containers/image
// reads with use-sigstore-attachments).
const (
	SimpleSigningMediaType = "application/vnd.dev.cosign.simplesigning.v1+json"
	SignatureAnnotation    = "dev.cosignproject.cosign/signature"
)

// SimpleSigning is the payload opack signs for an image: its manifest digest and the reference it
// is published as (identity: REPO:TAG when pushed under a tag, else REPO), in the "cosign container
// image signature" format containers/image and cosign verify.
func SimpleSigning(identity, digest string) ([]byte, error) {
	d, err := name.NewDigest(identity + "@" + digest)
	if err != nil {
		return nil, fmt.Errorf("signing %s@%s: %w", identity, digest, err)
	}
	return payload.Cosign{Image: d, ClaimedIdentity: identity}.MarshalJSON()
}

// claims is what a signature payload says, read as containers/image reads it.
type claims struct {
	Type            string
	ManifestDigest  string
	DockerReference string
}

// parsePayload reads a simple-signing payload as strictly as containers/image does
// (UntrustedSigstorePayload): an object of exactly "critical" and "optional", critical of exactly
// "type", "image" and "identity", image of exactly "docker-manifest-digest", identity of exactly
// "docker-reference", no key twice; optional is null or an object. opack writes these payloads
// itself; it reads foreign ones by the node's rules so that it accepts what a node accepts and no
// more. Hand-written because containers/image keeps its parser internal.
func parsePayload(data []byte) (*claims, error) {
	var critical, optional json.RawMessage
	if err := exactFields(data, map[string]any{"critical": &critical, "optional": &optional}); err != nil {
		return nil, err
	}
	if !bytes.Equal(bytes.TrimSpace(optional), []byte("null")) {
		if err := objectFields(optional, func(string) any { return new(any) }); err != nil {
			return nil, fmt.Errorf("optional: %w", err)
		}
	}
	var c claims
	var image, identity json.RawMessage
	if err := exactFields(critical, map[string]any{"type": &c.Type, "image": &image, "identity": &identity}); err != nil {
		return nil, fmt.Errorf("critical: %w", err)
	}
	if c.Type != payload.CosignSignatureType {
		return nil, fmt.Errorf("signature type %q, not %q", c.Type, payload.CosignSignatureType)
	}
	if err := exactFields(image, map[string]any{"docker-manifest-digest": &c.ManifestDigest}); err != nil {
		return nil, fmt.Errorf("critical.image: %w", err)
	}
	if err := exactFields(identity, map[string]any{"docker-reference": &c.DockerReference}); err != nil {
		return nil, fmt.Errorf("critical.identity: %w", err)
	}
	return &c, nil
}

// exactFields decodes the JSON object data into fields: every key of fields present, no other key,
// none twice.
func exactFields(data []byte, fields map[string]any) error {
	seen := map[string]bool{}
	err := objectFields(data, func(k string) any {
		v, ok := fields[k]
		if !ok {
			return nil
		}
		seen[k] = true
		return v
	})
	if err != nil {
		return err
	}
	for k := range fields {
		if !seen[k] {
			return fmt.Errorf("missing field %q", k)
		}
	}
	return nil
}

// objectFields decodes the JSON object data, each value into what dest returns for its key (nil:
// an unknown key, an error); a key given twice is an error.
func objectFields(data []byte, dest func(key string) any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return errors.New("not a JSON object")
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		k, _ := t.(string)
		if seen[k] {
			return fmt.Errorf("field %q given twice", k)
		}
		seen[k] = true
		v := dest(k)
		if v == nil {
			return fmt.Errorf("unknown field %q", k)
		}
		if err := dec.Decode(v); err != nil {
			return fmt.Errorf("field %q: %w", k, err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the JSON object")
	}
	return nil
}
