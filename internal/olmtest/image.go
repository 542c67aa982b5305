package olmtest

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"

	v1 "github.com/google/go-containerregistry/pkg/v1"
)

// Image is a container image unpacked into a root filesystem.
type Image struct {
	Root   string
	Config v1.Config
	// Size is the size of its layers as stored (compressed).
	Size int64
}

// Unpack copies the image ref (a skopeo transport reference such as oci:DIR:TAG or docker://HOST/REPO:TAG)
// with skopeo into a dir: copy and applies its layers in order into a new root folder, keeping the
// permission bits of the layers, as a container runtime does. It is a reader independent of opack's.
func Unpack(t testing.TB, ref string) *Image {
	t.Helper()
	skopeo, err := exec.LookPath("skopeo")
	if err != nil {
		t.Skip("SKIP: skopeo is not installed; `make test-deps` installs it (apt-get install skopeo)")
	}
	dir := filepath.Join(t.TempDir(), "image")
	cmd := exec.Command(skopeo, "copy", "--quiet", "--src-tls-verify=false", ref, "dir:"+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("skopeo copy %s: %v\n%s", ref, err, out)
	}
	return unpackDir(t, ref, dir)
}

// NodePolicy is the image policy a node enforces when it pulls: Copier is a `skopeo copy` that
// honours --policy and --registries.d (hack/build-apiserver.sh imagecopy: containers/image, as
// CRI-O pulls), Policy a containers policy.json and RegistriesD its registries.d folder.
type NodePolicy struct {
	Copier, Policy, RegistriesD string
}

// UnpackVerified is Unpack of a registry image (docker://...) pulled as a node enforcing p pulls
// it: an image the policy refuses is an error carrying the copier's message, as a pull a runtime
// refuses (SignatureValidationFailed).
func UnpackVerified(t testing.TB, p NodePolicy, ref string) (*Image, error) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "image")
	cmd := exec.Command(p.Copier, "--policy", p.Policy, "--registries.d", p.RegistriesD, "--src-tls-verify=false", ref, "dir:"+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("pulling %s under %s: %v: %s", ref, p.Policy, err, strings.TrimSpace(string(out)))
	}
	return unpackDir(t, ref, dir), nil
}

// unpackDir applies the layers of the image copied into dir (skopeo's dir: transport) to a new root.
func unpackDir(t testing.TB, ref, dir string) *Image {
	t.Helper()
	var m v1.Manifest
	readJSON(t, filepath.Join(dir, "manifest.json"), &m)
	var cf v1.ConfigFile
	readJSON(t, filepath.Join(dir, m.Config.Digest.Hex), &cf)
	root := filepath.Join(t.TempDir(), "rootfs")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	img := &Image{Root: root, Config: cf.Config}
	for _, l := range m.Layers {
		img.Size += l.Size
		if err := applyLayer(root, filepath.Join(dir, l.Digest.Hex)); err != nil {
			t.Fatalf("unpacking layer %s of %s: %v", l.Digest, ref, err)
		}
	}
	return img
}

func readJSON(t testing.TB, file string, v any) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("reading %s: %v", file, err)
	}
}

// applyLayer extracts a (possibly gzip-compressed) layer tar into root: directories and regular files
// with their modes, whiteouts removing lower entries.
func applyLayer(root, blob string) error {
	f, err := os.Open(blob)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var r io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return err
		}
		r = zr
	}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := path.Clean("/" + h.Name)
		if name == "/" {
			continue
		}
		target := filepath.Join(root, filepath.FromSlash(name))
		if base := path.Base(name); strings.HasPrefix(base, ".wh.") {
			if err := os.RemoveAll(filepath.Join(filepath.Dir(target), strings.TrimPrefix(base, ".wh."))); err != nil {
				return err
			}
			continue
		}
		mode := os.FileMode(h.Mode & 0o777)
		if h.Mode&0o1000 != 0 {
			mode |= os.ModeSticky
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			w, err := os.OpenFile(target, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
			if err != nil {
				return err
			}
			_, err = io.Copy(w, tr)
			if cerr := w.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		default:
			return fmt.Errorf("%s: entry type %q not supported by this reader", h.Name, h.Typeflag)
		}
		if err := os.Chmod(target, mode); err != nil { // exact bits, whatever the umask
			return err
		}
		if os.Geteuid() == 0 {
			if err := os.Lchown(target, h.Uid, h.Gid); err != nil {
				return err
			}
		}
	}
}
