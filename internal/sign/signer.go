package sign

import (
	"bytes"
	"context"
	"crypto"
	"fmt"

	"github.com/sigstore/sigstore/pkg/signature"
	"github.com/sigstore/sigstore/pkg/signature/options"
)

// Signer is the seam between what opack signs and who signs it. KeySigner signs with a private key
// (cosign's key pairs, PEM keys). A keyless signer is the other implementation this seam exists
// for: it would get an OIDC token, a short-lived certificate from Fulcio for the key it generates,
// record each signature in Rekor, and return the certificate, its chain and the Rekor bundle as
// Annotations (dev.sigstore.cosign/certificate, .../chain, .../bundle), which containers/image,
// cosign and policy-controller verify against the Fulcio and Rekor roots of a policy. Nothing of
// opack's signing or of the attachments depends on which one signs.
type Signer interface {
	// Sign returns the signature of payload (the SHA-256 of it signed with the key) and the
	// annotations its signature layer carries besides the signature.
	Sign(ctx context.Context, payload []byte) (sig []byte, annotations map[string]string, err error)
	// Verifier verifies what Sign signs: opack reads every signature back from the registry and
	// verifies it before reporting it done.
	Verifier() Verifier
	// String names the signer in messages (the key's fingerprint), never its secret.
	String() string
}

// Verifier checks signatures: a public key (KeyVerifier), or for keyless signatures a certificate
// chain to a trusted root.
type Verifier interface {
	// Verify reports whether sig is a signature of payload by this verifier's key, given the
	// annotations of its layer.
	Verify(payload, sig []byte, annotations map[string]string) error
	String() string
}

// KeySigner signs with a private key: ECDSA (with SHA-256, ASN.1 signatures), RSA (PKCS #1 v1.5,
// SHA-256) or Ed25519, as cosign and containers/image sign with the same keys.
type KeySigner struct {
	sv  signature.SignerVerifier
	pub crypto.PublicKey
}

func newKeySigner(priv crypto.PrivateKey) (*KeySigner, error) {
	sv, err := signature.LoadSignerVerifier(priv, crypto.SHA256)
	if err != nil {
		return nil, fmt.Errorf("loading the signing key: %w", err)
	}
	pub, err := sv.PublicKey()
	if err != nil {
		return nil, err
	}
	if err := checkKeyType(pub); err != nil {
		return nil, err
	}
	return &KeySigner{sv: sv, pub: pub}, nil
}

// Sign implements Signer.
func (k *KeySigner) Sign(ctx context.Context, payload []byte) ([]byte, map[string]string, error) {
	sig, err := k.sv.SignMessage(bytes.NewReader(payload), options.WithContext(ctx))
	if err != nil {
		return nil, nil, fmt.Errorf("signing with %s: %w", k, err)
	}
	return sig, nil, nil
}

// PublicKey is the key the signatures verify with.
func (k *KeySigner) PublicKey() crypto.PublicKey { return k.pub }

// Verifier implements Signer.
func (k *KeySigner) Verifier() Verifier { v, _ := NewKeyVerifier(k.pub); return v }

func (k *KeySigner) String() string { return "key " + Fingerprint(k.pub) }

// KeyVerifier verifies signatures made with one public key.
type KeyVerifier struct {
	v   signature.Verifier
	pub crypto.PublicKey
}

// NewKeyVerifier returns the verifier of signatures by pub (ECDSA, RSA PKCS #1 v1.5 or Ed25519,
// SHA-256), loaded as containers/image loads the key of a sigstoreSigned policy.
func NewKeyVerifier(pub crypto.PublicKey) (*KeyVerifier, error) {
	if err := checkKeyType(pub); err != nil {
		return nil, err
	}
	v, err := signature.LoadVerifier(pub, crypto.SHA256)
	if err != nil {
		return nil, fmt.Errorf("loading the public key: %w", err)
	}
	return &KeyVerifier{v: v, pub: pub}, nil
}

// Verify implements Verifier.
func (k *KeyVerifier) Verify(payload, sig []byte, _ map[string]string) error {
	return k.v.VerifySignature(bytes.NewReader(sig), bytes.NewReader(payload))
}

// PublicKey is the key of k.
func (k *KeyVerifier) PublicKey() crypto.PublicKey { return k.pub }

func (k *KeyVerifier) String() string { return Fingerprint(k.pub) }
