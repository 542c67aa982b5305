package image

import (
	"archive/tar"
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// ArchivePrefix marks a reference to a docker-save tarball (docker save, crane pull, opack image
// bundle --tarball): "docker-archive:FILE" or "docker-archive:FILE:REPO:TAG", as skopeo writes it.
const ArchivePrefix = "docker-archive:"

// maxArchiveManifest bounds the manifest.json of a tarball (a few hundred bytes per image).
const maxArchiveManifest = 4 << 20

// archiveRef names one image in a docker-save tarball.
type archiveRef struct {
	file string
	tag  string // a RepoTags entry; empty when not given
}

func (r archiveRef) String() string {
	if r.tag == "" {
		return ArchivePrefix + r.file
	}
	return ArchivePrefix + r.file + ":" + r.tag
}

// parseArchiveRef parses "docker-archive:FILE[:REPO:TAG]"; ok is false without the prefix. FILE
// is the whole rest when such a file exists, else what precedes the first ":".
func parseArchiveRef(s string) (ref archiveRef, ok bool, err error) {
	rest, ok := strings.CutPrefix(s, ArchivePrefix)
	if !ok {
		return archiveRef{}, false, nil
	}
	ref.file = rest
	if _, err := os.Stat(rest); err != nil {
		if f, tag, found := strings.Cut(rest, ":"); found {
			if _, err := name.NewTag(tag, name.StrictValidation); err != nil {
				return archiveRef{}, true, fmt.Errorf("parsing %q: bad image reference %q (want REPO:TAG): %w", s, tag, err)
			}
			ref.file, ref.tag = f, tag
		}
	}
	if ref.file == "" {
		return archiveRef{}, true, fmt.Errorf("parsing %q: missing file after %q", s, ArchivePrefix)
	}
	return ref, true, nil
}

// fetchArchive reads the image r names from a docker-save tarball, after checkArchive, with the
// full reference the tarball records for it ("" when it records none or several).
func (o *options) fetchArchive(r archiveRef) (Artifact, string, error) {
	repoTags, err := checkArchive(r.file, o.maxSize)
	if err != nil {
		return nil, "", err
	}
	opener := func() (io.ReadCloser, error) { return os.Open(r.file) }
	var tag *name.Tag
	recorded := r.tag
	if r.tag != "" {
		t, err := name.NewTag(r.tag)
		if err != nil {
			return nil, "", fmt.Errorf("reading %s: %w", r, err)
		}
		tag = &t
		if !hasTag(repoTags, t) {
			return nil, "", fmt.Errorf("reading %s: the tarball holds no image tagged %s (tags: %s)", r, r.tag, tagList(repoTags))
		}
	} else if len(repoTags) > 1 {
		return nil, "", fmt.Errorf("reading %s: the tarball holds %d images; name one as %s%s:REPO:TAG (tags: %s)", r, len(repoTags), ArchivePrefix, r.file, tagList(repoTags))
	} else if len(repoTags) == 1 && len(repoTags[0]) == 1 {
		recorded = repoTags[0][0]
	}
	img, err := tarball.Image(opener, tag)
	if err != nil {
		return nil, "", fmt.Errorf("reading %s: %w", r, err)
	}
	return img, recorded, nil
}

// checkArchive reads the tar headers of file once and refuses a hostile or broken tarball before
// go-containerregistry reads it: entries leaving the archive (absolute, ".."), links pointing out
// of it or at no file, special files, entries over limit bytes, a missing or huge manifest.json.
// It returns the RepoTags of each image of the manifest.
func checkArchive(file string, limit int64) ([][]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("reading tarball: %w", err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		return nil, fmt.Errorf("reading tarball %s: it is gzip-compressed; gunzip it first (docker save and crane write plain tar)", file)
	}
	files, links := map[string]bool{}, map[string]string{}
	var manifest []byte
	tr := tar.NewReader(br)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading tarball %s: %w (is it a tar archive?)", file, err)
		}
		n, err := archiveEntryName(hdr.Name)
		if err != nil {
			return nil, hostile(file, hdr.Name, err.Error())
		}
		switch hdr.Typeflag {
		case tar.TypeDir:
		case tar.TypeReg, tar.TypeRegA:
			if hdr.Size > limit {
				return nil, hostile(file, hdr.Name, fmt.Sprintf("holds %d bytes, over the %d-byte limit", hdr.Size, limit))
			}
			files[n] = true
			if n == "manifest.json" {
				if hdr.Size > maxArchiveManifest {
					return nil, hostile(file, hdr.Name, fmt.Sprintf("holds %d bytes, over the %d-byte limit", hdr.Size, maxArchiveManifest))
				}
				if manifest, err = io.ReadAll(tr); err != nil {
					return nil, fmt.Errorf("reading tarball %s: %w", file, err)
				}
			}
		case tar.TypeSymlink, tar.TypeLink:
			target := path.Clean(hdr.Linkname)
			if hdr.Typeflag == tar.TypeSymlink && !path.IsAbs(hdr.Linkname) {
				target = path.Join(path.Dir(n), hdr.Linkname)
			}
			if path.IsAbs(hdr.Linkname) || target == ".." || strings.HasPrefix(target, "../") {
				return nil, hostile(file, hdr.Name, fmt.Sprintf("links to %q, out of the archive", hdr.Linkname))
			}
			links[n] = target
		default:
			return nil, hostile(file, hdr.Name, fmt.Sprintf("is a special file (type %q)", hdr.Typeflag))
		}
	}
	for _, l := range sortedLinks(links) {
		if !files[links[l]] {
			return nil, hostile(file, l, fmt.Sprintf("links to %q, which is no regular file of the archive", links[l]))
		}
	}
	if manifest == nil {
		return nil, fmt.Errorf("reading tarball %s: no manifest.json, so not a docker-save tarball; write it with docker save or crane pull, or read an OCI layout folder as %sDIR", file, LayoutPrefix)
	}
	var m tarball.Manifest
	if err := json.Unmarshal(manifest, &m); err != nil {
		return nil, fmt.Errorf("reading tarball %s: manifest.json: %w", file, err)
	}
	var tags [][]string
	for _, d := range m {
		for _, p := range append([]string{d.Config}, d.Layers...) {
			if q := path.Clean(p); !files[q] && links[q] == "" {
				return nil, hostile(file, "manifest.json", fmt.Sprintf("names %q, which the archive does not hold", p))
			}
		}
		tags = append(tags, d.RepoTags)
	}
	if len(tags) == 0 {
		return nil, fmt.Errorf("reading tarball %s: manifest.json lists no image", file)
	}
	return tags, nil
}

// isArchiveFile reports whether file is a tar archive with a manifest.json at its root, as docker
// save and crane write; only the headers are read.
func isArchiveFile(file string) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	tr := tar.NewReader(f)
	for {
		hdr, err := tr.Next()
		if err != nil {
			return false
		}
		if path.Clean(strings.TrimPrefix(hdr.Name, "./")) == "manifest.json" {
			return true
		}
	}
}

// archiveEntryName is the clean relative name of a tar entry, or why it leaves the archive.
func archiveEntryName(raw string) (string, error) {
	n := path.Clean(strings.TrimPrefix(raw, "./"))
	if path.IsAbs(raw) || n == ".." || strings.HasPrefix(n, "../") {
		return "", errors.New("leaves the archive (path traversal)")
	}
	return n, nil
}

func hostile(file, entry, why string) error {
	return fmt.Errorf("reading tarball %s: entry %q %s; refusing a hostile or corrupt archive: write it again with docker save, crane pull or opack image bundle|catalog --tarball", file, entry, why)
}

func sortedLinks(links map[string]string) []string {
	out := make([]string, 0, len(links))
	for l := range links {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

func hasTag(repoTags [][]string, t name.Tag) bool {
	for _, tags := range repoTags {
		for _, rt := range tags {
			if rtTag, err := name.NewTag(rt, name.WeakValidation); err == nil && rtTag.Name() == t.Name() {
				return true
			}
		}
	}
	return false
}

func tagList(repoTags [][]string) string {
	var all []string
	for _, tags := range repoTags {
		all = append(all, tags...)
	}
	if len(all) == 0 {
		return "none"
	}
	sort.Strings(all)
	return strings.Join(all, ", ")
}
