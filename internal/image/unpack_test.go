package image

import (
	"archive/tar"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "github.com/google/go-containerregistry/pkg/v1"
)

func TestUnpackBundle(t *testing.T) {
	bundle, err := Bundle(t.Context(), bundleDir)
	if err != nil {
		t.Fatal(err)
	}
	host := newRegistry(t, nil)
	rp, _ := NewRegistryPublisher(host+"/demo/bundle:v0.0.1", testOptions()...)
	if _, err := rp.Publish(t.Context(), bundle); err != nil {
		t.Fatal(err)
	}
	layoutDir := filepath.Join(t.TempDir(), "oci")
	lp, _ := NewLayoutPublisher(layoutDir, "v0.0.1")
	layoutOut, err := lp.Publish(t.Context(), bundle)
	if err != nil {
		t.Fatal(err)
	}
	want := treeFiles(t, bundleDir)
	for _, ref := range []string{host + "/demo/bundle:v0.0.1", "oci:" + layoutDir + ":v0.0.1", layoutOut, "oci:" + layoutDir} {
		t.Run(ref, func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), "out")
			got, err := Unpack(t.Context(), ref, dst, testOptions()...)
			if err != nil {
				t.Fatal(err)
			}
			if got.Digest != mustDigest(t, bundle) || got.Labels["operators.operatorframework.io.bundle.package.v1"] != "memcached-operator" {
				t.Errorf("Unpack() = %+v", got)
			}
			if d := cmp.Diff(want, treeFiles(t, dst)); d != "" {
				t.Errorf("unpacked tree (-want +got):\n%s", d)
			}
		})
	}
}

func TestUnpackCatalogIndex(t *testing.T) {
	idx, err := Catalog(t.Context(), catalogFBC, WithPlatforms(amd64, arm64))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "oci")
	lp, _ := NewLayoutPublisher(dir, "latest")
	if _, err := lp.Publish(t.Context(), idx); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "out")
	got, err := Unpack(t.Context(), "oci:"+dir+":latest", dst, WithPlatforms(arm64), WithUnpackPaths("/configs/foo"))
	if err != nil {
		t.Fatal(err)
	}
	if got.Digest != mustDigest(t, idx) || got.Labels[CatalogConfigsLabel] != "/configs" {
		t.Errorf("Unpack() = %+v", got)
	}
	foo, _ := os.ReadFile(filepath.Join(catalogFBC, "foo", "index.yaml"))
	if d := cmp.Diff(map[string]string{"configs/foo/index.yaml": string(foo)}, treeFiles(t, dst)); d != "" {
		t.Errorf("unpacked tree (-want +got):\n%s", d)
	}
	_, err = Unpack(t.Context(), "oci:"+dir+":latest", t.TempDir(), WithPlatforms(v1.Platform{OS: "linux", Architecture: "s390x"}))
	if err == nil || !strings.Contains(err.Error(), "no image for platform linux/s390x") {
		t.Errorf("Unpack(s390x) error = %v", err)
	}
}

func TestUnpackLayers(t *testing.T) {
	reg := func(name, body string) entry { return entry{Name: name, Type: tar.TypeReg, Body: body} }
	dir := func(name string) entry { return entry{Name: name, Type: tar.TypeDir} }
	sym := func(name, target string) entry { return entry{Name: name, Type: tar.TypeSymlink, Linkname: target} }
	hard := func(name, target string) entry { return entry{Name: name, Type: tar.TypeLink, Linkname: target} }
	for _, tc := range []struct {
		name    string
		layers  [][]entry // bottom first
		opts    []Option
		want    map[string]string
		wantErr string
	}{
		{name: "plain", layers: [][]entry{{dir("./a/"), reg("./a/f", "x"), reg("b", "y")}},
			want: map[string]string{"a/f": "x", "b": "y"}},
		{name: "whiteout and override", layers: [][]entry{{reg("a", "old"), reg("gone", "x")}, {reg("a", "new"), reg(".wh.gone", "")}},
			want: map[string]string{"a": "new"}},
		{name: "opaque directory", layers: [][]entry{{reg("a/x", "1"), reg("b", "2")}, {reg("a/.wh..wh..opq", ""), reg("a/z", "3")}},
			want: map[string]string{"a/z": "3", "b": "2"}},
		{name: "upper symlink hides lower directory", layers: [][]entry{{dir("d/"), reg("d/f", "x")}, {dir("e/"), sym("d", "e")}},
			want: map[string]string{"d": "-> e"}},
		{name: "links inside", layers: [][]entry{{dir("d/"), reg("d/f", "x"), sym("l", "d/f"), sym("d/up", "../d"), hard("h", "d/f")}},
			want: map[string]string{"d/f": "x", "l": "-> d/f", "d/up": "-> ../d", "h": "x"}},
		{name: "absolute path", layers: [][]entry{{reg("/etc/passwd", "x")}}, wantErr: `refusing entry "/etc/passwd": absolute path`},
		{name: "dotdot", layers: [][]entry{{reg("a/../../evil", "x")}}, wantErr: `path contains ".."`},
		{name: "absolute symlink", layers: [][]entry{{sym("l", "/etc/passwd")}}, wantErr: "must be a relative path inside the image"},
		{name: "symlink out", layers: [][]entry{{sym("a/l", "../../etc")}}, wantErr: "it leaves the tree"},
		{name: "symlink out through a symlink", layers: [][]entry{{sym("s", "."), sym("l", "s/../x")}}, wantErr: "followed through other symlinks it leaves the tree"},
		{name: "symlink loop", layers: [][]entry{{sym("a", "b"), sym("b", "a")}}, wantErr: "followed through other symlinks"},
		{name: "write through symlink", layers: [][]entry{{dir("d/"), sym("s", "d"), reg("s/f", "x")}}, wantErr: `lies below the symlink "s"`},
		{name: "hard link out", layers: [][]entry{{hard("h", "../etc/passwd")}}, wantErr: `refusing hard link "h"`},
		{name: "hard link to symlink", layers: [][]entry{{reg("f", "x"), sym("s", "f"), hard("h", "s")}}, wantErr: "is or lies below a symlink"},
		{name: "hard link to nothing", layers: [][]entry{{hard("h", "missing")}}, wantErr: "not a regular file in the image"},
		{name: "char device", layers: [][]entry{{{Name: "dev/null", Type: tar.TypeChar}}}, wantErr: "device files and FIFOs are not allowed"},
		{name: "block device", layers: [][]entry{{{Name: "sda", Type: tar.TypeBlock}}}, wantErr: "device files and FIFOs are not allowed"},
		{name: "fifo", layers: [][]entry{{{Name: "p", Type: tar.TypeFifo}}}, wantErr: "device files and FIFOs are not allowed"},
		{name: "too large", layers: [][]entry{{reg("big", strings.Repeat("z", 1<<16))}}, opts: []Option{WithMaxSize(1 << 12)}, wantErr: ErrTooLarge.Error()},
		{name: "filtered hostile entries are skipped", layers: [][]entry{{reg("configs/a", "x"), {Name: "dev/null", Type: tar.TypeChar}}},
			opts: []Option{WithUnpackPaths("configs")}, want: map[string]string{"configs/a": "x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var layers []v1.Layer
			for _, l := range tc.layers {
				layers = append(layers, tarLayer(t, l...))
			}
			dst := filepath.Join(t.TempDir(), "out")
			err := makeOptions(tc.opts...).extractTo(t.Context(), imageOf(t, layers...), dst)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("extract error = %v, want it to contain %q", err, tc.wantErr)
				}
				if _, statErr := os.Stat(dst); !errors.Is(statErr, os.ErrNotExist) {
					t.Errorf("%s left behind after a failed unpack (%v)", dst, statErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, treeFiles(t, dst)); d != "" {
				t.Errorf("unpacked tree (-want +got):\n%s", d)
			}
		})
	}
}

func TestUnpackDestination(t *testing.T) {
	img := imageOf(t, tarLayer(t, entry{Name: "f", Type: tar.TypeReg, Body: "x"}))
	o := makeOptions()
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "keep"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := o.extractTo(t.Context(), img, full); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("extract into a non-empty dir: error = %v", err)
	}
	if _, err := os.Stat(filepath.Join(full, "keep")); err != nil {
		t.Errorf("existing content touched: %v", err)
	}
	empty := t.TempDir()
	bad := imageOf(t, tarLayer(t, entry{Name: "f", Type: tar.TypeReg, Body: "x"}, entry{Name: "p", Type: tar.TypeFifo}))
	if err := o.extractTo(t.Context(), bad, empty); err == nil {
		t.Fatal("extract of a FIFO succeeded")
	}
	if entries, err := os.ReadDir(empty); err != nil || len(entries) != 0 {
		t.Errorf("pre-existing empty dst after failure: %v, %v; want it empty", entries, err)
	}
}

func TestParseLayoutRef(t *testing.T) {
	h := v1.Hash{Algorithm: "sha256", Hex: strings.Repeat("a", 64)}
	for _, tc := range []struct {
		in      string
		want    layoutRef
		wantOK  bool
		wantErr bool
	}{
		{in: "quay.io/x/y:v1"},
		{in: "oci:out", want: layoutRef{dir: "out"}, wantOK: true},
		{in: "oci:out/oci:v0.1.0", want: layoutRef{dir: "out/oci", tag: "v0.1.0"}, wantOK: true},
		{in: "oci:/a:b/c", want: layoutRef{dir: "/a:b/c"}, wantOK: true},
		{in: "oci:out@" + h.String(), want: layoutRef{dir: "out", digest: &h}, wantOK: true},
		{in: "oci:", wantOK: true, wantErr: true},
		{in: "oci:out:bad!tag", wantOK: true, wantErr: true},
		{in: "oci:out@sha256:nope", wantOK: true, wantErr: true},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, ok, err := parseLayoutRef(tc.in)
			if ok != tc.wantOK || (err != nil) != tc.wantErr {
				t.Fatalf("parseLayoutRef() = %v, %v, %v", got, ok, err)
			}
			if err == nil && ok && got.String() != tc.want.String() {
				t.Errorf("parseLayoutRef() = %s, want %s", got, tc.want)
			}
		})
	}
}
