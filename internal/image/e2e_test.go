package image

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/crypto/bcrypt"
	"sigs.k8s.io/yaml"
)

// TestE2EImagePushToDistribution builds the opack binary, starts Debian's docker-registry
// (distribution) on 127.0.0.1, pushes the go/v4 sample bundle and a catalog, and checks with
// skopeo that the registry holds the labels and digests opack printed. `make test-deps`
// (hack/install-test-deps.sh) installs docker-registry and skopeo.
func TestE2EImagePushToDistribution(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test: needs docker-registry and skopeo; run without -short")
	}
	e := newE2E(t)
	t.Run("plain", func(t *testing.T) {
		host := e.startRegistry(t, "")
		env := []string{"DOCKER_CONFIG=" + t.TempDir()}
		e.checkBundle(t, host, env, nil)
		e.checkReproducible(t, host, env)
		e.checkCatalog(t, host, env)
	})
	t.Run("htpasswd", func(t *testing.T) {
		password := randomHex(t)
		host := e.startRegistry(t, htpasswdLine(t, "tester", password))
		authEnv := []string{"DOCKER_CONFIG=" + dockerConfig(t, host, "tester", password)}
		creds := []string{"--creds", "tester:" + password}

		stdout, stderr, err := e.opack(t, []string{"DOCKER_CONFIG=" + t.TempDir()}, "image", "bundle", bundleDir, "--tag", host+"/demo/bundle:anonymous")
		if err == nil || stdout != "" || !strings.Contains(stderr, "401") {
			t.Errorf("anonymous push: err %v, stdout %q, stderr %q; want a 401 failure and no digest", err, stdout, stderr)
		}
		wrong := "wrong-" + randomHex(t)
		stdout, stderr, err = e.opack(t, []string{"DOCKER_CONFIG=" + dockerConfig(t, host, "tester", wrong)}, "image", "bundle", bundleDir, "--tag", host+"/demo/bundle:wrong", "-v")
		if err == nil || stdout != "" {
			t.Errorf("push with a wrong password: err %v, stdout %q; want a failure and no digest", err, stdout)
		}
		assertNoSecret(t, stdout+stderr, wrong, "tester")

		out := e.checkBundle(t, host, authEnv, creds)
		assertNoSecret(t, out, password, "tester")
	})
}

type e2e struct {
	bin, registry, skopeo string
}

func newE2E(t *testing.T) *e2e {
	t.Helper()
	e := &e2e{}
	var err error
	if e.registry, err = exec.LookPath("docker-registry"); err != nil {
		t.Skip("docker-registry is not installed; `make test-deps` installs it (apt-get install docker-registry skopeo)")
	}
	if e.skopeo, err = exec.LookPath("skopeo"); err != nil {
		t.Skip("skopeo is not installed; `make test-deps` installs it (apt-get install docker-registry skopeo)")
	}
	e.bin = filepath.Join(t.TempDir(), "opack")
	build := exec.Command("go", "build", "-o", e.bin, "./cmd/opack")
	build.Dir = "../.."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building opack: %v\n%s", err, out)
	}
	return e
}

// startRegistry runs docker-registry on a free loopback port, with htpasswd auth when the line is
// given, and returns its host:port.
func (e *e2e) startRegistry(t *testing.T, htpasswd string) string {
	t.Helper()
	dir := t.TempDir()
	auth := ""
	if htpasswd != "" {
		p := filepath.Join(dir, "htpasswd")
		if err := os.WriteFile(p, []byte(htpasswd+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		auth = fmt.Sprintf("auth: {htpasswd: {realm: opack-e2e, path: %s}}\n", p)
	}
	for attempt := 0; attempt < 3; attempt++ {
		host := freeLoopbackAddr(t)
		cfg := filepath.Join(dir, "config.yml")
		conf := fmt.Sprintf("version: 0.1\nlog: {level: warn}\nstorage: {filesystem: {rootdirectory: %s}}\nhttp: {addr: %s}\n%s",
			filepath.Join(dir, "data"), host, auth)
		if err := os.WriteFile(cfg, []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
		var logs bytes.Buffer
		cmd := exec.Command(e.registry, "serve", cfg)
		cmd.Stdout, cmd.Stderr = &logs, &logs
		if err := cmd.Start(); err != nil {
			t.Fatalf("starting docker-registry: %v", err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		t.Cleanup(func() {
			cmd.Process.Kill()
			<-exited
		})
		if waitForRegistry(host, exited) {
			return host
		}
		cmd.Process.Kill()
		<-exited
		t.Logf("docker-registry on %s did not come up (attempt %d):\n%s", host, attempt+1, logs.String())
	}
	t.Fatal("docker-registry did not start")
	return ""
}

func freeLoopbackAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// waitForRegistry polls /v2/ until the registry answers (200, or 401 with auth).
func waitForRegistry(host string, exited <-chan struct{}) bool {
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return false
		default:
		}
		resp, err := http.Get("http://" + host + "/v2/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusUnauthorized {
				return true
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// opack runs the built binary with extra environment variables.
func (e *e2e) opack(t *testing.T, env []string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.Command(e.bin, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	return out.String(), errb.String(), err
}

// mustOpack runs opack, expects success and a single "REPO@sha256:..." line, and returns the digest.
func (e *e2e) mustOpack(t *testing.T, env []string, repo string, args ...string) (digest, output string) {
	t.Helper()
	stdout, stderr, err := e.opack(t, env, args...)
	if err != nil {
		t.Fatalf("opack %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	line := strings.TrimSuffix(stdout, "\n")
	digest, ok := strings.CutPrefix(line, repo+"@")
	if !ok || strings.Contains(line, "\n") || !strings.HasPrefix(digest, "sha256:") {
		t.Fatalf("opack %s printed %q, want one line %s@sha256:...", strings.Join(args, " "), stdout, repo)
	}
	return digest, stdout + stderr
}

// skopeoInspect returns skopeo's view of ref (the platform image for an index), or the raw
// manifest with --raw.
func (e *e2e) skopeoInspect(t *testing.T, extra []string, ref string) []byte {
	t.Helper()
	args := append([]string{"inspect", "--tls-verify=false"}, extra...)
	cmd := exec.Command(e.skopeo, append(args, "docker://"+ref)...)
	cmd.Env = append(os.Environ(), "DOCKER_CONFIG="+t.TempDir(), "REGISTRY_AUTH_FILE="+filepath.Join(t.TempDir(), "auth.json"))
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("skopeo %s %s: %v\n%s", strings.Join(extra, " "), ref, err, errb.String())
	}
	return out
}

type skopeoImage struct {
	Digest       string
	Labels       map[string]string
	Architecture string
}

func (e *e2e) skopeoImage(t *testing.T, extra []string, ref string) skopeoImage {
	t.Helper()
	var img skopeoImage
	if err := json.Unmarshal(e.skopeoInspect(t, extra, ref), &img); err != nil {
		t.Fatal(err)
	}
	return img
}

// checkBundle pushes the sample bundle with opack and compares with what skopeo sees; it returns
// everything opack printed.
func (e *e2e) checkBundle(t *testing.T, host string, env, creds []string) string {
	t.Helper()
	repo := host + "/demo/memcached-operator-bundle"
	digest, output := e.mustOpack(t, env, repo, "image", "bundle", bundleDir, "--tag", repo+":v0.0.1", "-v")
	got := e.skopeoImage(t, creds, repo+":v0.0.1")
	if got.Digest != digest {
		t.Errorf("registry digest %s, opack printed %s", got.Digest, digest)
	}
	if d := cmp.Diff(readBundleAnnotations(t), got.Labels); d != "" {
		t.Errorf("registry labels (-annotations.yaml +registry):\n%s", d)
	}
	inspect, _, err := e.opack(t, env, "image", "inspect", repo+":v0.0.1", "-o", "json")
	if err != nil || !strings.Contains(inspect, `"digest": "`+digest+`"`) {
		t.Errorf("opack image inspect: %v\n%s", err, inspect)
	}
	return output
}

func readBundleAnnotations(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(bundleDir, "metadata", "annotations.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Annotations map[string]string `json:"annotations"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Annotations
}

// checkReproducible pushes the bundle again from a copy whose mtimes all changed: same digest.
func (e *e2e) checkReproducible(t *testing.T, host string, env []string) {
	t.Helper()
	repo := host + "/demo/memcached-operator-bundle"
	first, _ := e.mustOpack(t, env, repo, "image", "bundle", bundleDir, "--tag", repo+":first")
	dir := copyTree(t, bundleDir)
	later := time.Now().Add(48 * time.Hour)
	filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err == nil {
			err = os.Chtimes(p, later, later)
		}
		return err
	})
	second, _ := e.mustOpack(t, env, repo, "image", "bundle", dir, "--tag", repo+":second")
	if first != second {
		t.Errorf("digest changed after touching every file: %s then %s", first, second)
	}
}

// checkCatalog pushes a two-platform catalog and checks the index digest and each platform's label.
func (e *e2e) checkCatalog(t *testing.T, host string, env []string) {
	t.Helper()
	repo := host + "/demo/catalog"
	digest, _ := e.mustOpack(t, env, repo, "image", "catalog", catalogFBC, "--tag", repo+":latest", "--platform", "linux/amd64,linux/arm64")
	raw := e.skopeoInspect(t, []string{"--raw"}, repo+":latest")
	if sum := sha256.Sum256(raw); "sha256:"+hex.EncodeToString(sum[:]) != digest {
		t.Errorf("registry index digest sha256:%x, opack printed %s", sum, digest)
	}
	for _, arch := range []string{"amd64", "arm64"} {
		img := e.skopeoImage(t, []string{"--override-arch", arch}, repo+":latest")
		if img.Architecture != arch || img.Labels[CatalogConfigsLabel] != "/configs" {
			t.Errorf("%s: architecture %s labels %v", arch, img.Architecture, img.Labels)
		}
	}
	dst := filepath.Join(t.TempDir(), "catalog")
	if _, err := Unpack(t.Context(), repo+":latest", dst, WithPlatforms(arm64)); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(treeFiles(t, catalogFBC), treeFiles(t, filepath.Join(dst, "configs"))); d != "" {
		t.Errorf("unpacked catalog (-want +got):\n%s", d)
	}
}

func htpasswdLine(t *testing.T, user, password string) string {
	t.Helper()
	h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
	if err != nil {
		t.Fatal(err)
	}
	return user + ":" + string(h)
}

// dockerConfig writes a docker config.json holding user:password for host and returns its folder.
func dockerConfig(t *testing.T, host, user, password string) string {
	t.Helper()
	dir := t.TempDir()
	auth := base64.StdEncoding.EncodeToString([]byte(user + ":" + password))
	data := fmt.Sprintf(`{"auths":{%q:{"auth":%q}}}`, host, auth)
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

func assertNoSecret(t *testing.T, output, password, user string) {
	t.Helper()
	for _, secret := range []string{password, base64.StdEncoding.EncodeToString([]byte(user + ":" + password))} {
		if strings.Contains(output, secret) {
			t.Errorf("opack's output contains a secret:\n%s", output)
		}
	}
}

func randomHex(t *testing.T) string {
	t.Helper()
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}
