package check

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
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/sigstore/sigstore/pkg/cryptoutils"

	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/image"
	"github.com/opack/opack/internal/sign"
)

func TestNodeImages(t *testing.T) {
	csv := `{"spec":{"install":{"spec":{"deployments":[{"name":"op","spec":{"template":{"spec":{"initContainers":[{"name":"init","image":"r.example/init@sha256:` + strings.Repeat("c", 64) + `"}],"containers":[{"name":"manager","image":"r.example/op@sha256:` + strings.Repeat("a", 64) + `"}]}}}}]}}}}`
	cfg := &fbc.DeclarativeConfig{
		Channels: []fbc.Channel{{Package: "p", Name: "stable", Entries: []fbc.ChannelEntry{{Name: "p.v1"}, {Name: "p.v2", Replaces: "p.v1"}}}},
		Bundles: []fbc.Bundle{
			{Package: "p", Name: "p.v1", Image: "r.example/bundle@sha256:" + strings.Repeat("1", 64)},
			{Package: "p", Name: "p.v2", Image: "r.example/bundle@sha256:" + strings.Repeat("2", 64), CsvJSON: csv,
				RelatedImages: []fbc.RelatedImage{{Name: "", Image: "r.example/bundle@sha256:" + strings.Repeat("2", 64)}, {Name: "manager", Image: "r.example/op@sha256:" + strings.Repeat("a", 64)}, {Name: "proxy", Image: "r.example/proxy:v1"}}},
		},
	}
	var got []string
	for _, ni := range NodeImages(cfg, "r.example/catalog@sha256:"+strings.Repeat("f", 64)) {
		got = append(got, ni.Ref+" <- "+strings.Join(ni.Uses, "; "))
	}
	want := []string{
		"r.example/bundle@sha256:" + strings.Repeat("2", 64) + " <- bundle image of p.v2",
		"r.example/catalog@sha256:" + strings.Repeat("f", 64) + " <- catalog image",
		"r.example/init@sha256:" + strings.Repeat("c", 64) + ` <- container "init" of deployment "op" of p.v2`,
		"r.example/op@sha256:" + strings.Repeat("a", 64) + ` <- container "manager" of deployment "op" of p.v2; relatedImage "manager" of p.v2`,
		`r.example/proxy:v1 <- relatedImage "proxy" of p.v2`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("NodeImages (-want +got): only the channel head's images, each once:\n%s", diff)
	}
}

func TestVerifySignatures(t *testing.T) {
	srv := httptest.NewServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	host := u.Host
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	pemKey, _ := cryptoutils.MarshalPrivateKeyToPEM(k)
	keyFile := filepath.Join(t.TempDir(), "key.pem")
	if err := os.WriteFile(keyFile, pemKey, 0o600); err != nil {
		t.Fatal(err)
	}
	signer, err := sign.LoadPrivateKey(keyFile, nil)
	if err != nil {
		t.Fatal(err)
	}
	opts := []image.Option{image.WithKeychain(authn.NewMultiKeychain()), image.WithRetry(1, time.Millisecond)}
	push := func(tag string, signed bool) string {
		img, _ := random.Image(128, 1)
		r, _ := name.ParseReference(tag)
		if err := remote.Write(r, img); err != nil {
			t.Fatal(err)
		}
		h, _ := img.Digest()
		ref := r.Context().Digest(h.String()).Name()
		if signed {
			if _, err := sign.Sign(context.Background(), signer, sign.Request{Image: ref, Identity: tag}, opts...); err != nil {
				t.Fatal(err)
			}
		}
		return ref
	}
	good := push(host+"/op:v1", true)
	unsigned := push(host+"/sidecar:v1", false)
	push(host+"/proxy:v1", true)
	policy, err := sign.KeyPolicy("cosign.pub", &k.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	imgs := []NodeImage{
		{Ref: good, Uses: []string{"relatedImage of p.v2"}, Bundles: []string{"p.v2"}},
		{Ref: unsigned, Uses: []string{"relatedImage of p.v2"}, Bundles: []string{"p.v2"}},
		{Ref: host + "/proxy:v1", Uses: []string{"relatedImage of p.v2"}, Bundles: []string{"p.v2"}},
		{Ref: "pending@sha256:" + strings.Repeat("0", 64), Uses: []string{"bundle image of p.v2"}},
	}
	fs := VerifySignatures(context.Background(), image.NewPuller(opts...), imgs, policy, SignedAtPush(map[string]string{imgs[3].Ref: "this build"}), SignatureFile("catalog"))
	var got []string
	for _, f := range fs {
		got = append(got, f.Rule+" "+f.Object+" "+strings.SplitN(f.Message, " ", 2)[0])
	}
	want := []string{
		RuleSignUnsigned + " p.v2 " + unsigned,
		RuleSignTag + " p.v2 " + host + "/proxy:v1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	for _, f := range fs {
		if f.File != "catalog" || len(f.Actors) != 1 || f.Actors[0] != "nodes" || f.Fix == "" {
			t.Errorf("finding %+v: want file catalog, actor nodes and a fix", f)
		}
	}
}
