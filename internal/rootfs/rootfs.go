// Package rootfs confines what opack does with a project's files to the project: a path given
// relative to a root is resolved component by component, following a symlink only while every
// step stays below the root, and a file is read only when it is a regular file within the size
// limits of internal/manifest. It is the one place where a path of the (untrusted) repository
// becomes a path opack opens; writers use os.Root on the same root (internal/txn).
package rootfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/opack/opack/internal/manifest"
	"sigs.k8s.io/yaml"
)

// maxHops bounds the symlinks followed while resolving one path, as the kernel's ELOOP does.
const maxHops = 40

// EscapeError is a path that leaves its root: through a symlink (Link, with its Target), or
// because it is absolute or climbs out with "..".
type EscapeError struct {
	Path   string // the path as given, relative to the root
	Link   string // the symlink that leads out, relative to the root ("" when the path itself does)
	Target string // what Link points to
}

func (e *EscapeError) Error() string {
	if e.Link == "" {
		return fmt.Sprintf("%s: not a relative path inside the project", e.Path)
	}
	via := ""
	if e.Link != e.Path {
		via = " (through " + e.Link + ")"
	}
	return fmt.Sprintf("%s%s: the symlink %s points to %s, outside the project; opack reads and writes only inside the project: replace the symlink with the file or folder itself",
		e.Path, via, e.Link, e.Target)
}

// SpecialFileError is a path that is a device, FIFO, socket or other non-regular file where a
// file was expected: reading one could block forever or never end.
type SpecialFileError struct {
	Path string
	Mode fs.FileMode
}

func (e *SpecialFileError) Error() string {
	return fmt.Sprintf("%s: not a regular file (%s); opack reads only regular files from the project: replace it with a file", e.Path, kind(e.Mode))
}

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
}

// Real returns dir as an absolute path with its symlinks resolved: the root every check compares
// with (the project's own location may well be reached through a symlink).
func Real(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("resolving %s: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("resolving %s: %w", dir, err)
	}
	return real, nil
}

// Resolve returns the real location of rel (a slash or OS path relative to root): every symlink
// on the way is followed only while it stays below root, so the result lies below root or an
// *EscapeError names the symlink that leaves it. Components that do not exist yet are kept as
// written (an output about to be created).
func Resolve(root, rel string) (string, error) {
	realRoot, err := Real(root)
	if err != nil {
		return "", err
	}
	return resolveIn(realRoot, rel)
}

func resolveIn(realRoot, rel string) (string, error) {
	orig := filepath.FromSlash(rel)
	if !filepath.IsLocal(orig) {
		return "", &EscapeError{Path: filepath.ToSlash(rel)}
	}
	comps := split(orig)
	cur, hops := realRoot, 0
	var viaLink, viaTarget string // the last symlink followed: what a climb out of the root went through
	for len(comps) > 0 {
		c := comps[0]
		comps = comps[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if cur == realRoot {
				return "", &EscapeError{Path: filepath.ToSlash(rel), Link: viaLink, Target: viaTarget}
			}
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, c)
		fi, err := os.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			for _, rest := range comps {
				if rest == ".." { // the kernel stops at the missing folder too
					return "", fmt.Errorf("resolving %s: %w", rel, err)
				}
			}
			return filepath.Join(append([]string{next}, comps...)...), nil
		}
		if err != nil {
			return "", fmt.Errorf("resolving %s: %w", rel, err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if hops++; hops > maxHops {
			return "", fmt.Errorf("resolving %s: more than %d symlinks", rel, maxHops)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", fmt.Errorf("resolving %s: %w", rel, err)
		}
		link := relTo(realRoot, next)
		restart, ok := linkStart(realRoot, cur, target)
		if !ok {
			return "", &EscapeError{Path: filepath.ToSlash(rel), Link: link, Target: target}
		}
		cur, viaLink, viaTarget = restart.from, link, target
		comps = append(split(restart.rest), comps...)
	}
	return cur, nil
}

type start struct{ from, rest string }

// linkStart is where a symlink's target is resolved from: the folder holding the link for a
// relative target, the root for an absolute target below the root; ok is false for an absolute
// target elsewhere.
func linkStart(realRoot, dir, target string) (start, bool) {
	if !filepath.IsAbs(target) {
		return start{dir, target}, true
	}
	t := filepath.Clean(target)
	if !within(realRoot, t) {
		return start{}, false
	}
	r, _ := filepath.Rel(realRoot, t)
	return start{realRoot, r}, true
}

func split(p string) []string {
	return strings.Split(filepath.ToSlash(p), "/")
}

func within(root, p string) bool {
	return p == root || strings.HasPrefix(p, root+string(filepath.Separator)) || root == string(filepath.Separator)
}

func relTo(root, p string) string {
	r, err := filepath.Rel(root, p)
	if err != nil {
		return p
	}
	return filepath.ToSlash(r)
}

// Rel returns path (absolute, or relative to the working folder) relative to root, for callers
// that hold a joined path; a path not below root lexically is an *EscapeError.
func Rel(root, path string) (string, error) {
	ar, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	ap, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	r, err := filepath.Rel(ar, ap)
	if err != nil || !filepath.IsLocal(r) {
		return "", &EscapeError{Path: filepath.ToSlash(path)}
	}
	return r, nil
}

// Stat resolves rel below root and returns the file's information (not following a final
// symlink, which Resolve has already followed inside the root).
func Stat(root, rel string) (string, fs.FileInfo, error) {
	p, err := Resolve(root, rel)
	if err != nil {
		return "", nil, err
	}
	fi, err := os.Lstat(p)
	return p, fi, err
}

// ReadFile reads rel below root: a regular file reached without leaving root, within the
// limits of internal/manifest (opts, or the process-wide defaults). A FIFO, device or socket is
// refused before it is opened, so a planted FIFO cannot block opack.
func ReadFile(root, rel string, opts ...manifest.Option) ([]byte, error) {
	p, fi, err := Stat(root, rel)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &SpecialFileError{Path: filepath.ToSlash(filepath.Join(root, rel)), Mode: fi.Mode()}
	}
	data, err := manifest.ReadBytes(p, opts...)
	if err != nil {
		return nil, renamed(err, p, filepath.Join(root, rel))
	}
	return data, nil
}

// renamed names the file as the caller named it in a limit error, not by its resolved path.
func renamed(err error, real, given string) error {
	var le *manifest.LimitError
	if errors.As(err, &le) && le.File == real {
		c := *le
		c.File = given
		return &c
	}
	return err
}

// ReadYAML decodes the YAML file at path into v (sigs.k8s.io/yaml), reading it as ReadFile does
// below the file's own folder: a regular file within the limits. A missing file leaves v alone.
func ReadYAML(path string, v any) error {
	data, err := ReadFile(filepath.Dir(path), filepath.Base(path))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	return nil
}
