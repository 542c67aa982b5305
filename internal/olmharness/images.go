package olmharness

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/opack/opack/internal/olmtest"
)

// imageConfig is what the kubelet reads of an image's configuration.
type imageConfig struct {
	Entrypoint, Cmd, Env []string
	WorkingDir           string
}

// imageRoot returns a fresh root filesystem of ref and its configuration: one of the harness's own
// images, else the image copied from its registry with skopeo (olmtest.Unpack).
func (k *Kubelet) imageRoot(ref string) (string, imageConfig, error) {
	if mk, ok := k.images[ref]; ok {
		return mk(k.t), imageConfig{}, nil
	}
	k.mu.Lock()
	policy := k.policy
	k.mu.Unlock()
	if policy != nil {
		img, err := olmtest.UnpackVerified(k.t, *policy, "docker://"+ref)
		if err != nil {
			k.logf("image %s refused: %v", ref, err)
			return "", imageConfig{}, err
		}
		k.logf("image %s pulled, verified by %s", ref, policy.Policy)
		return img.Root, imageConfig{Entrypoint: img.Config.Entrypoint, Cmd: img.Config.Cmd, Env: img.Config.Env, WorkingDir: img.Config.WorkingDir}, nil
	}
	img := olmtest.Unpack(k.t, "docker://"+ref)
	return img.Root, imageConfig{Entrypoint: img.Config.Entrypoint, Cmd: img.Config.Cmd, Env: img.Config.Env, WorkingDir: img.Config.WorkingDir}, nil
}

// RootWith returns a function making a root filesystem holding the given files (path in the root →
// file on the host), executable, and the host's dynamic libraries they need: an image of OLM's own made
// of the real programs.
func RootWith(files map[string]string) func(t testing.TB) string {
	return func(t testing.TB) string {
		t.Helper()
		root := t.TempDir()
		for dst, src := range files {
			if err := linkOrCopy(src, filepath.Join(root, dst), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := copyLibraries(src, root); err != nil {
				t.Fatal(err)
			}
		}
		return root
	}
}

var lddPath = regexp.MustCompile(`(?m)(/\S+\.so[.0-9]*)\s`)

// copyLibraries copies the shared libraries ldd lists for bin into root (none for a static binary).
func copyLibraries(bin, root string) error {
	out, err := exec.Command("ldd", bin).Output()
	if err != nil {
		return nil // "not a dynamic executable"
	}
	for _, m := range lddPath.FindAllStringSubmatch(string(out)+"\n", -1) {
		lib, err := filepath.EvalSymlinks(m[1])
		if err != nil {
			return fmt.Errorf("resolving %s: %w", m[1], err)
		}
		if err := copyFile(lib, filepath.Join(root, m[1]), 0o755); err != nil {
			return err
		}
	}
	return nil
}

// linkOrCopy hard-links src at dst when src already has mode and both are on one file system, else
// copies it. Every pod of an image made by RootWith gets a root of its own, but its programs (opm alone is
// 100 MB) are shared: nothing writes to them. Copies filled the disk with many catalog pods and unpack Jobs.
func linkOrCopy(src, dst string, mode os.FileMode) error {
	if fi, err := os.Stat(src); err == nil && fi.Mode().Perm() == mode {
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if os.Link(src, dst) == nil {
			return nil
		}
	}
	return copyFile(src, dst, mode)
}

func copyFile(src, dst string, mode os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chmod(dst, mode)
}

// copyTree copies the folder src to dst (made if missing), keeping modes and owners.
func copyTree(src, dst string) error {
	return filepath.Walk(src, func(path string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case fi.IsDir():
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
			if err := os.Chmod(target, fi.Mode().Perm()|fi.Mode()&os.ModeSticky); err != nil {
				return err
			}
		case fi.Mode().IsRegular():
			if err := copyFile(path, target, fi.Mode().Perm()); err != nil {
				return err
			}
		case fi.Mode()&os.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			if err := os.Symlink(link, target); err != nil {
				return err
			}
			return nil
		default:
			return fmt.Errorf("%s: not a regular file, folder or symlink", path)
		}
		if st, ok := statOwner(fi); ok {
			return os.Lchown(target, st[0], st[1])
		}
		return nil
	})
}

// mkEmptyDir makes a folder as kubelet makes an emptyDir volume: world-writable.
func mkEmptyDir(dir string) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	return os.Chmod(dir, 0o777)
}

// kubeletFiles writes the files kubelet mounts into every container, and files (path in the root →
// content; the service account's, readable by any user, as kubelet's projected volume is).
func kubeletFiles(root string, files map[string][]byte) error {
	all := map[string][]byte{
		"etc/hosts":       []byte("127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n"),
		"etc/resolv.conf": []byte("nameserver 127.0.0.1\noptions ndots:5\n"),
		"etc/hostname":    []byte("pod\n"),
	}
	for k, v := range files {
		all[k] = v
	}
	for name, data := range all {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	return mkEmptyDir(filepath.Join(root, "dev")) // kubelet mounts the termination log here
}
