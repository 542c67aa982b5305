package sign

import (
	"context"
	"crypto/elliptic"
	"io"
	"log"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/static"
	"github.com/google/go-containerregistry/pkg/v1/types"
	"github.com/sigstore/sigstore/pkg/cryptoutils"

	"github.com/opack/opack/internal/image"
)

// newRegistry starts go-containerregistry's in-process registry (with the OCI referrers API when
// referrers is set) and returns its host:port.
func newRegistry(t testing.TB, referrers bool) string {
	t.Helper()
	s := httptest.NewServer(registry.New(registry.Logger(log.New(io.Discard, "", 0)), registry.WithReferrersSupport(referrers)))
	t.Cleanup(s.Close)
	u, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

func testOptions() []image.Option {
	return []image.Option{image.WithKeychain(authn.NewMultiKeychain()), image.WithRetry(2, time.Millisecond)}
}

// keyPair writes a cosign key pair (ENCRYPTED SIGSTORE PRIVATE KEY, password pass) as cosign
// generate-key-pair does and returns the paths of cosign.key and cosign.pub.
func keyPair(t testing.TB, pass string) (string, string) {
	t.Helper()
	priv, pub, err := cryptoutils.GeneratePEMEncodedECDSAKeyPair(elliptic.P256(), cryptoutils.StaticPasswordFunc([]byte(pass)))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for n, data := range map[string][]byte{"cosign.key": priv, "cosign.pub": pub} {
		if err := os.WriteFile(filepath.Join(dir, n), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "cosign.key"), filepath.Join(dir, "cosign.pub")
}

// pushRandom pushes a random image to ref and returns REPO@DIGEST.
func pushRandom(t testing.TB, ref string) string {
	t.Helper()
	img, err := random.Image(256, 1)
	if err != nil {
		t.Fatal(err)
	}
	r, err := name.ParseReference(ref, name.Insecure)
	if err != nil {
		t.Fatal(err)
	}
	if err := remote.Write(r, img); err != nil {
		t.Fatal(err)
	}
	h, _ := img.Digest()
	return r.Context().Digest(h.String()).Name()
}

func loadSigner(t *testing.T, key, pass string) *KeySigner {
	t.Helper()
	t.Setenv("TEST_KEY_PASSWORD", pass)
	s, err := LoadPrivateKey(key, PasswordFromEnv("TEST_KEY_PASSWORD"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSignVerify(t *testing.T) {
	ctx := context.Background()
	for _, referrers := range []bool{false, true} {
		t.Run(map[bool]string{false: "tag", true: "referrers"}[referrers], func(t *testing.T) {
			host := newRegistry(t, referrers)
			key, pub := keyPair(t, "s3cret")
			s := loadSigner(t, key, "s3cret")
			img := pushRandom(t, host+"/demo/bundle:v1")
			st := Statement{PredicateType: "https://example.com/p", Data: []byte(`{"_type":"https://in-toto.io/Statement/v1","subject":[{"name":"x","digest":{"sha256":"` + strings.TrimPrefix(img[strings.Index(img, "@")+1:], "sha256:") + `"}}],"predicateType":"https://example.com/p","predicate":{}}`)}
			signed, err := Sign(ctx, s, Request{Image: img, Identity: host + "/demo/bundle:v1", Attestations: []Statement{st}}, testOptions()...)
			if err != nil {
				t.Fatal(err)
			}
			if (signed.SignatureReferrer != "") != referrers || (signed.AttestationReferrer != "") != referrers {
				t.Errorf("referrers %v, got signature referrer %q, attestation referrer %q", referrers, signed.SignatureReferrer, signed.AttestationReferrer)
			}
			pk, err := LoadPublicKey(pub)
			if err != nil {
				t.Fatal(err)
			}
			policy, err := KeyPolicy(pub, pk)
			if err != nil {
				t.Fatal(err)
			}
			puller := image.NewPuller(testOptions()...)
			for _, ref := range []string{img, host + "/demo/bundle:v1"} {
				res, err := Verify(ctx, puller, ref, policy)
				if err != nil {
					t.Fatal(err)
				}
				if !res.Verified {
					t.Errorf("Verify(%s) = %+v, want verified", ref, res)
				}
			}
			// Signing again adds no signature: the key's verifies already.
			if _, err := Sign(ctx, s, Request{Image: img, Identity: host + "/demo/bundle:v1", Attestations: []Statement{st}}, testOptions()...); err != nil {
				t.Fatal(err)
			}
			atts, err := puller.Attachments(ctx, img, image.AttachSignatures)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(atts.Found[0].Layers); n != 1 {
				t.Errorf("after signing twice the signature tag holds %d layers, want 1", n)
			}
			attAtts, err := puller.Attachments(ctx, img, image.AttachAttestations)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(attAtts.Found[0].Layers); n != 1 {
				t.Errorf("after attesting twice the attestation tag holds %d layers, want 1", n)
			}
			checks, err := VerifyAttestations(ctx, puller, img, atts.Digest, policy.Default[0].Keys)
			if err != nil {
				t.Fatal(err)
			}
			if len(checks) == 0 || !checks[0].Accepted || checks[0].PredicateType != st.PredicateType {
				t.Errorf("attestations: %+v", checks)
			}
		})
	}
}

// TestVerifyRefuses: what a node refuses opack's verification refuses too, for the same reason.
func TestVerifyRefuses(t *testing.T) {
	ctx := context.Background()
	host := newRegistry(t, false)
	key, pub := keyPair(t, "")
	otherKey, _ := keyPair(t, "")
	s, other := loadSigner(t, key, ""), loadSigner(t, otherKey, "")
	pk, _ := LoadPublicKey(pub)
	policy, _ := KeyPolicy(pub, pk)
	opts := testOptions()
	puller := image.NewPuller(opts...)

	unsigned := pushRandom(t, host+"/demo/unsigned:v1")
	wrongKey := pushRandom(t, host+"/demo/wrongkey:v1")
	mustSign(t, other, wrongKey, host+"/demo/wrongkey:v1")
	signed := pushRandom(t, host+"/demo/signed:v1")
	mustSign(t, s, signed, host+"/demo/signed:v1")

	// Re-tagged: the image and its signature copied into another repository.
	retagged := copyWithSignature(t, signed, host+"/demo/copy")
	// Swapped: another image carrying the first one's signature.
	swapped := pushRandom(t, host+"/demo/signed:v2")
	copySignature(t, signed, swapped)
	// Tampered: the signed payload altered (the digest it names), the signature kept.
	tampered := pushRandom(t, host+"/demo/tampered:v1")
	mustSign(t, s, tampered, host+"/demo/tampered:v1")
	alterPayload(t, tampered)

	tests := []struct {
		ref  string
		want Problem
	}{
		{signed, ""},
		{host + "/demo/signed:v1", ""},
		{unsigned, ProblemUnsigned},
		{wrongKey, ProblemUntrusted},
		{retagged, ProblemMismatch},
		{swapped, ProblemMismatch},
		{tampered, ProblemUntrusted},
		// By tag, the signature must claim that very tag.
		{host + "/demo/signed:v2", ProblemMismatch},
	}
	for _, tc := range tests {
		res, err := Verify(ctx, puller, tc.ref, policy)
		if err != nil {
			t.Fatalf("Verify(%s): %v", tc.ref, err)
		}
		if res.Problem != tc.want || res.Verified != (tc.want == "") {
			t.Errorf("Verify(%s) = %v %q (%s), want %q", tc.ref, res.Verified, res.Problem, res.Reason, tc.want)
		}
	}
}

func mustSign(t *testing.T, s Signer, img, identity string) {
	t.Helper()
	if _, err := Sign(context.Background(), s, Request{Image: img, Identity: identity}, testOptions()...); err != nil {
		t.Fatal(err)
	}
}

func sigTag(t *testing.T, img string) name.Tag {
	d, err := name.NewDigest(img, name.Insecure)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := v1.NewHash(d.DigestStr())
	return d.Context().Tag(image.AttachTag(h, image.AttachSignatures))
}

func copyWithSignature(t *testing.T, img, repo string) string {
	t.Helper()
	src, _ := name.NewDigest(img, name.Insecure)
	dstRepo, _ := name.NewRepository(repo, name.Insecure)
	desc, err := remote.Get(src)
	if err != nil {
		t.Fatal(err)
	}
	i, _ := desc.Image()
	if err := remote.Write(dstRepo.Tag("v1"), i); err != nil {
		t.Fatal(err)
	}
	dst := dstRepo.Digest(src.DigestStr()).Name()
	copySignature(t, img, dst)
	return dst
}

func copySignature(t *testing.T, from, to string) {
	t.Helper()
	sig, err := remote.Image(sigTag(t, from))
	if err != nil {
		t.Fatal(err)
	}
	if err := remote.Write(sigTag(t, to), sig); err != nil {
		t.Fatal(err)
	}
}

func alterPayload(t *testing.T, img string) {
	t.Helper()
	tag := sigTag(t, img)
	sig, err := remote.Image(tag)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := sig.Manifest()
	l, _ := sig.LayerByDigest(m.Layers[0].Digest)
	rc, _ := l.Compressed()
	data, _ := io.ReadAll(rc)
	i := strings.Index(string(data), `"docker-manifest-digest":"sha256:`) + len(`"docker-manifest-digest":"sha256:`)
	altered := string(data[:i]) + map[byte]string{'0': "1"}[data[i]] + string(data[i+1:])
	if data[i] != '0' {
		altered = string(data[:i]) + "0" + string(data[i+1:])
	}
	layers := []image.AttachedLayer{{MediaType: string(m.Layers[0].MediaType), Annotations: m.Layers[0].Annotations, Data: []byte(altered)}}
	img2, err := artifactForTest(layers)
	if err != nil {
		t.Fatal(err)
	}
	if err := remote.Write(tag, img2); err != nil {
		t.Fatal(err)
	}
}

func TestLookup(t *testing.T) {
	p, err := ParsePolicy([]byte(`{
  "default": [{"type": "reject"}],
  "transports": {"docker": {
    "quay.io/example": [{"type": "insecureAcceptAnything"}],
    "quay.io/example/bundle": [{"type": "reject"}],
    "quay.io/example/bundle:v1": [{"type": "insecureAcceptAnything"}],
    "*.example.com": [{"type": "insecureAcceptAnything"}],
    "docker.io/library": [{"type": "insecureAcceptAnything"}]
  }}}`), "policy.json")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ ref, scope string }{
		{"quay.io/example/bundle:v1", "quay.io/example/bundle:v1"},
		{"quay.io/example/bundle:v2", "quay.io/example/bundle"},
		{"quay.io/example/catalog@sha256:" + strings.Repeat("a", 64), "quay.io/example"},
		{"registry.example.com:5000/a/b:v1", "*.example.com"},
		{"busybox", "docker.io/library"},
		{"ghcr.io/x/y:v1", ""},
		// Tag and digest: the digest alone, as CRI-O pulls it.
		{"quay.io/example/bundle:v1@sha256:" + strings.Repeat("b", 64), "quay.io/example/bundle"},
	}
	for _, tc := range tests {
		named, err := PolicyReference(tc.ref)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := p.Lookup(named)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.scope, got); diff != "" {
			t.Errorf("Lookup(%s) (-want +got):\n%s", tc.ref, diff)
		}
	}
}

func TestParsePolicyRefuses(t *testing.T) {
	tests := []struct{ policy, want string }{
		{`{}`, "no default"},
		{`{"default":[{"type":"signedBy","keyType":"GPGKeys","keyPath":"/k"}]}`, "GPG"},
		{`{"default":[{"type":"sigstoreSigned","fulcio":{}}]}`, "keyless"},
		{`{"default":[{"type":"sigstoreSigned"}]}`, "no key"},
		{`{"default":[{"type":"sigstoreSigned","keyData":"eA=="}]}`, "not a PEM"},
		{`{"default":[{"type":"insecureAcceptAnything"}],"extra":1}`, "unknown field"},
		{`{"default":[{"type":"frobnicate"}]}`, "unknown requirement"},
	}
	for _, tc := range tests {
		_, err := ParsePolicy([]byte(tc.policy), "policy.json")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParsePolicy(%s) = %v, want an error containing %q", tc.policy, err, tc.want)
		}
	}
}

func TestParsePayloadStrict(t *testing.T) {
	good := `{"critical":{"identity":{"docker-reference":"r/x:v1"},"image":{"docker-manifest-digest":"sha256:ab"},"type":"cosign container image signature"},"optional":null}`
	if _, err := parsePayload([]byte(good)); err != nil {
		t.Fatalf("parsePayload(cosign's payload): %v", err)
	}
	bad := []string{
		`{"critical":{"identity":{"docker-reference":"r"},"image":{"docker-manifest-digest":"sha256:ab"},"type":"cosign container image signature"}}`,
		`{"critical":{"identity":{"docker-reference":"r"},"image":{"docker-manifest-digest":"sha256:ab"},"type":"atomic container signature"},"optional":null}`,
		`{"critical":{"identity":{"docker-reference":"r"},"image":{"docker-manifest-digest":"sha256:ab","x":1},"type":"cosign container image signature"},"optional":null}`,
		`{"critical":{},"critical":{},"optional":null}`,
		`{"critical":{"identity":{"docker-reference":"r"},"image":{"docker-manifest-digest":"sha256:ab"},"type":"cosign container image signature"},"optional":null} {}`,
	}
	for _, b := range bad {
		if _, err := parsePayload([]byte(b)); err == nil {
			t.Errorf("parsePayload(%s) accepted what containers/image refuses", b)
		}
	}
}

func TestLoadPrivateKeyRefuses(t *testing.T) {
	key, _ := keyPair(t, "right")
	t.Setenv("TEST_KEY_PASSWORD", "wrong")
	if _, err := LoadPrivateKey(key, PasswordFromEnv("TEST_KEY_PASSWORD")); err == nil || !strings.Contains(err.Error(), "wrong password") {
		t.Errorf("wrong password: %v", err)
	}
	os.Unsetenv("TEST_KEY_PASSWORD")
	if _, err := LoadPrivateKey(key, PasswordFromEnv("TEST_KEY_PASSWORD")); err == nil || !strings.Contains(err.Error(), "TEST_KEY_PASSWORD") {
		t.Errorf("no password: %v", err)
	}
	data, _ := os.ReadFile(key)
	t.Setenv("TEST_KEY", string(data))
	t.Setenv("TEST_KEY_PASSWORD", "right")
	if _, err := LoadPrivateKey("env://TEST_KEY", PasswordFromEnv("TEST_KEY_PASSWORD")); err != nil {
		t.Errorf("env://TEST_KEY: %v", err)
	}
	if _, err := LoadPrivateKey("/dev/zero", nil); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("/dev/zero: %v", err)
	}
	if _, err := LoadPrivateKey("env://TEST_UNSET_KEY", nil); err == nil || !strings.Contains(err.Error(), "not set") {
		t.Errorf("unset variable: %v", err)
	}
}

func artifactForTest(layers []image.AttachedLayer) (v1.Image, error) {
	img := mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON)
	for _, l := range layers {
		var err error
		img, err = mutate.Append(img, mutate.Addendum{Layer: static.NewLayer(l.Data, types.MediaType(l.MediaType)), Annotations: l.Annotations})
		if err != nil {
			return nil, err
		}
	}
	return img, nil
}

func newRegistryB(b *testing.B) string                    { return newRegistry(b, false) }
func keyPairB(b *testing.B, pass string) (string, string) { return keyPair(b, pass) }
func pushRandomB(b *testing.B, ref string) string         { return pushRandom(b, ref) }

// TestKeyErrorsNameNoSecret: a key that cannot be read is named, its content never quoted.
func TestKeyErrorsNameNoSecret(t *testing.T) {
	secret := "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LXRoYXQtbXVzdC1ub3QtbGVhaw==\n-----END PRIVATE KEY-----\n"
	t.Setenv("TEST_SECRET_KEY", secret)
	_, err := LoadPrivateKey("env://TEST_SECRET_KEY", nil)
	if err == nil || strings.Contains(err.Error(), "c2VjcmV0") {
		t.Errorf("LoadPrivateKey of a malformed key: %v (must fail without quoting it)", err)
	}
	t.Setenv("TEST_SECRET_KEY", "not a key at all: hunter2")
	if _, err := LoadPrivateKey("env://TEST_SECRET_KEY", nil); err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("LoadPrivateKey of garbage: %v (must fail without quoting it)", err)
	}
}
