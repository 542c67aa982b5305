package sign

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"

	"github.com/opack/opack/internal/image"
)

// The DSSE envelope of an in-toto statement, as cosign attest writes and cosign
// verify-attestation reads it.
const (
	InTotoPayloadType = "application/vnd.in-toto+json"
	DSSEMediaType     = "application/vnd.dsse.envelope.v1+json"
	// PredicateTypeAnnotation is the layer annotation cosign gives an attestation.
	PredicateTypeAnnotation = "predicateType"
)

// Statement is an in-toto statement to attach to an image as a signed attestation.
type Statement struct {
	PredicateType string
	// Data is the statement's JSON (_type, subject, predicateType, predicate).
	Data []byte
}

// attestationLayer signs statement as a DSSE envelope (the signature covers DSSE's PAE of the
// payload type and the statement) and returns the layer cosign attaches for it.
func attestationLayer(ctx context.Context, s Signer, st Statement) (image.AttachedLayer, error) {
	sig, _, err := s.Sign(ctx, dsse.PAE(InTotoPayloadType, st.Data))
	if err != nil {
		return image.AttachedLayer{}, err
	}
	env := dsse.Envelope{
		PayloadType: InTotoPayloadType,
		Payload:     base64.StdEncoding.EncodeToString(st.Data),
		Signatures:  []dsse.Signature{{Sig: base64.StdEncoding.EncodeToString(sig)}},
	}
	data, err := json.Marshal(env)
	if err != nil {
		return image.AttachedLayer{}, err
	}
	return image.AttachedLayer{
		MediaType:   DSSEMediaType,
		Annotations: map[string]string{SignatureAnnotation: "", PredicateTypeAnnotation: st.PredicateType},
		Data:        data,
	}, nil
}

// AttestationCheck is one attestation found for an image and what became of it.
type AttestationCheck struct {
	Attachment    string `json:"attachment"`
	Referrer      bool   `json:"referrer,omitempty"`
	PredicateType string `json:"predicateType,omitempty"`
	Key           string `json:"key,omitempty"`
	Accepted      bool   `json:"accepted"`
	Reason        string `json:"reason,omitempty"`
	// Statement is the verified statement's JSON (kept for --output of opack verify).
	Statement json.RawMessage `json:"-"`
}

// VerifyAttestations reads the attestations attached to the image ref (at manifest digest) and
// checks each as cosign verify-attestation does: a DSSE envelope of an in-toto statement signed
// by one of keys, whose subjects include digest.
func VerifyAttestations(ctx context.Context, images image.Puller, ref, digest string, keys []Verifier) ([]AttestationCheck, error) {
	atts, err := images.Attachments(ctx, ref, image.AttachAttestations)
	if err != nil {
		return nil, err
	}
	if atts.Digest != digest {
		return nil, fmt.Errorf("%s resolved to %s, then to %s: it changed while it was verified", ref, digest, atts.Digest)
	}
	var out []AttestationCheck
	for _, a := range atts.Found {
		for _, l := range a.Layers {
			c := AttestationCheck{Attachment: a.Ref, Referrer: a.Referrer}
			c.PredicateType, c.Key, c.Statement, err = checkAttestation(l, digest, keys)
			if err != nil {
				c.Reason = err.Error()
			} else {
				c.Accepted = true
			}
			out = append(out, c)
		}
	}
	return out, nil
}

func checkAttestation(l image.AttachedLayer, digest string, keys []Verifier) (string, string, json.RawMessage, error) {
	if l.MediaType != DSSEMediaType {
		return "", "", nil, fmt.Errorf("a layer of media type %s, not a DSSE envelope", l.MediaType)
	}
	var env dsse.Envelope
	if err := json.Unmarshal(l.Data, &env); err != nil {
		return "", "", nil, fmt.Errorf("not a DSSE envelope: %w", err)
	}
	if env.PayloadType != InTotoPayloadType {
		return "", "", nil, fmt.Errorf("payload type %q, not an in-toto statement", env.PayloadType)
	}
	body, err := base64.StdEncoding.DecodeString(env.Payload)
	if err != nil {
		return "", "", nil, errors.New("the payload is not base64")
	}
	key := verifyEnvelope(env, body, keys)
	if key == nil {
		return "", "", nil, errors.New("not signed by a key the policy trusts (another key, or altered since signed)")
	}
	var st struct {
		PredicateType string `json:"predicateType"`
		Subject       []struct {
			Digest map[string]string `json:"digest"`
		} `json:"subject"`
	}
	if err := json.Unmarshal(body, &st); err != nil {
		return "", key.String(), nil, fmt.Errorf("not an in-toto statement: %w", err)
	}
	for _, s := range st.Subject {
		if "sha256:"+s.Digest["sha256"] == digest {
			return st.PredicateType, key.String(), body, nil
		}
	}
	return st.PredicateType, key.String(), nil, fmt.Errorf("its subjects do not include %s: an attestation of another image", digest)
}

func verifyEnvelope(env dsse.Envelope, body []byte, keys []Verifier) Verifier {
	pae := dsse.PAE(env.PayloadType, body)
	for _, s := range env.Signatures {
		sig, err := base64.StdEncoding.DecodeString(s.Sig)
		if err != nil {
			continue
		}
		for _, k := range keys {
			if k.Verify(pae, sig, nil) == nil {
				return k
			}
		}
	}
	return nil
}
