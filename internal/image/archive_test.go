package image

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// writeTar writes entries as a tar file and returns its path.
func writeTar(t *testing.T, entries ...entry) string {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		h := &tar.Header{Name: e.Name, Typeflag: e.Type, Mode: 0o644, Linkname: e.Linkname, Size: int64(len(e.Body))}
		if e.Type != tar.TypeReg {
			h.Size = 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(e.Body)); err != nil && e.Type == tar.TypeReg {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "image.tar")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// saveTarball writes imgs as one docker-save tarball, tagged as given.
func saveTarball(t *testing.T, imgs map[string]v1.Image) string {
	t.Helper()
	refs := map[name.Reference]v1.Image{}
	for tag, img := range imgs {
		ref, err := name.ParseReference(tag)
		if err != nil {
			t.Fatal(err)
		}
		refs[ref] = img
	}
	file := filepath.Join(t.TempDir(), "images.tar")
	if err := tarball.MultiRefWriteToFile(file, refs); err != nil {
		t.Fatal(err)
	}
	return file
}

func TestArchiveSource(t *testing.T) {
	bundle, err := Bundle(t.Context(), bundleDir, WithFormat(FormatDocker))
	if err != nil {
		t.Fatal(err)
	}
	other := imageOf(t, tarLayer(t, entry{Name: "other", Type: tar.TypeReg, Body: "x"}))
	one := saveTarball(t, map[string]v1.Image{"quay.io/example/bundle:v1": bundle})
	two := saveTarball(t, map[string]v1.Image{"quay.io/example/bundle:v1": bundle, "quay.io/example/other:v2": other})
	want := treeFiles(t, bundleDir)
	for _, tc := range []struct {
		name, ref string
		wantName  string
		wantErr   string
	}{
		{name: "one image", ref: ArchivePrefix + one, wantName: "quay.io/example/bundle:v1"},
		{name: "one image, tagged", ref: ArchivePrefix + one + ":quay.io/example/bundle:v1", wantName: "quay.io/example/bundle:v1"},
		{name: "two images, tagged", ref: ArchivePrefix + two + ":quay.io/example/bundle:v1", wantName: "quay.io/example/bundle:v1"},
		{name: "two images, untagged", ref: ArchivePrefix + two, wantErr: "the tarball holds 2 images; name one as docker-archive:" + two + ":REPO:TAG (tags: quay.io/example/bundle:v1, quay.io/example/other:v2)"},
		{name: "no such tag", ref: ArchivePrefix + one + ":quay.io/example/bundle:v9", wantErr: "the tarball holds no image tagged quay.io/example/bundle:v9 (tags: quay.io/example/bundle:v1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := NewPuller()
			r, err := p.Inspect(t.Context(), tc.ref)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Inspect() error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantName, r.Name); diff != "" {
				t.Errorf("recorded name (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(mustDigest(t, bundle).String(), r.Digest); diff != "" {
				t.Errorf("digest (-want +got):\n%s", diff)
			}
			dst := filepath.Join(t.TempDir(), "out")
			if _, err := p.Unpack(t.Context(), tc.ref, dst); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, treeFiles(t, dst)); diff != "" {
				t.Errorf("unpacked files (-want +got):\n%s", diff)
			}
		})
	}
}

func TestArchiveHostile(t *testing.T) {
	manifest := entry{Name: "manifest.json", Type: tar.TypeReg, Body: `[{"Config":"config.json","RepoTags":["x/y:v1"],"Layers":["l.tar"]}]`}
	config := entry{Name: "config.json", Type: tar.TypeReg, Body: `{}`}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("x"))
	zw.Close()
	gzFile := filepath.Join(t.TempDir(), "image.tar.gz")
	if err := os.WriteFile(gzFile, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		file    string
		opts    []Option
		wantErr string
	}{
		{"path traversal", writeTar(t, manifest, config, entry{Name: "../evil", Type: tar.TypeReg, Body: "x"}), nil,
			`entry "../evil" leaves the archive (path traversal); refusing a hostile or corrupt archive: write it again with docker save`},
		{"absolute path", writeTar(t, manifest, config, entry{Name: "/etc/evil", Type: tar.TypeReg, Body: "x"}), nil,
			`entry "/etc/evil" leaves the archive (path traversal)`},
		{"symlink out", writeTar(t, manifest, config, entry{Name: "l.tar", Type: tar.TypeSymlink, Linkname: "../../etc/passwd"}), nil,
			`entry "l.tar" links to "../../etc/passwd", out of the archive`},
		{"absolute symlink", writeTar(t, manifest, config, entry{Name: "l.tar", Type: tar.TypeSymlink, Linkname: "/etc/passwd"}), nil,
			`entry "l.tar" links to "/etc/passwd", out of the archive`},
		{"symlink loop", writeTar(t, manifest, config, entry{Name: "l.tar", Type: tar.TypeSymlink, Linkname: "m.tar"}, entry{Name: "m.tar", Type: tar.TypeSymlink, Linkname: "l.tar"}), nil,
			`entry "l.tar" links to "m.tar", which is no regular file of the archive`},
		{"fifo", writeTar(t, manifest, config, entry{Name: "l.tar", Type: tar.TypeFifo}), nil,
			`entry "l.tar" is a special file`},
		{"huge entry", writeTar(t, manifest, config, entry{Name: "l.tar", Type: tar.TypeReg, Body: strings.Repeat("x", 2048)}), []Option{WithMaxSize(1024)},
			`entry "l.tar" holds 2048 bytes, over the 1024-byte limit`},
		{"missing layer", writeTar(t, manifest, config), nil,
			`entry "manifest.json" names "l.tar", which the archive does not hold`},
		{"no manifest", writeTar(t, config), nil,
			`no manifest.json, so not a docker-save tarball`},
		{"gzip", gzFile, nil,
			`it is gzip-compressed; gunzip it first`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ref := ArchivePrefix + tc.file
			_, err := NewPuller(tc.opts...).Unpack(t.Context(), ref, filepath.Join(t.TempDir(), "out"))
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), tc.file) {
				t.Errorf("Unpack(%s) error = %v, want one naming the file and %q", ref, err, tc.wantErr)
			}
		})
	}
}

func TestParseArchiveSource(t *testing.T) {
	file := saveTarball(t, map[string]v1.Image{"quay.io/example/bundle:v1": imageOf(t)})
	missing := filepath.Join(t.TempDir(), "nope.tar")
	plainTar := writeTar(t, entry{Name: "catalog.json", Type: tar.TypeReg, Body: "{}"})
	for _, tc := range []struct {
		arg     string
		want    Source
		wantErr string
	}{
		{arg: ArchivePrefix + file, want: Source{Kind: SourceArchive, Arg: ArchivePrefix + file, Path: file, Ref: ArchivePrefix + file}},
		{arg: ArchivePrefix + file + ":quay.io/example/bundle:v1", want: Source{Kind: SourceArchive, Arg: ArchivePrefix + file + ":quay.io/example/bundle:v1", Path: file, Ref: ArchivePrefix + file + ":quay.io/example/bundle:v1"}},
		{arg: file, want: Source{Kind: SourceArchive, Arg: file, Path: file, Ref: ArchivePrefix + file}},
		{arg: plainTar, want: Source{Kind: SourcePath, Arg: plainTar, Path: plainTar}},
		{arg: ArchivePrefix + missing, wantErr: ArchivePrefix + missing + ": no such tarball " + missing},
		{arg: ArchivePrefix + file + ":Bad Ref", wantErr: "bad image reference"},
		{arg: ArchivePrefix, wantErr: "missing file after"},
	} {
		t.Run(tc.arg, func(t *testing.T) {
			got, err := ParseSource(tc.arg)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ParseSource(%q) error = %v, want %q", tc.arg, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParseSource(%q) (-want +got):\n%s", tc.arg, diff)
			}
		})
	}
}
