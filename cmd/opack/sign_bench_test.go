package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"io"
	"log"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/registry"
	"github.com/sigstore/sigstore/pkg/cryptoutils"
)

// BenchmarkBuildPushSign measures what signing adds to opack build --push of the go/v4 sample: each
// iteration releases a fresh copy of the project, every step computed (--no-cache), to a fresh in-process
// registry: unsigned; signed with a cosign key (decrypting it is scrypt, a fixed ~0.1 s by design
// of the format); signed with an unencrypted PEM key (what signing itself costs: two images signed,
// provenance and SBOM attached, every attachment read back and verified).
func BenchmarkBuildPushSign(b *testing.B) {
	b.Setenv("DOCKER_CONFIG", b.TempDir())
	keys := b.TempDir()
	cosignKey, pub := signKeys(b, keys, "release", "bench-pass")
	b.Setenv("COSIGN_PASSWORD", "bench-pass")
	pemKey := pemKeyPair(b, keys)
	for _, v := range []struct{ name, key, pub string }{{"unsigned", "", ""}, {"signed-cosign-key", cosignKey, pub}, {"signed-pem-key", pemKey, pemKey + ".pub"}} {
		b.Run(v.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				srv := httptest.NewServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
				u, _ := url.Parse(srv.URL)
				dir := benchProject(b, u.Host, v.key, v.pub)
				args := []string{"build", "-f", filepath.Join(dir, "opack.yaml"), "--push", "-q", "--no-cache"} // every step, as a fresh CI machine runs them
				if v.key != "" {
					args = append(args, "--sign")
				}
				b.StartTimer()
				var errOut strings.Builder
				if code := run(context.Background(), args, strings.NewReader(""), io.Discard, &errOut); code != 0 {
					b.Fatalf("opack %s: exit %d\n%s", strings.Join(args, " "), code, errOut.String())
				}
				b.StopTimer()
				srv.Close()
				b.StartTimer()
			}
		})
	}
}

// pemKeyPair writes an unencrypted PKCS #8 ECDSA key (KEY) and its public key (KEY.pub).
func pemKeyPair(b *testing.B, dir string) string {
	b.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	priv, err := cryptoutils.MarshalPrivateKeyToPEM(k)
	if err != nil {
		b.Fatal(err)
	}
	pub, err := cryptoutils.MarshalPublicKeyToPEM(&k.PublicKey)
	if err != nil {
		b.Fatal(err)
	}
	key := filepath.Join(dir, "pem.key")
	if err := os.WriteFile(key, priv, 0o600); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(key+".pub", pub, 0o644); err != nil {
		b.Fatal(err)
	}
	return key
}

// benchProject copies the sample, adopted for host's registry, signing with key (none: unsigned);
// its operator image is left as the sample names it (quay.io: no signing.trust, not checked).
func benchProject(b *testing.B, host, key, pub string) string {
	b.Helper()
	p := &pipelineProject{dir: filepath.Join(b.TempDir(), "memcached-operator")}
	if err := os.CopyFS(p.dir, os.DirFS(filepath.Join("..", "..", "testdata", "project", "memcached-operator"))); err != nil {
		b.Fatal(err)
	}
	if code, out := p.opack("init", p.dir, "--version", "0.0.1", "--bundle-image", host+"/demo/memcached-operator-bundle", "--catalog-image", host+"/demo/memcached-operator-catalog"); code != 0 {
		b.Fatalf("opack init: %s", out)
	}
	if key == "" {
		return p.dir
	}
	data, err := os.ReadFile(pub)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.dir, "cosign.pub"), data, 0o644); err != nil {
		b.Fatal(err)
	}
	cfg := filepath.Join(p.dir, "opack.yaml")
	data, _ = os.ReadFile(cfg)
	data = append(data, []byte("signing:\n  key: "+key+"\n  publicKey: cosign.pub\n")...)
	if err := os.WriteFile(cfg, data, 0o644); err != nil {
		b.Fatal(err)
	}
	return p.dir
}
