package main

import (
	"bytes"
	"context"
	"crypto/elliptic"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/static"
	"github.com/google/go-containerregistry/pkg/v1/types"
	"github.com/sigstore/sigstore/pkg/cryptoutils"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/crdserver"
	"github.com/opack/opack/internal/image"
	"github.com/opack/opack/internal/olmharness"
	"github.com/opack/opack/internal/olmtest"
)

// signTools returns the verifiers the signing tests hold opack's output to, each built from the
// module proxy by hack/build-apiserver.sh into the user cache: imagecopy (containers/image, the
// library CRI-O pulls and verifies with; Debian's skopeo 1.9.3 is built with sigstore disabled) and
// cosign v2.6.1. Outside CI a missing tool skips the test; in CI it fails.
func signTools(t *testing.T, names ...string) map[string]string {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test: runs registries and the real verifiers; run without -short")
	}
	fail := t.Skipf
	if os.Getenv("CI") != "" {
		fail = t.Fatalf
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	out := map[string]string{}
	for _, n := range names {
		bin, err := crdserver.BuildTool(ctx, root, n)
		if err != nil {
			fail("SKIPPED: no %s: %v", n, err)
		}
		out[n] = bin
	}
	return out
}

// signKeys writes a cosign key pair (cosign generate-key-pair's format: ENCRYPTED SIGSTORE PRIVATE
// KEY) with password pass into dir as NAME.key and NAME.pub.
func signKeys(t testing.TB, dir, name, pass string) (key, pub string) {
	t.Helper()
	priv, pubPEM, err := cryptoutils.GeneratePEMEncodedECDSAKeyPair(elliptic.P256(), cryptoutils.StaticPasswordFunc([]byte(pass)))
	if err != nil {
		t.Fatal(err)
	}
	key, pub = filepath.Join(dir, name+".key"), filepath.Join(dir, name+".pub")
	for f, data := range map[string][]byte{key: priv, pub: pubPEM} {
		if err := os.WriteFile(f, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return key, pub
}

// opackOut runs opack and returns its exit code, stdout and stderr.
func opackOut(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// pushImage builds a small image (the bundle fixture with label role=ROLE) and pushes it to tag,
// signed with key when key is set; it returns REPO@DIGEST.
func pushImage(t *testing.T, tag, role, key string) string {
	t.Helper()
	args := []string{"image", "bundle", filepath.Join("..", "..", "testdata", "image", "memcached-bundle"), "--tag", tag, "--label", "role=" + role}
	if key != "" {
		args = append(args, "--sign", "--key", key)
	}
	code, stdout, stderr := opackOut(args...)
	if code != 0 {
		t.Fatalf("opack %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
	}
	return strings.TrimSpace(stdout)
}

// signedProject is the go/v4 sample set up to release signed: its operator image (images: in
// opack.yaml, by digest) pushed and signed by its own key, trusted by signing.trust.
type signedProject struct {
	*pipelineProject
	host, operator, unsignedOperator    string
	releasePub, operatorPub, releaseKey string
}

func newSignedProject(t *testing.T, host string) *signedProject {
	t.Helper()
	keys := t.TempDir()
	releaseKey, releasePub := signKeys(t, keys, "release", "release-pass")
	operatorKey, operatorPub := signKeys(t, keys, "operator", "operator-pass")
	t.Setenv("COSIGN_PASSWORD", "operator-pass")
	sp := &signedProject{host: host, releasePub: releasePub, operatorPub: operatorPub}
	sp.operator = pushImage(t, host+"/demo/memcached-operator:v0.0.1", "operator", operatorKey)
	sp.unsignedOperator = pushImage(t, host+"/demo/memcached-operator:v0.0.1-unsigned", "unsigned", "")
	t.Setenv("COSIGN_PASSWORD", "release-pass")
	keyPEM, err := os.ReadFile(releaseKey)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("OPACK_SIGNING_KEY", string(keyPEM)) // the key itself, as a CI secret holds it
	sp.releaseKey = releaseKey
	sp.pipelineProject = newPipelineProject(t, host+"/demo/memcached-operator-bundle", host+"/demo/memcached-operator-catalog")
	for src, dst := range map[string]string{releasePub: "cosign.pub", operatorPub: "operator.pub"} {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(sp.dir, dst), string(data))
	}
	sp.setOperator(t, sp.operator)
	return sp
}

// setOperator points the sample's controller image at ref (REPO@DIGEST) and configures signing.
func (sp *signedProject) setOperator(t *testing.T, ref string) {
	t.Helper()
	cfg := filepath.Join(sp.dir, "opack.yaml")
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	if i := strings.Index(s, "\nimages:\n"); i >= 0 {
		s = s[:i+1]
	}
	d, err := name.NewDigest(ref)
	if err != nil {
		t.Fatal(err)
	}
	s += fmt.Sprintf(`images:
- name: controller
  newName: %s
  digest: %s
signing:
  publicKey: cosign.pub
  trust:
  - scopes: [%s]
    publicKey: operator.pub
`, d.Context().Name(), d.DigestStr(), d.Context().Name())
	writeFile(t, cfg, s)
}

// nodePolicy is deploy/imagepolicy-nodes installed as a node's /etc/containers: policy.json and a
// registries.d folder holding the project's file.
func (sp *signedProject) nodePolicy(t *testing.T) (policy, registriesD string) {
	t.Helper()
	nodes := filepath.Join(sp.dir, "deploy", "imagepolicy-nodes")
	registriesD = t.TempDir()
	data, err := os.ReadFile(filepath.Join(nodes, "memcached-operator.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(registriesD, "memcached-operator.yaml"), string(data))
	return filepath.Join(nodes, "policy.json"), registriesD
}

// released reads the catalog and bundle images of the last build from deploy/ and the catalog.
func (sp *signedProject) released(t *testing.T) (catalog, bundle string) {
	t.Helper()
	cs := readObject(t, filepath.Join(sp.dir, "deploy", "olmv0", "catalogsource.yaml"))
	catalog, _, _ = unstructured.NestedString(cs.Object.Object, "spec", "image")
	data, err := os.ReadFile(filepath.Join(sp.dir, "catalog-template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if i := strings.Index(l, sp.host+"/demo/memcached-operator-bundle@"); i >= 0 {
			bundle = strings.TrimSpace(l[i:])
		}
	}
	if catalog == "" || bundle == "" {
		t.Fatalf("no released images: catalog %q, bundle %q", catalog, bundle)
	}
	return catalog, bundle
}

// nodePull copies ref as a node enforcing policy pulls it (containers/image) and returns its error
// output ("" when the pull was accepted).
func nodePull(t *testing.T, imagecopy, policy, registriesD, ref string) string {
	t.Helper()
	out, err := exec.Command(imagecopy, "--policy", policy, "--registries.d", registriesD, "--src-tls-verify=false",
		"docker://"+ref, "dir:"+filepath.Join(t.TempDir(), "image")).CombinedOutput()
	if err != nil {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		return lines[len(lines)-1]
	}
	return ""
}

// TestE2ESignRelease is a signed release of the go/v4 sample to Debian's docker-registry (signatures
// on the sha256-<hex>.sig tag: the registry has no referrers API), held to the real verifiers:
//   - opack check fails on an unsigned operator image (sign/unsigned, naming the bundle and the image)
//     and build --push --sign refuses it before anything is pushed;
//   - with the signed one, build --push --sign signs and attests the bundle and catalog images;
//   - containers/image (a node's pull under deploy/imagepolicy-nodes) accepts every image installing
//     the release makes a node pull, by digest and by tag, and refuses an unsigned image, a re-tagged
//     one (another repository), one carrying another image's signature and a signature altered;
//     opack verify --policy says the same of each;
//   - cosign verify --key and verify-attestation --type slsaprovenance1|spdxjson accept the images
//     and refuse the tampered ones;
//   - an image signed by containers/image (skopeo copy --sign-by-sigstore-private-key) verifies with
//     opack verify.
func TestE2ESignRelease(t *testing.T) {
	tools := signTools(t, "imagecopy", "cosign")
	t.Setenv("DOCKER_CONFIG", t.TempDir())
	host := startPipelineRegistry(t)
	sp := newSignedProject(t, host)
	cfg := filepath.Join(sp.dir, "opack.yaml")

	// The gate: an unsigned operator image stops check and the release.
	sp.setOperator(t, sp.unsignedOperator)
	code, stdout, stderr := opackOut("check", "-f", cfg, "-o", "json")
	if code != exitFindings || !strings.Contains(stdout, `"rule": "sign/unsigned"`) || !strings.Contains(stdout, sp.unsignedOperator) || !strings.Contains(stdout, "memcached-operator.v0.0.1") {
		t.Fatalf("opack check with an unsigned operator image: exit %d, want %d and a sign/unsigned finding naming the bundle and %s:\n%s%s", code, exitFindings, sp.unsignedOperator, stdout, stderr)
	}
	code, stdout, stderr = opackOut("build", "-f", cfg, "--push", "--sign")
	if code != exitFindings || !strings.Contains(stdout+stderr, "step signatures") {
		t.Fatalf("opack build --push --sign with an unsigned operator image: exit %d:\n%s%s", code, stdout, stderr)
	}
	if _, err := remote.Head(mustRef(t, host+"/demo/memcached-operator-bundle:v0.0.1")); err == nil {
		t.Errorf("the refused build pushed the bundle image")
	}
	code, _, stderr = opackOut("build", "-f", cfg, "--push")
	if code != exitUsage || !strings.Contains(stderr, "pass --sign") {
		t.Errorf("opack build --push (no --sign) of a project that signs: exit %d, want %d saying to pass --sign:\n%s", code, exitUsage, stderr)
	}

	// The release.
	sp.setOperator(t, sp.operator)
	code, stdout, stderr = opackOut("build", "-f", cfg, "--push", "--sign")
	if code != 0 || strings.Count(stdout, "\nsigned ") != 2 {
		t.Fatalf("opack build --push --sign: exit %d, want 0 and two images signed:\n%s%s", code, stdout, stderr)
	}
	noSecrets(t, sp.releaseKey, "release-pass", stdout+stderr, sp.dir)
	sp.check(t)
	catalog, bundle := sp.released(t)
	policy, registriesD := sp.nodePolicy(t)

	// Every image installing the release makes a node pull, as a node pulls it.
	good := []string{catalog, bundle, sp.operator, host + "/demo/memcached-operator-bundle:v0.0.1", host + "/demo/memcached-operator-catalog:v0.0.1"}
	for _, ref := range good {
		if msg := nodePull(t, tools["imagecopy"], policy, registriesD, ref); msg != "" {
			t.Errorf("containers/image refuses %s under deploy/imagepolicy-nodes/policy.json: %s", ref, msg)
		}
	}
	if code, stdout, stderr := opackOut(append([]string{"verify", "--policy", policy}, good...)...); code != 0 {
		t.Errorf("opack verify --policy of the release: exit %d\n%s%s", code, stdout, stderr)
	} else {
		t.Logf("opack verify, the good images:\n%s", stdout)
	}
	if code, stdout, stderr := opackOut("verify", "--policy", policy, "--attestation", "slsaprovenance1", "--attestation", "spdxjson", bundle); code != 0 {
		t.Errorf("opack verify --attestation slsaprovenance1 --attestation spdxjson of the bundle: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = opackOut("catalog", "validate", catalog, "--verify-signatures", policy, "--checks", "opm")
	if code != 0 || !strings.Contains(stderr, "signatures of 3 image(s)") {
		t.Errorf("opack catalog validate --verify-signatures of the released catalog: exit %d\n%s%s", code, stdout, stderr)
	}

	// cosign accepts the signatures and attestations.
	for _, ref := range []string{bundle, catalog} {
		if out := cosign(t, tools["cosign"], "verify", "--key", sp.releasePub, ref); !strings.Contains(out, "The signatures were verified against the specified public key") {
			t.Errorf("cosign verify %s:\n%s", ref, out)
		}
		types := []string{"slsaprovenance1"}
		if ref == bundle {
			types = append(types, "spdxjson")
		}
		for _, typ := range types {
			out := cosign(t, tools["cosign"], "verify-attestation", "--key", sp.releasePub, "--type", typ, ref)
			if !strings.Contains(out, "The signatures were verified against the specified public key") || strings.Contains(out, "exit status") {
				t.Errorf("cosign verify-attestation --type %s %s:\n%s", typ, ref, out)
			}
		}
	}

	// Tampered images: what each verifier says. cosign checks a signature's digest, not the
	// reference it claims: it accepts an image copied with its signature into another repository,
	// which a node (and opack) refuses.
	tampered := []struct {
		what, ref     string
		cosignRefuses bool
	}{
		{"unsigned", pushImage(t, host+"/demo/memcached-operator-bundle:unsigned", "unsigned-bundle", ""), true},
		{"re-tagged", copyImage(t, bundle, host+"/demo/memcached-operator-catalog:stolen"), false},
		{"swapped", swapSignature(t, bundle, host+"/demo/memcached-operator-bundle:swapped"), true},
		{"altered", alterSignature(t, pushImage(t, host+"/demo/memcached-operator-bundle:altered", "altered", sp.releaseKey)), true},
	}
	for _, tc := range tampered {
		msg := nodePull(t, tools["imagecopy"], policy, registriesD, tc.ref)
		if msg == "" {
			t.Errorf("containers/image accepts the %s image %s", tc.what, tc.ref)
		}
		code, stdout, _ := opackOut("verify", "--policy", policy, tc.ref)
		if code != exitFindings {
			t.Errorf("opack verify accepts the %s image %s:\n%s", tc.what, tc.ref, stdout)
		}
		cos := cosign(t, tools["cosign"], "verify", "--key", sp.releasePub, tc.ref)
		if strings.Contains(cos, "exit status") != tc.cosignRefuses {
			t.Errorf("cosign verify of the %s image %s: refused %v, want %v:\n%s", tc.what, tc.ref, !tc.cosignRefuses, tc.cosignRefuses, cos)
		}
		t.Logf("%s image %s:\n  containers/image: %s\n  opack verify: %s  cosign verify: %s", tc.what, tc.ref, msg, headLine(stdout), lastLine(cos))
	}

	// The reverse: containers/image signs, opack verifies.
	keys := t.TempDir()
	key, pub := signKeys(t, keys, "skopeo", "skopeo-pass")
	writeFile(t, filepath.Join(keys, "pass"), "skopeo-pass")
	signD := t.TempDir() // containers/image writes sigstore signatures where registries.d says so
	writeFile(t, filepath.Join(signD, "all.yaml"), "docker:\n  "+host+":\n    use-sigstore-attachments: true\n")
	open := filepath.Join(keys, "open.json")
	writeFile(t, open, `{"default":[{"type":"insecureAcceptAnything"}]}`)
	dst := host + "/demo/skopeo-signed:v1"
	if out, err := exec.Command(tools["imagecopy"], "--policy", open, "--registries.d", signD, "--src-tls-verify=false", "--dest-tls-verify=false",
		"--sign-by-sigstore-private-key", key, "--sign-passphrase-file", filepath.Join(keys, "pass"), "docker://"+sp.unsignedOperator, "docker://"+dst).CombinedOutput(); err != nil {
		t.Fatalf("containers/image copy --sign-by-sigstore-private-key: %v\n%s", err, out)
	}
	if code, stdout, stderr := opackOut("verify", "--key", pub, dst); code != 0 || !strings.Contains(stdout, "claims "+dst) {
		t.Errorf("opack verify of an image containers/image signed: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestE2ESignReferrers signs on olareg (a registry serving the OCI 1.1 referrers API): the signature and the
// attestations are pushed as referrers as well as on the tags; with the tag removed, cosign's OCI 1.1
// verification (--experimental-oci11) and opack verify still find the signature through the
// referrers API, and the tag-only readers (cosign's default, containers/image) do not.
func TestE2ESignReferrers(t *testing.T) {
	tools := signTools(t, "olareg", "cosign")
	t.Setenv("DOCKER_CONFIG", t.TempDir())
	host := startOlareg(t, tools["olareg"])
	dir := t.TempDir()
	key, pub := signKeys(t, dir, "release", "pw")
	t.Setenv("COSIGN_PASSWORD", "pw")
	ref := host + "/demo/bundle:v1"
	code, stdout, stderr := opackOut("image", "bundle", filepath.Join("..", "..", "testdata", "image", "memcached-bundle"), "--tag", ref, "--sign", "--key", key)
	if code != 0 || !strings.Contains(stderr, "signature referrer "+host+"/demo/bundle@sha256:") {
		t.Fatalf("opack image bundle --sign on a registry with the referrers API: exit %d, want a signature referrer:\n%s%s", code, stdout, stderr)
	}
	img := strings.TrimSpace(stdout)
	if out := cosign(t, tools["cosign"], "verify", "--key", pub, "--experimental-oci11", img); strings.Contains(out, "exit status") {
		t.Errorf("cosign verify --experimental-oci11:\n%s", out)
	}
	// Remove the sha256-<hex>.sig tag (the registry deletes a manifest by digest).
	d, _ := name.NewDigest(img)
	h, _ := v1.NewHash(d.DigestStr())
	sigTag := d.Context().Tag(image.AttachTag(h, image.AttachSignatures))
	desc, err := remote.Head(sigTag)
	if err != nil {
		t.Fatal(err)
	}
	if err := remote.Delete(d.Context().Digest(desc.Digest.String())); err != nil {
		t.Fatalf("deleting the signature tag: %v", err)
	}
	if out := cosign(t, tools["cosign"], "verify", "--key", pub, img); !strings.Contains(out, "exit status") {
		t.Errorf("cosign verify (tag scheme) still finds a signature after the tag was deleted:\n%s", out)
	}
	if out := cosign(t, tools["cosign"], "verify", "--key", pub, "--experimental-oci11", img); strings.Contains(out, "exit status") {
		t.Errorf("cosign verify --experimental-oci11 after the tag was deleted (the referrer alone):\n%s", out)
	}
	code, stdout, stderr = opackOut("verify", "--key", pub, "-o", "json", img)
	if code != 0 || !strings.Contains(stdout, `"referrer": true`) {
		t.Errorf("opack verify of the referrer alone: exit %d\n%s%s", code, stdout, stderr)
	}
}

// startOlareg starts olareg (deletes enabled, the referrers API on) on a free 127.0.0.1 port.
func startOlareg(t *testing.T, bin string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	host := l.Addr().String()
	l.Close()
	_, port, _ := net.SplitHostPort(host)
	var logs bytes.Buffer
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1", "--port", port, "--dir", t.TempDir(), "--api-delete", "--api-referrer")
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get("http://" + host + "/v2/"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return host
			}
		}
	}
	t.Fatalf("olareg did not start:\n%s", logs.String())
	return ""
}

// cosign runs cosign offline (no transparency log, plain HTTP to the test registry) and returns its
// combined output, ending with the exit error when it failed.
func cosign(t *testing.T, bin string, args ...string) string {
	t.Helper()
	args = append(args[:1:1], append([]string{"--insecure-ignore-tlog", "--allow-insecure-registry", "--allow-http-registry"}, args[1:]...)...)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "COSIGN_EXPERIMENTAL=0", "TUF_ROOT="+t.TempDir(), "SIGSTORE_NO_CACHE=true")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out) + "\n" + err.Error()
	}
	return string(out)
}

// copyImage copies the image src (REPO@DIGEST) and its signature to dst (REPO:TAG) and returns dst
// by digest.
func copyImage(t *testing.T, src, dst string) string {
	t.Helper()
	s := mustRef(t, src).(name.Digest)
	d := mustRef(t, dst).(name.Tag)
	copyManifest(t, s, d)
	out := d.Context().Digest(s.DigestStr()).Name()
	copySig(t, src, out)
	return out
}

// copyManifest copies the image src names to dst, its blobs included.
func copyManifest(t *testing.T, src, dst name.Reference) {
	t.Helper()
	img, err := remote.Image(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := remote.Write(dst, img); err != nil {
		t.Fatal(err)
	}
}

func sigTagOf(t *testing.T, ref string) name.Tag {
	d := mustRef(t, ref).(name.Digest)
	h, err := v1.NewHash(d.DigestStr())
	if err != nil {
		t.Fatal(err)
	}
	return d.Context().Tag(image.AttachTag(h, image.AttachSignatures))
}

func copySig(t *testing.T, from, to string) {
	t.Helper()
	copyManifest(t, sigTagOf(t, from), sigTagOf(t, to))
}

// swapSignature pushes another image to dst carrying the signature of signed, and returns it.
func swapSignature(t *testing.T, signed, dst string) string {
	t.Helper()
	other := pushImage(t, dst, "swapped", "")
	copySig(t, signed, other)
	return other
}

// alterSignature rewrites the signed payload of ref's signature (the claimed reference gains a
// character), keeping the signature bytes, and returns ref.
func alterSignature(t *testing.T, ref string) string {
	t.Helper()
	tag := sigTagOf(t, ref)
	sig, err := remote.Image(tag)
	if err != nil {
		t.Fatal(err)
	}
	m, err := sig.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	l, err := sig.LayerByDigest(m.Layers[0].Digest)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := l.Compressed()
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(rc)
	rc.Close()
	data = bytes.Replace(data, []byte(`"docker-reference":"`), []byte(`"docker-reference":"x`), 1)
	img := mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON)
	img, err = mutate.Append(img, mutate.Addendum{Layer: static.NewLayer(data, m.Layers[0].MediaType), Annotations: m.Layers[0].Annotations})
	if err != nil {
		t.Fatal(err)
	}
	if err := remote.Write(tag, img); err != nil {
		t.Fatal(err)
	}
	return ref
}

func headLine(s string) string { return strings.SplitN(s, "\n", 2)[0] + "\n" }

// lastLine is a tool's error line ("Error: ..."), else its last line.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, "Error: ") {
			return l
		}
	}
	return lines[len(lines)-1]
}

func mustRef(t *testing.T, s string) name.Reference {
	t.Helper()
	r, err := name.ParseReference(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestE2ESignPolicyAdmitted applies the image policy opack emits for a signed project to the real
// kube-apiserver holding the upstream CRDs (internal/emit/crds/imagepolicy: OpenShift's
// ClusterImagePolicy and sigstore policy-controller's): every object is admitted as written, and a
// scope the CRD's rules refuse is refused by the server as by opack's own validation.
func TestE2ESignPolicyAdmitted(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test: runs kube-apiserver and etcd; run without -short")
	}
	kubectl, etcd, kube := applyTools(t)
	c := startKube(t, etcd, kube, kubectl, nil)
	crds := t.TempDir()
	src := filepath.Join("..", "..", "internal", "emit", "crds", "imagepolicy")
	for _, f := range []string{"config.openshift.io_clusterimagepolicies.yaml", "policy.sigstore.dev_clusterimagepolicies.yaml"} {
		data, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(f, "policy.sigstore.dev") {
			data = withoutConversionWebhook(t, data)
		}
		writeFile(t, filepath.Join(crds, f), string(data))
	}
	c.run(t, "create", "-f", crds)
	c.run(t, "wait", "--for", "condition=Established", "crd", "--all", "--timeout", "120s")

	dir := t.TempDir()
	_, pub := signKeys(t, dir, "release", "")
	_, opPub := signKeys(t, dir, "operator", "")
	sp := &signedProject{host: "quay.io", releasePub: pub, operatorPub: opPub}
	sp.pipelineProject = newPipelineProject(t, "quay.io/example/memcached-operator-bundle", "quay.io/example/memcached-operator-catalog")
	for from, to := range map[string]string{pub: "cosign.pub", opPub: "operator.pub"} {
		data, _ := os.ReadFile(from)
		writeFile(t, filepath.Join(sp.dir, to), string(data))
	}
	sp.setOperator(t, "quay.io/example/memcached-operator@sha256:"+strings.Repeat("a", 64))
	sp.build(t, 0, "wrote deploy/imagepolicy-openshift")
	c.apply(t, sp.dir, "imagepolicy-openshift", []string{
		"clusterimagepolicy.config.openshift.io/memcached-operator",
		"clusterimagepolicy.config.openshift.io/memcached-operator-trust-1",
	})
	c.apply(t, sp.dir, "imagepolicy-sigstore", []string{
		"clusterimagepolicy.policy.sigstore.dev/memcached-operator",
		"clusterimagepolicy.policy.sigstore.dev/memcached-operator-trust-1",
	})
	// The server checks what opack checked: a scope without a registry host is refused.
	f := filepath.Join(sp.dir, "deploy", "imagepolicy-openshift", "memcached-operator.yaml")
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, f, strings.Replace(string(data), "- quay.io/example/memcached-operator-bundle", "- memcached-operator-bundle", 1))
	c.refused(t, sp.dir, "imagepolicy-openshift", "scope must contain a fully qualified domain name")
}

// withoutConversionWebhook serves policy-controller's CRD without its conversion webhook (the
// controller's own service, not run here): exact, because its versions have the same schema.
func withoutConversionWebhook(t *testing.T, data []byte) []byte {
	t.Helper()
	var crd map[string]any
	if err := yaml.Unmarshal(data, &crd); err != nil {
		t.Fatal(err)
	}
	spec := crd["spec"].(map[string]any)
	versions := spec["versions"].([]any)
	schema := func(i int) string {
		b, _ := json.Marshal(versions[i].(map[string]any)["schema"])
		return string(b)
	}
	if len(versions) != 2 || schema(0) != schema(1) {
		t.Fatalf("policy-controller's CRD versions differ in schema: serving it without the conversion webhook would not be exact")
	}
	spec["conversion"] = map[string]any{"strategy": "None"}
	out, err := yaml.Marshal(crd)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestE2ESignOLMv0 installs a signed release of the sample through the real OLM v0 with the image
// policy of deploy/imagepolicy-nodes in force on the node (internal/olmharness: every registry image
// the node pulls goes through containers/image under that policy.json and registries.d, as CRI-O
// pulls): the catalog pod's and the bundle unpack Job's images are verified and the CSV Succeeds. A
// CatalogSource of an unsigned catalog image in the same repository is refused at the pull.
func TestE2ESignOLMv0(t *testing.T) {
	tools := signTools(t, "imagecopy")
	olmtest.RequireRoot(t)
	t.Setenv("DOCKER_CONFIG", t.TempDir())
	host := startPipelineRegistry(t)
	e := olmharness.StartOLMv0Env(t, olmharness.OLMv0Releases[0])
	c := e.Cluster
	applyText(t, c, serviceMonitorCRD) // the sample ships a ServiceMonitor (see TestE2EOLMv0Lifecycle)
	c.Kubectl(t, "wait", "--for", "condition=Established", "crd/servicemonitors.monitoring.coreos.com", "--timeout", "60s")

	sp := newSignedProject(t, host)
	sp.build(t, 0, "wrote deploy/imagepolicy-nodes", "--push", "--sign")
	catalog, bundle := sp.released(t)
	policy, registriesD := sp.nodePolicy(t)
	e.Kubelet.EnforceImagePolicy(olmtest.NodePolicy{Copier: tools["imagecopy"], Policy: policy, RegistriesD: registriesD})

	c.Kubectl(t, "apply", "-k", filepath.Join(sp.dir, "deploy", "olmv0"))
	csvPhase(t, c, "memcached-operator-system", "memcached-operator.v0.0.1", "Succeeded", 3*time.Minute)
	events := strings.Join(e.Kubelet.Events(), "\n")
	for _, ref := range []string{catalog, bundle} {
		if !strings.Contains(events, "image "+ref+" pulled, verified by "+policy) {
			t.Errorf("the node did not pull %s under the policy:\n%s", ref, events)
		}
	}
	if strings.Contains(events, " refused") {
		t.Errorf("the node refused an image of the signed release:\n%s", events)
	}

	// An unsigned catalog image in the signed repository: the node refuses to pull it.
	code, stdout, stderr := opackOut("image", "catalog", filepath.Join(sp.dir, "catalog"), "--tag", host+"/demo/memcached-operator-catalog:unsigned", "--label", "signed=no")
	if code != 0 {
		t.Fatalf("opack image catalog: exit %d\n%s%s", code, stdout, stderr)
	}
	unsigned := strings.TrimSpace(stdout)
	applyText(t, c, fmt.Sprintf(`apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata: {name: unsigned, namespace: olm}
spec:
  sourceType: grpc
  image: %s
  grpcPodConfig:
    extractContent: {catalogDir: /configs, cacheDir: /tmp/cache}
`, unsigned))
	c.Eventually(t, 2*time.Minute, "the node refuses "+unsigned, func(context.Context) (bool, string, error) {
		ev := strings.Join(e.Kubelet.Events(), "\n")
		return strings.Contains(ev, "image "+unsigned+" refused"), "not yet", nil
	})
	for _, l := range e.Kubelet.Events() {
		if strings.Contains(l, unsigned) {
			t.Logf("node: %s", l)
		}
	}
}

// noSecrets fails when the password or any line of the private key's body appears in out or in a
// file below dir: the key is read, never logged, never written.
func noSecrets(t *testing.T, keyFile, password, out, dir string) {
	t.Helper()
	data, err := os.ReadFile(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	var secrets []string
	for _, l := range strings.Split(string(data), "\n") {
		if len(l) > 16 && !strings.HasPrefix(l, "-----") {
			secrets = append(secrets, l)
		}
	}
	secrets = append(secrets, password)
	check := func(where, text string) {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("%s holds a secret of the signing key (%.12s...)", where, s)
			}
		}
	}
	check("opack's output", out)
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if b, err := os.ReadFile(p); err == nil {
				check(p, string(b))
			}
		}
		return nil
	})
}
